"""Armada's eight-sided dice (RRG 1.5 'Dice', p.5): faces, which colours reach which range, damage.

A die is rolled as a d8 through core Dice; the face is looked up in the colour's table below, which
holds the confirmed face counts (red 2 blank/2 hit/2 crit/1 accuracy/1 double hit; blue 4 hit/2 crit/
2 accuracy; black 2 blank/4 hit/2 hit+crit).
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Final

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


# each die's record text ("R die: <purpose>"), made once per colour and purpose and then shared: a roll's record is
# looked up by its text (core Dice.roll), and a string kept has its hash kept (one built per die was hashed anew)
_TEXTS: Final[dict[tuple[str, str], str]] = {}
# the texts of an attack's dice, by attacker and defender: "<colour> die: <attacker> at <defender>" for each colour
_ATTACK_TEXTS: Final[dict[tuple[str, str], dict[str, str]]] = {}


def die_text(colour: str, purpose: str) -> str:
    """f"{colour} die: {purpose}", made once (a shared string)."""
    text = _TEXTS.get((colour, purpose))
    if text is None:
        if len(_TEXTS) > 4096:  # bounded: purposes are a few fixed phrases
            _TEXTS.clear()
        text = _TEXTS[(colour, purpose)] = f"{colour} die: {purpose}"
    return text


def attack_texts(attacker: str, defender: str) -> dict[str, str]:
    """die_text(colour, f"{attacker} at {defender}") for each colour, made once per attacker and defender (uids)."""
    texts = _ATTACK_TEXTS.get((attacker, defender))
    if texts is None:
        if len(_ATTACK_TEXTS) > 4096:  # bounded: the pairs of a few fleets' units
            _ATTACK_TEXTS.clear()
        texts = _ATTACK_TEXTS[(attacker, defender)] = {c: f"{c} die: {attacker} at {defender}" for c in FACES}
    return texts


def roll_face(dice: Dice, colour: str, text: str, side: str) -> str:
    """A die of ``colour`` rolled with its record text (die_text, attack_texts)."""
    return FACES[colour][dice.roll(8, text, side) - 1]


def roll_die(dice: Dice, colour: str, purpose: str, side: str) -> str:
    return FACES[colour][dice.roll(8, die_text(colour, purpose), side) - 1]


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
