"""The statistics of a balance sweep: where does the robot's score cross 50 %, and how sure are we?

Model (docs/balance.md): ``logit E[score] = b0 + b1*h`` with the robot's score per game (win 1, draw 1/2,
loss 0) as the response of a statsmodels GLM Binomial, covariance clustered by seed index because common
random numbers replay the same seeds at every level. The even point is ``h50 = -b0/b1`` with a Fieller
interval. Only the Fieller roots, the likelihood of superiority and the Elo-style difference are written
here; the fit, the covariance and the Wilson intervals are statsmodels'.

Needs the ``balance`` extra (statsmodels, numpy), which ``bash scripts/setup`` installs.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Fieller:
    """The Fieller confidence set of a ratio -b0/b1. ``bounded`` is False when the slope is not clearly
    non-zero (the quadratic's leading coefficient ``b1^2 - z^2 v11`` is not positive): then the set is not a
    finite interval and no limits are reported."""

    low: float | None
    high: float | None
    leading: float  # b1^2 - z^2 v11

    @property
    def bounded(self) -> bool:
        return self.low is not None

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2 if self.bounded else math.inf


def fieller(b0: float, b1: float, v00: float, v01: float, v11: float, z: float = Z95) -> Fieller:
    """The set of h where the test of ``b0 + b1*h = 0`` is not rejected at level z:
    ``(b0 + h*b1)^2 <= z^2 (v00 + 2h v01 + h^2 v11)``, i.e. ``a h^2 + 2 b h + c <= 0`` with
    ``a = b1^2 - z^2 v11``, ``b = b0 b1 - z^2 v01``, ``c = b0^2 - z^2 v00``. With a > 0 the set is the
    interval between the roots (never empty: it holds -b0/b1); otherwise it is unbounded."""
    z2 = z * z
    a = b1 * b1 - z2 * v11
    b = b0 * b1 - z2 * v01
    c = b0 * b0 - z2 * v00
    if a <= 0:
        return Fieller(None, None, a)
    root = math.sqrt(max(b * b - a * c, 0.0))
    return Fieller((-b - root) / a, (-b + root) / a, a)


@dataclass(frozen=True)
class Level:
    """One handicap level of a sweep: counts, score, its Wilson interval, the fitted rate and the deviance
    residual of the level (signed square root of its binomial deviance contribution)."""

    handicap: float
    games: int
    wins: int
    draws: int
    losses: int
    low: float
    high: float
    fitted: float | None = None
    residual: float | None = None

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else math.nan

    def to_dict(self) -> dict:
        return {"handicap": self.handicap, "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "score": self.score, "wilson95": [self.low, self.high],
                "fitted": self.fitted, "deviance_residual": self.residual}


@dataclass(frozen=True)
class BalanceFit:
    b0: float
    b1: float
    cov: tuple[tuple[float, float], tuple[float, float]]  # cluster-robust, by seed index
    interval: Fieller
    levels: tuple[Level, ...]
    deviance: float  # of the per-level binomial counts, on len(levels) - 2 degrees of freedom
    clusters: int
    games: int

    @property
    def h50(self) -> float | None:
        return -self.b0 / self.b1 if self.b1 != 0 else None

    @property
    def slope_positive(self) -> bool:
        """True when the even point has a finite Fieller interval: the slope is clearly positive."""
        return self.interval.bounded

    @property
    def slope_at_50(self) -> float:
        """Win-rate points (as a fraction) per handicap point at the 50 % point: dp/dh = b1 p (1-p) = b1/4."""
        return self.b1 / 4

    @property
    def df(self) -> int:
        return max(len(self.levels) - 2, 0)

    def predict(self, h: float) -> float:
        return 1 / (1 + math.exp(-(self.b0 + self.b1 * h)))

    def to_dict(self) -> dict:
        return {"h50": self.h50, "fieller95": ([self.interval.low, self.interval.high] if self.interval.bounded
                                               else None),
                "fieller_leading": self.interval.leading, "b0": self.b0, "b1": self.b1,
                "cov": [list(row) for row in self.cov], "slope_at_50_per_point": self.slope_at_50,
                "deviance": self.deviance, "deviance_df": self.df, "clusters": self.clusters, "games": self.games,
                "levels": [level.to_dict() for level in self.levels]}


def wilson(score: float, n: int) -> tuple[float, float]:
    """95 % Wilson interval of a proportion (statsmodels); ``score`` may count draws as halves."""
    from statsmodels.stats.proportion import proportion_confint

    if n == 0:
        return 0.0, 1.0
    low, high = proportion_confint(score, n, alpha=0.05, method="wilson")
    share = score / n  # the interval holds it; rounding can put a bound a hair past it (0 of 28: low 1e-17)
    return min(float(low), share), max(float(high), share)


def _binomial_deviance(score: float, n: int, p: float) -> float:
    def term(observed: float, expected: float) -> float:
        return observed * math.log(observed / expected) if observed > 0 else 0.0
    return 2 * (term(score, n * p) + term(n - score, n * (1 - p)))


def fit_sweep(handicaps: Sequence[float], scores: Sequence[float], seed_indices: Sequence[int],
              z: float = Z95, cluster: bool = True) -> BalanceFit:
    """Fit one sweep: one entry per game (its level, the robot's score 0, 1/2 or 1, its seed index).
    ``cluster=False`` uses the model-based covariance instead (only to show what clustering is for)."""
    import numpy as np
    import statsmodels.api as sm

    h = np.asarray(handicaps, dtype=float)
    y = np.asarray(scores, dtype=float)
    groups = np.asarray(seed_indices)
    if len(np.unique(h)) < 2:
        raise ValueError("a fit needs games at two handicap levels at least")
    X = np.column_stack([np.ones_like(h), h])
    model = sm.GLM(y, X, family=sm.families.Binomial())
    result = model.fit(cov_type="cluster", cov_kwds={"groups": groups}) if cluster else model.fit()
    b0, b1 = (float(v) for v in result.params)
    cov = np.asarray(result.cov_params(), dtype=float)
    interval = fieller(b0, b1, cov[0, 0], cov[0, 1], cov[1, 1], z)
    if interval.bounded and not b1 * float(h.max() - h.min()) > 1e-6:
        # a negative slope (the robot does worse with more points), or none at all: a handicap that changes
        # nothing gives identical results at every level under common random numbers, b1 = 0 and v11 = 0 up
        # to rounding. Either way there is no even point to bracket.
        interval = Fieller(None, None, interval.leading)
    levels, deviance = [], 0.0
    for value in sorted(set(h.tolist())):
        mask = h == value
        n = int(mask.sum())
        wins, draws = int((y[mask] == 1).sum()), int((y[mask] == 0.5).sum())
        score = wins + 0.5 * draws
        p = 1 / (1 + math.exp(-(b0 + b1 * value)))
        dev = max(_binomial_deviance(score, n, p), 0.0)
        deviance += dev
        low, high = wilson(score, n)
        levels.append(Level(value, n, wins, draws, n - wins - draws, low, high, p,
                            math.copysign(math.sqrt(max(dev, 0.0)), score - n * p)))
    return BalanceFit(b0, b1, ((cov[0, 0], cov[0, 1]), (cov[1, 0], cov[1, 1])), interval, tuple(levels),
                      deviance, int(len(np.unique(groups))), int(len(y)))


# ---------------------------------------------------------------- one W/D/L count (a pairing's cell)
def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: the chance the true win rate exceeds the true loss rate, normal
    approximation; draws do not enter. ``(1 + erf((W-L)/sqrt(2(W+L))))/2``; 1/2 with no decisive game."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


@dataclass(frozen=True)
class EloDiff:
    elo: float
    low: float
    high: float
    score: float


def elo_difference(wins: int, draws: int, losses: int, z: float = Z95) -> EloDiff:
    """Elo-style difference from the score fraction s = (W + D/2)/N: ``-400 log10(1/s - 1)``, with a 95 %
    interval from the trinomial standard error of s mapped through the same function (chess-tester style).
    Infinite when one side scored everything."""
    n = wins + draws + losses
    if n == 0:
        return EloDiff(0.0, -math.inf, math.inf, 0.5)
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    se = math.sqrt(var / n)

    def to_elo(p: float) -> float:
        if p <= 0:
            return -math.inf
        if p >= 1:
            return math.inf
        return -400 * math.log10(1 / p - 1)
    return EloDiff(to_elo(s), to_elo(s - z * se), to_elo(s + z * se), s)


@dataclass(frozen=True)
class Difference:
    """The difference of two even points, ``b.h50 - a.h50``, with a 95 % interval (None when either sweep has no
    bounded Fieller interval)."""

    value: float | None
    low: float | None
    high: float | None

    def to_dict(self) -> dict:
        return {"difference": self.value, "interval95": None if self.low is None else [self.low, self.high]}


def h50_difference(a: BalanceFit, b: BalanceFit) -> Difference:
    """``b.h50 - a.h50`` with the MOVER interval (Zou & Donner 2008: each estimate's own interval, here Fieller's,
    recovers its variance on each side, so the asymmetry of the Fieller sets carries over). It treats the two
    sweeps as independent; sweeps on the same seeds are positively correlated if anything, so it errs wide."""
    if a.h50 is None or b.h50 is None:
        return Difference(None, None, None)
    d = b.h50 - a.h50
    if not (a.interval.bounded and b.interval.bounded):
        return Difference(d, None, None)
    la, ua, lb, ub = a.interval.low, a.interval.high, b.interval.low, b.interval.high
    low = d - math.sqrt((b.h50 - lb) ** 2 + (ua - a.h50) ** 2)
    high = d + math.sqrt((ub - b.h50) ** 2 + (a.h50 - la) ** 2)
    return Difference(d, low, high)
