"""Movement: the impulse chart, turn modes, seeking-weapon steps (F2) and map-edge safety.

Hexes here are plain ``(q, r)`` axial pairs (core.hexgrid.Hex is a NamedTuple of the same shape).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable

from ..core.hexgrid import DIRECTIONS, Board, Hex, distance, neighbour, to_offset

STRAIGHT, LEFT, RIGHT = "straight", "left", "right"
STEER = {STRAIGHT: 0, LEFT: -1, RIGHT: 1}


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


def step(h: Hex, facing: int) -> Hex:
    """The hex ahead (core.hexgrid.neighbour, memoised there); ``h`` may be a plain (q, r) pair."""
    return neighbour(h, facing)


_CANDIDATES: dict[tuple[int, int, int, bool], tuple[tuple[str, int, Hex], ...]] = {}


def candidates(h: Hex, facing: int, can_turn: bool) -> tuple[tuple[str, int, Hex], ...]:
    """(steer, new facing, hex entered) for the legal moves; a turn is made just before the move (C3.1).

    Memoised: the same few thousand (hex, facing) pairs come up in every battle."""
    key = (h[0], h[1], facing, can_turn)
    found = _CANDIDATES.get(key)
    if found is None:
        out = [(STRAIGHT, facing, step(h, facing))]
        if can_turn:
            left, right = (facing - 1) % 6, (facing + 1) % 6
            out.append((LEFT, left, step(h, left)))
            out.append((RIGHT, right, step(h, right)))
        found = _CANDIDATES[key] = tuple(out)
    return found


def bearing_score(frm: Hex, facing: int, target: Hex) -> int:
    """How directly ``facing`` points from ``frm`` at ``target`` (cube dot product; larger = more ahead)."""
    vq, vr = target[0] - frm[0], target[1] - frm[1]
    dq, dr = DIRECTIONS[facing]
    return vq * dq + vr * dr + (vq + vr) * (dq + dr)


def seek_choice(h: Hex, facing: int, can_turn: bool, target: Hex,
                allowed: Callable[[str, int, Hex], bool] | None = None) -> tuple[str, int, Hex] | None:
    """The F2 special rule (no controlling player): straight ahead unless a 60-degree turn enters a hex
    strictly closer to the target than the straight-ahead hex; ties go straight.

    Tie between the two turns (docs/sfb.md "Seeking tie-break"): the turn whose new facing points more
    directly at the target; if still equal, the right (clockwise) turn.
    ``allowed(steer, facing, hex)`` may veto moves (the robot's map-edge rule); vetoed moves are skipped, and
    None means every move was vetoed. Without ``allowed`` there is always an answer (straight ahead is a candidate).
    """
    best = None
    best_key = None
    for steer, new_facing, dest in candidates(h, facing, can_turn):
        if allowed is not None and not allowed(steer, new_facing, dest):
            continue
        key = (distance(dest, target), 0 if steer == STRAIGHT else 1,
               -bearing_score(dest, new_facing, target), 0 if steer == RIGHT else 1)
        if best_key is None or key < best_key:
            best, best_key = (steer, new_facing, dest), key
    return best


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
