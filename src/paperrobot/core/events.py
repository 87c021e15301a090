"""Typed events and the JSON-lines log: the record of a game, its replay and its narration."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .errors import SaveError


@dataclass(slots=True)
class Event:
    kind: str  # "moved", "fired", "damage", "decision", ...
    turn: int = 0
    impulse: int = 0  # 0 = outside the impulse procedure (energy allocation, end of turn)
    side: str = ""
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "turn": self.turn, "impulse": self.impulse, "side": self.side, **self.data}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> "Event":
        raw = dict(raw)
        kind = raw.pop("kind")
        return cls(kind, int(raw.pop("turn", 0)), int(raw.pop("impulse", 0)), str(raw.pop("side", "")), raw)


class EventLog:
    """An append-only list of events. A disabled log (simulations) drops them but costs nearly nothing."""

    __slots__ = ("events", "enabled", "listeners", "emitted", "skip")

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.events: list[Event] = []
        self.listeners: list[Any] = []  # callables(Event), e.g. a live narrator
        self.emitted = 0  # events emitted (kept or not): where a rebuilt engine must catch up to
        self.skip = 0  # events still to drop: a rebuilt engine re-emits what its predecessor already told

    def emit(self, kind: str, turn: int = 0, impulse: int = 0, side: str = "", **data: Any) -> None:
        if not self.enabled and not self.listeners:
            return
        self.emitted += 1
        if self.skip:
            self.skip -= 1
            return
        event = Event(kind, turn, impulse, side, data)
        if self.enabled:
            self.events.append(event)
        for listener in self.listeners:
            listener(event)

    def of_kind(self, *kinds: str) -> list[Event]:
        return [e for e in self.events if e.kind in kinds]

    def to_jsonl(self) -> str:
        return "".join(e.to_json() + "\n" for e in self.events)

    def write(self, path: str | Path) -> None:
        write_text_atomic(path, self.to_jsonl())


MAX_LOG_BYTES = 64 << 20  # a whole battle logs under 100 kB; anything past this is not our log
MAX_LINE_BYTES = 1 << 20
MAX_BLANK_LINES = 1000  # the program writes none


def read_log(path: str | Path, max_bytes: int = MAX_LOG_BYTES,
             max_line: int = MAX_LINE_BYTES) -> tuple[list[Event], str | None]:
    """Read a log up to its first damaged line: ``(events, problem)``, ``problem`` None when whole.

    Reads in bounded blocks, so a huge file or a device (``/dev/zero``) cannot exhaust memory or time;
    a file that cannot be opened at all is a SaveError."""
    path = Path(path)
    events: list[Event] = []
    try:
        if path.is_dir():
            raise SaveError(f"{path}: this is a folder, not a log file")
        from .files import open_regular
        handle = open_regular(path, "a PaperRobot game log", SaveError)
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    number, blank, total, rest = 0, 0, 0, b""
    with handle:
        while True:
            try:
                block = handle.read(1 << 20)
            except OSError as exc:
                return events, f"line {number + 1} cannot be read ({exc.strerror or exc})"
            total += len(block)
            if total > max_bytes:
                return events, f"the file is larger than {max_bytes >> 20} MB; stopped at line {number + 1}"
            lines = (rest + block).split(b"\n")
            rest = lines.pop()  # the unfinished last line ('' after a newline)
            if not block:
                lines, rest = ([rest] if rest.strip() else []), b""
            for line in lines:
                number += 1
                if not line.strip():
                    blank += 1
                    if blank > MAX_BLANK_LINES:
                        return events, f"line {number}: too many blank lines for a PaperRobot log"
                    continue
                if len(line) > max_line:
                    return events, f"line {number} is longer than {max_line >> 20} MB: not a PaperRobot event"
                try:
                    events.append(Event.from_dict(json.loads(line.decode("utf-8"))))
                except (ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError, RecursionError):
                    cut = " (cut short: the file ends inside it)" if not block else ""
                    return events, f"line {number} is damaged{cut}"
            if len(rest) > max_line:
                return events, f"line {number + 1} is longer than {max_line >> 20} MB: not a PaperRobot event"
            if not block:
                return events, None


def read_jsonl(path: str | Path) -> list[Event]:
    """Read a whole log file; a damaged file gives a SaveError naming the line."""
    events, problem = read_log(path)
    if problem:
        raise SaveError(f"{path}: {problem}; is this a log written by 'paperrobot battle --log'?")
    return events


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write through a unique temporary file, fsync and rename: a failure never leaves half a file
    behind and never touches any other file (see core/files.py)."""
    from .files import write_text_atomic as write

    write(path, text)


def dump_events(events: Iterable[Event]) -> str:
    return "".join(e.to_json() + "\n" for e in events)
