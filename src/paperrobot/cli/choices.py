"""How the terminal lists a question's options and reads a typed choice (cli/terminal.py asks).

- Options that are numbers (FC's "reinforce with how many?") are not numbered: a typed number is the value,
  never a position in the list ("3" means 3, not the third option).
- An option with a place on the table says where it leads, from the request's view (the game's data, as
  the web page draws it, web/moves.py): ``moves`` (SFB, FC: the hex and facing after the move) and
  ``courses`` (Armada: where the ship's base ends, mm and heading).
"""
from __future__ import annotations

from typing import Any

from ..core.contract import Request


def numeric(request: Request) -> bool:
    """Every option's key a whole number: the question asks for an amount."""
    keys = [o.key for o in request.options]
    return bool(keys) and all(isinstance(k, str) and k.isascii() and k.isdigit() and len(k) < 6 for k in keys)


def destinations(request: Request) -> dict[str, str]:
    """Option key -> where it leads, in words (empty for an option with no place, or already saying it)."""
    try:
        view = request.view
    except Exception:  # a view that cannot be built costs the extra words, not the question
        return {}
    if not isinstance(view, dict):
        return {}
    out = {}
    for move in view.get("moves") or []:
        if isinstance(move, dict) and "key" in move:
            where = move.get("hex")
            out[str(move["key"])] = ("leaves the map" if where is None and "q" not in move else
                                     f"to {where} facing {move.get('facing', '?')}")
    for course in view.get("courses") or []:
        if isinstance(course, dict) and "key" in course and len(course.get("end") or ()) >= 3:
            x, y, heading = (float(v) for v in course["end"][:3])
            out[str(course["key"])] = f"ends at ({x:.0f}, {y:.0f}) mm, heading {heading:.0f}"
    return out


def option_lines(request: Request) -> list[str]:
    """The options as the person sees them."""
    options = request.options
    if numeric(request):
        values = sorted(int(o.key) for o in options)
        default = request.default
        span = (f"a number from {values[0]} to {values[-1]}" if values == list(range(values[0], values[-1] + 1))
                else "one of " + ", ".join(map(str, values)))
        return [f"  {span} (suggested: {default})"]
    where = destinations(request)
    lines = []
    pad = max((len(o.label) for o in options if o.key in where), default=0)
    for number, option in enumerate(options, 1):
        extra = where.get(option.key, "")
        shown = option.label if not extra or " to " in option.label else f"{option.label.ljust(pad)}  {extra}"
        lines.append(f"  {number:>2}. {shown}")
    return lines


def prompt(request: Request) -> str:
    if numeric(request):
        return f"[a number; Enter = {request.default}]:"
    return f"[a number or key; Enter = {request.default}]:"


def choice(request: Request, text: str) -> Any:
    """The answer for a typed line: an option's number picks it (unless the options are numbers), else the text."""
    options = request.options
    if not numeric(request) and text.isascii() and text.isdigit() and len(text) < 6 \
            and 1 <= int(text) <= len(options):
        return options[int(text) - 1].key
    return text
