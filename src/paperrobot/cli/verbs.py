"""A verb whose sub-commands are the registered games (``paperrobot play sfb``), built from the registry when asked.

Each verb module gives a ``build(info) -> command function | None`` (None: the verb does not apply to the game);
``GameGroup`` asks the registry for the games at the moment the command line is parsed, so a game registered by
a test, a plug-in or a fourth package is reached through every verb with no front-end code of its own. The
functions' parameters are made programmatically (``inspect.Signature``; typer reads them as it reads a written
one): the set-up flags of the registry (cli/setup_flags.py), then the verb's own flags, the same for every game.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

import typer
from typer.core import TyperGroup

from ..core import registry
from ..core.errors import PaperRobotError


def games() -> dict:
    """The registered games (the game packages imported first, so the built-in ones are always there)."""
    import paperrobot
    paperrobot.games()
    return registry.registered()


class GameGroup(TyperGroup):
    """A verb: one sub-command per registered game for which ``build`` gives a command."""

    build: Callable[[Any], Callable | None] = staticmethod(lambda info: None)

    @staticmethod
    def refusal(info) -> str:
        """Why the verb does not apply to a registered game (one line)."""
        return f"{info.name} cannot be reached by this command"

    def list_commands(self, ctx) -> list[str]:
        return sorted(name for name, info in games().items() if self._command(info) is not None) + \
            sorted(super().list_commands(ctx))

    def get_command(self, ctx, name: str):
        own = super().get_command(ctx, name)
        if own is not None:
            return bare_flags(own, ctx)
        known = games()
        info = known.get(name)
        if info is None:
            served = [n for n, i in sorted(known.items()) if self._command(i) is not None]
            raise PaperRobotError(f"unknown game '{name}'; the games are: {', '.join(served)}")
        command = self._command(info)
        if command is None:
            raise PaperRobotError(type(self).refusal(info))
        return bare_flags(command, ctx)

    def _command(self, info):
        cache = self.__dict__.setdefault("_built", {})
        key = (info.name, id(info))
        if key not in cache:
            function = type(self).build(info)
            cache[key] = None if function is None else click_command(info.name, function)
        return cache[key]


def bare_flags(command, ctx):
    """A flag shown as a flag in ``--help`` (``--quiet``, ``--help``), as click shows one: typer's help writes a
    type beside every option, ``<bool>`` beside a flag too, as if it took a value. Returns ``command``."""
    params = list(getattr(command, "params", ()))
    if ctx is not None and hasattr(command, "get_help_option"):
        params.append(command.get_help_option(ctx))
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""  # typer's help shows a given metavar in place of the type: here, nothing
    return command


def click_command(name: str, function: Callable):
    app = typer.Typer(add_completion=False)
    app.command(name, context_settings=getattr(function, "context_settings", None))(function)
    command = typer.main.get_command(app)
    command.name = name
    return command


def make(body: Callable[..., None], parameters: list[inspect.Parameter], doc: str) -> Callable:
    """A command function calling ``body(**flags)`` whose signature is ``parameters``."""
    def command(**kwargs):
        return body(**kwargs)
    command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in parameters}
    command.__doc__ = doc
    return command


def option(name: str, default: Any, annotation: Any, *flags: str, **kwargs: Any) -> inspect.Parameter:
    """One verb flag as a parameter (``option("seed", 1, int, help=...)``; flags default to --name)."""
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation,
                             default=typer.Option(default, *(flags or ("--" + name.replace("_", "-"),)), **kwargs))


def verb(group_class: type, name: str, help_text: str) -> typer.Typer:
    return typer.Typer(cls=group_class, name=name, no_args_is_help=True, help=help_text)
