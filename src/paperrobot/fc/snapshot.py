"""A Game's mutable state as plain values, and a new Game built from them (clone and fork, core/contract.py).

``take(game)`` is called at a boundary of the sequence of play (the start of the energy allocation, of every
impulse, of the end of turn), where the whole position is in fields: it copies only what changes (the ships'
boxes, shields, energy, weapons, racks, speed and position, the drones, the counters, the routing of in-process
sides, the dice) into tuples and frozensets that nobody changes afterwards, so one snapshot serves many restores.
``build(game, snap, log)`` makes a new Game from it: new Ship, Weapon, Rack and Drone objects, new lists and dicts;
only immutable data (ship cards, tables, rules, the board) and the memo caches of pure lookups (weapon costs,
turn modes: functions of the fixed charts) are shared with the original. The robot keeps nothing of its own
between decisions (seed 001's memory, e.g. "fired disruptors this turn", is a ship field), so the ships carry it.
"""
from __future__ import annotations

from dataclasses import fields
from functools import partial
from typing import Any
from operator import attrgetter

from ..core.dice import Dice
from .state import Drone, Rack, Ship, Weapon

SHIP_FIELDS = tuple(f.name for f in fields(Ship))  # in __init__ order (a compiled Ship has no __slots__)
_SHIP = attrgetter(*SHIP_FIELDS)
_I_SHIELDS, _I_BOXES = SHIP_FIELDS.index("shields"), SHIP_FIELDS.index("boxes")
_I_WEAPONS, _I_RACKS = SHIP_FIELDS.index("weapons"), SHIP_FIELDS.index("racks")
_WEAPON = attrgetter("alive", "fired", "arm")  # the rest of a weapon is its card (id, kind, arc, masks)
_RACK = attrgetter("alive", "ammo", "launched")
_DRONE = attrgetter(*(f.name for f in fields(Drone)))
assert SHIP_FIELDS[:4] == ("side", "spec", "pos", "facing") and "weapons" in SHIP_FIELDS


def _ship_values(ship: Ship) -> tuple:
    values = list(_SHIP(ship))
    values[_I_SHIELDS] = tuple(ship.shields)
    values[_I_BOXES] = tuple(ship.boxes.items())
    values[_I_WEAPONS] = tuple(_WEAPON(w) for w in ship.weapons)
    values[_I_RACKS] = tuple(_RACK(r) for r in ship.racks)
    return tuple(values)


def _ship_from(values: tuple, cards: list[Weapon]) -> Ship:
    """A new Ship of ``values``; its weapons are copies of ``cards`` (the original's) with their state set."""
    values = list(values)
    values[_I_SHIELDS] = list(values[_I_SHIELDS])
    values[_I_BOXES] = dict(values[_I_BOXES])
    weapons = []
    for card, (alive, fired, arm) in zip(cards, values[_I_WEAPONS]):
        weapons.append(Weapon(card.id, card.kind, card.arc, alive, fired, arm))  # its masks: arc_masks' memo
    values[_I_WEAPONS] = weapons
    values[_I_RACKS] = [Rack(*r) for r in values[_I_RACKS]]
    return Ship(*values)


def take(game) -> tuple:
    """The game's mutable state at a boundary, as values nobody changes afterwards."""
    return (game.phase, game.turn, game.impulse, game.over, game._drone_count,
            tuple(game.start_internal.items()),
            tuple(_ship_values(s) for s in game.ships.values()),
            tuple(_DRONE(d) for d in game.drones),
            frozenset(game.in_process), tuple((side, dict(kinds)) for side, kinds in game.standing.items()),
            tuple(game.standing_accel.items()),
            game.dice.snapshot())


def build(game: Any, snap: tuple[Any, ...], log: Any) -> Any:
    """A new Game in the state of ``snap`` (taken from ``game`` or a Game restored from it), logging to ``log``."""
    (phase, turn, impulse, over, drone_count, start_internal, ships, drones, in_process, standing, standing_accel,
     dice) = snap
    new = type(game)({}, game.dice, like=game)  # an empty engine: every field is set below
    # shared: immutable data and memo caches of pure lookups (the charts never change during a game)
    new.tables, new.rules, new.order, new.board, new.setup, new.max_turns, new.robot_rules = (
        game.tables, game.rules, game.order, game.board, game.setup, game.max_turns, game.robot_rules)
    new.costs, new._turn_modes = game.costs, game._turn_modes
    # new: every mutable object
    new.dice, new.log = Dice.restore(dice), log
    new.ships = {values[0]: _ship_from(values, game.ships[values[0]].weapons) for values in ships}
    new.drones = [Drone(*values) for values in drones]
    new.weapon_index = {side: {w.id: w for w in ship.weapons} for side, ship in new.ships.items()}
    slots = game.arm_slots
    if slots is None:  # each kind's weapons as places on the card (Ship.weapons_by_kind), shared: the cards are fixed
        slots = game.arm_slots = {side: {kind: tuple(i for i, w in enumerate(ship.weapons) if w.kind == kind)
                                         for kind in game.arms[side]} for side, ship in game.ships.items()}
    new.arm_slots = slots
    new.arms = {side: {kind: tuple(new.ships[side].weapons[i] for i in places) for kind, places in kinds.items()}
                for side, kinds in slots.items()}
    new.forms, new.moves, new.pending_reasons = {}, {}, []  # request builders close over the engine: rebuilt
    new.in_process = set(in_process)
    new.standing = {side: dict(kinds) for side, kinds in standing}
    new.standing_accel = dict(standing_accel)
    new.routed = set()  # the routing above is inherited: unroute() forgets it for a side flown otherwise now
    new.view_fns = {side: partial(new.view, side) for side in new.ships}
    first, last = new.order
    new.enemies = {first: new.ships[last], last: new.ships[first]}
    new.phase, new.turn, new.impulse, new.subpulse = phase, turn, impulse, 0
    new.over, new._drone_count = over, drone_count
    new.start_internal = dict(start_internal)
    new.rec, new.boundary = True, None
    return new
