"""A robot's procedure as data: every number and die-roll table of the published rules, in one TOML file.

Each game ships its published procedure as a data file (e.g. fc/data/robot_rules.toml) and declares its shape
in code: a ``Procedure`` of ``Spec``s, one per entry (a die-roll table, a threshold on a die, a number, or an
order of named steps), with the results and bounds the robot's logic can fly. A variant (a copy of that file,
edited; ``paperrobot rules export GAME``) is checked against the shape with pydantic and refused with one line
naming the file and the entry. The robot reads a loaded ``RobotRules`` once per game into plain attributes
(``table`` gives a tuple indexed by the roll), so a decision costs no lookup by name.

The ``robot_rules`` set-up option of each game holds "" (the published procedure), a path to a variant, or the
variant's text itself: the front ends read the file and put its text in the set-up, so a save, a results
database and a balance sweep record the contents (``check_same`` refuses a file that changed underneath them,
naming the entries). docs/robot-rules.md describes the format and the commands.
"""
from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Literal, Mapping, Union

from pydantic import BaseModel, ConfigDict, ValidationError

from .errors import PaperRobotError, one_line

DICE = {"d6": (1, 6), "2d6": (2, 12)}  # a die's faces: lowest, highest (a die of named faces: Spec.faces)
OPTION = "robot_rules"  # the set-up option's name in every game
HELP = ("your own robot procedure: a copy of 'paperrobot rules export {game}', edited (empty: the published one; "
        "docs/robot-rules.md)")
MAX_BYTES = 256_000  # the published files are a few kB

Result = Union[int, str, list[str]]


class RulesError(PaperRobotError):
    """A robot rules file that does not have the procedure's shape (one line: file, entry, what is wrong)."""


# ------------------------------------------------------------------------------------ the file's models
class Band(BaseModel):
    """One line of a die-roll table: the rolls it covers ("2-4" or 5) and what the robot does on them."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    rolls: Union[int, str]
    result: Result

    def span(self) -> tuple[int, int]:
        """(low, high) of the rolls; ValueError when the text is not "N" or "N-M" with N <= M."""
        if isinstance(self.rolls, int) and not isinstance(self.rolls, bool):
            return self.rolls, self.rolls
        low, sep, high = str(self.rolls).replace(" ", "").partition("-")
        if not low.isdigit() or (sep and not high.isdigit()):
            raise ValueError(f"rolls '{self.rolls}' is not a roll (5) or a band of rolls ('2-4')")
        a, b = int(low), int(high) if sep else int(low)
        if a > b:
            raise ValueError(f"rolls '{self.rolls}' run backwards; write the lower roll first")
        return a, b


class Entry(BaseModel):
    """One entry of the file: the rule it implements, the seed's words, and its table or value."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)
    rule: str
    seed: str
    die: str | None = None  # "d6", "2d6", or a die of named faces (Spec.faces); Spec.check names the one expected
    table: tuple[Band, ...] | None = None
    value: Union[int, float, list[Union[int, str]], None] = None


