"""A person playing a game in the terminal: prompts, saves, resume, and illegal answers.

Every engine in PaperRobot is deterministic given its seed and the answers it receives, so one
mechanism serves three needs: a save file is the set-up, the seed and the answers so far; resuming
replays those answers; and when the engine rejects an answer, the session drops that answer, rebuilds
the game by replaying the rest (silently), and asks again.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from ..core.controller import Decision, Recorder, Replayer, Request
from ..core.errors import IllegalAction, PaperRobotError
from ..core.events import Event, EventLog
from ..core.outcome import Outcome
from ..core.save import SaveData, write_save
from .common import say


class QuitGame(Exception):
    """The person asked to stop (``quit`` or end of input)."""


class Prompter:
    """Reads the person's lines; ``save`` and ``quit`` work at every prompt."""

    def __init__(self, session: "PlaySession", commands: dict[str, Callable[[], None]] | None = None):
        self.session = session
        self.commands = dict(commands or {})  # extra words, e.g. "map", "help"

    def ask(self, prompt: str) -> str:
        while True:
            try:
                text = input(prompt + " ").strip()
            except EOFError:
                raise QuitGame("input ended") from None
            word = text.lower()
            if word == "save":
                self.session.save()
                continue
            if word in ("quit", "exit"):
                raise QuitGame("quit")
            if word in self.commands:
                self.commands[word]()
                continue
            return text


class PlaySession:
    """Runs a game for a person; ``build(controller, log)`` makes a fresh game for the person's side."""

    def __init__(self, game: str, setup: dict, seed: int, build: Callable[[Any, EventLog], Any],
                 terminal: Any, encode, decode, narrate: Callable[[Event], None],
                 save_path: Path | None, answers: list | None = None):
        self.game, self.setup, self.seed = game, setup, seed
        self.build, self.terminal = build, terminal
        self.encode, self.decode, self.narrate = encode, decode, narrate
        self.save_path = save_path
        self.answers: list = list(answers or [])
        self.shown = 0  # events already shown to the person
        self.recorder: Recorder | None = None
        self.current = None  # the game being played
        self.log: EventLog | None = None

    def save(self) -> None:
        if self.save_path is None:
            say("No save file: start the game with --save FILE (or --resume FILE) to be able to save.")
            return
        answers = self.recorder.answers if self.recorder else self.answers
        write_save(self.save_path, SaveData(self.game, self.setup, self.seed, list(answers)))
        say(f"Saved to {self.save_path}; continue later with --resume {self.save_path}")

    def run(self) -> Outcome | None:
        while True:
            self.log = EventLog()
            self.log.listeners.append(self._show)
            self._count = 0
            replayer = Replayer(self.answers, self.terminal, self.decode)
            self.recorder = Recorder(replayer, self.encode)
            self.current = self.build(self.recorder, self.log)
            try:
                return self.current.run()
            except IllegalAction as exc:
                if replayer.pending or not self.recorder.answers:
                    raise  # a recorded answer was refused: the save does not fit this game
                say(f"Not allowed: {exc}. Try again.")
                self.answers = self.recorder.answers[:-1]
            except QuitGame as exc:
                if self.save_path is not None:
                    self.save()
                elif str(exc) == "input ended":
                    say("Input ended; the game was not saved (use --save FILE).")
                return None

    def _show(self, event: Event) -> None:
        self._count += 1
        if self._count > self.shown:
            self.shown = self._count
            self.narrate(event)


def choose(prompter: Prompter, request: Request, items, multi: bool, default: tuple[str, ...], prompt: str) -> Any:
    """Ask for one key (or several, space-separated) out of ``items``; Enter takes the default."""
    keys = [item.key for item in items]
    for number, item in enumerate(items, 1):
        say(f"  {number:>2}. {item.label}")
    hint = "numbers or keys separated by spaces, 'none'" if multi else "a number or key"
    shown_default = " ".join(default) if default else ("none" if multi else "")
    while True:
        text = prompter.ask(f"{prompt} [{hint}; Enter = {shown_default or 'first'}]:")
        if not text:
            if default or multi:
                return tuple(default) if multi else default[0]
            return keys[0]
        if multi and text.lower() == "none":
            return ()
        picked, bad = [], []
        for word in text.replace(",", " ").split():
            if word.isdigit() and 1 <= int(word) <= len(keys):
                picked.append(keys[int(word) - 1])
            elif word in keys:
                picked.append(word)
            else:
                bad.append(word)
        if bad:
            say(f"'{' '.join(bad)}' is not one of the choices; pick from the list above.")
            continue
        if not multi and len(picked) != 1:
            say("Pick exactly one.")
            continue
        return tuple(dict.fromkeys(picked)) if multi else picked[0]


__all__ = ["PlaySession", "Prompter", "QuitGame", "choose", "PaperRobotError", "Decision"]
