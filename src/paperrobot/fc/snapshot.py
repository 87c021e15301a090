"""A Game's mutable state as plain values, and a new Game built from them (clone and fork, core/contract.py).

``take(game)`` is called at a boundary of the sequence of play (the start of the energy allocation, of every
impulse, of the end of turn), where the whole position is in fields: it copies only what changes (the ships'
boxes, shields, energy, weapons, racks, speed and position, the drones, the counters, the routing of in-process
sides, the dice) into tuples, frozensets and dicts of its own that nobody changes afterwards, so one snapshot
serves many restores.
``build(game, snap, log)`` makes a new Game from it: new Ship, Weapon, Rack and Drone objects, new lists and dicts;
only immutable data (ship cards, tables, rules, the board) and the memo caches of pure lookups (weapon costs,
turn modes: functions of the fixed charts) are shared with the original. The robot keeps nothing of its own
between decisions (seed 001's memory, e.g. "fired disruptors this turn", is a ship field), so the ships carry it.

Compiled (a search's fork builds a Game from a snapshot every simulation): each object's fields are written out,
read one by one and passed to its class's own ``__init__`` by position (native calls; no attrgetter, no unpacking
of a tuple into a call, no generator), the field lists checked against the dataclasses below at import, so a field
added to a class and not here fails at once.
"""
from __future__ import annotations

from dataclasses import fields
from functools import partial
from typing import TYPE_CHECKING, Any, Callable

from ..core.dice import Dice
from ..core.events import EventLog
from .state import Drone, Rack, Ship, Weapon

if TYPE_CHECKING:
    from .base import GameBase
    from .game import Game

assert tuple(f.name for f in fields(Ship)) == (
    "side", "spec", "pos", "facing", "shields", "boxes", "weapons", "racks", "reloads", "add_shots", "energy",
    "battery", "baseline", "stopped", "accel", "since_turn", "slip_ok", "het_used", "prev_pos", "tractors_used",
    "repair_target", "repair_done", "internals", "destroyed", "disengaged", "moves_this_impulse", "fired_disruptors",
    "damage_taken_volley", "log_name")
# a weapon's state; the rest of it is its card (id, kind, arc) and what __init__ derives from the card
assert tuple(f.name for f in fields(Weapon)) == ("id", "kind", "arc", "alive", "fired", "arm", "phaser", "masks",
                                                 "code")
assert tuple(f.name for f in fields(Rack)) == ("alive", "ammo", "launched")
assert tuple(f.name for f in fields(Drone)) == ("id", "owner", "target", "pos", "facing", "launched_turn", "damage",
                                                "alive", "impacting", "approach", "held_by", "released")


def _ship_values(s: Ship) -> tuple[Any, ...]:
    """The ship's fields in declaration order; its shields, weapons and racks as tuples in their places, its boxes
    as a dict of the snapshot's own (nobody changes it: a restore copies it, and a dict's copy is a block copy, where
    a dict built from pairs hashes and inserts every system)."""
    weapons = tuple([(w.alive, w.fired, w.arm) for w in s.weapons])
    racks = tuple([(r.alive, r.ammo, r.launched) for r in s.racks])
    return (s.side, s.spec, s.pos, s.facing, tuple(s.shields), dict(s.boxes), weapons, racks, s.reloads,
            s.add_shots, s.energy, s.battery, s.baseline, s.stopped, s.accel, s.since_turn, s.slip_ok, s.het_used,
            s.prev_pos, s.tractors_used, s.repair_target, s.repair_done, s.internals, s.destroyed, s.disengaged,
            s.moves_this_impulse, s.fired_disruptors, s.damage_taken_volley, s.log_name)


def _ship_from(values: tuple[Any, ...], cards: list[Weapon]) -> Ship:
    """A new Ship of ``values``; its weapons are copies of ``cards`` (the original's) with their state set."""
    (side, spec, pos, facing, shields, boxes, weapon_states, rack_states, reloads, add_shots, energy, battery,
     baseline, stopped, accel, since_turn, slip_ok, het_used, prev_pos, tractors_used, repair_target, repair_done,
     internals, destroyed, disengaged, moves_this_impulse, fired_disruptors, damage_taken_volley, log_name) = values
    box_values: dict[str, int] = boxes  # typed: compiled, the dict's own copy (PyDict_Copy)
    # typed: compiled, each state's tuple is read and unpacked natively (an Any is unpacked through an iterator)
    states: tuple[tuple[bool, bool, int], ...] = weapon_states
    weapons: list[Weapon] = []
    for i in range(len(cards)):
        card = cards[i]
        alive, fired, arm = states[i]
        weapons.append(Weapon(card.id, card.kind, card.arc, alive, fired, arm))  # its masks: arc_masks' memo
    rack_values: tuple[tuple[bool, int, bool], ...] = rack_states
    racks: list[Rack] = []
    for rack in rack_values:
        racks.append(Rack(rack[0], rack[1], rack[2]))
    return Ship(side, spec, pos, facing, list(shields), box_values.copy(), weapons, racks, reloads, add_shots, energy,
                battery, baseline, stopped, accel, since_turn, slip_ok, het_used, prev_pos, tractors_used,
                repair_target, repair_done, internals, destroyed, disengaged, moves_this_impulse, fired_disruptors,
                damage_taken_volley, log_name)