@dataclass(frozen=True)
class Spec:
    """The shape of one entry. ``kind``: "table" (``die`` and rolls covering every face once, each result one of
    ``results``, an int within ``low``..``high`` when ``results`` is int, or a list of names from ``vocabulary``),
    "threshold" (a roll of ``die``: the robot acts on 1..value or its lowest..value), "number" (``low``..``high``),
    "order" (every name of ``vocabulary`` exactly once), "set" (numbers, each within ``low``..``high``).
    ``faces``: a table keyed by named faces instead of numbered rolls (a custom die, e.g. Armada's blue die "hit",
    "crit", "acc", or any named choice): ``die`` names it, each line's ``rolls`` is one face, every face once."""

    kind: Literal["table", "threshold", "number", "order", "set"]
    rule: str
    die: str | None = None
    results: tuple | type | None = None
    vocabulary: tuple[str, ...] = ()
    low: float | None = 0
    high: float | None = None
    faces: tuple[str, ...] = ()

    def check(self, entry: Entry) -> None:
        """ValueError with what is wrong with ``entry`` (the caller names the file and the entry)."""
        if entry.rule != self.rule:
            raise ValueError(f"rule must be {self.rule} (the step this entry belongs to), not '{entry.rule}'")
        if self.die is not None and entry.die != self.die:
            raise ValueError(f"die must be \"{self.die}\", not {entry.die!r}")
        if self.kind == "table":
            if entry.table is None or entry.value is not None:
                raise ValueError("give a 'table' of rolls (and no 'value')")
            self._check_table(entry.table)
            return
        if entry.table is not None or entry.value is None:
            raise ValueError("give a 'value' (and no 'table')")
        value = entry.value
        if self.kind == "threshold":
            low, high = DICE[self.die]
            if not _whole(value) or not low - 1 <= value <= high:
                raise ValueError(f"value must be a roll of {self.die} from {low - 1} (never) to {high}, not {value!r}")
        elif self.kind == "number":
            self._in_bounds(value, "value")
        elif self.kind == "set":
            if not isinstance(value, list) or len(set(map(str, value))) != len(value):
                raise ValueError("value must be a list of numbers, each once")
            for v in value:
                self._in_bounds(v, "each number")
        else:  # order
            if not isinstance(value, list) or sorted(map(str, value)) != sorted(self.vocabulary):
                raise ValueError(f"value must list each of {', '.join(self.vocabulary)} exactly once")

    def _in_bounds(self, value: Any, what: str) -> None:
        if not _whole(value) and not (isinstance(value, float) and self.results is float):
            raise ValueError(f"{what} must be a whole number, not {value!r}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise ValueError(f"{what} must be from {self.low:g} to {self.high:g}, not {value}" if self.high is not None
                             else f"{what} must be at least {self.low:g} (not negative), not {value}")

    def _check_table(self, bands: tuple[Band, ...]) -> None:
        if self.faces:
            return self._check_faces(bands)
        low, high = DICE[self.die]
        seen: dict[int, str] = {}
        for band in bands:
            a, b = band.span()
            if a < low or b > high:
                raise ValueError(f"rolls '{band.rolls}' are outside {self.die} ({low}-{high})")
            for roll in range(a, b + 1):
                if roll in seen:
                    raise ValueError(f"rolls '{band.rolls}' and '{seen[roll]}' overlap (roll {roll} is in both)")
                seen[roll] = str(band.rolls)
            self._check_result(band)
        missing = [r for r in range(low, high + 1) if r not in seen]
        if missing:
            raise ValueError(f"no result for roll{'s' if len(missing) > 1 else ''} "
                             f"{', '.join(map(str, missing))} of {self.die}: every roll needs one line")

    def _check_faces(self, bands: tuple[Band, ...]) -> None:
        seen: set[str] = set()
        for band in bands:
            if band.rolls not in self.faces:
                raise ValueError(f"rolls {band.rolls!r} is not a face of the {self.die} die "
                                 f"({', '.join(self.faces)})")
            if band.rolls in seen:
                raise ValueError(f"rolls '{band.rolls}' has two lines: each face of the {self.die} die once")
            seen.add(band.rolls)
            self._check_result(band)
        missing = [f for f in self.faces if f not in seen]
        if missing:
            raise ValueError(f"no result for {', '.join(missing)} of the {self.die} die: every face needs one line")

    def _check_result(self, band: Band) -> None:
        result, where = band.result, f"rolls '{band.rolls}': result"
        if self.results is int:
            if not _whole(result) or (self.low is not None and result < self.low) or (
                    self.high is not None and result > self.high):
                raise ValueError(f"{where} must be a whole number from {self.low:g} to {self.high:g}, not {result!r}")
        elif self.vocabulary:
            if not isinstance(result, list) or any(r not in self.vocabulary for r in result) or \
                    len(set(result)) != len(result):
                raise ValueError(f"{where} must be a list of names from {', '.join(self.vocabulary)}, each at most "
                                 f"once, not {result!r}")
        elif result not in self.results:
            raise ValueError(f"{where} must be one of {', '.join(map(str, self.results))}, not {result!r}")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, eq=False)
