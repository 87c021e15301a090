"""The errors a user can cause. The command line prints their message as one line and exits non-zero."""
from __future__ import annotations

from typing import Iterable


def one_line(text: str) -> str:
    """A message as one printable line: control characters from a user's file are shown escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


class PaperRobotError(Exception):
    """Base of every error caused by input: the message says what is wrong and how to fix it."""

    prefix = "error: "  # printed before the message
    exit_code = 2


class DataError(PaperRobotError):
    """A data file (ship, table, scenario) is missing, malformed or fails validation."""

    def __init__(self, path: str, field: str, reason: str):
        self.path, self.field, self.reason = str(path), field, reason
        where = f"{self.path}: {field}" if field else self.path
        reason = reason if len(reason) <= 300 else reason[:297] + "..."  # a value from the file may be huge
        super().__init__(one_line(f"{where}: {reason}"))


class UnknownName(PaperRobotError):
    """A ship, scenario or option name that does not exist; the message lists the known ones."""

    def __init__(self, kind: str, name: str, known: Iterable[str]) -> None:
        super().__init__(one_line(f"unknown {kind} '{name}'; choose one of: {', '.join(sorted(known))}"))


class IllegalAction(PaperRobotError):
    """A decision the engine rejects; the message names the rule it breaks."""

    def __init__(self, message: str, rule: str = ""):
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class SaveError(PaperRobotError):
    """A save file that cannot be read or does not fit this version of the program."""


class Interrupted(PaperRobotError):
    """The person stopped a long command (Ctrl-C) or it was terminated; the message says what was kept."""

    prefix = ""
    exit_code = 130


class DiceScriptError(AssertionError):
    """A scripted test rolled more dice than it scripted, or a scripted value does not fit the die (core.dice)."""
