"""One silent game of a registered game with its sides flown by named players ("robot", "policy", "search:20"):
a picklable callable for simulations, made in every worker from names alone (core/players.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core import players
from ..core.contract import drive_all
from ..core.outcome import Outcome


@dataclass(frozen=True)
class NamedPlay:
    """``play(seed)``: a new match of ``game`` with ``setup`` (set-up options by name), ``controllers`` (side, player
    name) pairs, driven to the end with the log off."""

    game: str
    setup: tuple[tuple[str, Any], ...]
    controllers: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, game: str, setup: dict, controllers: dict[str, str]) -> "NamedPlay":
        return cls(game, tuple(sorted(setup.items())), tuple(sorted(controllers.items())))

    def __call__(self, seed: int) -> Outcome:
        import paperrobot
        match = paperrobot.new_game(self.game, seed=seed, **dict(self.setup))
        return drive_all(match, players.resolve(dict(self.controllers), match))

