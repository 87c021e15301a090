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

    __slots__ = ("events", "enabled", "listeners")

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.events: list[Event] = []
        self.listeners: list = []  # callables(Event), e.g. a live narrator

    def emit(self, kind: str, turn: int = 0, impulse: int = 0, side: str = "", **data: Any) -> None:
        if not self.enabled and not self.listeners:
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


def read_jsonl(path: str | Path) -> list[Event]:
    """Read a log file; a damaged file gives a SaveError naming the line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveError(f"{path}: cannot be read ({exc})") from None
    events = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            events.append(Event.from_dict(raw))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise SaveError(f"{path}: line {number} is not a PaperRobot event; is this a log written by "
                            f"'paperrobot battle --log'?") from None
    return events


def write_text_atomic(path: str | Path, text: str) -> None:
    """Write through a temporary file and rename, so a failure never leaves half a file behind."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def dump_events(events: Iterable[Event]) -> str:
    return "".join(e.to_json() + "\n" for e in events)
