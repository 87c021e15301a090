"""Every verb's set-up flags, generated from the registry (issue 25): one flag per set-up option, of its own name
(``robot_ship`` is ``--robot-ship``), with the same meaning under ``play``, ``battle``, ``simulate``, ``assist``,
``balance`` and ``ladder``; and the extra set-up flags a game's front-end hooks add (Armada's ``--fleet-file``).

Values are checked by the registry (``SetupOption.check``: one line naming the option and what is allowed), so a
verb never checks a game's options itself. A flag left out is left out of the set-up: the registry's default
applies, and a store of earlier runs keeps the configuration it was started with.

Retired flags (the forms before one flag style) are refused with one line naming the new flag (docs/terminal.md).
"""
from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, List, Optional

import typer

from ..core.errors import PaperRobotError


PREFIX = "setup__"  # the keyword of a set-up flag in a generated command (never a verb's own keyword)
RETIRED = {"--robot": "robot_ship", "--ship": "player_ship", "--opponent-ship": "player_ship",
           "--tables": "tables_dir"}  # old flag -> the set-up option it meant


def flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def no_flag(name: str) -> str:
    """A yes/no option's other flag: --no-evade-close."""
    return "--no-" + name.replace("_", "-")


CHOICES_SHOWN = 40  # a choice's values fit in the help's type column up to this many characters: <4|5|6|duel>


def metavar(option, front) -> str:
    """What an option's value is, in the help's type column as typer writes its own (<int>, <path>): the choices
    themselves when they are few, a path for the options naming a file or folder, else int or str (typer's words)."""
    if option.kind == "choice":
        shown = "|".join(str(c) for c in option.legal_choices())
        return f"<{shown}>" if len(shown) <= CHOICES_SHOWN else "<choice>"
    if option.kind == "int":
        return "<int>"
    if option.name in front.paths or option.name.endswith(("_dir", "_file", "_rules")):
        return "<path>"  # as typer shows the verbs' own paths (--log, --save)
    return "<str>"  # typer's word for the verbs' own text options (--opponent)


def _help(option, game: str, front) -> str:
    text = option.help
    if option.kind == "choice" and metavar(option, front) == "<choice>":
        text += f"; one of: {', '.join(str(c) for c in option.legal_choices())}"
    elif option.kind == "int" and option.low is not None:
        text += f"; {option.low} to {option.high}"
    if option.default not in (None, ""):
        shown = (flag(option.name) if option.default else no_flag(option.name)) if option.kind == "bool" \
            else option.default
        text += f" (default: {shown})"
    if option.name == "handicap":
        from ..sim.even_points import listing
        text += f". Measured even points: {listing(game)}"
    return text


def params(info, front, many_rules: bool = False) -> list[inspect.Parameter]:
    """The set-up flags of ``info`` (registry options, then the front end's extra ones).
    ``many_rules``: ``--robot-rules`` may be given more than once (balance: each variant measured)."""
    out = []
    for option in tuple(info.options) + tuple(front.setup_flags):
        help_text = _help(option, info.name, front)
        if option.name == "robot_rules" and many_rules:
            default: Any = typer.Option([], flag(option.name), help=help_text + "; give two or more to measure each "
                                        "and the difference of their even points (docs/robot-rules.md)",
                                        metavar=metavar(option, front))
            annotation: Any = List[str]
        elif option.kind == "bool":  # a yes/no option is a pair of flags, as click writes one: --x / --no-x
            default = typer.Option(None, f"{flag(option.name)}/{no_flag(option.name)}", help=help_text,
                                   show_default=False)
            annotation = Optional[bool]
        else:  # text for every other kind: the registry converts and checks it, in its own words (one line)
            default = typer.Option(None, flag(option.name), help=help_text, metavar=metavar(option, front))
            annotation = Optional[str]
        out.append(inspect.Parameter(PREFIX + option.name, inspect.Parameter.KEYWORD_ONLY, default=default,
                                     annotation=annotation))
    return out


VERBS = ("play", "battle", "simulate", "assist", "balance", "ladder")
YES_NO = ("yes", "true", "on", "1", "no", "false", "off", "0")  # the words a yes/no option took as a value


