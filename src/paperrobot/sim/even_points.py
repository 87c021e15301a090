"""The measured even points: the handicap where the robot scores 50 % against a named rung of the opponent ladder.

``even_points.toml``: balance sweeps (docs/balance.md lists their commands). ``ladder_points.toml``: every rung of
a set-up's ladder with its rating on the ladder's scale (the robot = 1000) and its even handicap from the ladder's
joint fit (``benchmarks/ladder_answers.py --write-points``, docs/ladder.md). A sweep's point carries its rung's
rating from the ladder file, so the suggested difficulty can say how strong the player it was measured against is.
``play --help``, the start of a game and the web page offer them. Only the standard library: the command line
reads this on every start.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

FILE = Path(__file__).with_name("even_points.toml")
LADDER_FILE = Path(__file__).with_name("ladder_points.toml")


@dataclass(frozen=True)
class EvenPoint:
    game: str
    setup: dict  # the set-up options that differ from the defaults, as the sweep was run
    opponent: str  # who flew the other side: "policy" or "robot"
    h50: float
    low: float | None
    high: float | None
    unit: str
    command: str
    how: str = "sweep"  # "sweep" (its own balance sweep) or "ladder fit" (the rung's rating and the handicap's worth)
    rating: float | None = None  # the rung's rating on the opponent ladder (the robot = 1000), where measured
    rating_low: float | None = None
    rating_high: float | None = None
    seat: float | None = None  # its rating from the player's seat (rating + the ladder's side term), where known
    seat_low: float | None = None
    seat_high: float | None = None

    def text(self) -> str:
        interval = f" (95% {self.low:+.0f} to {self.high:+.0f})" if self.low is not None else ""
        return f"{self.h50:+.0f} {self.unit}{interval} against the {self.opponent}{self.rated()}"

    def rated(self) -> str:
        """', rated 949 from the player's seat (95% 915 to 983) on the opponent ladder, where the robot is 1000',
        or '' if not rated. The seat's rating where the ladder has one: it is what a score against the robot reads
        (the side-free rating of a rung that flew both sides is not; docs/ladder.md "The player's seat")."""
        if self.rating is None:
            return ""
        value, low, high, seat = self.rating, self.rating_low, self.rating_high, ""
        if self.seat is not None:
            value, low, high, seat = self.seat, self.seat_low, self.seat_high, " from the player's seat"
        interval = f" (95% {low:.0f} to {high:.0f})" if low is not None and high is not None else ""
        return f", rated {value:.0f}{seat}{interval} on the opponent ladder, where the robot is 1000"


@lru_cache(maxsize=1)
def load() -> tuple[EvenPoint, ...]:
    """The sweeps' points (with their rung's ladder rating where the ladder has it), then the ladder's points of
    the rungs no sweep measured."""
    with FILE.open("rb") as handle:
        raw = tomllib.load(handle)
    rungs = []
    if LADDER_FILE.exists():
        with LADDER_FILE.open("rb") as handle:
            rungs = tomllib.load(handle).get("rung", [])

    def rating(game: str, setup: dict, rung: str) -> dict:
        for r in rungs:
            if r["game"] == game and dict(r.get("setup", {})) == setup and r["rung"] == rung and "rating" in r:
                return {"rating": float(r["rating"]), "rating_low": r.get("rating_low"),
                        "rating_high": r.get("rating_high"), "seat": r.get("seat"), "seat_low": r.get("seat_low"),
                        "seat_high": r.get("seat_high")}
        return {}

    raw["even"] = [r for r in raw.get("even", []) if "h50" in r]  # the rows with "none" are beyond() 's
    swept = tuple(EvenPoint(r["game"], dict(r.get("setup", {})), r["opponent"], float(r["h50"]), r.get("low"),
                            r.get("high"), r["unit"], r["command"],
                            **rating(r["game"], dict(r.get("setup", {})), r["opponent"])) for r in raw.get("even", []))
    seen = {(p.game, tuple(sorted(p.setup.items())), p.opponent) for p in swept}
    fitted = tuple(EvenPoint(r["game"], dict(r.get("setup", {})), r["rung"], float(r["h50"]), r.get("low"),
                             r.get("high"), r["unit"], r["command"], r.get("how", "ladder fit"),
                             **rating(r["game"], dict(r.get("setup", {})), r["rung"]))
                   for r in rungs if "h50" in r and (r["game"], tuple(sorted(dict(r.get("setup", {})).items())),
                                                     r["rung"]) not in seen)
    return swept + fitted


def full_setup(game: str, options: dict) -> dict:
    """A set-up with its defaults filled in, the handicap itself aside (and the published robot's rules as '')."""
    import paperrobot

    info = paperrobot.game_info(game)  # imports the game's package, which registers it
    aside = ("handicap", "handicap_prices")
    checked = info.check_setup({k: v for k, v in options.items() if k not in aside and v is not None})
    if checked.get("robot_rules") and _published(info, checked["robot_rules"]):
        checked["robot_rules"] = ""  # the exported file unchanged: the published robot, whose even point it is
    return {k: v for k, v in checked.items() if k not in aside}


def suggestion(game: str, setup: dict | None = None, opponent: str = "policy") -> EvenPoint | None:
    """The measured even point of this game, set-up (defaults filled in; the handicap itself aside) and opponent."""
    mine = full_setup(game, setup or {})
    for point in load():
        if point.game == game and point.opponent == opponent and full_setup(game, point.setup) == mine:
            return point
    return None


def _beyond_rows() -> tuple[dict, ...]:  # read when asked: once at a game's start
    with FILE.open("rb") as handle:
        return tuple(r for r in tomllib.load(handle).get("even", []) if "h50" not in r and "none" in r)


def beyond(game: str, setup: dict | None = None, opponent: str = "policy") -> str | None:
    """Why no even point was found for this game, set-up and opponent, where a sweep looked for one and found
    none within the handicap's limits (a row of even_points.toml with ``none`` and no ``h50``), else None."""
    mine = full_setup(game, setup or {})
    for r in _beyond_rows():
        if r["game"] == game and r["opponent"] == opponent and full_setup(game, dict(r.get("setup", {}))) == mine:
            return str(r["none"])
    return None


def curve(game: str, setup: dict | None = None) -> list[EvenPoint]:
    """Every rated rung's even point for this set-up, weakest first: the even handicap against rating (seed 001's
    question answered per opponent strength, docs/ladder.md)."""
    mine = full_setup(game, setup or {})
    points = [p for p in load() if p.game == game and p.rating is not None and full_setup(game, p.setup) == mine]
    return sorted(points, key=lambda p: p.rating)


def _published(info, text: str) -> bool:
    from ..core.robot_rules import load
    return info.robot_rules is not None and load(info.robot_rules, text).is_published()


def listing(game: str) -> str:
    """One short sentence of every even point measured for ``game`` (for --help texts)."""
    points = [p for p in load() if p.game == game and p.opponent == "policy"]  # the policy stands in for a person
    if not points:
        return "none measured yet"
    return "; ".join(f"{' '.join(f'{k}={v}' for k, v in p.setup.items()) or 'default set-up'}: {p.text()}"
                     for p in points)
