"""Snapshots of a battle at the boundaries of the sequence of play, and engines restored from them: the SFB
side of the contract's ``clone()`` and ``fork()`` (core/contract.py; docs/sfb.md "Clone and fork").

A snapshot copies only what changes during a battle, as tuples of plain values (ships with their shields,
weapons, plasma tubes and cloak; drones; plasma torpedoes; the counters; where the sequence of play stands;
who flies each side; the energy paid for cloaks; the dice), so it can be restored many times and is never
changed. What the robot remembers is on its ship (state.Ship: primary_done, tie_side, focus) and travels
with it. A restored engine shares every immutable thing with the engine it came from (scenario, board and
cells, move chart, ship specs and turn-mode tables, plasma types, the viable-states memo keyed by geometry);
the robots, the policy and the per-ship requests are rebuilt for it, on demand.

``Cloning`` is a part of the engine class (game.Game inherits it).
"""
from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .plasma_play import PlasmaCloakSteps
from ..core.dice import Dice
from ..core.events import EventLog
from ..core.outcome import Outcome
from .cloak import Cloak
from .plasma import Plasma, PlasmaTube
from .state import Drone, Ship, Weapon

if TYPE_CHECKING:
    from .game import Game

# Each object is copied by reading its fields in declaration order into a tuple (one C call) and rebuilt by
# calling its class with them; fields that hold mutable objects are taken out and copied on their own.
SHIP_FIELDS = tuple(f.name for f in fields(Ship))
SHIELDS, WEAPONS, CLOAK = (SHIP_FIELDS.index(n) for n in ("shields", "weapons", "cloak"))
_ship_values = attrgetter(*SHIP_FIELDS)
WEAPON_FIELDS = tuple(f.name for f in fields(Weapon))
assert WEAPON_FIELDS[-1] == "tube"  # restore passes the copied tube as the last positional argument
_weapon_values = attrgetter(*WEAPON_FIELDS[:-1])
_tube_values = attrgetter(*(f.name for f in fields(PlasmaTube)))  # ptype: a frozen PlasmaType, shared
_cloak_values = attrgetter(*(f.name for f in fields(Cloak)))
_drone_values = attrgetter(*(f.name for f in fields(Drone)))  # hexes are tuples
_plasma_values = attrgetter(*(f.name for f in fields(Plasma)))

# Engine attributes that change during a battle (or hold objects bound to one engine): set by ``restore``;
# every other attribute of the engine is immutable once the battle is set up and is shared (game.Game.share).
OWN = frozenset(("ships", "by_name", "drones", "plasmas", "drone_count", "plasma_count", "_policy", "robots", "flown",
                 "_asks", "in_process", "standing", "forced_unasked", "turn", "impulse", "phase", "resumed",
                 "boundary", "seekers_step", "disengage_step", "outcome", "order", "order_turn", "cloak_paid",
                 "dice", "log", "rec", "options", "setup_options", "routed"))


def ship_snapshot(ship: Ship) -> tuple[Any, ...]:
    """The ship's fields in order, its shields, weapons (with tubes) and cloak as tuples in their places."""
    values = list(_ship_values(ship))
    values[SHIELDS] = tuple(ship.shields)
    values[WEAPONS] = tuple((_weapon_values(w), None if w.tube is None else _tube_values(w.tube))
                            for w in ship.weapons)
    cloak = ship.cloak
    values[CLOAK] = None if cloak is None else _cloak_values(cloak)
    return tuple(values)


# A restored object is made without its dataclass __init__ and its fields set one by one. Compiled, the classes
# are native but their __init__ is the interpreted one the dataclass decorator writes (a generic call, the
# arguments in a tuple, one descriptor call per field: nearly all of a fork's ship restore); here each field is
# a native store. The fields are written out in declaration order, checked against the dataclasses here, so a
# new field cannot be forgotten.
assert SHIP_FIELDS == ("name", "side", "spec", "hex", "facing", "robot", "prev_hex", "speed", "straight", "shields",
                       "warp", "impulse", "apr", "battery", "charged", "hull", "bridge", "security", "transporter",
                       "lab", "shuttle", "excess", "capacitor", "weapons", "warp_lost", "internal", "destroyed",
                       "gone", "objective", "has_drones", "tm_table", "cloak", "primary_done", "tie_side", "focus")