class Procedure:
    """A game's robot procedure: its entries' shapes, the published file, and checks across entries
    (``cross(rules) -> message or ""``, e.g. range bands that must rise)."""

    game: str
    title: str
    published: Path
    specs: Mapping[str, Spec]
    cross: Callable[["RobotRules"], str] | None = field(default=None, compare=False)

    def published_rules(self) -> "RobotRules":
        return load(self, "")

    def export(self) -> str:
        """The published procedure's file, as shipped (its comments included)."""
        return self.published.read_text(encoding="utf-8")


# ------------------------------------------------------------------------------------ the loaded rules
class RobotRules:
    """A loaded, checked procedure. Immutable: ``entries`` is a read-only mapping of frozen models."""

    __slots__ = ("procedure", "entries", "text", "digest", "origin", "_published")

    def __init__(self, procedure: Procedure, entries: Mapping[str, Entry], text: str, origin: str):
        object.__setattr__(self, "procedure", procedure)
        object.__setattr__(self, "entries", MappingProxyType(dict(entries)))
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "digest", hashlib.sha256(text.encode()).hexdigest()[:16])
        object.__setattr__(self, "origin", origin)
        object.__setattr__(self, "_published", None)

    def __setattr__(self, name, value):
        raise AttributeError("robot rules are read-only")

    def value(self, name: str) -> Any:
        value = self.entries[name].value
        return tuple(value) if isinstance(value, list) else value

    def table(self, name: str) -> tuple | Mapping[str, Result]:
        """The table's results indexed by the roll (index 0 and any face below the die's lowest: None); a table of
        named faces: a read-only mapping face -> result."""
        entry = self.entries[name]
        if self.procedure.specs[name].faces:
            return MappingProxyType({b.rolls: tuple(b.result) if isinstance(b.result, list) else b.result
                                     for b in entry.table})
        out: list = [None] * (DICE[entry.die][1] + 1)
        for band in entry.table:
            a, b = band.span()
            for roll in range(a, b + 1):
                out[roll] = tuple(band.result) if isinstance(band.result, list) else band.result
        return tuple(out)

    def threshold(self, name: str) -> int:
        return int(self.entries[name].value)

    # ------------------------------------------------------------------ against the published procedure
    @property
    def published(self) -> "RobotRules":
        if self._published is None:
            object.__setattr__(self, "_published", self.procedure.published_rules())
        return self._published

    def is_published(self) -> bool:
        return not self.differs()

    def differs(self, other: "RobotRules | None" = None) -> list[str]:
        """The names of the entries whose table or value differ from ``other`` (the published procedure)."""
        other = other or self.published
        return [name for name in self.procedure.specs
                if _content(self.entries[name]) != _content(other.entries[name])]

    def describe(self, name: str) -> str:
        """An entry's content in a few words: "2-4 accelerate, 5-10 ..., 11-12 continue" or its value."""
        entry = self.entries[name]
        if entry.table is not None:
            return ", ".join(f"{b.rolls} {'+'.join(b.result) if isinstance(b.result, list) else b.result}"
                             for b in entry.table)
        value = entry.value
        if self.procedure.specs[name].kind == "threshold":
            return f"{DICE[entry.die][0]}-{value}" if value >= DICE[entry.die][0] else "never"
        return ", ".join(map(str, value)) if isinstance(value, list) else f"{value:g}"

    def note(self, name: str) -> str:
        """"" for a published entry; else " [variant NAME: ...]", appended to the robot's sentence citing it."""
        if _content(self.entries[name]) == _content(self.published.entries[name]):
            return ""
        return f" [variant {name}: {self.describe(name)}]"

    def summary(self) -> str:
        """The first line of a game flown with this procedure: which entries differ from the published ones."""
        names = self.differs()
        if not names:
            return f"Robot rules: the published procedure ({self.procedure.title})."
        parts = "; ".join(f"{n} ({self.entries[n].rule}) {self.describe(n)}, published "
                          f"{self.published.describe(n)}" for n in names)
        origin = "" if self.origin == "variant" else f"{self.origin}, "
        return one_line(f"Robot rules: a variant ({origin}digest {self.digest}) differs from the published "
                        f"procedure in {len(names)} entr{'y' if len(names) == 1 else 'ies'}: {parts}")


