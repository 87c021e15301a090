"""The numbers an agent sees: which decision it is (request kind, stage of a form) and a fixed-length
encoding of the side's JSON view, one named number at a time. Each game's view encoding is an
``Encoder`` registered in encoders.py (by games.py), so the game packages know nothing of environments."""
from __future__ import annotations

import numpy as np

from ..core.errors import PaperRobotError
from . import games  # noqa: F401  (registers the three games' encoders)
from .decisions import Decisions
from .encoders import ENCODERS, Encoder, register  # noqa: F401 (re-exported)

STAGES = ("options", "preset", "field", "multi-field")
BOUND = 1e6  # every encoded number lies in [-BOUND, BOUND]


def encoder(game: str) -> Encoder:
    if game not in ENCODERS:
        raise PaperRobotError(f"game '{game}' has no observation encoding for the environments yet")
    return ENCODERS[game]


def observation_fields(enc: Encoder) -> tuple[str, ...]:
    """The name of every number of an observation, in order."""
    return (tuple(f"kind={k}" for k in enc.kinds) + ("kind=other",) + tuple(f"stage={s}" for s in STAGES)
            + ("field index",) + tuple(enc.fields))


_SIZES: dict[int, tuple[Encoder, int]] = {}


def size(enc: Encoder) -> int:
    """The length of an observation (worked out once per encoder: encode asks at every step)."""
    hit = _SIZES.get(id(enc))
    if hit is None or hit[0] is not enc:
        hit = _SIZES[id(enc)] = (enc, len(observation_fields(enc)))
    return hit[1]


def encode(enc: Encoder, decisions: Decisions | None, side: str) -> np.ndarray:
    out = np.zeros(size(enc), dtype=np.float32)
    if decisions is None:  # the game is over: an all-zero observation
        return out
    request = decisions.request
    kinds = enc.kinds
    out[kinds.index(request.kind) if request.kind in kinds else len(kinds)] = 1.0
    stage, field = decisions.stage()
    base = len(kinds) + 1
    out[base + stage] = 1.0
    out[base + len(STAGES)] = field
    numbers = enc.observe(decisions.view(enc.agent_view), side)
    start = base + len(STAGES) + 1
    out[start:start + len(numbers)] = numbers
    return np.clip(out, -BOUND, BOUND)
