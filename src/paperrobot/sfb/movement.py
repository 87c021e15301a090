"""Movement: the impulse chart, turn modes, seeking-weapon steps (F2) and map-edge safety.

Hexes here are plain ``(q, r)`` axial pairs (core.hexgrid.Hex is a NamedTuple of the same shape).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, Final

from ..core.hexgrid import Board, Hex, _step_q, _step_r, distance, neighbour, to_offset

# Final: compiled, a module global that is not Final is a dictionary lookup at every read (these are read on every
# move); a Final str is a constant
STRAIGHT: Final = "straight"
LEFT: Final = "left"
RIGHT: Final = "right"
STEER: Final = {STRAIGHT: 0, LEFT: -1, RIGHT: 1}


@lru_cache(maxsize=None)
def move_chart(impulses: int) -> tuple[tuple[bool, ...], ...]:
    """``chart[speed][impulse]`` (impulse 1..N): does a unit of that speed move? (SFB.IMPULSES, C1.44)

    A unit of speed S in an N-impulse turn moves on impulse i iff floor(i*S/N) > floor((i-1)*S/N); this
    reproduces every cell of the printed 8- and 16-impulse charts (reference §A3).
    """
    chart = []
    for speed in range(0, impulses + 1):
        row = [False] + [(i * speed) // impulses > ((i - 1) * speed) // impulses for i in range(1, impulses + 1)]
        chart.append(tuple(row))
    return tuple(chart)


# Every Hex within +-_SPAN of the origin, made once when first stepped into, at (q + _SPAN) * _SIDE + r + _SPAN: a
# battle steps into the same few hundred hexes again and again, and reading one from a list costs less than
# building it (hexgrid.neighbour) or finding it in a dict keyed by position
_SPAN: Final = 128
_SIDE: Final = 256
_HEXES: Final[list[Hex | None]] = [None] * (_SIDE * _SIDE)


def step(h: Hex, facing: int) -> Hex:
    """The hex ahead (core.hexgrid.neighbour's value); ``h`` may be a plain (q, r) pair."""
    f = facing % 6
    q, r = h[0] + _step_q(f), h[1] + _step_r(f)
    if -_SPAN <= q < _SPAN and -_SPAN <= r < _SPAN:
        at = (q + _SPAN) * _SIDE + r + _SPAN
        found = _HEXES[at]
        if found is None:
            found = _HEXES[at] = neighbour(h, facing)
        return found
    return neighbour(h, facing)


def candidates(h: Hex, facing: int, can_turn: bool) -> tuple[tuple[str, int, Hex], ...]:
    """(steer, new facing, hex entered) for the legal moves; a turn is made just before the move (C3.1).

    Not memoised: a process-wide memo held every (hex, facing) of every battle, several megabytes of tuples, and
    reading one that missed the processor's caches cost more than building the seven small tuples anew."""
    if not can_turn:
        return ((STRAIGHT, facing, step(h, facing)),)
    left, right = (facing - 1) % 6, (facing + 1) % 6
    return ((STRAIGHT, facing, step(h, facing)), (LEFT, left, step(h, left)), (RIGHT, right, step(h, right)))


def bearing_score(frm: Hex, facing: int, target: Hex) -> int:
    """How directly ``facing`` points from ``frm`` at ``target`` (cube dot product; larger = more ahead)."""
    vq, vr = target[0] - frm[0], target[1] - frm[1]
    # vq * dq + vr * dr + (vq + vr) * (dq + dr) with (dq, dr) = DIRECTIONS[facing], written out per facing: compiled,
    # a product with a negative factor leaves mypyc's fast path for Python's (a boxed multiplication)
    f = facing % 6
    if f == 0:
        return -vq - vr - vr
    if f == 1:
        return vq - vr
    if f == 2:
        return vq + vq + vr
    if f == 3:
        return vq + vr + vr
    if f == 4:
        return vr - vq
    return -vq - vq - vr


def seek_choice(h: Hex, facing: int, can_turn: bool, target: Hex,
                allowed: Callable[[str, int, Hex], bool] | None = None) -> tuple[str, int, Hex] | None:
    """The F2 special rule (no controlling player): straight ahead unless a 60-degree turn enters a hex
    strictly closer to the target than the straight-ahead hex; ties go straight.

    Tie between the two turns (docs/sfb.md "Seeking tie-break"): the turn whose new facing points more
    directly at the target; if still equal, the right (clockwise) turn.
    ``allowed(steer, facing, hex)`` may veto moves (the robot's map-edge rule); vetoed moves are skipped, and
    None means every move was vetoed. Without ``allowed`` there is always an answer (straight ahead is a candidate).
    """
    best: Hex | None = None  # the best move's hex; its steer and facing below
    best_steer, best_facing = STRAIGHT, facing
    bd = bs = bb = br = 0  # the best move's key (distance, turned, -bearing, not right), compared item by item
    for i in range(3 if can_turn else 1):
        # ``candidates``' moves in its order (straight, left, right), without building its tuples
        if i == 0:
            steer, new_facing = STRAIGHT, facing
        elif i == 1:
            steer, new_facing = LEFT, (facing - 1) % 6
        else:
            steer, new_facing = RIGHT, (facing + 1) % 6
        dest = step(h, new_facing)
        if allowed is not None and not allowed(steer, new_facing, dest):
            continue
        d = distance(dest, target)
        s = 0 if i == 0 else 1  # straight first
        b = -bearing_score(dest, new_facing, target)
        rt = 0 if i == 2 else 1  # then the right turn
        if best is None or d < bd or (d == bd and (s < bs or (s == bs and (b < bb or (b == bb and rt < br))))):
            best, best_steer, best_facing, bd, bs, bb, br = dest, steer, new_facing, d, s, b, rt
    return None if best is None else (best_steer, best_facing, best)


@lru_cache(maxsize=None)
def viable_states(cols: int, rows: int, tm: int) -> frozenset[tuple[int, int, int, int]]:
    """States (q, r, facing, straight) from which a ship of turn mode ``tm`` can keep moving forever
    without leaving a cols x rows map (SFB.R3.MAP; docs/sfb.md "Map edge").

    ``straight`` counts hexes moved straight since the last turn, capped at ``tm``. Computed once per map
    and turn mode by removing states with no viable successor until nothing changes.
    """
    board = Board(cols, rows)
    cells = []
    for col in range(1, cols + 1):
        for row in range(1, rows + 1):
            q = col
            r = row - (col + (col & 1)) // 2
            cells.append((q, r))
    states = {(q, r, f, s) for (q, r) in cells for f in range(6) for s in range(1, tm + 1)}
    changed = True
    while changed:
        changed = False
        for state in list(states):
            q, r, f, s = state
            ok = False
            for steer, nf, dest in candidates(Hex(q, r), f, s >= tm):
                if not board.contains(dest):
                    continue
                ns = min(tm, s + 1) if steer == STRAIGHT else 1
                if (dest[0], dest[1], nf, ns) in states:
                    ok = True
                    break
            if not ok:
                states.discard(state)
                changed = True
    return frozenset(states)


def state_index(cols: int, rows: int, tm: int, q: int, r: int, facing: int, straight: int) -> int:
    """The place of a move's state (q, r, facing 0-5, hexes straight 1..tm) in ``viable_bits``' table; -1 off the
    map or out of range (no such state is viable)."""
    row = r + ((q + (q & 1)) >> 1)  # the printed row of column q (hexgrid.to_offset)
    if not (1 <= q <= cols and 1 <= row <= rows and 0 <= facing < 6 and 1 <= straight <= tm):
        return -1
    return (((q - 1) * rows + row - 1) * 6 + facing) * tm + straight - 1


@lru_cache(maxsize=None)
def viable_bits(cols: int, rows: int, tm: int) -> bytes:
    """``viable_states`` as a table of one byte per state (1: viable), indexed by ``state_index``: what the
    engine's, the robot's and the policy's move tests read (a set of 4-tuples was built, hashed and compared at
    every test, and a set of several thousand entries misses the processor's caches)."""
    table = bytearray(cols * rows * 6 * tm)
    for q, r, f, s in viable_states(cols, rows, tm):
        table[state_index(cols, rows, tm, q, r, f, s)] = 1
    return bytes(table)


def on_board(board: Board, h: Hex) -> bool:
    col, row = to_offset(Hex(h[0], h[1]))
    return 1 <= col <= board.cols and 1 <= row <= board.rows


@lru_cache(maxsize=None)
def board_cells(cols: int, rows: int) -> frozenset[Hex]:
    """Every hex of a cols x rows map (membership is much cheaper than Board.contains)."""
    return frozenset(Hex(col, row - (col + (col & 1)) // 2) for col in range(1, cols + 1) for row in range(1, rows + 1))


@lru_cache(maxsize=None)
def edge_hexes(cols: int, rows: int) -> frozenset[Hex]:
    board = Board(cols, rows)
    return frozenset(Hex(q, r) for q in range(0, cols + 2) for r in range(-cols, rows + 2)
                     if board.is_edge(Hex(q, r)))