def retired(args: list[str]) -> str | None:
    """One line for a retired set-up flag on a verb's game command (read before click parses: a hidden option
    would be offered by click's "did you mean"), or None."""
    if len(args) < 2 or args[0] not in VERBS:
        return None
    from .verbs import games
    info = games().get(args[1])
    return None if info is None else retired_flag(info, args[2:])


def retired_flag(info, args: list[str]) -> str | None:
    """One line for the first retired set-up flag among ``args`` (a game's command line after its name), or None."""
    names = {o.name for o in info.options}
    yes_no = {flag(o.name): o.name for o in info.options if o.kind == "bool"}
    for i, arg in enumerate(args):
        old, sep, value = arg.partition("=")
        said = value if sep else (args[i + 1] if i + 1 < len(args) else "")
        if old in yes_no and said.lower() in YES_NO:  # the form before yes/no options were flags: --evade-close no
            written = old if said.lower() in YES_NO[:4] else no_flag(yes_no[old])
            return f"{old} takes no value: write {written} (a yes/no option is a flag, and --no-... says no)"
        if old in RETIRED and RETIRED[old] in names:
            return (f"{old} is now {flag(RETIRED[old])} (every set-up option is a flag of its own name, the same "
                    f"under every verb: docs/terminal.md)")
        if old in ("--set", "--setup"):  # --setup: benchmarks/web_answers.py's spelling of it
            key, _, text = said.partition("=")
            written = _written(key.strip(), text.strip(), yes_no) if key.strip() else "--NAME VALUE"
            return (f"{old} is gone: write {written} (every set-up option is a flag of its own name, the same under "
                    f"every verb: docs/terminal.md)")
    return None


def _written(key: str, text: str, yes_no: dict) -> str:
    """``--set key=text`` as the flag that says it now: --scenario 5, --no-evade-close."""
    name = flag(key)
    if name in yes_no and text.lower() in YES_NO:
        return name if text.lower() in YES_NO[:4] else no_flag(yes_no[name])
    return f"{name} {text}".strip()


def given(kwargs: dict) -> dict:
    """The set-up flags given (name -> value), taken out of a generated command's keywords."""
    taken = {key[len(PREFIX):]: kwargs.pop(key) for key in list(kwargs) if key.startswith(PREFIX)}
    return {name: value for name, value in taken.items() if value not in (None, [])}


def setup_of(info, front, values: dict) -> dict:
    """The registry set-up for the flags given: the front end's extra flags turned into options first, the
    game's own flags over them; paths made absolute (a save resumes from any folder); every value checked."""
    values = dict(values)
    for name in front.paths:
        if values.get(name):
            values[name] = str(Path(values[name]).expanduser().resolve())
    extra_names = {o.name for o in front.setup_flags}
    extras = {k: v for k, v in values.items() if k in extra_names}
    own = {k: v for k, v in values.items() if k not in extra_names}
    setup = dict(front.setup_from_flags({**own, **extras})) if extras else {}
    setup.update(own)
    checked = {}
    for name, value in setup.items():
        try:
            checked[name] = info.option(name).check(value)
        except PaperRobotError as exc:  # the registry's words, after the flag the person typed
            raise PaperRobotError(f"{flag(name)}: {exc}") from None
    return checked


def setup_from_args(game: str, args: list[str]) -> dict:
    """The checked set-up that the set-up flags in ``args`` give (``--scenario 5 --robot-ship kzinti``), for a script
    with a parser of its own (benchmarks/): the flags, checks and one-line refusals of every verb, parsed by the same
    generated command. Raises one PaperRobotError line (an unknown game or flag, a bad value, a retired form)."""
    from ..core.frontend import frontend_of
    from .verbs import games, make, click_command

    info = games().get(game)
    if info is None:
        raise PaperRobotError(f"unknown game '{game}'; the games are: {', '.join(sorted(games()))}")
    problem = retired_flag(info, list(args))
    if problem:
        raise PaperRobotError(problem)
    front = frontend_of(info)
    command = click_command(game, make(lambda **kwargs: None, params(info, front), ""))
    try:
        ctx = command.make_context(game, list(args))
    except Exception as exc:  # click's usage errors (typer may carry its own click): their message, one line
        if not hasattr(exc, "format_message"):
            raise
        raise PaperRobotError(" ".join(exc.format_message().split()) + f" (the set-up flags: paperrobot balance "
                              f"{game} --help)") from None
    return setup_of(info, front, given(dict(ctx.params)))
