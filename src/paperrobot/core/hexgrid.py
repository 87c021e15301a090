"""The SFB / Federation Commander hex grid.

Printed labels are ``CCRR`` (column, row, both from 01); even-numbered columns sit half a hex lower
(flat-topped hexes in vertical columns). Inside, hexes are axial coordinates ``Hex(q, r)``; the third
cube coordinate is ``-q-r``. Facings are 0..5 for A..F, clockwise, A toward lower row numbers.

Arcs: a 60-degree arc is the closed wedge between two straight hex rows running out from the ship;
hexes on a boundary row belong to both neighbouring arcs (SFB D2.1, reference sfb-cadet §A5).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

FACINGS = "ABCDEF"
CACHE_LIMIT: Final = 1 << 18  # entries of each memo below before it is cleared (see facing_toward)
# The memos below are keyed by one int packing a hex vector or position and a facing: no key tuple is built,
# hashed and compared on every call (compiled, the int is unboxed until the lookup). Coordinates beyond +-_BOUND
# (never on a map, but a floating map has no edge) are worked out without the memo.
_BOUND: Final = 1 << 20


class Hex(NamedTuple):
    q: int
    r: int

    def __add__(self, other: tuple[int, int]) -> Hex:  # type: ignore[override]
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: tuple[int, int]) -> Hex:
        return Hex(self.q - other[0], self.r - other[1])


# A position read by index: a Hex, or a plain (q, r) pair (the hot paths below accept either)
Pos = tuple[int, int]

# Axial steps for facings A..F (flat-topped, even-q layout): A up, then clockwise.
DIRECTIONS: tuple[Hex, ...] = (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0))


def from_offset(col: int, row: int) -> Hex:
    return Hex(col, row - (col + (col & 1)) // 2)


def to_offset(h: Hex) -> tuple[int, int]:
    return h.q, h.r + (h.q + (h.q & 1)) // 2


def parse(label: str) -> Hex:
    """``"0608"`` -> the hex of column 6, row 8. Raises ValueError with a clear message."""
    text = str(label).strip()
    if len(text) != 4 or not text.isdigit():
        raise ValueError(f"'{label}' is not a hex label; write four digits, column then row, e.g. 0608")
    col, row = int(text[:2]), int(text[2:])
    if col < 1 or row < 1:
        raise ValueError(f"'{label}' is not a hex label; column and row start at 01")
    return from_offset(col, row)


def label(h: Hex) -> str:
    col, row = to_offset(h)
    return f"{col:02d}{row:02d}" if col >= 0 and row >= 0 else f"({col},{row})"


def facing_index(letter: str) -> int:
    letter = str(letter).strip().upper()
    if len(letter) != 1 or letter not in FACINGS:
        raise ValueError(f"'{letter}' is not a facing; use one of A-F")
    return FACINGS.index(letter)


def facing_letter(f: int) -> str:
    return FACINGS[f % 6]


_new_hex: Final = tuple.__new__  # Hex(q, r) without the NamedTuple constructor's Python-level call
_HEX: Final = Hex  # the class as a constant (compiled, the name Hex is looked up in the module dictionary)


def _step_q(f: int) -> int:
    """DIRECTIONS[f].q for a facing 0-5, as arithmetic (compiled, a Final tuple would be built at every use)."""
    return 1 if f == 1 or f == 2 else (-1 if f >= 4 else 0)


def _step_r(f: int) -> int:
    """DIRECTIONS[f].r for a facing 0-5: the q step of the facing two to the left."""
    return _step_q((f + 4) % 6)


def _packed(q: int, r: int, facing: int) -> int:
    """One memo key for a hex (or a hex vector) and a facing 0-5; -1 beyond +-_BOUND (no memo)."""
    if -_BOUND < q < _BOUND and -_BOUND < r < _BOUND:
        return (((q + _BOUND) << 21) | (r + _BOUND)) << 3 | facing
    return -1


def neighbour(h: Hex, facing: int) -> Hex:
    """The adjacent hex in direction ``facing`` (any integer; taken mod 6). Not memoised: on a floating map a
    memo of positions grows large, and a lookup that misses the processor's caches costs more than building the
    Hex (through tuple.__new__, not the NamedTuple's Python-level constructor)."""
    f = facing % 6
    return _new_hex(_HEX, (h[0] + _step_q(f), h[1] + _step_r(f)))


def neighbours(h: Hex) -> list[Hex]:
    return [Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS]


def distance(a: Pos, b: Pos) -> int:
    """True range: hexes on the shortest path, counting the target's hex, not the firer's.

    Reads the pair by index, so plain (q, r) tuples work too; this is on every game's hot path."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    s = dq + dr
    return ((dq if dq > 0 else -dq) + (dr if dr > 0 else -dr) + (s if s > 0 else -s)) >> 1


def turn(facing: int, steps: int) -> int:
    """Facing after ``steps`` 60-degree turns (positive = right/clockwise)."""
    return (facing + steps) % 6


# ----------------------------------------------------------------------------------- arcs

# Each 60-degree arc as (first, second) bounding rows, in facing steps relative to the ship's facing.
BASIC_ARCS: dict[str, tuple[int, int]] = {
    "RF": (0, 1), "R": (1, 2), "RR": (2, 3), "LR": (3, 4), "L": (4, 5), "LF": (5, 0),
}
# The half arcs Federation Commander cards use: FH is everything forward of the beam line through the ship
# (the beam row itself included), RH everything aft of it. ``in_arc`` tests them as half-planes; for widths
# (which 60-degree sectors a weapon covers) FH counts as LF, RF, L, R and RH as L, R, LR, RR.
HALF_ARCS: dict[str, tuple[str, ...]] = {"FH": ("LF", "RF", "L", "R"), "RH": ("L", "R", "LR", "RR")}
COMBINED_ARCS: dict[str, tuple[str, ...]] = {
    "FA": ("LF", "RF"), "RA": ("LR", "RR"), "FX": ("L", "LF", "RF", "R"), "RX": ("L", "LR", "RR", "R"),
    "LS": ("LF", "L", "LR"), "RS": ("RF", "R", "RR"), "360": ("RF", "R", "RR", "LR", "L", "LF"),
}


@lru_cache(maxsize=None)
def arc_parts(arc: str) -> tuple[str, ...]:
    """The basic 60-degree arcs that make up an arc name such as ``FA``, ``LR+L`` or ``L+FA``."""
    parts: list[str] = []
    for piece in arc.upper().replace(" ", "").split("+"):
        if piece in BASIC_ARCS:
            found: tuple[str, ...] = (piece,)
        elif piece in COMBINED_ARCS:
            found = COMBINED_ARCS[piece]
        else:
            raise ValueError(f"unknown firing arc '{piece}' in '{arc}'; use LF, RF, L, R, LR, RR, FA, RA, FX, RX, "
                             f"LS, RS, 360 or '+' joins of them")
        parts.extend(p for p in found if p not in parts)
    return tuple(parts)


def _wedge(vq: int, vr: int, d1: int, d2: int) -> bool:
    """Is the vector (vq, vr) = a*D[d1] + b*D[d2] with a, b >= 0 (d2 = d1 + 1, clockwise)?"""
    a1, b1 = _step_q(d1), _step_r(d1)
    a2, b2 = _step_q(d2), _step_r(d2)
    det = a1 * b2 - a2 * b1  # +-1 for adjacent directions
    a = (vq * b2 - a2 * vr) * det
    b = (a1 * vr - vq * b1) * det
    return a >= 0 and b >= 0


# The games' hot paths ask arcs and shield directions tens of thousands of times per hundred battles, and
# the answers depend only on the relative vector (and facing, arc): memoised here in plain dicts, the one set
# of geometry caches for every hex game (a dict lookup is cheaper than an lru_cache wrapper).
# Each is cleared if it ever grows past CACHE_LIMIT entries (a floating map has no edge to bound the vectors).
# in_arc has no memo of vectors: an arc name's shape (_arc_shape) is read once, and the vector's 60-degree wedges
# are worked out from the signs of its cube coordinates (_wedge_bits), which costs less than a lookup in a memo
# that grows large (FC's floating map).
_ARC_SHAPES: Final[dict[str, tuple[int, ...]]] = {}
_TOWARD_CACHE: Final[dict[int, tuple[int, ...]]] = {}
_SHIELD_CACHE: Final[dict[int, tuple[int, ...]]] = {}


def in_arc(ship: Pos, facing: int, arc: str, target: Pos) -> bool:
    """Is ``target`` inside ``arc`` of a ship at ``ship`` facing ``facing``?

    A target in the ship's own hex is inside every arc here; range-0 rules (direction judged from the
    previous impulse's positions) are the engine's business. Positions are read by index, so plain
    (q, r) pairs work too.
    """
    return in_shape(ship, facing, arc_shape(arc), target)


def arc_shape(arc: str) -> tuple[int, ...]:
    """``arc``'s shape (_arc_shape), for ``in_shape``: looked up once where one arc is tested many times (a
    constant arc, or one weapon's at several facings), not at every test."""
    shape = _ARC_SHAPES.get(arc)
    return shape if shape is not None else _arc_shape(arc)


def in_shape(ship: Pos, facing: int, shape: tuple[int, ...], target: Pos) -> bool:
    """``in_arc(ship, facing, arc, target)`` with the arc's shape given (``arc_shape(arc)``)."""
    dq, dr, f = target[0] - ship[0], target[1] - ship[1], facing % 6
    if shape[f] & _wedge_bits(dq, dr):
        return True
    halves = shape[6]
    if halves:
        dot = _beam_dot(dq, dr, f)
        return (halves & 1 != 0 and dot >= 0) or (halves & 2 != 0 and dot <= 0)
    return False


def _arc_shape(arc: str) -> tuple[int, ...]:
    """``arc``'s pieces (_arc_tests) for facings 0-5 as seven ints: for each facing the bit mask of the 60-degree
    wedges it holds (bit d: the wedge between directions d and d + 1), then its halves (1: FH, 2: RH)."""
    masks: list[int] = []
    halves = 0
    for facing in range(6):
        mask = 0
        for kind, d1, _ in _arc_tests(facing, arc):
            if kind == WEDGE:
                mask |= 1 << d1
            else:
                halves |= 1 if kind == FRONT_HALF else 2
        masks.append(mask)
    shape = _ARC_SHAPES[arc] = tuple(masks) + (halves,)
    return shape


def _wedge_bits(dq: int, dr: int) -> int:
    """Bit d set: the vector (dq, dr) lies in the wedge between directions d and d + 1 (_wedge, by the signs of
    its cube coordinates: on a direction row it is in both wedges beside it, the zero vector in all six)."""
    ds = -dq - dr
    bits = 0
    if dq >= 0 and ds >= 0:
        bits |= 1
    if dr <= 0 and ds <= 0:
        bits |= 2
    if dq >= 0 and dr >= 0:
        bits |= 4
    if dq <= 0 and ds <= 0:
        bits |= 8
    if dr >= 0 and ds >= 0:
        bits |= 16
    if dq <= 0 and dr <= 0:
        bits |= 32
    return bits


def _in_arc(dq: int, dr: int, facing: int, arc: str) -> bool:
    """in_arc test by test (the definition in_arc's shapes and wedge bits are checked against: tests/core)."""
    for kind, d1, d2 in _arc_tests(facing, arc):
        if kind == WEDGE:
            if _wedge(dq, dr, d1, d2):
                return True
        elif kind == FRONT_HALF:
            if _beam_dot(dq, dr, facing) >= 0:
                return True
        elif _beam_dot(dq, dr, facing) <= 0:
            return True
    return False


WEDGE: Final = 0
FRONT_HALF: Final = 1
REAR_HALF: Final = 2


@lru_cache(maxsize=None)
def _arc_tests(facing: int, arc: str) -> tuple[tuple[int, int, int], ...]:
    """What ``arc`` of a ship facing ``facing`` is made of: (WEDGE, d1, d2) for each basic 60-degree arc, the
    directions d1 and d2 = d1 + 1 bounding it, and (FRONT_HALF or REAR_HALF, 0, 0) for FH and RH. A name is
    read once, not on every cache miss."""
    tests = []
    for piece in arc.upper().replace(" ", "").split("+"):
        if piece in HALF_ARCS:  # a half-plane, not a union of wedges: see HALF_ARCS
            tests.append((FRONT_HALF if piece == "FH" else REAR_HALF, 0, 0))
            continue
        for part in arc_parts(piece):
            first, second = BASIC_ARCS[part]
            tests.append((WEDGE, (facing + first) % 6, (facing + second) % 6))
    return tuple(tests)


def _beam_dot(dq: int, dr: int, facing: int) -> int:
    """Four times the Cartesian dot product of a hex vector with the facing direction (flat-top hexes)."""
    f = facing % 6
    fq, fr = _step_q(f), _step_r(f)
    return 9 * dq * fq + 3 * (2 * dr + dq) * (2 * fr + fq)


def arcs_containing(ship: Hex, facing: int, target: Hex) -> tuple[str, ...]:
    """The basic arcs (one, or two on a boundary row) that hold ``target``."""
    return tuple(name for name in BASIC_ARCS if in_arc(ship, facing, name, target))


# ----------------------------------------------------------------------------------- shields


_DIRECTION_CUBES = tuple((d.q, -d.q - d.r, d.r) for d in DIRECTIONS)  # cube (x, y, z) of each direction


def facing_toward(origin: Pos, toward: Pos) -> tuple[int, ...]:
    """The directions (0..5) from ``origin`` that point most nearly at ``toward``: one, or two on a boundary."""
    dq, dr = toward[0] - origin[0], toward[1] - origin[1]
    key = _packed(dq, dr, 0)
    hit = _TOWARD_CACHE.get(key)
    if hit is None:
        hit = _toward(dq, dr)
        if key >= 0:
            if len(_TOWARD_CACHE) >= CACHE_LIMIT:
                _TOWARD_CACHE.clear()
            _TOWARD_CACHE[key] = hit
    return hit


def _toward(dq: int, dr: int) -> tuple[int, ...]:
    if dq == 0 and dr == 0:
        return ()
    dots = [dq * x + (-dq - dr) * y + dr * z for x, y, z in _DIRECTION_CUBES]
    best = max(dots)
    return tuple(i for i, dot in enumerate(dots) if dot == best)


def shields_facing(target: Pos, facing: int, source: Pos) -> tuple[int, ...]:
    """Shield numbers (1..6) of a ship at ``target`` facing ``facing`` that face ``source``.

    Shield #1 faces the hex ahead, numbered clockwise. Two numbers mean the line runs along a hexside
    between two shields (cadet rule D3.41: a die roll decides). None when ``source`` is ``target``'s hex.
    """
    dq, dr, f = source[0] - target[0], source[1] - target[1], facing % 6
    key = _packed(dq, dr, f)
    hit = _SHIELD_CACHE.get(key)
    if hit is None:
        hit = tuple(((d - f) % 6) + 1 for d in facing_toward((0, 0), (dq, dr)))
        if key >= 0:
            if len(_SHIELD_CACHE) >= CACHE_LIMIT:
                _SHIELD_CACHE.clear()
            _SHIELD_CACHE[key] = hit
    return hit


def first_shield(target: Pos, facing: int, source: Pos) -> int:
    """``shields_facing(target, facing, source)[0]`` (0 when ``source`` is ``target``'s hex), worked out without a
    memo or a tuple: the direction of the greatest dot product with the vector, the first of equals (_toward).

    The dot products with the six direction cubes (_DIRECTION_CUBES) are differences of the vector's cube
    coordinates, written out: compiled, a product with a negative factor leaves mypyc's fast path for Python's
    (a boxed multiplication)."""
    dq, dr = source[0] - target[0], source[1] - target[1]
    if dq == 0 and dr == 0:
        return 0
    ds = -dq - dr
    best, best_d = ds - dr, 0
    dot = dq - dr
    if dot > best:
        best, best_d = dot, 1
    dot = dq - ds
    if dot > best:
        best, best_d = dot, 2
    dot = dr - ds
    if dot > best:
        best, best_d = dot, 3
    dot = dr - dq
    if dot > best:
        best, best_d = dot, 4
    dot = ds - dq
    if dot > best:
        best_d = 5
    return ((best_d - facing % 6) % 6) + 1


_SIGHT_CACHE: Final[dict[str, dict[int, tuple[int, bool, tuple[int, ...]]]]] = {}


def sight(ship: Pos, facing: int, arc: str, target: Pos) -> tuple[int, bool, tuple[int, ...]]:
    """``(distance, in_arc, shields_facing)`` of ``target`` for a ship at ``ship`` facing ``facing``, in one memo
    lookup: what a move's score asks of each candidate hex (the SFB policy asks it of three hexes per move)."""
    dq, dr, f = target[0] - ship[0], target[1] - ship[1], facing % 6
    key = _packed(dq, dr, f)
    memo = _SIGHT_CACHE.get(arc)
    if memo is None:
        memo = _SIGHT_CACHE[arc] = {}
    hit = memo.get(key)
    if hit is None:
        origin: Pos = (0, 0)
        there: Pos = (dq, dr)
        hit = (distance(origin, there), in_arc(origin, facing, arc, there), shields_facing(origin, facing, there))
        if key >= 0:
            if len(memo) >= CACHE_LIMIT:
                memo.clear()
            memo[key] = hit
    return hit


def shield_facing_direction(facing: int, direction: int) -> int:
    """The shield (1..6) of a ship facing ``facing`` that faces compass direction ``direction``."""
    return ((direction - facing) % 6) + 1


# ----------------------------------------------------------------------------------- the map

class Board(NamedTuple):
    """A rectangular map in printed labels: columns 1..cols, rows 1..rows."""

    cols: int
    rows: int

    def contains(self, h: Hex) -> bool:
        col, row = to_offset(h)
        return 1 <= col <= self.cols and 1 <= row <= self.rows

    def is_edge(self, h: Hex) -> bool:
        """A hex on the map with at least one neighbour off the map."""
        return self.contains(h) and not all(self.contains(n) for n in neighbours(h))

    def edges_crossed(self, h: Hex) -> set[str]:
        """For a hex off the map: which edges it lies beyond ("top", "bottom", "left", "right")."""
        col, row = to_offset(h)
        out = set()
        if col < 1:
            out.add("left")
        if col > self.cols:
            out.add("right")
        if row < 1:
            out.add("top")
        if row > self.rows:
            out.add("bottom")
        return out
