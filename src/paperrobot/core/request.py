"""What a side is asked and may answer: ``Request`` (a decision point the engine yields), its ``Option``s, and a
``Form`` of ``Field``s for multi-part answers (core/contract.py drives them; they are re-exported there)."""
from __future__ import annotations

from typing import Any, Callable, Iterable

from .errors import IllegalAction


class Option:
    """One legal answer: ``key`` is what a save records and a person may type, ``label`` what is shown,
    ``value`` what the engine receives (the key itself when None)."""

    __slots__ = ("key", "label", "value")

    def __init__(self, key: str, label: str = "", value: Any = None):
        self.key, self.label, self.value = key, label or key, value

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label}

    def __repr__(self) -> str:
        return f"Option({self.key!r}, {self.label!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Option) and other.key == self.key and other.label == self.label

    def __hash__(self) -> int:
        return hash(self.key)


class Field:
    """One part of a form. ``multi``: the answer is a list of distinct values (e.g. weapons to fire)."""

    __slots__ = ("name", "label", "multi")

    def __init__(self, name: str, label: str = "", multi: bool = False):
        self.name, self.label, self.multi = name, label or name, multi

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "multi": self.multi}


class Form:
    """A decision with several parts (an energy allocation, a volley of fire, launches).

    ``choices(name, earlier)`` gives the legal values of field ``name`` given the values already chosen
    for the fields before it, so a front end or an environment can ask field by field; ``check(values)``
    turns a complete set of values into the engine's action or raises IllegalAction naming the rule.
    Values are JSON data (numbers, strings, lists of them).
    """

    def __init__(self, fields: Iterable[Field], choices: Callable[[str, dict[str, Any]], tuple[Any, ...]],
                 check: Callable[[dict[str, Any]], Any]):
        self.fields = tuple(fields)
        self._choices, self._check = choices, check
        self._names = frozenset([f.name for f in self.fields])  # check() reads it for every answer

    def choices(self, name: str, earlier: dict[str, Any] | None = None) -> tuple[Any, ...]:
        return tuple(self._choices(name, dict(earlier or {})))

    def check(self, values: dict[str, Any]) -> Any:
        if not isinstance(values, dict):
            raise IllegalAction(f"a form answer is a set of field values, not {type(values).__name__}")
        names = self._names
        for name in values:
            if name not in names:  # no set is built for an answer whose fields are all known (nearly every one)
                unknown = sorted(set(values) - names)
                raise IllegalAction(f"'{unknown[0]}' is not a field of this form; the fields are "
                                    f"{', '.join(sorted(names))}")
        return self._check(values)

    def to_json(self) -> dict[str, Any]:
        return {"fields": [f.to_json() for f in self.fields]}


class Request:
    """A decision point. ``options`` (never empty) and ``view`` are built only when read.

    - ``kind``: what is asked ("energy", "move", "fire", ...); ``side``: of whom.
    - ``options``: tuple of Option; for a form, a few legal presets (the suggested one first).
    - ``form``: a Form for multi-part decisions, else None.
    - ``default``: always legal: an Option key, or a form's values.
    - ``state``: the typed read-only view robots and policies decide from (engine objects; never changed
      by a controller). ``subject``: what the request is about (a ship, a squadron), for robots.
    - ``view``: plain JSON data of what ``side`` may know (for web pages and environments).
    - ``prompt``: one line for a person. ``error``: why the previous answer was refused.
    - ``seq``: the number of this request in its match (set by the driver).
    """

    __slots__ = ("kind", "side", "state", "subject", "prompt", "form", "seq", "error", "data",
                 "_options", "_default", "_view", "_check", "_made")

    def __init__(self, kind: str, side: str, *, state: Any = None, subject: Any = None,
                 options: tuple[Any, ...] | Callable[[], tuple[Any, ...]] = (), default: Any = None, form: Form | None = None,
                 view: Any = None, check: Callable[[Any], Any] | None = None, prompt: str = "",
                 data: Any = None):
        # one store per slot (no tuple packing): a battle builds hundreds of requests
        self.kind = kind
        self.side = side
        self.state = state
        self.subject = subject
        self.prompt = prompt
        self.form = form
        self.data = data
        self._options = options
        self._default = default
        self._view = view
        self._check = check
        self._made = (options, view)  # the builders, for refresh() after a correction
        self.seq = 0
        self.error = ""

    def reissue(self, options: tuple[Any, ...] | Callable[[], tuple[Any, ...]], view: Any, data: Any = None) -> "Request":
        """This request made new again, to be yielded once more: options and view unread (given again, as
        built), no error, no number yet. An engine may keep one request per decision point for a side flown in
        process by its own robot or policy, which never keep a request after answering it; building a fresh one
        each time is a measurable part of a simulation. Never for a side yielded to a caller."""
        self._options = options
        self._view = view
        self._made = (options, view)
        self.data = data
        self.error = ""
        self.seq = 0
        return self

    @property
    def options(self) -> tuple[Option, ...]:
        if callable(self._options):
            self._options = tuple(self._options())
        return self._options

    @property
    def default(self) -> Any:
        if self._default is None:
            return self.options[0].key if self.options else None
        return self._default

    @property
    def view(self) -> Any:
        if callable(self._view):
            self._view = self._view()
        return self._view

    def refresh(self) -> None:
        """Build the options and view again (the state was corrected while this request was open)."""
        self._options, self._view = self._made

    def option(self, key: str) -> Option | None:
        for option in self.options:
            if option.key == key:
                return option
        return None

    def parse(self, answer: Any) -> Any:
        """The engine's action for ``answer`` (an Option, a key, or a form's values); IllegalAction if not legal."""
        if isinstance(answer, Option):
            answer = answer.key
        if self._check is not None:
            return self._check(answer)
        if self.form is not None and isinstance(answer, dict):
            return self.form.check(answer)
        if isinstance(answer, str) or (self.form is not None and answer is not None):
            option = self.option(answer) if isinstance(answer, str) else None
            if option is not None:
                if self.form is not None and isinstance(option.value, dict):
                    return self.form.check(option.value)
                return option.key if option.value is None else option.value
        shown = ", ".join(o.key for o in self.options[:12]) + (", ..." if len(self.options) > 12 else "")
        raise IllegalAction(f"'{_short(answer)}' is not an answer to this {self.kind} question; choose one of: {shown}")

    def encode(self, answer: Any) -> Any:
        """The JSON form of an answer for a save: the key, or the form's values."""
        if isinstance(answer, Option):
            return answer.key
        return answer

    def to_json(self) -> dict[str, Any]:
        out = {"seq": self.seq, "kind": self.kind, "side": self.side, "prompt": self.prompt,
               "options": [o.to_json() for o in self.options], "default": self.default, "error": self.error}
        if self.form is not None:
            out["form"] = self.form.to_json()
        return out

    def __repr__(self) -> str:
        return f"Request(seq={self.seq}, kind={self.kind!r}, side={self.side!r})"


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


__all__ = ["Option", "Field", "Form", "Request"]
