"""The measured even points (``even_points.toml``): the handicap where the robot scored 50 % in a balance sweep.

``play --help``, the start of a game and the web page offer them as the suggested difficulty; docs/balance.md
lists the commands that measured them. Only the standard library: the command line reads this on every start.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

FILE = Path(__file__).with_name("even_points.toml")


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

    def text(self) -> str:
        interval = f" (95% {self.low:+.0f} to {self.high:+.0f})" if self.low is not None else ""
        return f"{self.h50:+.0f} {self.unit}{interval} against the {self.opponent}"


@lru_cache(maxsize=1)
def load() -> tuple[EvenPoint, ...]:
    with FILE.open("rb") as handle:
        raw = tomllib.load(handle)
    return tuple(EvenPoint(r["game"], dict(r.get("setup", {})), r["opponent"], float(r["h50"]),
                           r.get("low"), r.get("high"), r["unit"], r["command"]) for r in raw.get("even", []))


def suggestion(game: str, setup: dict | None = None, opponent: str = "policy") -> EvenPoint | None:
    """The measured even point of this game, set-up (defaults filled in; the handicap itself aside) and opponent."""
    import paperrobot

    info = paperrobot.game_info(game)  # imports the game's package, which registers it
    aside = ("handicap", "handicap_prices")

    def full(options: dict) -> dict:
        checked = info.check_setup({k: v for k, v in options.items() if k not in aside and v is not None})
        return {k: v for k, v in checked.items() if k not in aside}

    mine = full(setup or {})
    for point in load():
        if point.game == game and point.opponent == opponent and full(point.setup) == mine:
            return point
    return None


def listing(game: str) -> str:
    """One short sentence of every even point measured for ``game`` (for --help texts)."""
    points = [p for p in load() if p.game == game and p.opponent == "policy"]  # the policy stands in for a person
    if not points:
        return "none measured yet"
    return "; ".join(f"{' '.join(f'{k}={v}' for k, v in p.setup.items()) or 'default set-up'}: {p.text()}"
                     for p in points)
