"""The Armada assistant's state: what it holds, how a typed line is split, and the state file read back.

A state file is the person's table session (fleet, damage, tokens, the question log). It is read through the
pydantic models below, so a file edited by hand, cut short or from elsewhere is one line naming the field, and
every number in it is within what the AI fleet's cards allow (shields never above the card, damage never below
zero, no NaN). Typed questions are bounded too: ``MAX_LINE`` characters, split in linear time.
"""
from __future__ import annotations

import copy
import json
import math
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..core.errors import PaperRobotError, SaveError, one_line
from ..core.files import open_regular
from .ai import COMMANDS
from .procedure import STYLES
from .data import catalogue

FORMAT = "paperrobot-armada-assist"
MAX_LINE = 2000  # the longest question a table needs (an attack on every zone) is a few hundred characters
MAX_LOG = 20_000  # questions in one session's log: far more than a day at the table
MAX_BYTES = 20_000_000  # a long session's state file is well under 1 MB; refuse anything absurd before reading


@dataclass
class State:
    seed: int = 1
    asked: int = 0
    round: int = 0
    style: str | None = None
    focal: float | None = None
    ships: dict = field(default_factory=dict)
    squads: dict = field(default_factory=dict)
    lines: list = field(default_factory=list)  # the questions answered since ``base``, in order: the log
    base: dict | None = None                   # the state the log starts from (undo replays the log on it)
    robot_rules: str = ""                      # a --robot-rules variant's text ("" the published procedure)

    def core(self) -> dict:
        return {"seed": self.seed, "asked": self.asked, "round": self.round, "style": self.style,
                "focal": self.focal, "ships": self.ships, "squads": self.squads, "robot_rules": self.robot_rules}

    def fresh(self) -> dict:
        """The state a session of this seed and these robot rules starts from."""
        return State(self.seed, robot_rules=self.robot_rules).core()

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, **self.core(), "lines": self.lines,
                           "base": self.base if self.base is not None else self.fresh()}, indent=1)


# ------------------------------------------------------------------------------------------- typed lines

def split_words(line: str) -> list[str]:
    """A typed question's words, split as a shell would. Bounded and linear: shlex grows each word one
    character at a time (quadratic in a word's length), so it only sees lines that need it (quotes,
    backslashes), and no line is longer than MAX_LINE."""
    if len(line) > MAX_LINE:
        raise PaperRobotError(f"the line is {len(line)} characters long; a question has at most {MAX_LINE}")
    if not any(c in line for c in "'\"\\#"):
        return line.split()
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise PaperRobotError(f"{exc} (close the quotes)") from None


def number(text: str, what: str, low: float, high: float, whole: bool = False) -> float:
    """A measurement typed by the person: a finite number within [low, high] (and whole if ``whole``)."""
    try:
        value = float(text)
    except (ValueError, OverflowError):
        raise PaperRobotError(f"'{one_line(text[:40])}' is not a number ({what})") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise PaperRobotError(f"{what} must be between {low:g} and {high:g}, not '{one_line(text[:40])}'")
    if whole and value != int(value):
        raise PaperRobotError(f"{what} must be a whole number, not '{one_line(text[:40])}'")
    return value


# ------------------------------------------------------------------------------------------- the state file

Uid = Annotated[str, Field(min_length=1, max_length=60)]
Command = Literal[COMMANDS]  # type: ignore[valid-type]
Token = Literal["brace", "redirect", "evade", "scatter", "contain", "salvo"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


class ShipState(_Model):
    ship: str = Field(min_length=1, max_length=40)
    shields: list[Annotated[int, Field(ge=0, le=10)]] = Field(min_length=4, max_length=4)
    facedown: int = Field(ge=0, le=40)  # damage cards: never more than the largest hull
    faceup: list[Annotated[str, Field(max_length=60)]] = Field(max_length=40)
    tokens: list[tuple[Token, bool]] = Field(max_length=10)
    cmd_tokens: list[Command] = Field(max_length=4)
    dial: Optional[Command] = None
    activated: bool = False
    speed: int = Field(0, ge=0, le=4)
    destroyed: bool = False


class SquadState(_Model):
    squadron: str = Field(min_length=1, max_length=40)
    hull: int = Field(ge=0, le=20)
    activated: bool = False


class Core(_Model):
    seed: int = Field(ge=0, lt=2 ** 63)
    asked: int = Field(ge=0, le=10 ** 9)
    round: int = Field(ge=0, le=10_000)
    style: Optional[Literal[tuple(sorted(STYLES))]] = None  # type: ignore[valid-type]
    focal: Optional[float] = Field(None, ge=0, le=5000)  # mm along the table edge
    ships: dict[Uid, ShipState] = Field(max_length=40)
    squads: dict[Uid, SquadState] = Field(max_length=40)
    robot_rules: str = Field("", max_length=200_000)  # the variant's text; files written before it have none

    @model_validator(mode="after")
    def _fits_the_cards(self):
        """What only the cards can say: a known ship, shields not above its card, damage within its hull."""
        ships, squads = catalogue()
        for uid, s in self.ships.items():
            if s.ship not in ships:
                raise ValueError(f"ships.{uid}: unknown ship '{s.ship}'")
            card = ships[s.ship]
            if any(have > most for have, most in zip(s.shields, card.shields)):
                raise ValueError(f"ships.{uid}: shields {s.shields} above the card's {list(card.shields)}")
            if s.facedown + len(s.faceup) > card.hull:
                raise ValueError(f"ships.{uid}: more damage cards than its hull {card.hull}")
        for uid, q in self.squads.items():
            if q.squadron not in squads:
                raise ValueError(f"squads.{uid}: unknown squadron '{q.squadron}'")
            if q.hull > squads[q.squadron].hull:
                raise ValueError(f"squads.{uid}: hull {q.hull} above the card's {squads[q.squadron].hull}")
        return self


class StateFile(Core):
    format: Literal["paperrobot-armada-assist"]
    lines: list[Annotated[str, Field(max_length=MAX_LINE)]] = Field([], max_length=MAX_LOG)
    base: Optional[Core] = None


def read_state(path: Path) -> State:
    """A state file, checked whole; every problem is one SaveError line naming the file (and the field)."""
    hint = "start afresh with --fleet and another --state file"
    try:
        with open_regular(path, "an Armada assistant state file", SaveError) as handle:
            blob = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise SaveError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(blob) > MAX_BYTES:
        raise SaveError(f"{path}: not an Armada assistant state file (larger than {MAX_BYTES // 1_000_000} MB)")
    try:
        raw = json.loads(blob.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError(f"{path}: not an Armada assistant state file (damaged or from another program); {hint}")
    try:
        data = StateFile.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the file"
        message = first["msg"].removeprefix("Value error, ")
        raise SaveError(one_line(f"{path}: the state file is damaged at '{where[:80]}': {message[:200]}; "
                                 f"{hint}")) from None
    dumped = data.model_dump(mode="json")
    state = state_of(dumped)
    state.lines = list(data.lines)
    # a file written before the log: undo goes back to the state it holds, at most
    state.base = dumped["base"] if data.base is not None else copy.deepcopy(state.core())
    return state


def state_of(raw: dict) -> State:
    raw = copy.deepcopy(raw)
    return State(int(raw["seed"]), int(raw["asked"]), int(raw["round"]), raw["style"], raw["focal"],
                 dict(raw["ships"]), dict(raw["squads"]), robot_rules=str(raw.get("robot_rules") or ""))
