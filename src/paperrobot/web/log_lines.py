"""The log beside the map (the play and watch pages): events narrated by the game's narrator, robot decisions with
their rule link and dice, the person's answers as undo points; each event rendered once."""
from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup, escape

from ..core import registry
from ..core.narrate import generic_line, stamp
from ..core.words import plain
from .live import AUTO, Live

LOG_SHOWN = 200  # log entries on the play page (the newest); the whole log is in the save's replay


def narrator(game: str):
    try:
        narrator = registry.info(game).narrator()
    except Exception:
        narrator = None
    line = getattr(narrator, "line", None)
    return line if callable(line) else generic_line


def event_entry(event, narrate) -> dict | None:
    """One log line, rendered once (events never change): a robot decision with its rule link and dice, or the
    narrator's sentence."""
    when = stamp(event)
    side = escape(event.side)
    if event.kind == "decision":
        rolls = event.data.get("rolls") or []
        dice = "; ".join(f"{'coin' if r[0] == 2 else 'd' + str(r[0])}={r[1]} {r[2]}" for r in rolls
                         if isinstance(r, (list, tuple)) and len(r) >= 3)
        rule = escape(str(event.data.get("rule", "")))
        html = (f'<li class="decision side-{side}"><span class="stamp">{escape(when)}</span> {side} '
                f'<a class="rule" href="/rules/{rule}" hx-get="/rules/{rule}" hx-target="#rule-panel">{rule}</a> '
                f'{escape(plain(str(event.data.get("text", ""))))}'
                + (f' <span class="dice">(dice: {escape(dice)})</span>' if dice else "") + "</li>")
        return dict(type="decision", html=Markup(html))
    try:
        text = narrate(event)
    except Exception:
        text = generic_line(event)
    if not text:
        return None
    if text.startswith(when + " "):  # the narrator stamped it already
        text = text[len(when) + 1:]
    html = (f'<li class="event {escape(event.kind)}"><span class="stamp">{escape(when)}</span> {escape(text)}</li>')
    return dict(type="event", html=Markup(html))


def log_entries(live: Live) -> list[dict]:
    """The log, newest first: events narrated, robot decisions with rule and dice, the person's answers (undo points)."""
    narrate = narrator(live.row.game)
    events = live.log.events
    cache = live.narrated
    if len(cache) > len(events):  # cannot happen (a rebuilt game has a fresh Live); stay safe
        cache.clear()
    for event in events[len(cache):]:
        cache.append(event_entry(event, narrate))
    marks = live.marks
    answers = live.match.answers
    out: list[dict] = []
    n = 0
    for index in range(len(events) + 1):
        while n < len(marks) and marks[n] == index:
            seq, kind, side, answer = answers[n]
            label = live.labels[n] if n < len(live.labels) and live.labels[n] else _short(answer)
            if not label.startswith(AUTO):  # answers given for the person are not theirs to take back
                out.append(dict(type="answer", n=n + 1, seq=seq, kind=kind, side=side, text=label))
            n += 1
        if index < len(events):
            entry = cache[index]
            if entry:
                out.append(entry)
    out = out[-LOG_SHOWN:]
    out.reverse()
    return out


def _short(answer: Any) -> str:
    text = answer if isinstance(answer, str) else json.dumps(answer)
    return text if len(text) <= 80 else text[:77] + "..."