class Numbers:
    """A procedure's values read once into plain attributes named as its entries (a table a tuple or mapping, a
    threshold or number an int, an order a tuple), ``n_<entry>`` each entry's variant note ("" when published), and
    ``rules``: the robot's hot path reads an attribute and an index, never a name. A game subclasses it with its
    ``SPECS`` and ``__slots__ = number_slots(SPECS)`` (fc/procedure.py, armada/procedure.py)."""

    __slots__ = ()
    SPECS: dict[str, Spec] = {}

    def __init__(self, rules: "RobotRules"):
        setattr(self, "rules", rules)
        for name, spec in self.SPECS.items():
            setattr(self, name, rules.table(name) if spec.kind == "table" else rules.value(name))
            setattr(self, f"n_{name}", rules.note(name))


def number_slots(specs: dict) -> tuple[str, ...]:
    """The attributes of a game's ``Numbers``: ``rules``, each entry and its ``n_<entry>`` note."""
    return ("rules", *specs, *(f"n_{name}" for name in specs))


def _content(entry: Entry) -> tuple:
    key = Band.span if entry.die in DICE else (lambda b: str(b.rolls))  # numbered rolls, or named faces
    table = tuple((key(b), tuple(b.result) if isinstance(b.result, list) else b.result)
                  for b in sorted(entry.table, key=key)) if entry.table else None
    value = tuple(entry.value) if isinstance(entry.value, list) else entry.value
    return entry.die, table, value


# ------------------------------------------------------------------------------------ loading
def source(value: str | Path | None) -> tuple[str, str]:
    """(text, origin) of a set-up value: "" -> ("", "published"); a path -> the file's text; else the text."""
    if value is None or value == "":
        return "", "published"
    value = str(value)
    if "\n" in value:  # a file's text (a procedure has many lines); else a path
        return value, "the set-up"
    return read_text(value), value


def read_text(path: str | Path) -> str:
    path = Path(path)
    try:
        if path.is_dir():
            raise RulesError(f"{path}: is a folder; give --robot-rules a .toml file (paperrobot rules export GAME)")
        blob = path.read_bytes()[:MAX_BYTES + 1]
    except FileNotFoundError:
        raise RulesError(f"{path}: no such robot rules file (write one with 'paperrobot rules export GAME')") from None
    except OSError as exc:
        raise RulesError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(blob) > MAX_BYTES:
        raise RulesError(f"{path}: larger than {MAX_BYTES // 1000} kB: not a robot rules file")
    try:
        return blob.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError(f"{path}: not a text file (give a .toml robot rules file)") from None


def load(procedure: Procedure, value: str | Path | None = "") -> RobotRules:
    """The checked procedure of a set-up value ("" published, a path, or a file's text); one RulesError line."""
    text, origin = source(value)
    if origin == "published":
        text = _published_text(procedure)
    elif not text.strip():
        raise RulesError(f"{origin}: the file is empty; write one with 'paperrobot rules export {procedure.game}'")
    return _load(procedure, text, origin)


@lru_cache(maxsize=32)
def _published_text(procedure: Procedure) -> str:
    """The published file's text, read once per process (every new engine loads its procedure: a simulation built
    each battle's from the file again)."""
    return procedure.export()


