"""What a person playing a game is not asked: the terminal (cli/terminal.py) and the web page (web/live.py) both
answer through the same ``Asking`` of the game, so a game asks the same questions on both (issue 26).

A person is asked only what they decide: a question with a single legal answer is answered with it, and a game
adds its own (``register``-ed as ``GameInfo.asking``): SFB answers its every-impulse "disengage?" with "no" unless
the person said the word ``disengage`` (one of ``words``), and a fire question where no shot is worth a thought
with "none". An answer given this way is the game's own default, never a choice the robot's rules could read
differently from a person's: the course of a game is the same as if the person had taken the suggestion.
"""
from __future__ import annotations

from typing import Any


class Asking:
    """The questions answered for a person. One per game in progress (``words`` set state for the next answers)."""

    words: dict[str, str] = {}  # word -> what it does, for help texts and the web page's buttons
    confirm: dict[str, str] = {}  # word -> the consequence to confirm before it is said (e.g. leaving the battle)

    def word(self, name: str) -> str:
        """Note the word ``name``; one line saying what will happen."""
        raise KeyError(name)

    def auto(self, request: Any) -> Any:
        """The answer given without asking, or None to ask the person."""
        if request.form is None and request.kind != "roll" and len(request.options) == 1:
            return request.options[0].key  # one legal answer: nothing to decide
        return None


def asking_for(info: Any) -> Asking:
    """A fresh ``Asking`` of the game ``info`` (a registry GameInfo): its own, else the generic one."""
    make = getattr(info, "asking", None)
    return make() if callable(make) else Asking()
