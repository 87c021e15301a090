"""The terminal's ``Front`` for any registered game: the game's front-end hooks (core/frontend.py) said on the
console, its narrator for the events. No game is named here."""
from __future__ import annotations

from typing import Any, Callable

from ..core.contract import Match, Request
from ..core.events import Event
from ..core.frontend import frontend_of
from .common import say
from .terminal import Front


def says(lines_of: Callable[[], list[str]]) -> Callable[[], None]:
    """A word's hook (it returns lines) as a terminal command (it says them)."""
    def run() -> None:
        for line in lines_of():
            say(line)
    return run


class HookFront(Front):
    """What the terminal shows before each question, and the game's extra words, from the game's hooks."""

    def __init__(self, info, hooks=None):
        self.hooks = hooks if hooks is not None else frontend_of(info)
        self.narrator = info.narrator()
        self.help = self.hooks.help

    def commands(self, match: Match) -> dict[str, Callable[[], None]]:
        return {word: says(lines) for word, lines in self.hooks.commands(match).items()}

    def before(self, match: Match, request: Request) -> None:
        for line in self.hooks.before(match, request):
            say(line)

    def auto(self, match: Match, request: Request) -> Any:
        return self.hooks.auto(match, request)

    def narrate(self, event: Event) -> str | None:
        return None if self.narrator is None else self.narrator.line(event)


def narrate_to_console(info, decisions_only: bool, kinds: tuple[str, ...]):
    """A log listener saying each event (``decisions_only``: only the ``kinds`` a game's decisions are)."""
    narrator = info.narrator()

    def show(event: Event) -> None:
        if narrator is None or (decisions_only and event.kind not in kinds):
            return
        text = narrator.line(event)
        if text:
            say(text)
    return show
