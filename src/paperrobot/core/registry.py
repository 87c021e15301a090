"""The registry of games: each game package registers its name, sides, set-up options and engine factory.

Front ends (terminal, web page, environments) and simulations build their menus and matches from here
and never import a game's internals. ``paperrobot.games()`` and ``paperrobot.new_game()`` read it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from .contract import Engines, Match
from .errors import PaperRobotError, UnknownName
from .events import EventLog


@dataclass(frozen=True)
class SetupOption:
    """One set-up option of a game. ``kind``: "choice" (one of ``choices``), "int" (``low``..``high``),
    "bool" or "text" (a path or a free name). ``read``: for a text option naming a file whose contents the set-up
    must hold (the robot rules: a save or a results database records them), turns the value into those contents
    (checked; one PaperRobotError line)."""

    name: str
    help: str
    default: Any
    kind: str = "choice"
    choices: tuple | Callable[[], tuple] = ()
    low: int | None = None
    high: int | None = None
    read: Callable[[str], str] | None = None

    def legal_choices(self) -> tuple:
        return tuple(self.choices()) if callable(self.choices) else tuple(self.choices)

    def check(self, value: Any) -> Any:
        """The value, converted to its kind, or one PaperRobotError line saying what is allowed."""
        if value is None:
            return self.default
        if self.kind == "choice":
            legal = self.legal_choices()
            text = str(value)
            for choice in legal:
                if str(choice) == text:
                    return choice
            raise UnknownName(self.name.replace("_", "-"), text, [str(c) for c in legal])
        if self.kind == "int":
            try:
                number = float(value) if isinstance(value, str) else value
                if isinstance(number, bool) or not math.isfinite(float(number)) or int(number) != float(number):
                    raise ValueError
                number = int(number)
            except (TypeError, ValueError, OverflowError):
                raise PaperRobotError(f"{self.name} must be a whole number, not {str(value)[:40]!r}") from None
            if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
                raise PaperRobotError(f"{self.name} must be from {self.low} to {self.high}, not {number}")
            return number
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            if str(value).lower() in ("yes", "true", "1", "on"):
                return True
            if str(value).lower() in ("no", "false", "0", "off"):
                return False
            raise PaperRobotError(f"{self.name} must be yes or no, not {str(value)[:40]!r}")
        if not isinstance(value, str):
            raise PaperRobotError(f"{self.name} must be text, not {type(value).__name__}")
        return self.read(value) if self.read is not None and value else value

    def to_json(self) -> dict:
        out = {"name": self.name, "help": self.help, "default": self.default, "kind": self.kind}
        if self.kind == "choice":
            out["choices"] = list(self.legal_choices())
        if self.kind == "int":
            out["low"], out["high"] = self.low, self.high
        return out


@dataclass(frozen=True)
class GameInfo:
    """What a game tells the registry. ``build(seed=, log=, **setup)`` returns a fresh engine."""

    name: str
    title: str
    sides: tuple[str, ...]
    robot_side: str
    options: tuple[SetupOption, ...]
    build: Engines
    narrator: Callable[[], Any]  # -> an object with .line(event) -> str | None
    engine_version: int = 1  # bump when a change alters the course of recorded games (saves refuse to mix)
    ships: Callable[[], list[str]] = field(default=lambda: [])
    scenarios: Callable[[], list[str]] = field(default=lambda: [])
    handicap_unit: str = "points"  # the game's points, as the handicap option counts them (e.g. "BPV")
    # (handicap points, set-up) -> what that many points are at the table for the side that gets them, in the game's own
    # things: "5 shield boxes", "2 x-wing squadrons" (balance's plain answer, sim/plain_answer.py); None: points
    at_the_table: Callable[[float, dict], str] | None = None
    assistant: Callable[[], Any] | None = None  # -> the game's table assistant (auto, question, instruction)
    asking: Callable[[], Any] | None = None  # -> what a person playing is not asked (core/asking.py)
    robot_rules: Any = None  # the robot's procedure as data (core.robot_rules.Procedure), for 'rules export'
    frontend: Callable[[], Any] | None = None  # -> the game's front-end hooks (core/frontend.py), one per session

    def option(self, name: str) -> SetupOption:
        for option in self.options:
            if option.name == name:
                return option
        raise UnknownName(f"set-up option of {self.name}", name, [o.name for o in self.options])

    def check_setup(self, setup: dict) -> dict:
        """Every option with its value checked (defaults filled in), or one PaperRobotError line."""
        for name in setup:
            self.option(name)
        return {o.name: o.check(setup.get(o.name)) for o in self.options}


_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> GameInfo:
    _GAMES[info.name] = info
    return info


def registered() -> dict[str, GameInfo]:
    return _GAMES


def info(name: str) -> GameInfo:
    if name not in _GAMES:
        raise UnknownName("game", name, _GAMES)
    return _GAMES[name]


def new_match(name: str, seed: int = 1, log: EventLog | None = None, dice: str = "program", **setup: Any) -> Match:
    """A new match of game ``name`` (its set-up options checked, defaults filled in). ``dice``: "program"
    (seeded) or "table" (every die is asked of the person, who rolls real dice)."""
    game = info(name)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 63:
        raise PaperRobotError(f"the seed must be a whole number from 0 to 2**63-1, not {str(seed)[:40]!r}")
    return Match(name, game.check_setup(setup), seed, game.build, log, dice)
