"""Corrections (the table assistant's ``fix``): the robot's recorded state put right to match a real table.

``apply(game, changes)`` checks every change first (one IllegalAction line naming what may be changed and
the values allowed), then applies them all and emits one ``correction`` event. The core records a
correction as an answer of the person's side ('@fix'), so saves, resume and undo replay it.

Names (the robot's ship; ``player_`` names the person's ship):
- ``hex=2310``, ``facing=D``, ``speed=16`` (the baseline speed: 0, 8, 16 or 24); ``player_hex``,
  ``player_facing``, ``player_speed``
- ``shield1`` .. ``shield6``: the boxes left in that shield
- a system row of the ship card (``warp``, ``impulse``, ``reactor``, ``battery``, ``control``, ``fhull``, ``rhull``,
  ``frame``, ``lab``, ``probe``, ``shuttle``, ``tractor``, ``transporter``): the boxes left; ``mark=warp`` marks one
  box destroyed and ``clear=warp`` clears one (a comma list marks several)
- ``energy``: the energy tokens left this turn; ``batteries``: the power stored; ``reloads``: drone reloads left
- a weapon's id (``ph1-2``, ``disr-1``, ``phot-3``): ``destroyed`` or ``intact``; ``fired`` (fired this turn)
  or ``ready``; a photon ``armed``, ``preloaded`` or ``empty``
- ``rack1``, ``rack2``, ...: a drone rack's drones left (0-4), or ``destroyed`` / ``intact``
- a drone in flight by its id (``r3``, ``p2``): the hex it is in now, or ``gone``
"""
from __future__ import annotations

from typing import Any, Callable

from ..core import hexgrid
from ..core.assist import corrected_hex
from ..core.errors import IllegalAction
from .state import Ship

RULE = "FC.FIX"  # not a rule of the seed: the person's table is the authority (docs/assistant.md)
SPEEDS = (0, 8, 16, 24)
WEAPON_STATES = ("destroyed", "intact", "fired", "ready")
PHOTON_STATES = WEAPON_STATES + ("armed", "preloaded", "empty")


def _refuse(text: str) -> None:
    raise IllegalAction(text, RULE)


def _names(game, ship: Ship) -> str:
    drones = [d.id for d in game.drones if d.alive]
    return ("hex, facing, speed, player_hex, player_facing, player_speed, shield1-6, "
            f"{', '.join(ship.boxes)}, mark, clear, energy, batteries, reloads, "
            f"{', '.join(w.id for w in ship.weapons)}, {', '.join(f'rack{n}' for n in range(1, len(ship.racks) + 1))}"
            + (f", {', '.join(drones)}" if drones else ""))


def _hex(game, value: Any, name: str):
    return corrected_hex(value, name, game.board, "2310", RULE)


def _count(value: Any, name: str, top: float, whole: bool = True) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= top \
            or (whole and value != int(value)):
        _refuse(f"{name}={str(value)[:20]}: a {'whole ' if whole else ''}number from 0 to {top:g}")
    return int(value) if whole else float(value)


