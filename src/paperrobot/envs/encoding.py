"""The numbers an agent sees: which decision it is (request kind, stage of a form) and a fixed-length
encoding of the side's JSON view, one named number at a time. Each game's view encoding is an
``Encoder`` registered here (games.py), so the game packages know nothing of environments."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .decisions import Decisions

STAGES = ("options", "preset", "field", "multi-field")
BOUND = 1e6  # every encoded number lies in [-BOUND, BOUND]


@dataclass(frozen=True)
class Encoder:
    """How one game looks to an agent."""

    kinds: tuple[str, ...]  # the request kinds the game asks
    fields: tuple[str, ...]  # the name of each number ``observe`` returns
    observe: Callable[[Any, str], list[float]]  # (request.view, side) -> numbers, len(fields) of them
    max_choices: int = 64  # the most choices one small decision offers (the action space)
    # for reward="shaped" (rewards.py): view -> {unit id: (side, damage level)}, where a rise of a unit's level
    # is damage that unit took; the scale that turns damage points into reward; and the view after the end
    # (engine, side) -> view, which no request carries
    damage: Callable[[Any], dict[str, tuple[str, float]]] | None = None
    damage_scale: float = 0.0
    end_view: Callable[[Any, str], Any] | None = None
    # request kind -> how to split its option keys into parts chosen one at a time (decisions.py)
    split: dict[str, Callable[[str], tuple]] = field(default_factory=dict)


ENCODERS: dict[str, Encoder] = {}


def register(game: str, encoder: Encoder) -> None:
    ENCODERS[game] = encoder


def encoder(game: str) -> Encoder:
    from . import games  # noqa: F401  (registers the three games' encoders)
    if game not in ENCODERS:
        from ..core.errors import PaperRobotError
        raise PaperRobotError(f"game '{game}' has no observation encoding for the environments yet")
    return ENCODERS[game]


def observation_fields(enc: Encoder) -> tuple[str, ...]:
    """The name of every number of an observation, in order."""
    return (tuple(f"kind={k}" for k in enc.kinds) + ("kind=other",) + tuple(f"stage={s}" for s in STAGES)
            + ("field index",) + tuple(enc.fields))


def size(enc: Encoder) -> int:
    return len(observation_fields(enc))


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
    numbers = enc.observe(request.view, side)
    start = base + len(STAGES) + 1
    out[start:start + len(numbers)] = numbers
    return np.clip(out, -BOUND, BOUND)
