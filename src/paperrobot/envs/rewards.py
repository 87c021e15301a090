"""Rewards. ``"outcome"`` (the default): +1 win, -1 loss, 0 draw, at the last step only. ``"shaped"``: the same,
plus at every step ``scale * (damage the other sides took - damage this side took)`` since the side's last
reward, read from the game's JSON view (each game's damage measure and scale: envs/games.py, docs/envs.md).
"""
from __future__ import annotations

from typing import Any

from ..core.errors import PaperRobotError
from .encoders import Encoder

REWARDS = ("outcome", "shaped")


def check(reward: str, enc: Encoder, game: str) -> None:
    if reward not in REWARDS:
        raise PaperRobotError(f"reward must be one of {', '.join(REWARDS)}, not '{reward}'")
    if reward == "shaped" and enc.damage is None:
        raise PaperRobotError(f"game '{game}' has no damage measure for shaped rewards")


def outcome_reward(outcome, side: str) -> float:
    return 0.0 if outcome.winner is None else (1.0 if outcome.winner == side else -1.0)


def latest_view(enc: Encoder, decisions, match, side: str) -> Any:
    """The open request's view, or once the game is over the view after the end (which no request carries)."""
    if decisions is not None:
        return decisions.view(enc.agent_view)
    return None if enc.end_view is None else enc.end_view(match.engine, side)


class DamageTally:
    """Damage each side took, from successive views. A unit's level is first read when it first appears, so a
    unit arriving later (or a ship's full shields) is no damage; only rises and falls after that count (a
    repair, a fall, counts as negative damage)."""

    def __init__(self, enc: Encoder, scale: float | None = None):
        self.measure = enc.damage
        self.scale = enc.damage_scale if scale is None else scale
        self.levels: dict[str, float] = {}
        self.taken: dict[str, float] = {}  # side -> damage taken since the game began

    def read(self, view: Any) -> None:
        """Take in a view (None, as some requests have, changes nothing)."""
        if view is None:
            return
        for unit, (side, level) in self.measure(view).items():
            before = self.levels.get(unit)
            self.levels[unit] = level
            self.taken.setdefault(side, 0.0)
            if before is not None:
                self.taken[side] += level - before

    def balance(self, side: str) -> float:
        """Scaled damage the other sides took minus damage ``side`` took, since the game began."""
        own = self.taken.get(side, 0.0)
        return self.scale * (sum(self.taken.values()) - own - own)


class ShapedReward:
    """Per-side reward since that side's last reward: the change of its damage balance."""

    def __init__(self, tally: DamageTally, sides):
        self.tally = tally
        self.paid = {side: 0.0 for side in sides}

    def pay(self, side: str) -> float:
        now = self.tally.balance(side)
        reward, self.paid[side] = now - self.paid[side], now
        return reward
