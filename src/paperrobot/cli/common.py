"""Helpers shared by the game front ends: the console, failing cleanly, the registry of games."""
from __future__ import annotations

import sys
from typing import NoReturn

from rich.console import Console

from ..core.errors import PaperRobotError

console = Console(highlight=False)
GAME_MODULES: dict = {}  # game name -> its cli module (filled by main)


def fail(message: str) -> NoReturn:
    """Stop the command with one line on stderr and exit code 2."""
    raise PaperRobotError(message)


def say(text: str = "") -> None:
    console.print(text, highlight=False, markup=False, soft_wrap=True)
