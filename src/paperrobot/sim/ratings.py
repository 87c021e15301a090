"""The ladder's ratings: one maximum-likelihood Bradley-Terry (logistic) fit over every game (docs/ladder.md).

For a game with rung A on the robot side and rung B on the player side(s), at handicap h (the game's points
given to the robot side), the player side's score y (win 1, draw 1/2, loss 0) follows

    logit E[y] = (R_B - R_A) / SCALE + s + b_h * h,        SCALE = 400 / ln 10 (Elo's logistic scale)

with no prior (a prior pulls ratings together), the published robot anchored at ``ANCHOR`` (1000), ``s`` the
player side's advantage and ``b_h`` the worth of one handicap point. It is a statsmodels GLM Binomial on the
per-game score (a draw is a half: the binomial likelihood of y = 1/2 is that of two half-weighted games, one
won and one lost), with the covariance clustered by seed index: games of every pairing replay the same seeds.

A rung that scored nothing (or everything) in all its games has no finite maximum-likelihood rating; it is
taken out of the fit (with its games) and given a one-sided 95 % bound instead: the rating at which its
results would have a likelihood of 5 % against the fitted ratings of its opponents (the rule of three,
generalised). The same holds for a person's rating.

Needs the ``balance`` extra (statsmodels, numpy, scipy).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Sequence

from .fit import Z95, Fieller, fieller

SCALE = 400 / math.log(10)
ANCHOR_RATING = 1000.0
ANCHOR = "robot"


class Result(NamedTuple):
    robot_rung: str  # who flew the robot side
    player_rung: str  # who flew the other side(s)
    handicap: float
    seed_index: int
    score: float  # the player side's: win 1, draw 1/2, loss 0


@dataclass(frozen=True)
class Rating:
    name: str
    rating: float | None  # None: no finite maximum-likelihood rating (see ``bound``)
    low: float  # 95 % interval (-inf/inf on the open side of a bound)
    high: float
    games: int
    se: float | None = None
    bound: str = ""  # "upper"/"lower" when only a one-sided 95 % bound is known

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2 if self.rating is not None else math.inf

    def to_dict(self) -> dict:
        def num(x):
            return None if x is None or not math.isfinite(x) else round(float(x), 2)
        out = {"name": self.name, "rating": num(self.rating), "low": num(self.low), "high": num(self.high),
               "games": self.games}
        if self.bound:
            out["bound"] = self.bound
        return out


@dataclass
class LadderFit:
    ratings: dict[str, Rating]
    params: list[str]  # "side", "handicap", then a rung per rating column
    coef: list[float]
    cov: list[list[float]]  # cluster-robust (by seed index) unless ``clustered`` is False
    model_cov: list[list[float]]  # model-based, for choosing pairings
    clustered: bool
    games: int
    notes: list[str] = field(default_factory=list)

    def _index(self, name: str) -> int | None:
        return self.params.index(name) if name in self.params else None

    @property
    def side(self) -> float:
        i = self._index("side")
        return 0.0 if i is None else self.coef[i]

    @property
    def handicap_slope(self) -> float | None:
        i = self._index("handicap")
        return None if i is None else self.coef[i]

    def var(self, a: str, b: str | None = None) -> float:
        i, j = self._index(a), self._index(b if b is not None else a)
        return 0.0 if i is None or j is None else self.cov[i][j]

    def logit(self, player: str, robot: str, handicap: float = 0.0) -> float:
        """The model's log-odds of the player side's rung beating the robot side's."""
        rp, rr = self.ratings[player].rating, self.ratings[robot].rating
        return (rp - rr) / SCALE + self.side + (self.handicap_slope or 0.0) * handicap

    def expected(self, player: str, robot: str, handicap: float = 0.0) -> float:
        return 1 / (1 + math.exp(-self.logit(player, robot, handicap)))

    def difference(self, a: str, b: str) -> tuple[float, float]:
        """R_a - R_b and its standard error, from the (clustered) covariance."""
        d = self.ratings[a].rating - self.ratings[b].rating
        ia, ib = self._index(a), self._index(b)
        v = sum(sign_i * sign_j * self.cov[i][j] for i, sign_i in ((ia, 1), (ib, -1)) if i is not None
                for j, sign_j in ((ia, 1), (ib, -1)) if j is not None)
        return d, math.sqrt(max(v, 0.0)) * SCALE

    def superiority(self, a: str, b: str) -> float:
        """Likelihood of superiority of a over b: P(R_a > R_b) under the fit's normal approximation."""
        d, se = self.difference(a, b)
        if se == 0:
            return 0.5 if d == 0 else float(d > 0)
        return 0.5 * (1 + math.erf(d / se / math.sqrt(2)))

    def seat(self, name: str) -> tuple[float, float, float] | None:
        """Rung ``name``'s rating from the player's seat, ``R + s * SCALE``, with its 95 % interval: what its score
        against the robot reads (Elo's expected score against 1000), where the side-free rating ``R`` does not
        (docs/ladder.md "The player's seat"). None without a finite rating."""
        rating = self.ratings.get(name)
        if rating is None or rating.rating is None:
            return None
        value = rating.rating + self.side * SCALE
        se = math.sqrt(max(self.var(name) + self.var("side") + 2 * self.var(name, "side"), 0.0)) * SCALE
        return value, value - Z95 * se, value + Z95 * se

    def even(self, name: str) -> tuple[float | None, Fieller | None]:
        """The handicap (the game's points to the robot) at which rung ``name``, on the player side against the
        robot, is expected to score 50 %, ``h = -(a + s) / b_h`` with ``a = (R - 1000) / SCALE``, and Fieller's
        95 % interval from the clustered covariance; (None, None) without a handicap term or a finite rating. It
        assumes a handicap point is worth the same at every strength (the per-rung sweeps check that)."""
        slope, i = self.handicap_slope, self._index(name)
        if slope is None or i is None or not slope:
            return None, None
        b0 = self.coef[i] + self.side
        v00 = self.var(name) + self.var("side") + 2 * self.var(name, "side")
        v01 = self.var(name, "handicap") + self.var("side", "handicap")
        return -b0 / slope, fieller(b0, slope, v00, v01, self.var("handicap"))

    def model(self) -> dict:
        """What a person's fit needs (written to DIR/fit.json)."""
        return {"params": self.params, "coef": self.coef, "cov": self.cov, "clustered": self.clustered,
                "games": self.games, "scale": SCALE, "anchor": ANCHOR, "anchor_rating": ANCHOR_RATING,
                "notes": self.notes}


