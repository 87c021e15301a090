"""Running statistics over game outcomes: constant memory however many games are played."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..core.outcome import Outcome

Z95 = 1.959963984540054


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for a proportion; (0, 1) when there are no trials."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # the interval holds p; rounding can put a bound a hair past it (0 of 28: low 1e-17), which a plot refuses
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


@dataclass
class Summary:
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    results: dict[str, int] = field(default_factory=dict)
    _turn_mean: float = 0.0
    _turn_m2: float = 0.0
    metric_sums: dict[str, float] = field(default_factory=dict)

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        if outcome.winner is None:
            self.draws += 1
        else:
            self.wins[outcome.winner] = self.wins.get(outcome.winner, 0) + 1
        self.results[outcome.result] = self.results.get(outcome.result, 0) + 1
        delta = outcome.turns - self._turn_mean  # Welford's running mean and variance
        self._turn_mean += delta / self.games
        self._turn_m2 += delta * (outcome.turns - self._turn_mean)
        for key, value in outcome.metrics.items():
            self.metric_sums[key] = self.metric_sums.get(key, 0.0) + value

    @property
    def mean_turns(self) -> float:
        return self._turn_mean

    def turns_interval(self) -> tuple[float, float]:
        if self.games < 2:
            return self._turn_mean, self._turn_mean
        half = Z95 * math.sqrt(self._turn_m2 / (self.games - 1) / self.games)
        return self._turn_mean - half, self._turn_mean + half

    def rate(self, side: str | None) -> tuple[float, float, float]:
        """(rate, low, high) of wins of ``side``; None means draws."""
        count = self.draws if side is None else self.wins.get(side, 0)
        low, high = wilson_interval(count, self.games)
        return (count / self.games if self.games else 0.0), low, high

    def metric_mean(self, key: str) -> float:
        return self.metric_sums.get(key, 0.0) / self.games if self.games else 0.0

    def to_dict(self) -> dict:
        return {"games": self.games, "wins": dict(self.wins), "draws": self.draws, "results": dict(self.results),
                "mean_turns": self._turn_mean, "turns_ci95": list(self.turns_interval()),
                "metric_means": {k: self.metric_mean(k) for k in sorted(self.metric_sums)}}
