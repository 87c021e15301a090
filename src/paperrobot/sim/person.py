"""A person's rating as ``paperrobot rating`` and the web page show it (docs/ladder.md "A person's rating").

``person_report(game, records, fit)`` takes the person's recorded games of one game (sim/records.py) and a ladder's
fit.json (``paperrobot ladder GAME --out DIR``) and returns what both front ends show: the rating on the ladder's
scale with its 95 % profile-likelihood interval, or a one-sided bound, the nearest rung, and the handicap that makes
the next game even with Fieller's interval (``ratings.fit_person`` does the fitting). ``lines()`` are the sentences,
the same for the terminal and the page. With fewer than ``MIN_GAMES`` games of the ladder's set-up it gives no
figure and says so.

The fit needs the ``balance`` extra (numpy, scipy); without it ``person_report`` raises PaperRobotError saying so.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from ..core.errors import PaperRobotError
from ..core.extras import needs_extra

# Below this many games of the ladder's set-up no rating is given. At 5 games with 2 won the 95 % interval is
# already +-330 points (the policy and the robot are 42 apart); at 3 (1 won) it is +-470, and most results of
# so few games are all won or all lost, for which only a bound exists (docs/ladder.md).
MIN_GAMES = 5
# The published ladder of each game (its fit.json, written by benchmarks/ladder_answers.py --write-points): the
# scale ``paperrobot rating``, the web page and the start of a game rate a person on when no other ladder is given.
PUBLISHED = Path(__file__).with_name("ladder_fits")
FIT_CAP = 1_000_000  # bytes: a ladder's fit.json is a few kB (a handful of rungs, their covariance, the sweeps)
ASIDE = ("handicap", "handicap_prices")  # set-up options that do not make another game


def read_fit(path: str | Path) -> dict:
    """A ladder's fit.json (or the folder holding it), checked; PaperRobotError with one line otherwise."""
    path = Path(path)
    path = path / "fit.json" if path.is_dir() else path
    try:
        text = path.read_bytes()[:FIT_CAP + 1]
    except OSError as exc:
        raise PaperRobotError(f"{path}: cannot be read ({exc.strerror or exc}); give a ladder's folder or its "
                              f"fit.json") from None
    return parse_fit(text, str(path))


def parse_fit(text: bytes | str, where: str = "the ladder") -> dict:
    """A ladder's fit.json from its text, with the keys a rating needs checked."""
    if len(text) > FIT_CAP:
        raise PaperRobotError(f"{where}: larger than a ladder's fit.json can be ({FIT_CAP // 1000} kB)")
    try:
        data = json.loads(text)
        model = data["model"]
        ok = (isinstance(data["game"], str) and isinstance(data["setup"], dict) and isinstance(model["params"], list)
              and isinstance(model["coef"], list) and isinstance(model["cov"], list)
              and len(model["coef"]) == len(model["params"]) <= len(model["cov"])
              and all(isinstance(x, (int, float)) for x in model["coef"])
              and all(isinstance(row, list) and len(row) >= len(model["params"])
                      and all(isinstance(x, (int, float)) for x in row) for row in model["cov"]))
    except (ValueError, KeyError, TypeError, RecursionError):
        ok = False
    if not ok:
        raise PaperRobotError(f"{where}: not a ladder's fit.json (written by 'paperrobot ladder GAME --out DIR')")
    return data


def published_fit(game: str) -> dict | None:
    """The project's published ladder of ``game`` (a fit.json's data), or None if none is published."""
    path = PUBLISHED / f"{game}.json"
    return read_fit(path) if path.exists() else None


def suggestion_for(game: str, setup: dict, records_path: str | Path | None = None) -> PersonReport | None:
    """The even next game for the person, from their recorded games of this set-up on the published ladder: a
    report whose ``even`` is known, or None (no ladder, too few games, no statistics libraries, no records file).
    Cheap when it has nothing to say: the records are read before the fit's libraries are imported."""
    from .even_points import full_setup
    from .records import Records

    try:
        fit = published_fit(game)
        if fit is None or full_setup(game, setup) != full_setup(game, fit["setup"]):
            return None
    except PaperRobotError:  # a set-up the published ladder's game refuses: nothing to suggest from it
        return None
    try:
        records = Records(records_path, create=False)
    except PaperRobotError:
        return None
    try:
        played = [r for r in records.games(game) if same_setup(r.setup, fit["setup"])]
    finally:
        records.close()
    if len(played) < MIN_GAMES:
        return None
    try:
        report = person_report(game, played, fit)
    except PaperRobotError:
        return None
    return report if report.rated and report.even is not None else None


def same_setup(a: dict, b: dict) -> bool:
    """Two set-ups of the same game, the handicap aside."""
    return {k: v for k, v in a.items() if k not in ASIDE} == {k: v for k, v in b.items() if k not in ASIDE}


@dataclass(frozen=True)
class PersonReport:
    game: str
    recorded: int                  # the person's recorded games of this game
    used: int                      # of them, those of the ladder's set-up (the ones rated)
    wins: int
    draws: int
    losses: int
    unit: str
    rating: Any = None             # ratings.Rating, or None (too few games, none of the ladder's set-up)
    even: float | None = None      # the handicap (robot's points) that makes the next game even
    even_interval: Any = None      # fit.Fieller
    nearest: tuple[str, float] | None = None
    notes: tuple[str, ...] = ()
    lines: list[str] = field(default_factory=list)  # what is shown, one sentence a line

    @property
    def rated(self) -> bool:
        return self.rating is not None

    def even_text(self) -> str:
        """The even next game in the start form's words ('' when not known)."""
        if self.even is None:
            return ""
        iv = self.even_interval
        interval = f" (95% {iv.low:+.0f} to {iv.high:+.0f})" if iv is not None and iv.bounded else ""
        return f"{round(self.even):+d} {self.unit}{interval}"


