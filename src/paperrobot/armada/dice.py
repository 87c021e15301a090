"""Armada's eight-sided dice (RRG 1.5 'Dice', p.5): faces, which colours reach which range, damage.

A die is rolled as a d8 through core Dice; the face is looked up in the colour's table below, which
holds the confirmed face counts (red 2 blank/2 hit/2 crit/1 accuracy/1 double hit; blue 4 hit/2 crit/
2 accuracy; black 2 blank/4 hit/2 hit+crit).
"""
from __future__ import annotations

from collections.abc import Iterable

from ..core.dice import Dice

RED, BLUE, BLACK = "R", "U", "K"
FACES = {
    RED: ("blank", "blank", "hit", "hit", "crit", "crit", "acc", "hit+hit"),
    BLUE: ("hit", "hit", "hit", "hit", "crit", "crit", "acc", "acc"),
    BLACK: ("blank", "blank", "hit", "hit", "hit", "hit", "hit+crit", "hit+crit"),
}
# Which colours may be gathered at each range band (RRG 'Attack' step 2).
ALLOWED = {"close": (RED, BLUE, BLACK), "medium": (RED, BLUE), "long": (RED,)}
SHIP_DAMAGE = {"blank": 0, "hit": 1, "crit": 1, "acc": 0, "hit+hit": 2, "hit+crit": 2}
SQUAD_DAMAGE = {"blank": 0, "hit": 1, "crit": 0, "acc": 0, "hit+hit": 2, "hit+crit": 1}
MEAN = {RED: 0.75, BLUE: 0.75, BLACK: 1.0}


def pool_at(dice: tuple[int, int, int], band: str | None) -> list[str]:
    """The colours of the dice gathered from (red, blue, black) at a range band ('close'/'medium'/'long')."""
    if band is None:
        return []
    allowed = ALLOWED[band]
    out: list[str] = []
    for colour, count in zip((RED, BLUE, BLACK), dice):
        if colour in allowed:
            out += [colour] * count
    return out


def roll_die(dice: Dice, colour: str, purpose: str, side: str) -> str:
    return FACES[colour][dice.roll(8, f"{colour} die: {purpose}", side) - 1]


def blue_face(value: int) -> str:
    """The face of a blue die rolled as a d8 (the AI's decision die): 'hit', 'crit' or 'acc'."""
    return FACES[BLUE][value - 1]


def roll_blue(dice: Dice, purpose: str, side: str = "imperial") -> str:
    return blue_face(dice.roll(8, f"blue die: {purpose}", side))


def damage(faces: Iterable[str], squadron: bool, bomber: int = False) -> int:
    """``bomber``: a bool, or the keyword's value (Squad.keyword: an int) as attacks.py passes it."""
    table = SQUAD_DAMAGE if squadron and not bomber else SHIP_DAMAGE
    return sum(table[f] for f in faces)


def has_crit(faces: Iterable[str]) -> bool:
    return any(f in ("crit", "hit+crit") for f in faces)
