"""The pieces every FC request is built of (requests.py, fire_requests.py, end_requests.py): reading an answer's
lists and numbers, a form's parser and preset options, and the player policy's suggestion for a default."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Final, Iterable

from ..core.contract import Option
from ..core.errors import IllegalAction
from .player import Policy

if TYPE_CHECKING:
    from .lookups import Lookups
    from .state import Ship

# a request's check (an answer in contract terms -> the engine's action) and its preset options
Check = Callable[[Any], Any]
Presets = Callable[[], tuple[Option, ...]]


SPEEDS = (0, 8, 16, 24)
NONE = ("", "none", None)
EPS: Final = 1e-9  # Final: compiled, a constant, not a module dictionary lookup


def _list(value: Any, name: str, rule: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, (str, int)):
        return [value] if value not in NONE else []
    raise IllegalAction(f"{name} must be a list, not {type(value).__name__}", rule)


def _int(value: Any, name: str, rule: str) -> int:
    if isinstance(value, bool):
        raise IllegalAction(f"{name} must be a whole number", rule)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == int(value):
        return int(value)
    if isinstance(value, str) and value.strip().isascii() and value.strip().lstrip("-").isdigit() and len(value) < 6:
        return int(value)
    raise IllegalAction(f"{name} must be a whole number, not {str(value)[:20]!r}", rule)


def form_parser(check: Check, known: frozenset[str], presets: Presets, kind: str) -> Check:
    """A form request's parser: a dict of values (only this form's fields) or a preset's key, through ``check``.
    The same answers as Request.parse with the form, without building a set per answer (the hot path). A bound
    method, not a closure (the engine keeps it: requests.AccelerateAsk says why)."""
    return FormParser(check, known, presets, kind).parse


class FormParser:
    def __init__(self, check: Check, known: frozenset[str], presets: Presets, kind: str) -> None:
        self.check, self.known, self.presets, self.kind = check, known, presets, kind

    def parse(self, answer: Any) -> Any:
        if isinstance(answer, dict):
            for name in answer:
                if name not in self.known:
                    raise IllegalAction(f"{str(name)[:30]!r} is not a field of this form; the fields are "
                                        f"{', '.join(sorted(self.known))}")
            return self.check(answer)
        if isinstance(answer, str):
            for option in self.presets():
                if option.key == answer:
                    return self.check(option.value)
        shown = ", ".join([o.key for o in self.presets()])
        raise IllegalAction(f"{str(answer)[:40]!r} is not an answer to this {self.kind} question; choose one of: "
                            f"{shown}, or the form's values")


def _options(presets: Iterable[tuple[str, str, Any]]) -> tuple[Option, ...]:
    """Presets as Options; a duplicate of an earlier preset's values is left out."""
    out: list[Option] = []
    seen: list[Any] = []
    for key, label, value in presets:
        if value in seen:
            continue
        seen.append(value)
        out.append(Option(key, label, value))
    return tuple(out)



def _policy(game: Lookups, kind: str, ship: Ship, data: Any = None) -> Any:
    """The player policy's suggestion, as an engine action (for presets and defaults)."""
    return getattr(Policy(), kind)(game, ship, game.enemy(ship.side), data)