def _separated(results: list[Result], anchor: str) -> dict[str, str]:
    """Rungs (other than the anchor) that scored nothing or everything in all their remaining games, found
    repeatedly (removing one can separate another): rung -> "upper" (all lost) or "lower" (all won)."""
    out: dict[str, str] = {}
    while True:
        totals: dict[str, list[float]] = {}
        for r in results:
            if r.robot_rung in out or r.player_rung in out:
                continue
            for rung, got in ((r.player_rung, r.score), (r.robot_rung, 1 - r.score)):
                t = totals.setdefault(rung, [0.0, 0])
                t[0] += got
                t[1] += 1
        new = {rung: ("upper" if got == 0 else "lower") for rung, (got, n) in totals.items()
               if rung != anchor and (got == 0 or got == n)}
        if not new:
            return out
        out.update(new)


def _connected(results: list[Result], anchor: str) -> set[str]:
    linked, grew = {anchor}, True
    while grew:
        grew = False
        for r in results:
            pair = {r.robot_rung, r.player_rung}
            if pair & linked and not pair <= linked:
                linked |= pair
                grew = True
    return linked


def fit_ladder(results: Iterable[Result], rungs: Sequence[str] | None = None, anchor: str = ANCHOR,
               cluster: bool = True) -> LadderFit:
    """The ladder's fit over ``results``; ``rungs`` orders the report (all rungs seen when None)."""
    import warnings

    import numpy as np
    import statsmodels.api as sm

    results = [r for r in results if r.robot_rung != r.player_rung]
    seen = list(dict.fromkeys([*(rungs or ()), *(x for r in results for x in (r.robot_rung, r.player_rung))]))
    games = {name: sum(1 for r in results if name in (r.robot_rung, r.player_rung)) for name in seen}
    notes: list[str] = []
    separated = _separated(results, anchor)
    kept = [r for r in results if r.robot_rung not in separated and r.player_rung not in separated]
    linked = _connected(kept, anchor) if kept else {anchor}
    kept = [r for r in kept if r.robot_rung in linked]
    free = [name for name in seen if name in linked and name != anchor]
    handicaps = {r.handicap for r in kept}
    params = ["side", *(["handicap"] if len(handicaps) > 1 else []), *free]
    col = {name: i for i, name in enumerate(params)}

    def row(r: Result) -> list[float]:
        x = [0.0] * len(params)
        x[0] = 1.0
        if "handicap" in col:
            x[col["handicap"]] = r.handicap
        if r.player_rung in col:
            x[col[r.player_rung]] += 1.0
        if r.robot_rung in col:
            x[col[r.robot_rung]] -= 1.0
        return x

    coef: list[float] = []
    cov = model_cov = [[0.0]]
    clustered = cluster
    if kept:
        X = np.array([row(r) for r in kept], dtype=float)
        y = np.array([r.score for r in kept], dtype=float)
        if np.linalg.matrix_rank(X) < X.shape[1]:
            X = X[:, 1:]
            params = params[1:]
            notes.append("the side term cannot be told apart from the ratings (no rung flew both sides against "
                         "another); it is left out, so each rating includes the advantage of the side it flew")
        groups = np.array([r.seed_index for r in kept])
        model = sm.GLM(y, X, family=sm.families.Binomial())
        fitted = _fit_quietly(model)
        if params[0] == "side" and np.max(np.abs(fitted.params)) > DIVERGED:
            # quasi-separation along the side term: a rung lost (or won) every game on one side while winning
            # some on the other, so s + R runs off to infinity; without s the ratings stay finite
            X, params = X[:, 1:], params[1:]
            model = sm.GLM(y, X, family=sm.families.Binomial())
            fitted = _fit_quietly(model)
            notes.append("the side term runs off to infinity (a rung lost or won every game on one side): it is "
                         "left out, so each rating includes the advantage of the sides it flew")
        model_cov = np.asarray(fitted.cov_params(), dtype=float)
        if cluster and len(np.unique(groups)) > X.shape[1] + 1:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                robust = model.fit(cov_type="cluster", cov_kwds={"groups": groups})
            cov = np.asarray(robust.cov_params(), dtype=float)
        else:
            cov, clustered = model_cov, False
            if cluster:
                notes.append("too few seeds to cluster the covariance by seed: model-based intervals")
        coef = [float(v) for v in fitted.params]
        cov, model_cov = cov.tolist(), model_cov.tolist()
    else:
        params = []
    fit = LadderFit({}, params, coef, cov, model_cov, clustered, len(kept), notes)
    fit.ratings[anchor] = Rating(anchor, ANCHOR_RATING, ANCHOR_RATING, ANCHOR_RATING, games.get(anchor, 0), 0.0)
    for name in free:
        i = params.index(name)
        rating = ANCHOR_RATING + coef[i] * SCALE
        se = math.sqrt(max(cov[i][i], 0.0)) * SCALE
        fit.ratings[name] = Rating(name, rating, rating - Z95 * se, rating + Z95 * se, games[name], se)
    for name in seen:
        if name in fit.ratings:
            continue
        if name in separated:
            fit.ratings[name] = _bounded(name, separated[name], results, fit, games[name])
        else:
            fit.ratings[name] = Rating(name, None, -math.inf, math.inf, games[name])
            notes.append(f"{name}: no games linking it to the {anchor}; no rating")
    ordered = {name: fit.ratings[name] for name in seen}
    fit.ratings = ordered
    return fit