@lru_cache(maxsize=32)
def _load(procedure: Procedure, text: str, origin: str) -> RobotRules:
    where = origin if origin != "the set-up" else "robot rules (from the set-up)"
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(one_line(f"{where}: not valid TOML ({exc})")) from None
    game = raw.pop("game", None)
    raw.pop("procedure", None)
    if game != procedure.game:
        raise RulesError(f"{where}: game = \"{procedure.game}\" is missing or wrong (got {game!r}): this file is "
                         f"not the {procedure.game} robot's rules")
    entries: dict[str, Entry] = {}
    for name, spec in procedure.specs.items():
        if name not in raw:
            raise RulesError(f"{where}: entry '{name}' ({spec.rule}) is missing; copy it from "
                             f"'paperrobot rules export {procedure.game}'")
        body = raw.pop(name)
        try:
            if not isinstance(body, dict):
                raise ValueError("must be a table ([" + name + "]) with rule, seed and a table or value")
            entry = Entry.model_validate(body)
            spec.check(entry)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"]) or "(entry)"
            raise RulesError(one_line(f"{where}: entry '{name}' ({spec.rule}): {loc}: "
                                      f"{first['msg'].removeprefix('Value error, ')}"[:400])) from None
        except ValueError as exc:
            raise RulesError(one_line(f"{where}: entry '{name}' ({spec.rule}): {exc}"[:400])) from None
        entries[name] = entry
    if raw:
        extra = sorted(raw)[0]
        raise RulesError(f"{where}: unknown entry '{extra}'; the {procedure.game} procedure's entries are those of "
                         f"'paperrobot rules export {procedure.game}'")
    rules = RobotRules(procedure, entries, text, origin if origin != "the set-up" else "variant")
    problem = procedure.cross(rules) if procedure.cross else ""
    if problem:
        raise RulesError(one_line(f"{where}: {problem}"))
    return rules


def check_same(recorded: str, given: str, where: str, procedure: Procedure) -> None:
    """Refuse (one line) a robot rules file whose entries differ from the ones ``where`` recorded."""
    old, new = load(procedure, recorded), load(procedure, given)
    names = new.differs(old)
    if names:
        detail = "; ".join(f"{n}: recorded {old.describe(n)}, file {new.describe(n)}" for n in names)
        raise RulesError(one_line(f"{where} was made with other robot rules than {new.origin}: {detail}. Use the "
                                  f"file it was made with, or start afresh (another save or --db)")[:600])


def pin(procedure: Procedure, value: str | Path | None) -> str:
    """The set-up's value for ``value`` (a path or a file's text): the file's text, checked (errors name the
    file). Every verb's set-up passes through it (registry.SetupOption.read), so a match, a save, a results
    database and a sweep hold the contents, never a path whose file may change underneath them."""
    if value in (None, ""):
        return ""
    return load(procedure, value).text


def setup_option(procedure: Procedure):
    """The ``robot_rules`` set-up option every game registers (kind "text": a path, or a file's text)."""
    from functools import partial

    from .registry import SetupOption
    return SetupOption(OPTION, HELP.format(game=procedure.game), "", kind="text", read=partial(pin, procedure))


def _split(config: dict) -> tuple[dict, str]:
    """A recorded configuration without its robot rules' text (top level, or in its "setup"), and that text."""
    rest = dict(config)
    text = rest.pop(OPTION, None)
    if isinstance(rest.get("setup"), dict):
        setup = dict(rest["setup"])
        text = setup.pop(OPTION, text)
        rest["setup"] = setup
    return rest, text or ""


def refuse_changed(recorded: list[dict], config: dict, where: str, procedure: Procedure | None) -> None:
    """Before a store starts a new run or sweep for ``config``: if it holds one of the same configuration and the
    same robot rules file (``robot_rules_file``) whose contents differ, the file changed underneath the store;
    refuse with one line naming the entries (``check_same``) instead of starting a second run beside it."""
    name = config.get("robot_rules_file")
    if not name or procedure is None:
        return
    mine, text = _split(config)
    for other in recorded:
        if other.get("robot_rules_file") != name:
            continue
        theirs, old = _split(other)
        if theirs == mine and old != text:
            check_same(old, text, f"{where} (its games of {name})", procedure)
