"""Corrections (the table assistant's ``fix``): the robot's recorded state put right to match a real table.

``apply(game, changes)`` checks every change first (one IllegalAction line naming what may be changed and
the values allowed), then applies them all and emits one ``correction`` event. A correction is an answer
of the person's side (core/contract.py records it as '@fix'), so saves, resume and undo replay it.

Names (the robot ship unless ``ship=NAME`` names another; ``player_`` names the person's ship):
- ``hex=2215``, ``facing=C``, ``speed=12``; ``player_hex``, ``player_facing``, ``player_speed``
- ``shield1`` .. ``shield6``: the boxes left in that shield (0 to the sheet's)
- a box row of the ship sheet (``hull``, ``warp``, ``impulse``, ``apr``, ``battery``, ``transporter``, ``lab``,
  ``shuttle``, ``security``, ``excess``, ``bridge``): the boxes left (0 to the sheet's); ``mark=hull`` marks one
  box destroyed and ``clear=hull`` clears one (a comma list marks several)
- ``batteries``: batteries charged; ``capacitor``: phaser energy held
- a weapon's key (``phaser-1#2``, ``photon-A``, ``drone-1``, ``plasma-s-A``): ``destroyed`` or ``intact``;
  ``fired`` (it fired this impulse: the E1.5 quarter-turn rule counts from now) or ``ready``; a photon
  ``armed``, ``half`` or ``empty``; a plasma tube ``armed`` or ``empty``; a drone rack the drones left (0-4)
- a seeking weapon in flight by its label (``KD1``, ``RP2``): a hex it is in now, or ``gone``
"""
from __future__ import annotations

from typing import Any, Callable

from ..core import hexgrid
from ..core.assist import corrected_hex
from ..core.errors import IllegalAction
from .damage import destroy_weapon
from .state import Ship, Weapon

RULE = "SFB.FIX"  # not a rule of the seed: the person's table is the authority (docs/assistant.md)
BOXES = ("hull", "warp", "impulse", "apr", "battery", "transporter", "lab", "shuttle", "security", "excess",
         "bridge")
WEAPON_STATES = {"phaser": ("destroyed", "intact", "fired", "ready"),
                 "disruptor": ("destroyed", "intact", "fired", "ready"),
                 "photon": ("destroyed", "intact", "fired", "ready", "armed", "half", "empty"),
                 "plasma": ("destroyed", "intact", "fired", "ready", "armed", "empty"),
                 "drone": ("destroyed", "intact", "fired", "ready", "0", "1", "2", "3", "4")}
MAX_SPEED = 32


def _refuse(text: str) -> None:
    raise IllegalAction(text, RULE)


def _names(game, ship: Ship) -> str:
    weapons = ", ".join(w.key for w in ship.weapons)
    seekers = [d.label for d in game.drones if d.alive] + [p.label for p in game.plasmas if p.alive]
    return ("ship, hex, facing, speed, player_hex, player_facing, player_speed, shield1-6, "
            f"{', '.join(BOXES)}, mark, clear, batteries, capacitor, {weapons}"
            + (f", {', '.join(seekers)}" if seekers else ""))


def _hex(game, value: Any, name: str):
    return corrected_hex(value, name, game.board, "2215", RULE)


def _facing(value: Any, name: str) -> int:
    try:
        return hexgrid.facing_index(str(value))
    except ValueError:
        _refuse(f"{name}={str(value)[:20]}: a facing is one of A-F")


def _count(value: Any, name: str, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value) or not 0 <= value <= top:
        _refuse(f"{name}={str(value)[:20]}: a whole number from 0 to {top}")
    return int(value)


def _box_rows(ship: Ship, value: Any, name: str) -> list[str]:
    rows = [r.strip() for r in str(value).split(",") if r.strip()]
    if not rows or any(r not in BOXES and ship.weapon(r) is None for r in rows):
        _refuse(f"{name}={str(value)[:30]}: name box rows of {ship.name}'s sheet: {', '.join(BOXES)}, or a "
                f"weapon ({', '.join(w.key for w in ship.weapons)})")
    return rows