DIVERGED = 12.0  # |logit| past which a coefficient is taken as running off to infinity (odds of 1 to 160,000)


def _fit_quietly(model):
    """A GLM fit without statsmodels' warnings about (quasi-)separation, which the caller checks itself."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return model.fit()


def _bounded(name: str, how: str, results: list[Result], fit: LadderFit, n: int) -> Rating:
    """The one-sided 95 % bound of a rung that lost (or won) every game: where its results' likelihood is 5 %."""
    from scipy.optimize import brentq

    terms = []  # (sign of the rung in the log-odds, the rest of the log-odds, the player side's score)
    for r in results:
        if name not in (r.robot_rung, r.player_rung):
            continue
        other = r.robot_rung if r.player_rung == name else r.player_rung
        rated = fit.ratings.get(other)
        if rated is None or rated.rating is None:
            continue
        sign = 1.0 if r.player_rung == name else -1.0
        rest = -sign * rated.rating / SCALE + fit.side + (fit.handicap_slope or 0.0) * r.handicap
        terms.append((sign, rest, r.score))
    if not terms:
        return Rating(name, None, -math.inf, math.inf, n, bound=how)

    def softplus(x: float) -> float:  # log(1 + e^x) without overflow
        return max(x, 0.0) + math.log1p(math.exp(-abs(x)))

    def log_lik(rating: float) -> float:
        total = 0.0
        for sign, rest, y in terms:
            eta = sign * rating / SCALE + rest
            total -= y * softplus(-eta) + (1 - y) * softplus(eta)
        return total

    target = math.log(0.05)
    far = 20000.0
    bound = brentq(lambda x: log_lik(x) - target, -far, far) if (log_lik(-far) - target) * (
        log_lik(far) - target) < 0 else None
    if bound is None:
        return Rating(name, None, -math.inf, math.inf, n, bound=how)
    if how == "upper":
        return Rating(name, None, -math.inf, bound, n, bound=how)
    return Rating(name, None, bound, math.inf, n, bound=how)


