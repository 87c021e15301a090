"""Narration: events to sentences. Each game registers one formatter per event kind it emits."""
from __future__ import annotations

from typing import Callable

from .events import Event
from .words import in_words, plain

Formatter = Callable[[Event], str | None]


class Narrator:
    def __init__(self, formatters: dict[str, Formatter] | None = None):
        self.formatters: dict[str, Formatter] = dict(formatters or {})

    def register(self, kind: str, formatter: Formatter) -> None:
        self.formatters[kind] = formatter

    def line(self, event: Event) -> str | None:
        """One line for the event, or None for events that are not narrated."""
        formatter = self.formatters.get(event.kind)
        if formatter is None:
            return generic_line(event)
        return formatter(event)

    def lines(self, events) -> list[str]:
        return [text for text in (self.line(e) for e in events) if text]


def stamp(event: Event) -> str:
    """``T2.07`` for turn 2 impulse 7; ``T2`` outside the impulses."""
    return f"T{event.turn}.{event.impulse:02d}" if event.impulse else f"T{event.turn}"


def generic_line(event: Event) -> str:
    fields = ", ".join(f"{k}={in_words(v)}" for k, v in sorted(event.data.items()))
    who = f" {event.side}" if event.side else ""
    return f"{stamp(event)}{who} {event.kind}: {fields}"


def decision_line(event: Event) -> str:
    """The standard rendering of a robot decision: rule ID, sentence, dice."""
    rolls = event.data.get("rolls") or []
    dice = "; ".join(f"{'coin' if r[0] == 2 else 'd' + str(r[0])}={r[1]} {r[2]}" for r in rolls)
    text = f"{stamp(event)} {event.side} [{event.data.get('rule', '?')}] {plain(str(event.data.get('text', '')))}"
    return f"{text}  (dice: {dice})" if dice else text
