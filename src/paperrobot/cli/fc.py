"""Command-line front end for this game (registers its sub-commands; filled in by the game's work)."""
from __future__ import annotations

GAME = None  # set to "fc" once this game's commands exist


def register(groups) -> None:
    """Add this game's sub-commands to the verb groups (play, battle, simulate, assist)."""