def plan(game, changes: dict) -> tuple[Ship, list[Callable[[], None]]]:
    """The ship corrected and the changes as actions, every one checked; nothing is changed yet."""
    if not isinstance(changes, dict) or not changes:
        _refuse("a correction names what to change, e.g. fix hex=2215 facing=C")
    robots = [s for s in game.ships if s.robot]
    ship = robots[0] if robots else game.side_ships("robot")[0]
    if "ship" in changes:
        ship = game.by_name.get(str(changes["ship"]))
        if ship is None:
            _refuse(f"ship={str(changes['ship'])[:30]}: the ships are {', '.join(game.by_name)}")
    players = [s for s in game.ships if s.side == "player"]
    actions: list[Callable[[], None]] = []
    boxes = {row: getattr(ship, row) for row in BOXES}  # running counts: mark/clear and row=N agree
    for name, value in changes.items():
        if name == "ship":
            continue
        target = ship
        key = name
        if name.startswith("player_"):
            target, key = players[0], name[len("player_"):]
            if key not in ("hex", "facing", "speed"):
                _refuse(f"{name}: of your ship only player_hex, player_facing and player_speed are kept")
        if key == "hex":
            actions.append(_set_hex(game, target, _hex(game, value, name)))
        elif key == "facing":
            facing = _facing(value, name)
            actions.append(lambda t=target, f=facing: setattr(t, "facing", f))
        elif key == "speed":
            speed = _count(value, name, MAX_SPEED)
            actions.append(_set_speed(game, target, speed))
        elif key.startswith("shield") and key[6:].isdigit() and 1 <= int(key[6:]) <= len(ship.shields):
            n = int(key[6:])
            boxes_left = _count(value, name, ship.spec.shields[n - 1])
            actions.append(lambda n=n, v=boxes_left: ship.shields.__setitem__(n - 1, v))
        elif key in BOXES:
            boxes[key] = _count(value, name, getattr(ship.spec, key))
        elif key in ("mark", "clear"):
            for row in _box_rows(ship, value, name):
                if row in BOXES:
                    boxes[row] += -1 if key == "mark" else 1
                    if not 0 <= boxes[row] <= getattr(ship.spec, row):
                        _refuse(f"{name}={row}: {ship.name}'s {row} has {getattr(ship.spec, row)} boxes and "
                                f"{getattr(ship, row)} left; a box cannot be marked twice or cleared when intact")
                else:
                    actions.append(_weapon_state(game, ship, ship.weapon(row), "destroyed" if key == "mark"
                                                 else "intact", name))
        elif key == "batteries":
            charged = _count(value, name, boxes["battery"])
            actions.append(lambda v=charged: setattr(ship, "charged", v))
        elif key == "capacitor":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= ship.capacity:
                _refuse(f"capacitor={str(value)[:20]}: from 0 to {ship.capacity:g} (the phasers' capacity)")
            actions.append(lambda v=float(value): setattr(ship, "capacitor", v))
        elif ship.weapon(key) is not None:
            actions.append(_weapon_state(game, ship, ship.weapon(key), str(value).lower(), name))
        elif _seeker(game, key) is not None:
            actions.append(_seeker_fix(game, _seeker(game, key), value, name))
        else:
            _refuse(f"'{name[:30]}' cannot be corrected; the names are: {_names(game, ship)}")
    for row in BOXES:
        if boxes[row] != getattr(ship, row):
            actions.append(_set_boxes(ship, row, boxes[row]))
    return ship, actions


def apply(game, changes: dict) -> None:
    """Check every change, apply them all, and log one ``correction`` event (engine's ``fix``)."""
    ship, actions = plan(game, changes)
    for action in actions:
        action()
    game.emit("correction", ship.side, ship=ship.name, rule=RULE,
              changes={k: v for k, v in changes.items() if k != "ship"})


def _set_hex(game, ship: Ship, where) -> Callable[[], None]:
    def do() -> None:
        ship.prev_hex = where  # a correction is not a move: no turn-mode credit, no feedback, no objective
        ship.hex = where
    return do


def _set_speed(game, ship: Ship, speed: int) -> Callable[[], None]:
    def do() -> None:
        ship.speed = speed
        game.order_turn = -1  # the movement order (C1.3) is sorted again by the corrected speed
    return do


def _set_boxes(ship: Ship, row: str, left: int) -> Callable[[], None]:
    def do() -> None:
        if row == "warp" and ship.robot:
            ship.warp_lost = max(0, ship.warp_lost + ship.warp - left)  # SFB.DMG3 counts warp boxes lost
        setattr(ship, row, left)
        if row == "battery":
            ship.charged = min(ship.charged, left)
    return do


def _weapon_state(game, ship: Ship, weapon: Weapon, state: str, name: str) -> Callable[[], None]:
    legal = WEAPON_STATES[weapon.kind]
    if state not in legal:
        _refuse(f"{name}={state[:20]}: {weapon.key} ({weapon.type}) may be set {', '.join(legal)}")
    if not weapon.alive and state not in ("intact", "destroyed"):
        _refuse(f"{name}={state}: {weapon.key} is destroyed; first 'fix {weapon.key}=intact'")

    def do() -> None:
        if state == "destroyed":
            if weapon.alive:
                destroy_weapon(ship, weapon)
                if weapon.tube is not None:
                    weapon.tube.alive = False
        elif state == "intact":
            weapon.alive = True
            if weapon.tube is not None:
                weapon.tube.alive = True
            weapon.ready = ship.robot and weapon.kind != "drone"  # SFB.R6: the robot's weapons are loaded
        elif state == "fired":
            weapon.last_fired, weapon.fired_turn = game.now, game.turn
            if weapon.kind == "photon":
                weapon.arm = 0
        elif state == "ready":
            weapon.last_fired, weapon.fired_turn = -1000, 0
            weapon.ready = True
        elif state in ("armed", "half", "empty"):
            if weapon.kind == "photon":
                weapon.arm = {"armed": 2, "half": 1, "empty": 0}[state]
                weapon.ready = weapon.arm == 2
            else:
                weapon.tube.state = 3 if state == "armed" else 0  # plasma.ARMED / plasma.EMPTY
                weapon.ready = weapon.tube.armed
        else:  # a drone rack's drones left
            weapon.ammo = int(state)
            ship.has_drones = any(w.kind == "drone" and w.alive and w.ammo for w in ship.weapons)
    return do


def _seeker(game, label: str):
    for item in list(game.drones) + list(game.plasmas):
        if item.alive and item.label == label:
            return item
    return None


def _seeker_fix(game, item, value: Any, name: str) -> Callable[[], None]:
    if str(value).lower() == "gone":
        return lambda: setattr(item, "alive", False)
    where = _hex(game, value, name)

    def do() -> None:
        item.prev_hex, item.hex = where, where
    return do
