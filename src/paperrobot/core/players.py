"""Named players beyond an engine's own "robot" and "policy": "search", "search:50", ...

A layer above core (sim) registers a factory under a base name; every place that takes a controller by name (the
driver, the command line, simulation workers, the environments) makes one with ``make("search:20", match, side)``.
A name is ``base`` or ``base:argument`` (the argument is the factory's to read: the search's simulations).

Core never names sim: the package root (``paperrobot/__init__.py``, which names the games too) lists the modules
that register players (``paperrobot.PLAYER_PACKAGES``) with ``provide`` when the package is imported; they are
imported the first time an unknown name is looked up, so a worker process started fresh (spawn) knows "search"
too, and a program that never names a player never imports them.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable

from .errors import PaperRobotError

BUILT_IN = ("robot", "policy")  # the engines' own controllers: never made here
PROVIDERS: list[str] = []  # modules that register named players when imported (given by ``provide``)

Factory = Callable[[str | None, Any, str | None], Any]  # (argument, match or None, side or None) -> controller
_FACTORIES: dict[str, tuple[Factory, str]] = {}
_loaded = False


def register(name: str, factory: Factory, help: str = "") -> None:
    """Make ``name`` (and ``name:ARG``) a player: ``factory(arg, match, side)`` returns a controller object (with
    ``decide``, and ``bind(match, side)`` if it needs its match)."""
    if name in BUILT_IN or ":" in name or not name:
        raise ValueError(f"'{name}' cannot name a registered player")
    _FACTORIES[name] = (factory, help)


def provide(*modules: str) -> None:
    """Modules to import, the first time an unknown name is looked up, for the players they register."""
    global _loaded
    for module in modules:
        if module not in PROVIDERS:
            PROVIDERS.append(module)
            _loaded = False


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in list(PROVIDERS):
            import_module(module)


def split(name: str) -> tuple[str, str | None]:
    base, sep, arg = str(name).partition(":")
    return base, (arg if sep else None)


def registered() -> dict[str, str]:
    """Every registered base name with its one-line help."""
    _load()
    return {name: help for name, (_, help) in sorted(_FACTORIES.items())}


def known(name: Any) -> bool:
    """True for "robot", "policy" and a registered name (its argument is checked by ``make``)."""
    if not isinstance(name, str):
        return False
    if name in BUILT_IN:
        return True
    _load()
    return split(name)[0] in _FACTORIES


def check(name: str, what: str = "a side") -> str:
    """``name`` if it names a player (its argument checked by making one), else one PaperRobotError line."""
    if name in BUILT_IN:
        return name
    make(name, None, None, what)
    return name


def make(name: str, match: Any = None, side: str | None = None, what: str = "a side") -> Any:
    """A new controller object for a registered ``name`` ("search:20"); PaperRobotError naming the choices."""
    _load()
    base, arg = split(name)
    entry = _FACTORIES.get(base)
    if entry is None:
        choices = ", ".join(list(BUILT_IN) + [f"{n}[:N]" for n in _FACTORIES])
        raise PaperRobotError(f"'{name}' is not a player for {what}; choose one of: {choices}")
    return entry[0](arg, match, side)


def resolve(controllers: dict[str, Any], match: Any = None) -> dict[str, Any]:
    """``controllers`` with every registered name made into its object ("robot", "policy", None, and objects pass):
    what a driver that only knows the built-in names is given."""
    return {side: (make(who, match, side) if isinstance(who, str) and who not in BUILT_IN and who != "person"
                   else who)
            for side, who in controllers.items()}


__all__ = ["BUILT_IN", "PROVIDERS", "provide", "register", "registered", "known", "check", "make", "resolve", "split"]
