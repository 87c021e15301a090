"""Per-game pictures for the page: a map (SVG) and each unit's status, drawn from a request's JSON ``view``.

The hook: ``register(game, renderer)`` where ``renderer(view, side) -> Picture``. A renderer reads only
the view (plain JSON data the game builds for that side), never the engine; it draws with the helpers
in ``web/svg.py`` (hex maps with CCRR labels, a table in mm) so every hex and unit is a DOM element with
a stable id. A game without a renderer, or a renderer that fails on an unexpected view, gets the
generic picture: no map, the view's data as tables (the page never fails because of a picture).

Games' renderers are registered at the bottom of this module, each in its own function.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any, Callable

logger = logging.getLogger(__name__)


@dataclass
class Status:
    """One unit's (or one section's) status: a title and rows of (name, value)."""

    title: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    id: str = ""


@dataclass
class Picture:
    map: str | None = None  # SVG markup (escaped by the renderer), or None
    status: list[Status] = field(default_factory=list)
    note: str = ""


Renderer = Callable[[Any, str], Picture]
RENDERERS: dict[str, Renderer] = {}


def register(game: str, renderer: Renderer) -> Renderer:
    RENDERERS[game] = renderer
    return renderer


def picture(game: str, view: Any, side: str = "") -> Picture:
    renderer = RENDERERS.get(game)
    if renderer is not None and view is not None:
        try:
            return renderer(view, side)
        except Exception as exc:  # a view shape the renderer does not know: show the data instead
            logger.warning("the %s map renderer failed: %s", game, exc)
            out = generic(view, side)
            out.note = f"The map could not be drawn from this view ({type(exc).__name__}); its data is shown instead."
            return out
    return generic(view, side)


def generic(view: Any, side: str = "") -> Picture:
    """The view's data as tables: scalars of the top level in one, each nested object in its own."""
    if view is None:
        return Picture()
    if not isinstance(view, dict):
        return Picture(status=[Status("view", [("", _text(view))])])
    top = Status("situation", id="status-situation")
    sections = [top]
    for key, value in view.items():
        if isinstance(value, dict):
            sections.append(Status(str(key), [(str(k), _text(v)) for k, v in value.items()], id=f"status-{key}"))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for number, item in enumerate(value[:20], 1):
                name = str(item.get("name") or item.get("id") or f"{key} {number}")
                sections.append(Status(name, [(str(k), _text(v)) for k, v in item.items()], id=f"status-{key}-{number}"))
        else:
            top.rows.append((str(key), _text(value)))
    return Picture(status=[s for s in sections if s.rows])


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value) if len(value) < 40 else f"{len(value)} items"
    if isinstance(value, dict):
        return "; ".join(f"{k}={_text(v)}" for k, v in list(value.items())[:12])
    text = str(value)
    return text if len(text) <= 200 else text[:197] + "..."


# ------------------------------------------------------------------------------------------ the games
# sfb, fc and armada register their renderers here once their request views are on main (see docs/web.md).
