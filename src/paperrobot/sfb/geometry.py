"""What the state allows, for the sequence of play, the requests, the robot and the policy: ranges, arcs,
the firing rate, legal shots. ``Geometry`` is a part of the engine class (game.Game inherits it); it reads the
state and changes nothing."""
from __future__ import annotations

from .base import GameBase, Target
from typing import Any

from ..core.hexgrid import Hex, distance, in_shape
from .cloak import effective_range
from .movement import STRAIGHT, state_index, viable_bits
from .plasma import Plasma
from .state import DISRUPTOR, DRONE, PHASER, PHOTON, PLASMA, Drone, Ship, Weapon


def _nearest(ship: Ship, foes: list[Ship]) -> Ship:
    """The nearest of several foes, ties by name (Geometry.enemy_of's rare case: a function of its own, as its key
    is a closure, which compiled would be made at every call of enemy_of)."""
    return min(foes, key=lambda o: (distance(ship.hex, o.hex), o.name))


class Geometry(GameBase):
    """Read-only questions about the battle (needs the engine's ships, board, turn, impulse, chart)."""

    @property
    def now(self) -> int:
        """Absolute impulse number (for the firing-rate rule across the turn boundary)."""
        return (self.turn - 1) * self.impulses + self.impulse

    def over(self) -> bool:
        """Has the battle ended? Asked where ``self.outcome is None`` was tested earlier in the same function:
        mypy keeps the field narrowed to None across the calls that may end the battle, and compiled code would
        then refuse the Outcome the field now holds (a TypeError: docs/speed.md "Compiled")."""
        return self.outcome is not None

    def emit(self, kind: str, side: str = "", **data: Any) -> None:
        if self.rec:
            self.log.emit(kind, self.turn, self.impulse, side, **data)

    def enemies(self, ship: Ship) -> list[Ship]:
        return [s for s in self.ships if s.side != ship.side and s.active]

    def side_ships(self, side: str) -> list[Ship]:
        return [s for s in self.ships if s.side == side]

    def enemy_of(self, ship: Ship) -> Ship | None:
        """The nearest active enemy ship (the robot's 'your ship'); ties by name."""
        side, found, foes = ship.side, None, None
        for o in self.ships:  # a loop, not a list: asked several times an impulse, nearly always of one foe
            if o.side != side and not o.destroyed and not o.gone:
                if found is None:
                    found = o
                else:
                    foes = (foes or [found]) + [o]
        if foes is None:
            return found
        return _nearest(ship, foes)

    def moves_now(self, ship: Ship) -> bool:
        return ship.speed > 0 and self.chart[min(ship.speed, self.impulses)][self.impulse]

    def on_map(self, h: Hex) -> bool:
        """``h in self.cells`` (movement.board_cells) as arithmetic: column q, row r + (q + (q & 1)) // 2 on the
        map (a hex's tuple hashed and compared at every test was a measurable part of a battle)."""
        q = h[0]
        row = h[1] + ((q + (q & 1)) >> 1)
        return 1 <= q <= self.cols and 1 <= row <= self.rows

    def viable(self, ship: Ship, steer: str, facing: int, dest: Hex) -> bool:
        """Would this move keep the ship on the map with a way to go on (SFB.R3.MAP)?"""
        tm = ship.tm_table[ship.speed]
        states = self._viable.get(tm)
        if states is None:
            states = self.viable_set(tm)
        straight = min(tm, ship.straight + 1) if steer == STRAIGHT else 1
        at = state_index(self.cols, self.rows, tm, dest[0], dest[1], facing, straight)
        return at >= 0 and states[at] != 0

    def viable_set(self, tm: int) -> bytes:
        """The states (q, r, facing, straight) of movement.viable_states for this map and turn mode, as
        ``movement.viable_bits``' table (``state_index`` finds a state's byte)."""
        states = self._viable.get(tm)
        if states is None:
            states = self._viable[tm] = viable_bits(self.cols, self.rows, tm)
        return states

    def rate_ok(self, weapon: Weapon) -> bool:
        """E1.5: once a turn, and never within 1/4 turn of its last firing (SFB.R1)."""
        turn = self.turn
        return weapon.fired_turn != turn and \
            (turn - 1) * self.impulses + self.impulse - weapon.last_fired >= self.quarter

    def geometry(self, firer: Ship, target: Target) -> tuple[Hex, Hex]:
        """Positions to judge arcs and shields by: at range 0, those of the impulse before (D3.42)."""
        if firer.hex == target.hex:
            return firer.prev_hex, target.prev_hex
        return firer.hex, target.hex

    def effective_range(self, ship: Ship, target: Target, rng: int) -> int:
        """The range used on the weapon charts: the true range, or 2 x true + 5 against a cloaked ship
        (SFB.CLOAK, G13.34)."""
        cloak = target.cloak if isinstance(target, Ship) else None  # only ships cloak
        return effective_range(rng, True) if cloak is not None and cloak.cloaked else rng

    def bears(self, ship: Ship, weapon: Weapon, target: Target, facing: int | None = None) -> bool:
        """Can ``weapon`` be pointed at ``target`` now: arc and the weapon's range limits."""
        rng = distance(ship.hex, target.hex)
        if rng < weapon.rmin or rng > weapon.rmax:
            return False
        if self.has_cloaks and self.effective_range(ship, target, rng) > weapon.rmax:
            return False  # docs/sfb-plasma-cloak.md "Cloak: minimum and maximum ranges"
        origin, aim = ship.hex, target.hex  # self.geometry(ship, target), inlined: a hot path
        # hexes compared coordinate by coordinate (compiled, ``==`` on two tuples is a generic rich compare)
        if origin[0] == aim[0] and origin[1] == aim[1]:
            origin, aim = ship.prev_hex, target.prev_hex
            if origin[0] == aim[0] and origin[1] == aim[1]:
                return True
        return in_shape(origin, ship.facing if facing is None else facing, weapon.shape, aim)  # the arc's shape

    @staticmethod
    def shootable_by_target(seeker: Drone | Plasma, ship: Ship) -> bool:
        """F2.2: a seeking weapon in its target's hex cannot be fired at by that target (range 0), except (F2.3)
        in the impulse it was launched there: it has not moved yet (seekers move on every impulse)."""
        return bool(seeker.target != ship.name or seeker.hex != ship.hex or seeker.moves == 0)

    def can_fire(self, ship: Ship, weapon: Weapon, target: Target) -> bool:
        if not weapon.alive or weapon.code >= DRONE or not self.rate_ok(weapon):  # drones and plasma: not direct
            return False
        if weapon.code == PHASER:
            if ship.capacitor + 1e-9 < weapon.cost and not ship.robot:
                return False  # H6.1; the robot's phasers are reloaded each turn (SFB.R6)
        elif not weapon.ready:
            return False
        if isinstance(target, (Drone, Plasma)) and not self.shootable_by_target(target, ship):
            return False
        if isinstance(target, Plasma) and weapon.code != PHASER:
            return False  # FP1.6: only phasers hurt plasma
        if ship.cloak is not None and not self.may_act(ship):
            return False  # SFB.CLOAK: cloaked, or impulse 1 after uncloaking
        return self.bears(ship, weapon, target)

    def legal_shot(self, ship: Ship, weapon: Weapon, target: Target) -> bool:
        """May ``ship`` fire ``weapon`` at ``target`` now: an enemy on the map (or an enemy seeker), and
        ``can_fire``; a robot ship's phasers need no capacitor (its weapons are reloaded, SFB.R6)."""
        if isinstance(target, Ship):
            if target.side == ship.side or not target.active:
                return False
        elif target.side == ship.side or not target.alive:
            return False
        return self.can_fire(ship, weapon, target)

    def max_speed(self, ship: Ship) -> int:
        return min(self.impulses, ship.speed + 8)

    def heavy_keys(self, ship: Ship) -> list[Weapon]:
        return [w for w in ship.weapons if w.alive and (w.code == PHOTON or w.code == DISRUPTOR or w.code == PLASMA)]

    def target_named(self, name: str) -> Target | None:
        if name in self.by_name:
            return self.by_name[name]
        for seeker in self.drones:
            if seeker.label == name:
                return seeker
        return next((t for t in self.plasmas if t.label == name), None)

    def ready_weapons(self, ship: Ship) -> list[Weapon]:
        """Direct-fire weapons of ``ship`` that may fire now (``may_fire``)."""
        turn = self.turn
        now, quarter = (turn - 1) * self.impulses + self.impulse, self.quarter
        return [weapon for weapon in ship.weapons if self.may_fire(ship, weapon, turn, now, quarter)]

    def any_ready(self, ship: Ship) -> bool:
        """``bool(self.ready_weapons(ship))`` without building the list (asked of a policy's ship every impulse)."""
        turn = self.turn
        now, quarter = (turn - 1) * self.impulses + self.impulse, self.quarter
        for weapon in ship.weapons:
            if self.may_fire(ship, weapon, turn, now, quarter):
                return True
        return False

    @staticmethod
    def may_fire(ship: Ship, weapon: Weapon, turn: int, now: int, quarter: int) -> bool:
        """``weapon`` of ``ship`` may fire direct now (``now``: the absolute impulse, ``quarter``: a quarter turn of
        impulses): alive, within the firing rate (E1.5, as rate_ok), and a phaser with capacitor charge for it
        (H6.1; a robot ship's phasers are reloaded each turn, SFB.R6) or an armed heavy weapon."""
        if not weapon.alive or weapon.code >= DRONE or weapon.fired_turn == turn \
                or now - weapon.last_fired < quarter:  # DRONE and PLASMA: seeking weapons (state.KIND_CODE)
            return False
        if weapon.code == PHASER:
            return ship.robot or not ship.capacitor + 1e-9 < weapon.cost
        return weapon.ready

    @staticmethod
    def name_of(target: Target) -> str:
        """A ship's name or a seeking weapon's label: how shots name their target."""
        return target.name if isinstance(target, Ship) else target.label