def _drone_values(d: Drone) -> tuple[Any, ...]:
    return (d.id, d.owner, d.target, d.pos, d.facing, d.launched_turn, d.damage, d.alive, d.impacting, d.approach,
            d.held_by, d.released)


def _drone_from(values: tuple[Any, ...]) -> Drone:
    (id_, owner, target, pos, facing, launched_turn, damage, alive, impacting, approach, held_by, released) = values
    return Drone(id_, owner, target, pos, facing, launched_turn, damage, alive, impacting, approach, held_by, released)


def take(game: GameBase) -> tuple[Any, ...]:
    """The game's mutable state at a boundary, as values nobody changes afterwards."""
    return (game.phase, game.turn, game.impulse, game.over, game._drone_count,
            dict(game.start_internal),  # the snapshot's own: copied by a restore
            tuple([_ship_values(s) for s in game.ships.values()]),
            tuple([_drone_values(d) for d in game.drones]),
            frozenset(game.in_process), tuple([(side, dict(kinds)) for side, kinds in game.standing.items()]),
            tuple(game.standing_accel.items()),
            game.dice.snapshot())


def _slots(game: GameBase) -> dict[str, dict[str, tuple[int, ...]]]:
    """Each kind's weapons as places on the card (Ship.weapons_by_kind), made once and shared: the cards are fixed."""
    slots = game.arm_slots
    if slots is None:
        slots = game.arm_slots = {side: {kind: tuple([i for i, w in enumerate(ship.weapons) if w.kind == kind])
                                         for kind in game.arms[side]} for side, ship in game.ships.items()}
    return slots


def build(game: Game, snap: tuple[Any, ...], log: EventLog) -> Game:
    """A new Game in the state of ``snap`` (taken from ``game`` or a Game restored from it), logging to ``log``."""
    (phase, turn, impulse, over, drone_count, start_internal, ship_values, drone_values, in_process, standing,
     standing_accel, dice) = snap
    new = game.blank()  # an empty engine: every field is set below
    # shared: immutable data and memo caches of pure lookups (the charts never change during a game)
    new.tables = game.tables
    new.rules = game.rules
    new.order = game.order
    new.board = game.board
    new.setup = game.setup
    new.max_turns = game.max_turns
    new.robot_rules = game.robot_rules
    new.costs = game.costs
    new._turn_modes = game._turn_modes
    slots = new.arm_slots = _slots(game)
    # new: every mutable object
    new.dice = Dice.restore(dice)
    new.log = log
    ships: dict[str, Ship] = {}
    weapon_index: dict[str, dict[str, Weapon]] = {}
    arms: dict[str, dict[str, tuple[Weapon, ...]]] = {}
    view_fns: dict[str, Callable[[], dict[str, Any]]] = {}
    for values in ship_values:
        side: str = values[0]
        ship = ships[side] = _ship_from(values, game.ships[side].weapons)
        weapons = ship.weapons
        weapon_index[side] = {w.id: w for w in weapons}
        arms[side] = {kind: tuple([weapons[i] for i in places]) for kind, places in slots[side].items()}
        view_fns[side] = partial(new.view, side)
    new.ships = ships
    new.weapon_index = weapon_index
    new.arms = arms
    new.view_fns = view_fns
    new.drones = [_drone_from(values) for values in drone_values]
    new.forms = {}  # request builders close over the engine: rebuilt
    new.moves = {}
    new.pending_reasons = []
    new.in_process = set(in_process)
    new.standing = {side: dict(kinds) for side, kinds in standing}
    new.standing_accel = dict(standing_accel)
    new.routed = set()  # the routing above is inherited: unroute() forgets it for a side flown otherwise now
    first, last = new.order
    new.enemies = {first: ships[last], last: ships[first]}
    new.phase = phase
    new.turn = turn
    new.impulse = impulse
    new.subpulse = 0
    new.over = over
    new._drone_count = drone_count
    internal: dict[str, int] = start_internal
    new.start_internal = internal.copy()
    new.rec = True
    new.boundary = None
    return new
