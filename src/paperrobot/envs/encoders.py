"""The registry of each game's view encoding for the environments: ``Encoder`` (how one game looks to an agent)
and ``register``. games.py registers the three games here; encoding.py reads it. Kept apart from encoding.py so
that games.py and encoding.py do not import each other."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable


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
    # request -> the view ``observe`` and ``damage`` read, built without what only front ends draw (a game's
    # views may carry course paths and polygons); None: the request's own view
    agent_view: Callable[[Any], Any] | None = None


ENCODERS: dict[str, Encoder] = {}


def register(game: str, encoder: Encoder) -> None:
    ENCODERS[game] = encoder