# ----------------------------------------------------------------------------- choosing the next pairing
def information_gain(fit: LadderFit, orientations: Sequence[tuple[str, str]], games: int,
                     targets: Sequence[tuple[str, str]], total: bool = False) -> float:
    """The largest variance (model-based, rating points squared) of the ``targets`` differences after adding
    ``games`` seeds of a pairing, each seed played in every one of ``orientations`` ((robot side, player side)
    pairs); with ``total``, their sum. Smaller is better: the pairing that most tightens the loosest adjacent
    difference wins."""
    import numpy as np

    params = fit.params
    info = np.linalg.pinv(np.asarray(fit.model_cov, dtype=float)) if params else np.zeros((0, 0))
    for robot, player in orientations:
        if fit.ratings.get(robot) is None or fit.ratings.get(player) is None or \
                fit.ratings[robot].rating is None or fit.ratings[player].rating is None:
            return math.inf
        x = np.zeros(len(params))
        if "side" in params:
            x[params.index("side")] = 1.0
        for name, sign in ((player, 1.0), (robot, -1.0)):
            if name in params:
                x[params.index(name)] += sign
        p = fit.expected(player, robot)
        info = info + games * p * (1 - p) * np.outer(x, x)
    cov = np.linalg.pinv(info)
    worst = 0.0
    for a, b in targets:
        c = np.zeros(len(params))
        for name, sign in ((a, 1.0), (b, -1.0)):
            if name in params:
                c[params.index(name)] += sign
        var = float(c @ cov @ c) * SCALE ** 2
        worst = worst + var if total else max(worst, var)
    return worst


