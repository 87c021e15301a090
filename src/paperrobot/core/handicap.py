"""The handicap: extra points for one side, turned into things a person can also add at the table.

Every game has a ``handicap`` set-up option, a whole number of the game's points (FC point value, SFB BPV,
Armada fleet points): positive for the robot's side, negative for the other side, 0 (the default) for the
game as published. Each game turns the points into its own mechanism with a price table (``PRICES`` in the
game's data folder, or a person's own file through the ``handicap_prices`` option): extra shield boxes in
FC and SFB, extra squadrons in Armada. docs/balance.md explains every price and where it comes from.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field

from .data import Strict, load
from .errors import PaperRobotError

PRICES = "handicap.toml"  # the name of a game's price table in its data folder


class ShieldBoxPrices(Strict):
    """Extra shield boxes: ``points_per_box`` of the game's points buy one box."""

    mechanism: Literal["shield-boxes"]
    points_per_box: float = Field(ge=0.5, le=100)  # below half a point a box, the widest handicap gives >600 boxes
    provisional: bool = False
    source: str = Field("", max_length=2000)


class SquadronPrices(Strict):
    """Extra squadrons: each side buys copies of one squadron at its card's points."""

    mechanism: Literal["squadrons"]
    robot_unit: str = Field(min_length=1, max_length=40)  # the robot's side buys this squadron
    player_unit: str = Field(min_length=1, max_length=40)  # the other side buys this one
    provisional: bool = False
    source: str = Field("", max_length=2000)


def load_prices(default: Path, user: str | Path | None, model: type[Strict]) -> Strict:
    """The game's own price table, or the person's file (validated: one line naming file and field)."""
    return load(Path(user), model) if user else _builtin(default, model)


@lru_cache(maxsize=8)
def _builtin(path: Path, model: type[Strict]) -> Strict:
    return load(path, model)


def units_for(points: int, price: float) -> int:
    """How many units ``points`` buy at ``price`` each, rounded to the nearest (so the handicap is unbiased
    between the grid's steps; half rounds up)."""
    return int(abs(points) / price + 0.5)


def spread_boxes(shields: tuple[int, ...] | list[int], boxes: int) -> tuple[int, ...]:
    """``boxes`` extra shield boxes over the shields, one at a time from shield #1 round the ship, so every
    shield gains the same number (the first ones one more): a player adds them to the SSD's shield boxes."""
    n = len(shields)
    return tuple(s + boxes // n + (1 if i < boxes % n else 0) for i, s in enumerate(shields))


def side_and_amount(handicap: int) -> tuple[str, int]:
    """("robot" or "player", points): who receives the handicap, and how many points."""
    if not isinstance(handicap, int) or isinstance(handicap, bool):
        raise PaperRobotError(f"handicap must be a whole number of points, not {handicap!r}")
    return ("robot" if handicap >= 0 else "player"), abs(handicap)


def boxes_at_the_table(points: float, prices: ShieldBoxPrices) -> str:
    """What ``points`` of handicap are at the table for the side that gets them: "5 shield boxes"."""
    boxes = units_for(abs(points), prices.points_per_box)  # type: ignore[arg-type]  (a float rounds the same way)
    return f"{boxes} shield {'box' if boxes == 1 else 'boxes'}"


def describe_boxes(handicap: int, prices: ShieldBoxPrices, unit: str) -> str:
    """One line for the person: what the handicap gives to whom (empty at 0)."""
    if not handicap:
        return ""
    side, points = side_and_amount(handicap)
    boxes = units_for(points, prices.points_per_box)
    flag = " (a provisional price; see docs/balance.md)" if prices.provisional else ""
    who = "the robot" if side == "robot" else "your side"
    return (f"Handicap {handicap:+d} {unit}: {who} gets {boxes} extra shield boxes, spread over the six shields "
            f"from #1 ({prices.points_per_box:g} {unit} a box){flag}")
