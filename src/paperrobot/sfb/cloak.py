"""The cadet cloaking device (seed 004 G13, SFB.CLOAK) as pure rules.

Declared once per turn, after energy allocation, for the whole turn, paid from the turn's energy at the
ship's cost (on its sheet: KR 8, Eagle 6). Cloaked: cannot fire or launch; direct fire at it uses the
effective range 2 x true + 5 (disruptors: hit roll at effective, damage at true range, E3.31); a seeking
weapon entering its hex rolls a die: 1-4 it misses and is removed, 5-6 it hits for half damage. The
first impulse of an uncloaked turn after a cloaked one: no fire, no launch.
Interpretations: docs/sfb-plasma-cloak.md.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core.dice import Dice, Roll
from ..core.errors import IllegalAction

CLOAK_RULE = "SFB.CLOAK"


@dataclass(slots=True)
class Cloak:
    """A ship's cloaking device. ``cost`` 0 = the ship has none."""

    cost: int
    cloaked: bool = False  # this turn
    was_cloaked: bool = False  # last turn (G13.33)

    def check_energy(self, points: int) -> None:
        """The energy-allocation cloak line: 0, or exactly the ship's cost (G13.32)."""
        if points and not self.cost:
            raise IllegalAction("this ship has no cloaking device; put 0 on the cloak line", CLOAK_RULE)
        if points not in (0, self.cost):
            raise IllegalAction(f"the cloak costs exactly {self.cost} energy a turn (or 0 to stay uncloaked), "
                                f"not {points}", CLOAK_RULE)

    def declare(self, want: bool, paid: int) -> bool:
        """G13.1: after energy allocation the ship announces cloaked or uncloaked for the whole turn.

        Cloaking needs this turn's cost paid; energy paid for a cloak that is not used is simply spent.
        """
        if want and (not self.cost or paid < self.cost):
            raise IllegalAction("the ship cannot cloak this turn: its cloak energy "
                                f"({self.cost or 'no device'}) was not allocated", CLOAK_RULE)
        self.was_cloaked, self.cloaked = self.cloaked, bool(want)
        return self.cloaked

    def may_fire(self, impulse: int) -> bool:
        """May the ship fire direct-fire weapons or launch seeking weapons on ``impulse`` (1..N) of this turn?"""
        return why_not_fire(self, impulse) == ""


def why_not_fire(cloak: Cloak | None, impulse: int) -> str:
    """"" if the ship may fire / launch on this impulse, else the reason (for IllegalAction messages)."""
    if cloak is None:
        return ""
    if cloak.cloaked:
        return "a cloaked ship cannot fire or launch weapons (G13.34)"
    if cloak.was_cloaked and impulse == 1:
        return "a ship that was cloaked last turn cannot fire or launch on impulse 1 of the turn it uncloaks (G13.33)"
    return ""


def effective_range(true_range: int, cloaked: bool) -> int:
    """G13.34: direct fire at a cloaked ship uses 2 x true range + 5; otherwise effective = true range."""
    return 2 * true_range + 5 if cloaked else true_range


def fire_ranges(kind: str, true_range: int, cloaked: bool) -> tuple[int, int]:
    """(range for the hit roll / damage chart, range for the damage) of one direct-fire weapon kind.

    Phasers and photons use the effective range for everything; disruptors roll to hit at the effective
    range but score damage by the true range (E3.31). Minimum ranges stay true-range rules (docs "Cloak:
    minimum and maximum ranges").
    """
    eff = effective_range(true_range, cloaked)
    if kind == "disruptor":
        return eff, true_range
    return eff, eff


def half(damage: int) -> int:
    """Half damage of a seeking weapon that strikes a cloaked ship, .5 rounded up (docs "Cloak: half damage")."""
    return (damage + 1) // 2


def seeking_roll(dice: Dice, damage: int, what: str, side: str) -> tuple[bool, int, Roll]:
    """G13.34: a seeking weapon entering a cloaked target's hex rolls one die: 1-4 miss (removed),
    5-6 hit for half damage. Returns (hits, damage it does, the roll)."""
    mark = dice.mark()
    value = dice.d6(f"{what} against a cloaked ship: 1-4 miss, 5-6 half damage", side)
    roll = dice.since(mark)[0]
    if value <= 4:
        return False, 0, roll
    return True, half(damage), roll