def adjacent(fit: LadderFit) -> list[tuple[str, str]]:
    """Pairs of rungs next to each other in rating order (finite ratings only), higher first."""
    rated = sorted((r for r in fit.ratings.values() if r.rating is not None), key=lambda r: -r.rating)
    return [(rated[i].name, rated[i + 1].name) for i in range(len(rated) - 1)]


# ------------------------------------------------------------------------------------ a person's rating
@dataclass(frozen=True)
class PersonRating:
    rating: Rating
    even: float | None  # the handicap (robot's points) that makes the next game even, or None
    even_interval: Fieller | None
    games: int
    notes: tuple[str, ...] = ()


def fit_person(records: Sequence[tuple[float, float]], model: dict,
               worths: Sequence[tuple[float, float, float]] = ()) -> PersonRating:
    """A person's rating from their games against the robot, as ``(handicap, score)`` pairs (the person flies
    the player side), with the ladder's side term and handicap worth fixed (``model``: LadderFit.model()).
    The rating's interval is the profile-likelihood one (every game its own seed); the even handicap's is
    Fieller's, with the ladder's uncertainty of the side term and the handicap worth added.

    ``worths``: the rungs' own balance sweeps as ``(rating, slope, variance)``, the slope the robot's log-odds a
    point. A point is not worth the same at every strength (docs/ladder.md), so where they are given the handicap
    is priced at the person's rating, read off them (``worth_at``), not at the joint fit's one worth: the person
    is fitted once with the joint worth, then again with the worth read at that rating."""
    person = _fit_person(records, model)
    if not worths or person.rating.rating is None or "handicap" not in model["params"]:
        return person
    slope, slope_var, said = worth_at(person.rating.rating, worths)
    local = dict(model, coef=list(model["coef"]), cov=[list(row) for row in model["cov"]])
    at = model["params"].index("handicap")
    local["coef"][at] = -slope  # the model's handicap term is the person's log-odds a point: the robot's, negated
    for i in range(len(local["cov"])):
        local["cov"][i][at] = local["cov"][at][i] = 0.0  # a sweep is fitted apart from the ladder's side term
    local["cov"][at][at] = slope_var
    refit = _fit_person(records, local)
    return PersonRating(refit.rating, refit.even, refit.even_interval, refit.games,
                        refit.notes + (f"a handicap point priced at your rating: {said}",))


def worth_at(rating: float, worths: Sequence[tuple[float, float, float]]) -> tuple[float, float, str]:
    """The robot's log-odds a point of handicap, and its variance, at ``rating``: straight-line between the two
    sweeps whose rungs' ratings bracket it, the nearer end's outside them; with the words that say so."""
    points = sorted(worths)
    if rating <= points[0][0] or len(points) == 1:
        r, s, v = points[0] if rating <= points[0][0] else points[-1]
        return s, v, f"{s:.4f} logit a point, the sweep of the rung rated {r:.0f}"
    if rating >= points[-1][0]:
        r, s, v = points[-1]
        return s, v, f"{s:.4f} logit a point, the sweep of the rung rated {r:.0f}"
    for (r0, s0, v0), (r1, s1, v1) in zip(points, points[1:]):
        if r0 <= rating <= r1:
            t = (rating - r0) / (r1 - r0) if r1 > r0 else 0.0
            slope, var = s0 + t * (s1 - s0), (1 - t) ** 2 * v0 + t ** 2 * v1
            return slope, var, (f"{slope:.4f} logit a point, between the sweeps of the rungs rated {r0:.0f} "
                                f"({s0:.4f}) and {r1:.0f} ({s1:.4f})")
    raise AssertionError("unreachable: the rating is bracketed")


