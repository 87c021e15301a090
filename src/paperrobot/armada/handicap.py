"""Armada's handicap (core/handicap.py): fleet points bought as extra squadrons for the side that gets them, from
data/handicap.toml or the person's own price table; and what a handicap is at the table (the registry's
``at_the_table``)."""
from __future__ import annotations

from .data import catalogue
from .fleets import FleetError
from .sides import IMPERIAL, REBEL


def handicap_prices(path: str | None = ""):
    """Armada's handicap squadrons (data/handicap.toml), or the person's own table."""
    from ..core import handicap as hc
    from .data import DATA
    return hc.load_prices(DATA / hc.PRICES, path or None, hc.SquadronPrices)


def handicap_fleets(handicap: int, prices_path: str, setup: dict) -> dict:
    """The fleets with the handicap's squadrons added: ``handicap`` fleet points buy round(points / card
    points) copies of the price table's squadron for the Imperial (robot) side, or, when negative, for the
    Rebels. They come on top of the fleet's points and its squadron third (a handicap is off the book)."""
    from ..core import handicap as hc
    prices = handicap_prices(prices_path)
    if not handicap:
        return {}
    who, points = hc.side_and_amount(handicap)
    side, unit = (IMPERIAL, prices.robot_unit) if who == "robot" else (REBEL, prices.player_unit)
    squads = catalogue(setup.get("ships_dir") or None)[1]
    if unit not in squads or squads[unit].faction != side:
        raise FleetError(f"the handicap price table names '{unit}' for the {side} side; give a {side} squadron")
    count = hc.units_for(points, squads[unit].points)
    fleet = str(setup.get(side, ""))
    return {side: f"{fleet},{unit}*{count}" if count else fleet}


def at_the_table(handicap: float, setup: dict) -> str:
    """The registry's ``at_the_table``: ``handicap`` fleet points as the squadrons they buy for the side that gets
    them ("2 tie-fighter squadrons"), as handicap_fleets adds them."""
    from ..core import handicap as hc
    prices = handicap_prices(setup.get("handicap_prices") or "")
    unit = prices.robot_unit if handicap >= 0 else prices.player_unit
    squads = catalogue(setup.get("ships_dir") or None)[1]
    count = hc.units_for(abs(handicap), squads[unit].points) if unit in squads else 0  # type: ignore[arg-type]
    return f"{count} {unit} {'squadron' if count == 1 else 'squadrons'}"
