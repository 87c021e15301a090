"""Armada's two sides, named once: the Imperial AI's (seed 003) and the Rebels' (the person's, or the policy's).
Apart from game.py so that the controllers (robot.py, player.py) need not import the engine."""
from __future__ import annotations

IMPERIAL, REBEL = "imperial", "rebel"
SIDES = (IMPERIAL, REBEL)