def _fit_person(records: Sequence[tuple[float, float]], model: dict) -> PersonRating:
    import numpy as np

    params, coef, cov = model["params"], model["coef"], model["cov"]
    scale, anchor = model.get("scale", SCALE), model.get("anchor_rating", ANCHOR_RATING)

    def get(name):
        return coef[params.index(name)] if name in params else None

    def var(a, b=None):
        b = a if b is None else b
        return cov[params.index(a)][params.index(b)] if a in params and b in params else 0.0

    side, slope = get("side") or 0.0, get("handicap")
    notes = []
    if not records:
        raise ValueError("no recorded games")
    h = np.array([float(x) for x, _ in records])
    y = np.array([float(s) for _, s in records])
    if slope is None and np.any(h != 0):
        notes.append("the ladder has no handicap term (run it with --balance): games at a handicap other than 0 "
                     "are left out")
        keep = h == 0
        h, y = h[keep], y[keep]
        if not len(y):
            raise ValueError("every recorded game has a handicap and the ladder cannot price one")
    offset = side + (slope or 0.0) * h
    n = len(y)
    if y.sum() in (0, n):
        results = [Result(ANCHOR, "you", float(hh), i, float(s)) for i, (hh, s) in enumerate(zip(h, y))]
        ghost = LadderFit({ANCHOR: Rating(ANCHOR, anchor, anchor, anchor, 0)}, params, coef, cov, cov, False, 0)
        rating = _bounded("you", "upper" if y.sum() == 0 else "lower", results, ghost, n)
        return PersonRating(rating, None, None, n, tuple(notes + ["every game lost" if y.sum() == 0 else
                                                                   "every game won"]))
    # One parameter with an offset: the score equation sum(y - p) = 0 is monotone in it, so a root finder is
    # exact and ~50x cheaper than a GLM's set-up (the coverage test fits thousands of persons).
    from scipy.optimize import brentq

    def surplus(x: float) -> float:
        return float(np.sum(y - 1 / (1 + np.exp(-(x + offset)))))

    lo, hi = -1.0, 1.0
    while surplus(lo) < 0:
        lo *= 2
    while surplus(hi) > 0:
        hi *= 2
    a = brentq(surplus, lo, hi, xtol=1e-12)
    p = 1 / (1 + np.exp(-(a + offset)))
    va = 1 / float(np.sum(p * (1 - p)))  # the inverse Fisher information
    value, se = anchor + a * scale, math.sqrt(va) * scale
    low, high = _profile_interval(a, math.sqrt(va), y, offset)
    rating = Rating("you", value, anchor + low * scale, anchor + high * scale, n, se)
    even = interval = None
    if slope is not None:
        # logit P(person wins at h) = a + side + slope * h: even at h = -(a + side) / slope
        b0 = a + side
        interval = fieller(b0, slope, va + var("side"), var("side", "handicap"), var("handicap"))
        even = -b0 / slope if slope else None
    return PersonRating(rating, even, interval, n, tuple(notes))


def _profile_interval(a: float, se: float, y, offset) -> tuple[float, float]:
    """The 95 % likelihood-ratio interval of a one-parameter logistic fit (the person's strength, with the
    ladder's terms as offsets): better calibrated than the Wald interval at 20-50 games (docs/ladder.md)."""
    import numpy as np
    from scipy.optimize import brentq

    def log_lik(x: float) -> float:
        eta = x + offset
        return float(np.sum(-y * np.logaddexp(0, -eta) - (1 - y) * np.logaddexp(0, eta)))

    limit = log_lik(a) - 1.920729410347062  # chi-square(1) 95 % / 2
    step = 4 * se + 1.0
    lo, hi = a - step, a + step
    while log_lik(lo) > limit:
        lo -= step
    while log_lik(hi) > limit:
        hi += step
    return brentq(lambda x: log_lik(x) - limit, lo, a), brentq(lambda x: log_lik(x) - limit, a, hi)
