"""The one source of chance. Every roll is recorded with its die, value, purpose and side.

Tests script the dice: ``Dice.scripted(4, 1, 6)`` makes the next three rolls 4, 1 and 6 and fails
loudly if the code under test rolls a die more than was scripted, so a test cannot pass by accident.
"""
from __future__ import annotations

import _random
import random
from collections import deque
from typing import Any, Callable, Final, NamedTuple

from .errors import DiceScriptError  # defined there: a compiled module cannot subclass AssertionError

# Dice rolled at a real table: (sides, purpose, side) -> the value a person rolled, or None for the seeded dice
Asker = Callable[[int, str, str], "int | None"]


class Roll(NamedTuple):
    sides: int  # 6 for a d6, 2 for a coin, 8 for an Armada die, ...
    value: int  # 1..sides
    purpose: str  # why it was rolled, e.g. "phaser-1 #2 at range 3"
    side: str  # who rolled it, e.g. "robot"

    def to_json(self) -> list[Any]:
        return [self.sides, self.value, self.purpose, self.side]

    @classmethod
    def from_json(cls, data: list[Any]) -> "Roll":
        return cls(int(data[0]), int(data[1]), str(data[2]), str(data[3]))

    def __str__(self) -> str:
        die = "coin" if self.sides == 2 else f"d{self.sides}"
        return f"{die}={self.value} ({self.purpose})"


_RANDOM: Final = random.Random
# random.Random's C methods, called as themselves: ``rng.random()`` is a method lookup by name at every roll, and
# ``rng.seed(n)`` runs random.py's interpreted seed(), which for an int does the C seed and clears gauss_next
_C_RANDOM: Final = _random.Random.random
_C_SEED: Final = _random.Random.seed
_unseeded: Final = random.Random.__new__  # a generator whose state is set next (Dice.restore)
_ROLLS: Final[dict[Any, Any]] = {}  # (sides, value, purpose, side) -> its Roll (values typed Any: kept as objects)
_ROLLS_LIMIT: Final = 1 << 14  # entries before the memo is cleared (purposes name drones and weapons: few per game)
_ROLL: Final = Roll  # the class as a constant (compiled, the name Roll is a module dictionary lookup)
_new_roll: Final = tuple.__new__  # Roll(...) without the NamedTuple constructor's Python-level call (every roll builds one)


class Dice:
    """Seeded dice. ``rolls`` is the full record, in order."""

    __slots__ = ("_rng", "_state", "_script", "_strict", "rolls", "seed", "asker", "unfit")

    def __init__(self, seed: int | None = 0, *, rng: random.Random | None = None) -> None:
        """``rng``: the generator to roll with, already in its state (restore), instead of one seeded from ``seed``."""
        self.seed = seed
        # (not its random() bound once here: copy.deepcopy keeps a builtin method as it is, so a deep copy's dice
        # would roll the original's generator)
        self._rng = rng if rng is not None else random.Random(seed)
        # A restored generator's state, set into it at the first roll: a fork reseeds before it rolls (or rolls
        # a few times replaying its requests), so most forks never pay for the state (setstate, about 3 us)
        self._state: tuple[Any, ...] | None = None
        self._script: deque[int] = deque()
        self._strict = False
        self.rolls: list[Roll] = []
        # Dice rolled at a real table: asker(sides, purpose, side) gives the value a person rolled, or None to let
        # the seeded dice roll this one. Set by the driver (core.contract) when a match's dice are "table".
        self.asker: Asker | None = None
        # A value a person scripted ('roll 7') that the die it feeds cannot show: unfit(value, sides, purpose, side)
        # gives the value to use instead, or None for the seeded die; it may raise to have the person asked again
        # (core.contract sets it for a match). Without it such a value is a DiceScriptError (a test's mistake).
        self.unfit: Any = None

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
                if self._strict or self.unfit is None:
                    raise DiceScriptError(f"scripted value {value} does not fit a {sides}-sided die ({purpose})")
                replaced: int | None = self.unfit(value, sides, purpose, side)  # None: the seeded die rolls
                value = replaced if replaced is not None else int(self._random() * sides) + 1
        elif self._strict:
            raise DiceScriptError(f"unscripted roll of a {sides}-sided die: {purpose} ({side})")
        else:
            asked = self.asker(sides, purpose, side) if self.asker is not None else None
            value = asked if asked is not None else int(self._random() * sides) + 1
        key: tuple[Any, ...] = (sides, value, purpose, side)  # one object (compiled), for the lookup and the Roll
        made = _ROLLS.get(key)  # a Roll is immutable: one per distinct roll, shared (building one is a generic call)
        if made is None:
            if len(_ROLLS) >= _ROLLS_LIMIT:
                _ROLLS.clear()
            made = _ROLLS[key] = _new_roll(_ROLL, key)
        self.rolls.append(made)
        return value

    def _random(self) -> float:
        state = self._state
        if state is not None:
            self._rng.setstate(state)
            self._state = None
        return _C_RANDOM(self._rng)  # self._rng.random(): a random.Random never overrides it

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

    # ------------------------------------------------------------------ clone and fork (core.contract.Match)
    def snapshot(self) -> tuple[Any, ...]:
        """Everything that decides the rolls to come, and the record so far. The record is only ever appended to,
        so the snapshot keeps the list and its length (a copy of the list at each boundary grew with the game)."""
        state = self._state if self._state is not None else self._rng.getstate()
        return (self.seed, state, tuple(self._script), self._strict, _Prefix(self.rolls))

    @classmethod
    def restore(cls, snapshot: tuple[Any, ...]) -> "Dice":
        """New dice that roll exactly what the dice of ``snapshot`` would have rolled from there on."""
        seed, state, script, strict, rolls = snapshot
        rng = _unseeded(_RANDOM)  # not seeded: the state is set at the first roll (_random)
        setattr(rng, "gauss_next", None)  # as seed() sets it: a copy or pickle of dice not yet rolled calls getstate()
        dice = Dice(seed, rng=rng)  # (the class itself: compiled, a call of ``cls`` is a generic call, every fork)
        dice._state = state
        if script:  # (else the new dice' own empty deque stands)
            dice._script = deque(script)
        dice._strict = strict
        dice.rolls = rolls.copy()
        dice.asker = None
        return dice

    def reseed(self, seed: int) -> None:
        """Fresh dice from here on (a fork): the record so far stays, nothing scripted is kept."""
        self.seed = seed
        self._state = None
        # as random.Random(seed) would be (this generator is these dice' own): Random.seed(seed) for an int, its C
        # part and the gauss_next it clears (in the state getstate gives), without random.py's interpreted frame
        rng: Any = self._rng
        _C_SEED(rng, seed)
        rng.gauss_next = None
        self._script.clear()
        self._strict = False


class _Prefix:
    """The first entries of an append-only list, kept without copying them; equal when the entries are."""

    __slots__ = ("items", "n")

    def __init__(self, items: list[Roll]) -> None:
        self.items, self.n = items, len(items)

    def copy(self) -> list[Roll]:
        return self.items[:self.n]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Prefix) and self.n == other.n and self.items[:self.n] == other.items[:other.n]

    def __hash__(self) -> int:
        return hash(self.n)


def derive_seed(base: int, index: int) -> int:
    """The seed of game ``index`` in a run started with seed ``base``: distinct, stable, order-free."""
    return (int(base) & 0xFFFFFFFF) << 32 | (int(index) & 0xFFFFFFFF)
