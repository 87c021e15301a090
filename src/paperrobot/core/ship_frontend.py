"""The front-end hooks that SFB and FC share (core/frontend.py): a handicap bought as extra shield boxes at a price
per box (core/handicap.py), and ships read from a folder of ship files (``--ships-dir``) listed, named and sourced
the same way. Each game keeps only what differs: its prices, its unit, its ships and how one is summed up in a line.
"""
from __future__ import annotations

from typing import Any, Mapping

from . import handicap as hc
from .frontend import Frontend


class ShipFrontend(Frontend):
    """A game of ship files and shield-box handicaps; subclasses give ``handicap_unit``, ``handicap_prices``,
    ``load_ships``, ``ships_title`` and ``ship_summary``."""

    handicap_unit = ""  # the handicap's unit in the game's own words ("BPV", "points")
    ships_title = ""  # the first line of 'paperrobot ships'
    paths: tuple[str, ...] = ("ships_dir", "handicap_prices")

    def handicap_prices(self, path: str) -> hc.ShieldBoxPrices:
        """The price of a shield box: the game's own table, or the person's file at ``path`` ('' for the built-in)."""
        raise NotImplementedError

    def load_ships(self, ships_dir: str | None) -> Mapping[str, Any]:
        """The ships by key: the built-in ones, or those of ``ships_dir``."""
        raise NotImplementedError

    def ship_summary(self, key: str, spec: Any) -> str:
        """One ship in 'paperrobot ships', after its key."""
        return str(getattr(spec, "title", key))

    # ------------------------------------------------------------------ the hooks
    def handicap_line(self, setup: dict) -> str:
        handicap = int(setup.get("handicap") or 0)
        if not handicap:
            return ""
        return hc.describe_boxes(handicap, self.handicap_prices(setup.get("handicap_prices") or ""),
                                 self.handicap_unit)

    def ship_names(self, ships_dir: Any) -> list[str]:
        return sorted(self.load_ships(ships_dir or None))

    def ship_list(self, ships_dir: Any) -> list[str]:
        ships = self.load_ships(ships_dir or None)
        return [self.ships_title] + [f"  {key:15} {self.ship_summary(key, ships[key])}" for key in sorted(ships)]

    def ship_sources(self, provisional: bool, prefix: str) -> list[str]:
        """Each built-in ship's source, marked when provisional (``provisional``: only those), for 'paperrobot data'."""
        return [f"{prefix}{key}{' [provisional]' if spec.provisional else ''}: {spec.source}"
                for key, spec in sorted(self.load_ships(None).items()) if spec.provisional or not provisional]
