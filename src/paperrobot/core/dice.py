"""The one source of chance. Every roll is recorded with its die, value, purpose and side.

Tests script the dice: ``Dice.scripted(4, 1, 6)`` makes the next three rolls 4, 1 and 6 and fails
loudly if the code under test rolls a die more than was scripted, so a test cannot pass by accident.
"""
from __future__ import annotations

import random
from collections import deque
from typing import NamedTuple


class Roll(NamedTuple):
    sides: int  # 6 for a d6, 2 for a coin, 8 for an Armada die, ...
    value: int  # 1..sides
    purpose: str  # why it was rolled, e.g. "phaser-1 #2 at range 3"
    side: str  # who rolled it, e.g. "robot"

    def to_json(self) -> list:
        return [self.sides, self.value, self.purpose, self.side]

    @classmethod
    def from_json(cls, data: list) -> "Roll":
        return cls(int(data[0]), int(data[1]), str(data[2]), str(data[3]))

    def __str__(self) -> str:
        die = "coin" if self.sides == 2 else f"d{self.sides}"
        return f"{die}={self.value} ({self.purpose})"


class DiceScriptError(AssertionError):
    """A scripted test rolled more dice than it scripted, or a scripted value does not fit the die."""


class Dice:
    """Seeded dice. ``rolls`` is the full record, in order."""

    __slots__ = ("_rng", "_script", "_strict", "rolls", "seed", "asker")

    def __init__(self, seed: int | None = 0):
        self.seed = seed
        self._rng = random.Random(seed)
        self._script: deque[int] = deque()
        self._strict = False
        self.rolls: list[Roll] = []
        # Dice rolled at a real table: asker(sides, purpose, side) gives the value a person rolled, or None to let
        # the seeded dice roll this one. Set by the driver (core.contract) when a match's dice are "table".
        self.asker = None

    @classmethod
    def scripted(cls, *values: int) -> "Dice":
        """Dice that return exactly ``values`` and then refuse to roll again."""
        dice = cls(seed=None)
        dice._strict = True
        dice.script(*values)
        return dice

    def script(self, *values: int) -> None:
        """Force the next rolls (after any already scripted)."""
        self._script.extend(int(v) for v in values)

    @property
    def pending(self) -> int:
        """How many scripted values have not been used yet."""
        return len(self._script)

    def roll(self, sides: int, purpose: str, side: str = "") -> int:
        if self._script:
            value = self._script.popleft()
            if not 1 <= value <= sides:
                raise DiceScriptError(f"scripted value {value} does not fit a {sides}-sided die ({purpose})")
        elif self._strict:
            raise DiceScriptError(f"unscripted roll of a {sides}-sided die: {purpose} ({side})")
        else:
            value = self.asker(sides, purpose, side) if self.asker is not None else None
            if value is None:
                value = int(self._rng.random() * sides) + 1
        self.rolls.append(Roll(sides, value, purpose, side))
        return value

    def d6(self, purpose: str, side: str = "") -> int:
        return self.roll(6, purpose, side)

    def coin(self, purpose: str, side: str = "") -> bool:
        """True for heads."""
        return self.roll(2, purpose, side) == 1

    def mark(self) -> int:
        """A bookmark into the record; ``since(mark)`` returns the rolls made after it."""
        return len(self.rolls)

    def since(self, mark: int) -> tuple[Roll, ...]:
        return tuple(self.rolls[mark:])


def derive_seed(base: int, index: int) -> int:
    """The seed of game ``index`` in a run started with seed ``base``: distinct, stable, order-free."""
    return (int(base) & 0xFFFFFFFF) << 32 | (int(index) & 0xFFFFFFFF)