assert WEAPON_FIELDS == ("key", "type", "kind", "arc", "cost", "ammo", "alive", "ready", "arm", "last_fired",
                         "fired_turn", "rmin", "rmax", "code", "shape", "tube")
assert tuple(f.name for f in fields(Drone)) == ("label", "side", "owner", "target", "hex", "facing", "prev_hex",
                                                "expires", "moves", "damage", "alive", "back")


def ship_restore(snap: tuple[Any, ...]) -> Ship:
    (name, side, spec, hex_, facing, robot, prev_hex, speed, straight, shields, warp, impulse, apr, battery, charged,
     hull, bridge, security, transporter, lab, shuttle, excess, capacitor, weapons, warp_lost, internal, destroyed,
     gone, objective, has_drones, tm_table, cloak, primary_done, tie_side, focus) = snap
    ship = Ship.__new__(Ship)
    ship.name = name
    ship.side = side
    ship.spec = spec
    ship.hex = hex_
    ship.facing = facing
    ship.robot = robot
    ship.prev_hex = prev_hex
    ship.speed = speed
    ship.straight = straight
    ship.shields = list(shields)
    ship.warp = warp
    ship.impulse = impulse
    ship.apr = apr
    ship.battery = battery
    ship.charged = charged
    ship.hull = hull
    ship.bridge = bridge
    ship.security = security
    ship.transporter = transporter
    ship.lab = lab
    ship.shuttle = shuttle
    ship.excess = excess
    ship.capacitor = capacitor
    ship.weapons = [weapon_restore(w) for w in weapons]
    ship.warp_lost = warp_lost
    ship.internal = internal
    ship.destroyed = destroyed
    ship.gone = gone
    ship.objective = objective
    ship.has_drones = has_drones
    ship.tm_table = tm_table
    ship.cloak = None if cloak is None else Cloak(*cloak)
    ship.primary_done = primary_done
    ship.tie_side = tie_side
    ship.focus = focus
    return ship


def weapon_restore(snap: tuple[Any, ...]) -> Weapon:
    values, tube = snap
    (key, type_, kind, arc, cost, ammo, alive, ready, arm, last_fired, fired_turn, rmin, rmax, code, shape) = values
    weapon = Weapon.__new__(Weapon)
    weapon.key = key
    weapon.type = type_
    weapon.kind = kind
    weapon.arc = arc
    weapon.cost = cost
    weapon.ammo = ammo
    weapon.alive = alive
    weapon.ready = ready
    weapon.arm = arm
    weapon.last_fired = last_fired
    weapon.fired_turn = fired_turn
    weapon.rmin = rmin
    weapon.rmax = rmax
    weapon.code = code
    weapon.shape = shape
    weapon.tube = None if tube is None else PlasmaTube(*tube)
    return weapon


def drone_restore(snap: tuple[Any, ...]) -> Drone:
    (label, side, owner, target, hex_, facing, prev_hex, expires, moves, damage, alive, back) = snap
    drone = Drone.__new__(Drone)
    drone.label = label
    drone.side = side
    drone.owner = owner
    drone.target = target
    drone.hex = hex_
    drone.facing = facing
    drone.prev_hex = prev_hex
    drone.expires = expires
    drone.moves = moves
    drone.damage = damage
    drone.alive = alive
    drone.back = back
    return drone


