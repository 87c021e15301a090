"""Armada's two sides, named once: the Imperial AI's (seed 003) and the Rebels' (the person's, or the policy's).
Apart from game.py so that the controllers (robot.py, player.py) need not import the engine."""
from __future__ import annotations

from typing import Final

# Final: compiled code reads them as constants, not through the module dictionary
IMPERIAL: Final = "imperial"
REBEL: Final = "rebel"
SIDES: Final[tuple[str, ...]] = (IMPERIAL, REBEL)