def plan(game, changes: dict) -> tuple[Ship, list[Callable[[], None]]]:
    """The ship corrected and the changes as actions, every one checked; nothing is changed yet."""
    if not isinstance(changes, dict) or not changes:
        _refuse("a correction names what to change, e.g. fix hex=2310 facing=D")
    ship = game.ships["robot"]
    actions: list[Callable[[], None]] = []
    boxes = dict(ship.boxes)  # running counts: mark/clear and row=N agree
    top = dict(ship.spec.systems)
    weapons = {w.id: w for w in ship.weapons}
    for name, value in changes.items():
        target, key = ship, name
        if name.startswith("player_"):
            target, key = game.ships["player"], name[len("player_"):]
            if key not in ("hex", "facing", "speed"):
                _refuse(f"{name}: of your ship only player_hex, player_facing and player_speed are kept")
        if key == "hex":
            where = _hex(game, value, name)
            actions.append(lambda t=target, w=where: (setattr(t, "pos", w), setattr(t, "prev_pos", w)))
        elif key == "facing":
            try:
                facing = hexgrid.facing_index(str(value))
            except ValueError:
                _refuse(f"{name}={str(value)[:20]}: a facing is one of A-F")
            actions.append(lambda t=target, f=facing: setattr(t, "facing", f))
        elif key == "speed":
            if value not in SPEEDS:
                _refuse(f"{name}={str(value)[:20]}: a baseline speed is 0, 8, 16 or 24 (FC.1A)")
            actions.append(lambda t=target, v=int(value): setattr(t, "baseline", v))
        elif key.startswith("shield") and key[6:].isdigit() and 1 <= int(key[6:]) <= 6:
            n = int(key[6:])
            left = _count(value, name, ship.shield_max[n - 1])
            actions.append(lambda n=n, v=left: ship.shields.__setitem__(n - 1, v))
        elif key in boxes:
            boxes[key] = _count(value, name, top[key])
        elif key in ("mark", "clear"):
            for row in [r.strip() for r in str(value).split(",") if r.strip()] or [""]:
                if row in boxes:
                    boxes[row] += -1 if key == "mark" else 1
                    if not 0 <= boxes[row] <= top[row]:
                        _refuse(f"{name}={row}: the robot's {row} has {top[row]} boxes and {ship.boxes[row]} left; "
                                f"a box cannot be marked twice or cleared when intact")
                elif row in weapons:
                    actions.append(_weapon(ship, weapons[row], "destroyed" if key == "mark" else "intact", name))
                else:
                    _refuse(f"{name}={str(value)[:30]}: name rows of the robot's card: {', '.join(boxes)}, or a weapon "
                            f"({', '.join(weapons)})")
        elif key == "energy":
            left = _count(value, name, ship.power(), whole=False)
            actions.append(lambda v=left: setattr(ship, "energy", v))
        elif key == "batteries":
            stored = _count(value, name, boxes.get("battery", 0), whole=False)
            actions.append(lambda v=stored: setattr(ship, "battery", v))
        elif key == "reloads":
            left = _count(value, name, ship.spec.reloads * ship.spec.racks)
            actions.append(lambda v=left: setattr(ship, "reloads", v))
        elif key in weapons:
            actions.append(_weapon(ship, weapons[key], str(value).lower(), name))
        elif key.startswith("rack") and key[4:].isdigit() and 1 <= int(key[4:]) <= len(ship.racks):
            actions.append(_rack(ship, ship.racks[int(key[4:]) - 1], value, name))
        elif any(d.alive and d.id == key for d in game.drones):
            drone = next(d for d in game.drones if d.alive and d.id == key)
            if str(value).lower() == "gone":
                actions.append(lambda d=drone: setattr(d, "alive", False))
            else:
                where = _hex(game, value, name)
                actions.append(lambda d=drone, w=where: setattr(d, "pos", w))
        else:
            _refuse(f"'{name[:30]}' cannot be corrected; the names are: {_names(game, ship)}")
    for row, left in boxes.items():
        if left != ship.boxes[row]:
            actions.append(_set_row(ship, row, left))
    return ship, actions


def apply(game, changes: dict) -> None:
    """Check every change, apply them all, and log one ``correction`` event (the engine's ``fix``)."""
    ship, actions = plan(game, changes)
    for action in actions:
        action()
    game.emit("correction", ship.side, rule=RULE, changes=dict(changes))


def _set_row(ship: Ship, row: str, left: int) -> Callable[[], None]:
    def do() -> None:
        ship.boxes[row] = left
        if row == "battery":
            ship.battery = min(ship.battery, float(left))
    return do


def _weapon(ship: Ship, weapon, state: str, name: str) -> Callable[[], None]:
    legal = PHOTON_STATES if weapon.kind == "photon" else WEAPON_STATES
    if state not in legal:
        _refuse(f"{name}={state[:20]}: {weapon.id} ({weapon.kind}) may be set {', '.join(legal)}")
    if not weapon.alive and state not in ("intact", "destroyed"):
        _refuse(f"{name}={state}: {weapon.id} is destroyed; first 'fix {weapon.id}=intact'")

    def do() -> None:
        if state in ("destroyed", "intact"):
            weapon.alive = state == "intact"
        elif state in ("fired", "ready"):
            weapon.fired = state == "fired"
        else:
            weapon.arm = {"armed": 2, "preloaded": 1, "empty": 0}[state]
    return do


def _rack(ship: Ship, rack, value: Any, name: str) -> Callable[[], None]:
    if value in ("destroyed", "intact"):
        return lambda: setattr(rack, "alive", value == "intact")
    ammo = _count(value, name, ship.spec.per_rack) if not isinstance(value, str) else None
    if ammo is None:
        _refuse(f"{name}={str(value)[:20]}: a rack's drones left (0 to {ship.spec.per_rack}), destroyed or intact")
    return lambda: setattr(rack, "ammo", ammo)
