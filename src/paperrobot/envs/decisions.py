"""A game request as a short sequence of small decisions, so that an agent's action space stays small.

- A request with options only: one decision over its options; or, for a kind whose option keys the game's
  encoder splits into parts (``Encoder.split``, e.g. an Armada course "2:0,1" into speed 2, then the yaw of
  each joint), one decision per part over the parts that lead to a listed option, so a request of hundreds
  of options becomes a few decisions of a handful of choices each.
- A form: first the presets plus "compose" (the last choice); after "compose", one decision per field:
  a single field picks one of ``form.choices(field, earlier)``; a multi field adds one value at a time,
  with "done" as the last choice, until done or no value is left.

Choice ``i`` of a decision is action ``i``; the mask marks the first ``len(choices)`` actions. An action
outside the mask plays the request's default instead and is reported (``illegal``).
"""
from __future__ import annotations

from typing import Any, Callable

from ..core.contract import Request

DONE = "__done__"
COMPOSE = "__compose__"


class Decisions:
    """Walks one request's small decisions; ``answer`` is set when the request's answer is complete."""

    def __init__(self, request: Request, max_choices: int, split: Callable[[str], tuple] | None = None):
        self.request, self.max = request, max_choices
        self.values: dict[str, Any] = {}
        self.field = -1  # -1: choosing a preset or "compose"
        self.answer: Any = None
        self.illegal = False
        # split option keys: (parts, key) of every option, and the parts chosen so far (one option: no split)
        self.paths = None if split is None or request.form is not None or len(request.options) < 2 else [
            (tuple(split(o.key)), o.key) for o in request.options]
        self.prefix: tuple = ()
        self._view: Any = None
        self._viewed = False
        if self.paths is not None:
            self._descend()

    def view(self, agent_view: Callable[[Request], Any] | None = None) -> Any:
        """The request's view as an agent reads it: ``agent_view(request)`` (Encoder.agent_view) or the request's
        own view; built once per request (its small decisions change nothing in the game)."""
        if not self._viewed:
            self._view = self.request.view if agent_view is None else agent_view(self.request)
            self._viewed = True
        return self._view

    # ------------------------------------------------------------------ the current decision
    def choices(self) -> list:
        request = self.request
        if self.paths is not None:
            return self._parts()[: self.max]
        if request.form is None:
            return [o.key for o in request.options][: self.max]
        if self.field < 0:
            return [o.key for o in request.options][: self.max - 1] + [COMPOSE]
        field = request.form.fields[self.field]
        legal = list(request.form.choices(field.name, self.values))
        if field.multi:
            chosen = self.values.get(field.name, [])
            return [v for v in legal if v not in chosen][: self.max - 1] + [DONE]
        return legal[: self.max]

    def stage(self) -> tuple[int, int]:
        """(0 options / 1 preset-or-compose / 2 single field / 3 multi field, field index + 1)."""
        if self.paths is not None:  # a part of a split option key: like a form's field, by depth
            return 2, len(self.prefix) + 1
        if self.request.form is None:
            return 0, 0
        if self.field < 0:
            return 1, 0
        return (3 if self.request.form.fields[self.field].multi else 2), self.field + 1

    def mask(self) -> list[int]:
        n = len(self.choices())
        return [1] * n + [0] * (self.max - n)

    # ------------------------------------------------------------------ acting
    def act(self, action: int) -> bool:
        """Apply action ``action``; True when the request's answer is complete (``self.answer``)."""
        choices = self.choices()
        if not isinstance(action, (int,)) and hasattr(action, "__index__"):
            action = int(action)
        if not isinstance(action, int) or not 0 <= action < len(choices):
            self.illegal, self.answer = True, self.request.default
            return True
        choice = choices[action]
        if self.paths is not None:
            self.prefix += (choice,)
            return self._descend()
        form = self.request.form
        if form is None:
            self.answer = choice
            return True
        if self.field < 0:
            if choice != COMPOSE:
                self.answer = choice
                return True
            return self._next_field(0)
        field = form.fields[self.field]
        if field.multi:
            if choice == DONE:
                return self._next_field(self.field + 1)
            self.values.setdefault(field.name, []).append(choice)
            if len(self.choices()) <= 1:  # nothing left to add
                return self._next_field(self.field + 1)
            return False
        self.values[field.name] = choice
        return self._next_field(self.field + 1)

    def _parts(self) -> list:
        """The next parts after the prefix, in the options' order (distinct)."""
        depth, seen = len(self.prefix), {}
        for parts, _ in self.paths:
            if len(parts) > depth and parts[:depth] == self.prefix:
                seen.setdefault(parts[depth], None)
        return list(seen)

    def _descend(self) -> bool:
        """Take every part with no alternative; True (and ``answer``) once the prefix names one option. A game's
        split must not make one key the beginning of another (Armada's course keys fix their length by speed)."""
        while True:
            done = [key for parts, key in self.paths if parts == self.prefix]
            if done:
                self.answer = done[0]
                return True
            parts = self._parts()
            if len(parts) != 1:
                return False
            self.prefix += (parts[0],)

    def _next_field(self, index: int) -> bool:
        form = self.request.form
        while index < len(form.fields):
            field = form.fields[index]
            if field.multi:
                self.values.setdefault(field.name, [])
            self.field = index
            legal = self.choices()
            if len(legal) > 1:
                return False
            if legal and not field.multi:  # one legal value: no decision to ask
                self.values[field.name] = legal[0]
            index += 1
        self.answer = dict(self.values)
        return True
