"""The numbers an agent sees: which decision it is (request kind, stage of a form) and the game's own
fixed-length encoding of the side's view (each game documents its fields in ``GameInfo.observation_fields``)."""
from __future__ import annotations

import numpy as np

from ..core.registry import GameInfo
from .decisions import Decisions

STAGES = ("options", "preset", "field", "multi-field")
BOUND = 1e6  # every encoded number lies in [-BOUND, BOUND]


def observation_fields(info: GameInfo) -> tuple[str, ...]:
    """The name of every number of an observation, in order."""
    return (tuple(f"kind={k}" for k in info.kinds) + ("kind=other",) + tuple(f"stage={s}" for s in STAGES)
            + ("field index",) + tuple(info.observation_fields))


def size(info: GameInfo) -> int:
    return len(observation_fields(info))


def encode(info: GameInfo, decisions: Decisions | None, side: str) -> np.ndarray:
    out = np.zeros(size(info), dtype=np.float32)
    if decisions is None:  # the game is over: an all-zero observation
        return out
    request = decisions.request
    kinds = info.kinds
    out[kinds.index(request.kind) if request.kind in kinds else len(kinds)] = 1.0
    stage, field = decisions.stage()
    base = len(kinds) + 1
    out[base + stage] = 1.0
    out[base + len(STAGES)] = field
    if info.observe is not None:
        numbers = info.observe(request.view, side)
        start = base + len(STAGES) + 1
        out[start:start + len(numbers)] = numbers
    return np.clip(out, -BOUND, BOUND)