def person_report(game: str, records: Sequence, fit: dict) -> PersonReport:
    """The person's rating in ``game`` from their ``records`` (sim.records.Record of that game) against the
    ladder ``fit`` (a fit.json's data)."""
    played = [r for r in records if r.game == game]
    unit = fit.get("unit", "points")
    same = [r for r in played if same_setup(r.setup, fit["setup"])]
    w = sum(r.score == 1 for r in same)
    d = sum(r.score == 0.5 for r in same)
    base = dict(game=game, recorded=len(played), used=len(same), wins=w, draws=d, losses=len(same) - w - d, unit=unit)
    lines = []
    if len(same) < len(played):
        lines.append(f"{game}: {len(played) - len(same)} of your {len(played)} games were of another set-up than the "
                     f"ladder's; they are left out")
    if not same:
        lines.append(f"none of your {game} games is of the ladder's set-up ({fit['setup']})")
        return PersonReport(**base, lines=lines)
    if len(same) < MIN_GAMES:
        of_ladder = " of the ladder's set-up" if len(same) < len(played) else ""
        lines.append(f"{game}: {_games(len(same))} recorded{of_ladder}: play a few more for a rating "
                     f"(it takes {MIN_GAMES})")
        return PersonReport(**base, lines=lines)
    try:
        from .ratings import fit_person
        person = fit_person([(r.handicap, r.score) for r in same], fit["model"], sweep_worths(fit))
    except ImportError:
        raise PaperRobotError(needs_extra("a rating", "balance", "numpy, scipy, statsmodels")) from None
    except ValueError as exc:
        lines.append(f"{game}: {exc}")
        return PersonReport(**base, lines=lines)
    r = person.rating
    wdl = f"{w}-{d}-{len(same) - w - d}"
    if r.rating is not None:
        lines.append(f"{game}: your rating {r.rating:.0f} (95% {r.low:.0f} to {r.high:.0f}) on the ladder's scale (the "
                     f"robot = 1000), from {len(same)} games (W-D-L {wdl}){_seat(r.rating, fit['model'])}")
    elif r.bound == "upper" and math.isfinite(r.high):
        lines.append(f"{game}: your rating is below {r.high:.0f} (95% bound: you lost all {len(same)} games)")
    elif r.bound == "lower" and math.isfinite(r.low):
        lines.append(f"{game}: your rating is above {r.low:.0f} (95% bound: you won all {len(same)} games)")
    rungs = [x for x in fit.get("rungs", []) if isinstance(x, dict) and isinstance(x.get("rating"), (int, float))]
    nearest = None
    if r.rating is not None and rungs:
        near = min(rungs, key=lambda x: abs(x["rating"] - r.rating))
        nearest = (str(near.get("name")), float(near["rating"]))
        lines.append(f"  nearest rung: {nearest[0]} ({nearest[1]:.0f})")
    iv = person.even_interval
    if person.even is not None and iv is not None and iv.bounded:
        lines.append(f"  even next game: --handicap {round(person.even):+d} {unit} for the robot (95% Fieller "
                     f"{iv.low:+.0f} to {iv.high:+.0f})")
    elif person.even is not None:
        lines.append(f"  even next game: about --handicap {round(person.even):+d} {unit} (no finite interval yet: the "
                     f"ladder's handicap worth is too uncertain)")
    else:
        lines.append("  even next game: not known: the ladder has no handicap term (run it with --balance)")
    lines.extend(f"  note: {note}" for note in person.notes)
    return PersonReport(**base, rating=r, even=person.even, even_interval=iv, nearest=nearest, notes=person.notes,
                        lines=lines)


def sweep_worths(fit: dict) -> list[tuple[float, float, float]]:
    """The rungs' own balance sweeps in a ladder's fit.json as ``(rating, slope, variance)`` (ratings.fit_person):
    rungs with a finite rating and a sweep that found a positive worth of a point."""
    ratings = {x.get("name"): x.get("rating") for x in fit.get("rungs", []) if isinstance(x, dict)}
    worths = []
    for name, sweep in (fit.get("balance") or {}).items():
        rating = ratings.get(name)
        try:
            slope, var = float(sweep["b1"]), float(sweep["cov"][1][1])
        except (TypeError, KeyError, IndexError, ValueError):
            continue  # a sweep that found no even point is stored as its reason, a string
        if isinstance(rating, (int, float)) and math.isfinite(rating) and slope > 0 and math.isfinite(var) and var >= 0:
            worths.append((float(rating), slope, var))
    return worths


def _seat(rating: float, model: dict) -> str:
    """'; from the player's seat 884' where the ladder has a side term (docs/ladder.md "The player's seat")."""
    if "side" not in model["params"]:
        return ""
    side = model["coef"][model["params"].index("side")] * model.get("scale", 400 / math.log(10))
    return f"; from the player's seat {rating + side:.0f}, which is what your score against the robot reads"


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"
