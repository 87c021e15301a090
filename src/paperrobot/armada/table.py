"""Measures, the part of the engine (after base.GameBase in the chain, game.py) that makes each function of measure.py
and courses.py a method of the engine (``game.ship_shots(ship)`` is ``measure.ship_shots(game, ship)``)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import courses as C, measure as M
from .base import GameBase

if TYPE_CHECKING:
    from ..core.contract import Option
    from .geometry import Pose
    from .measure import ShotOpt
    from .polygons import Point, Poly
    from .state import Ship, Squad


class Measures(GameBase):
    """What the engine measures on its table (``self.ships``, ``self.squads``, ``self.obstacles``, ``self.geo``):
    the functions of measure.py and courses.py as methods. The fields and ``live_ships``, ``live_squads`` and
    ``enemy`` are GameBase's (a measure.Table)."""

    def blockers(self, attacker: Ship | Squad | None, defender: Ship | Squad | None) -> list[Poly]:
        return M.blockers(self, attacker, defender)

    def obstructed(self, a: Point, b: Point, attacker: Ship | Squad | None, defender: Ship | Squad | None) -> bool:
        return M.obstructed(self, a, b, attacker, defender)

    def touch(self) -> None:
        M.touch(self)

    def ship_memo(self, name: str) -> dict[Any, Any]:
        return M.ship_memo(self, name)

    def ship_shots(
            self, ship: Ship, used: set[str] | frozenset[str] = frozenset(), ships_only: bool = False
    ) -> list[ShotOpt]:
        return M.ship_shots(self, ship, used, ships_only)

    def dice_bounds(self, ship: Ship) -> list[tuple[Ship | None, int, list[int]]]:
        return M.dice_bounds(self, ship)

    def group_has_shot(self, ship: Ship, target: Ship | None, bounds: list[int]) -> bool:
        return M.group_has_shot(self, ship, target, bounds)

    def group_dice(self, ship: Ship, target: Ship | None, bounds: list[int]) -> int:
        return M.group_dice(self, ship, target, bounds)

    def pair_memo(self, ship: Ship) -> dict[Any, Any]:
        return M.pair_memo(self, ship)

    def engaged_with(self, q: Squad) -> list[Squad]:
        return M.engaged_with(self, q)

    def squad_shots(self, q: Squad) -> list[ShotOpt]:
        return M.squad_shots(self, q)

    def in_squad_range(self, ship: Ship, side: str, unactivated: bool = True) -> list[Squad]:
        return C.in_squad_range(self, ship, side, unactivated)

    def threat_dice(self, ship: Ship) -> int:
        return M.threat_dice(self, ship)

    def courses(self, ship: Ship, dial: str | None = None) -> list[Option]:
        return C.courses(self, ship, dial)

    def end_of(self, ship: Ship, speed: int, clicks: Sequence[int]) -> Pose:
        return C.end_of(self, ship, speed, clicks)

    def squad_moves(self, q: Squad) -> list[Option]:
        return C.squad_moves(self, q)

    def _crowded(self, q: Squad, x: float, y: float) -> bool:
        return C._crowded(self, q, x, y)

    def _pinned(self, q: Squad) -> bool:
        return C._pinned(self, q)