class Cloning(PlasmaCloakSteps):
    """snapshot / restore / unroute of the engine protocol (needs the engine's state fields)."""

    def snapshot(self) -> tuple[Any, ...]:
        """The battle's changing state as nested tuples of plain values (never mutated afterwards). Taken at a
        boundary of the sequence of play (``boundary()``), where the position is in ``turn, impulse, phase``."""
        outcome = self.outcome
        return ((self.turn, self.impulse, self.phase, self.seekers_step, self.disengage_step, self.drone_count,
                 self.plasma_count, self.order_turn, tuple(s.name for s in self.order),
                 None if outcome is None else (outcome.winner, outcome.result, outcome.turns,
                                               tuple(outcome.metrics.items()))),
                tuple(ship_snapshot(s) for s in self.ships),
                tuple(_drone_values(d) for d in self.drones),
                tuple(_plasma_values(t) for t in self.plasmas),
                (tuple(self.flown.items()), frozenset(self.in_process), tuple(self.standing.items()),
                 frozenset(self.forced_unasked), tuple(self.cloak_paid.items())),
                self.dice.snapshot())

    def restore(self, snapshot: tuple[Any, ...], log: EventLog) -> Game:
        """A new engine in the snapshot's state, writing to ``log``; its ``sequence()`` resumes at the snapshot's
        boundary. It shares no changing object with ``self`` or with the snapshot."""
        position, ships, drones, plasmas, routing, dice = snapshot
        turn, impulse, phase, seekers, disengage, drone_count, plasma_count, order_turn, order, outcome = position
        new = self.fresh(log)  # the unchanging fields shared (game.Game.share); the rest set here
        new.ships = [ship_restore(s) for s in ships]
        by_name = new.by_name = {s.name: s for s in new.ships}
        new.drones = [drone_restore(d) for d in drones]
        new.plasmas = [Plasma(*t) for t in plasmas]
        new.turn, new.impulse, new.phase = turn, impulse, phase
        new.seekers_step, new.disengage_step = seekers, disengage
        new.drone_count, new.plasma_count, new.order_turn = drone_count, plasma_count, order_turn
        new.order = [by_name[name] for name in order]
        new.outcome = None if outcome is None else Outcome(outcome[0], outcome[1], outcome[2], dict(outcome[3]))
        flown, in_process, standing, forced_unasked, cloak_paid = routing
        new.flown, new.in_process, new.standing = dict(flown), set(in_process), dict(standing)
        new.forced_unasked, new.cloak_paid = set(forced_unasked), dict(cloak_paid)
        new.options, new.setup_options = dict(self.options), dict(self.setup_options)
        new._policy = None  # made when first asked (GameBase.policy)
        new.robots, new._asks = {}, {}
        new.routed = set()  # the routing above is inherited: unroute() forgets it for a side flown otherwise now
        new.dice = Dice.restore(dice)
        new.log = log
        new.rec = log.enabled or bool(log.listeners)
        new.boundary = None
        new.resumed = True
        return new

    def unroute(self, side: str) -> None:
        """``side`` is now flown by someone else than the in-process controller this engine inherited from the
        engine it was restored from: forget that controller's standing answers, that it is not asked forced
        questions, and that its requests may be reissued (an outside controller may keep them), so every question
        is asked again, each time made new. A side whose controller was asked of this very engine (``controller()``:
        the match routing it to "robot" or "policy", or a caller wrapping the engine's own robot or policy) keeps
        what that controller told it: core's Match calls this for every side whenever play() routes them."""
        if side in self.routed:
            return
        self.standing.pop(side, None)
        self.forced_unasked.discard(side)
        self.in_process.discard(side)
        if self.turn:
            self.disengage_step = self.disengage_offered()

    # No ``redraw(side, rng)``: in this implementation a side's view hides nothing that the cadet rules hide from
    # it. A cloaked ship stays on the map where everyone sees it (seed 004 G13.1: the counter is labelled CLOAKED,
    # not concealed; its hex, facing and speed are in every view), so a fork keeps it where it is. What the other
    # side's view leaves out (the opponent's energy allocation) is open in solitaire play and is not re-drawn
    # (docs/sfb-plasma-cloak.md "Cloak and forks"). Without the method a fork seeds no generator for it.


__all__ = ["Cloning", "ship_snapshot", "ship_restore", "weapon_restore", "drone_restore", "OWN"]
