"""Values as a person reads them: no Python spelling (``None``, ``True``, ``[1, 2]``, ``{'a': 1}``, ``12.0``) in
any text the terminal or the web page shows.

``in_words(None)`` -> "none", ``True`` -> "yes", ``12.0`` -> "12", ``[30, 24]`` -> "30, 24" (``sep`` to choose),
``{"impulses": 16}`` -> "impulses 16". Used by the front ends; the games' own texts are written in words.
"""
from __future__ import annotations

import re
from typing import Any


def in_words(value: Any, sep: str = ",") -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}" if value == value else "unknown"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return sep.join(in_words(v, sep) for v in items) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {in_words(v, '/')}" for k, v in value.items()) or "none"
    return str(value)


def signed(values) -> str:
    """Whole numbers with their signs, space-separated: yaw clicks (-1, 0, 2) -> "-1 0 +2"."""
    return " ".join(f"{int(v):+d}" if v else "0" for v in values) or "none"


_SCALAR = r"(?:-?\d+(?:\.\d+)?|'[^'\[\]]*')"
_LIST = re.compile(r"\[(\s*" + _SCALAR + r"(?:\s*,\s*" + _SCALAR + r")*\s*)\]")
_NUMBER = r"-?\d+(?:\.\d+)?"
# a tuple of numbers, as a robot's reason may print one: "(1, -1)", "(2,)"; not "(d6=3)", "(range 2)" or "(1)"
_TUPLE = re.compile(r"\((\s*" + _NUMBER + r"(?:\s*,\s*" + _NUMBER + r")+\s*|\s*" + _NUMBER + r"\s*,\s*)\)")
_WHOLE_FLOAT = re.compile(r"(?<![\d.])(-?\d+)\.0(?![\d.])")


def plain(text: str) -> str:
    """Free text (a robot's reason, logged as the engine wrote it) with Python's spellings of values put in words:
    ``[1, 1]`` -> ``1, 1``, ``['a', 'b']`` -> ``a, b``, a tuple ``(1, -1)`` -> ``1, -1``, ``12.0`` -> ``12``, ``None`` ->
    ``none``. The log keeps the original (its digests and old saves stay as they are); this is for reading."""
    text = _LIST.sub(lambda m: m.group(1).replace("'", "").strip(), text)
    text = _TUPLE.sub(lambda m: m.group(1).strip().rstrip(",").strip(), text)
    text = _WHOLE_FLOAT.sub(r"\1", text)
    return re.sub(r"\bNone\b", "none", text)
