"""Resolution: seeking weapons moving and striking (steps 2-3), drones launched (step 4), direct fire rolled and
applied simultaneously (steps 5-6), damage through the shields (SFB.DMG4 volleys). ``Combat`` is a part of the
engine class (game.Game inherits it); the sequence of play calls it with the orders it received."""
from __future__ import annotations

from typing import Any, Final, cast

from .requests import Requests
from ..core import hexgrid
from ..core.hexgrid import Hex, distance, shield_facing_direction, shields_facing
from . import damage as dmg
from .data import heavy_chart, phaser_chart
from .movement import seek_choice, step
from .plasma import Plasma
from .state import PHASER, PHOTON, Drone, Ship, Weapon


# A shot's die purpose (``"phaser-1#1 at klingon, range 3"``) by weapon key, target name and range: the same few
# strings all battle long. Kept, they are not built anew at every shot, and the dice's memo of rolls (core.dice) finds
# the same string object, its hash already known, instead of hashing and comparing a new one. Kept by key, then name,
# then range (compiled, a (key, name, range) tuple was built, hashed and compared at every shot; a str key is read
# by the dict's string fast path, the range indexes a list, "" where not yet built).
_PURPOSES: Final[dict[str, dict[str, list[str]]]] = {}


def fire_purpose(key: str, name: str, rng: int) -> str:
    by_key = _PURPOSES.get(key)
    if by_key is None:
        if len(_PURPOSES) >= 512:
            _PURPOSES.clear()
        by_key = _PURPOSES[key] = {}
    by_range = by_key.get(name)
    if by_range is None:
        by_range = by_key[name] = []
    if rng < len(by_range):
        found = by_range[rng]
        if found:
            return found
    else:
        by_range.extend([""] * (rng + 1 - len(by_range)))
    found = by_range[rng] = f"{key} at {name}, range {rng}"
    return found


# The weapons' charts by kind, as data.phaser_chart / heavy_chart give them (the same objects: those are cached for
# good), read from a dict (a str key) instead of calling the lru_cache wrapper at every shot (compiled, a generic call
# with an argument tuple built).
_PHASER_CHARTS: Final[dict[str, tuple[tuple[int, ...], ...]]] = {}
_HEAVY_CHARTS: Final[dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]]] = {}


def _phaser_chart(kind: str) -> tuple[tuple[int, ...], ...]:
    found = _PHASER_CHARTS.get(kind)
    if found is None:
        found = _PHASER_CHARTS[kind] = phaser_chart(kind)
    return found


def _heavy_chart(kind: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    found = _HEAVY_CHARTS.get(kind)
    if found is None:
        found = _HEAVY_CHARTS[kind] = heavy_chart(kind)
    return found


class Combat(Requests):
    """Moves and resolves weapons (needs the engine's ships, drones, dice, emit and the scenario's tables)."""

    def move_seekers(self) -> None:
        volleys: dict[tuple[str, int], int] = {}
        if self.plasmas:
            self.move_plasmas(volleys)  # SFB.PLASMA.MOVE / .STRENGTH / .FEEDBACK
        impacts: list[tuple[Drone, Ship, int]] = []
        moves = self.chart[self.drone_speed][self.impulse]
        for drone in self.drones:
            if not drone.alive:
                continue
            target = self.by_name[drone.target]
            if not target.active:
                drone.alive = False
                continue
            if drone.hex == target.hex:
                if drone.moves == 0 and drone.back is not None and target.hex == drone.prev_hex:
                    # F2.3: launched in the target's hex and it has not moved off: the weapon moves first and
                    # hits; the shield is judged as if the launcher were one hex to its rear
                    shield = self.shield_hit(target, drone.back, "drone launched in its target's hex")
                else:  # the target entered the weapon's hex: the weapon does not move (F2.1)
                    direction = hexgrid.facing_toward(target.prev_hex, target.hex)
                    shield = shield_facing_direction(target.facing, direction[0]) if direction else 1
                impacts.append((drone, target, shield))
                continue
            if not moves:
                continue
            choice = seek_choice(drone.hex, drone.facing, drone.moves > 0, target.hex)
            assert choice is not None  # every move allowed: there is one
            steer, facing, dest = choice
            drone.prev_hex, drone.hex, drone.facing = drone.hex, dest, facing
            drone.moves += 1
            if not self.on_map(dest):  # dest not in self.cells
                drone.alive = False
                self.emit("drone-lost", drone.side, drone=drone.label, why="left the map")
                continue
            if self.rec:
                self.emit("drone-moved", drone.side, drone=drone.label, steer=steer, to=hexgrid.label(dest))
            if dest == target.hex:
                impacts.append((drone, target, self.shield_hit(target, drone.prev_hex, "drone")))
        for drone, target, shield in impacts:
            drone.alive = False
            damage = self.drone_warhead
            if target.cloak is not None:
                damage = self.cloak_roll_drone(drone, target, damage)  # SFB.CLOAK: 1-4 miss, 5-6 half
                if not damage:
                    continue
            self.emit("impact", drone.side, drone=drone.label, target=target.name, shield=shield, damage=damage)
            volleys[(target.name, shield)] = volleys.get((target.name, shield), 0) + damage
        if impacts:
            self.drones = [d for d in self.drones if d.alive]
        if volleys:
            self.resolve_volleys(volleys, "seeking")

    def shield_hit(self, target: Ship, source: Hex, why: str) -> int:
        """Shield facing ``source``; on a hexside boundary the cadet die roll decides (D3.41): odd -> the
        first shield clockwise of the pair, even -> the second (docs/sfb.md "Shield boundary")."""
        options = shields_facing(target.hex, target.facing, source)
        if not options:
            return 1
        if len(options) == 1:
            return options[0]
        a, b = options
        if (b - a) % 6 != 1:  # order the pair clockwise (#6 then #1)
            a, b = b, a
        roll = self.dice.d6(f"shield boundary #{a}/#{b} ({why})", target.side)
        return a if roll % 2 else b

    def launch_drone(self, ship: Ship, rack: Weapon, target: Ship) -> Drone:
        rack.ammo -= 1
        ship.has_drones = any(w.kind == "drone" and w.alive and w.ammo for w in ship.weapons)
        rack.last_fired, rack.fired_turn = self.now, self.turn
        self.drone_count += 1
        toward = hexgrid.facing_toward(ship.hex, target.hex)
        facing = toward[0] if toward else ship.facing  # any facing with the target in the drone's FA (FD1.2)
        drone = Drone(f"{ship.name[:1].upper()}D{self.drone_count}", ship.side, ship.name, target.name, ship.hex,
                      facing, ship.hex, self.now + self.drone_endurance * self.impulses)
        if ship.hex == target.hex:
            drone.back = step(ship.hex, (ship.facing + 3) % 6)
        self.drones.append(drone)
        if self.rec:
            self.emit("launched", ship.side, ship=ship.name, rack=rack.key, drone=drone.label, target=target.name,
                      facing=hexgrid.facing_letter(facing), left=rack.ammo)
        return drone

    def resolve_fire(self, orders: list[tuple[Ship, Weapon, Any]]) -> None:
        """All shots of the step are rolled, then all damage is applied (simultaneous fire, E1.0)."""
        volleys: dict[tuple[str, int], int] = {}
        drone_hits: dict[str, int] = {}
        plasma_hits: dict[str, int] = {}
        boundary: dict[tuple[str, str], int] = {}
        for ship, weapon, target in orders:
            weapon.last_fired, weapon.fired_turn = self.now, self.turn
            phaser = weapon.code == PHASER  # the kind as an int (state.KIND_CODE)
            if phaser:
                if not ship.robot:  # the robot does not allocate energy: its weapons are reloaded (SFB.R6)
                    ship.capacitor -= weapon.cost
            elif weapon.code == PHOTON:
                weapon.arm = 0
                weapon.ready = False
            else:
                weapon.ready = False
            # the target read as its own class (``target`` is Any: compiled, each field read by name otherwise)
            victim = target if isinstance(target, Ship) else None
            is_drone = isinstance(target, Drone)
            is_plasma = isinstance(target, Plasma)
            if victim is not None:
                name, there = victim.name, victim.hex
            elif is_drone:
                drone_target = cast(Drone, target)
                name, there = drone_target.label, drone_target.hex
            else:
                torp_target = cast(Plasma, target)
                name, there = torp_target.label, torp_target.hex
            rng = distance(ship.hex, there)
            eff = self.effective_range(ship, target, rng)
            roll = self.dice.roll(6, fire_purpose(weapon.key, name, rng), ship.side)  # Dice.d6, one call less
            if phaser:
                chart = _phaser_chart(weapon.type)[roll - 1]
                points = chart[eff] if eff < len(chart) else 0
            else:
                hit, by_range = _heavy_chart(weapon.type)
                modified = roll + (self.heavy_penalty if is_drone else 0)  # FD1.52
                # E3.31: the hit roll uses effective range, damage the true range
                points = by_range[rng] if eff < len(hit) and hit[eff] and modified <= hit[eff] else 0
            if self.rec:
                self.emit("fired", ship.side, ship=ship.name, weapon=weapon.key, target=name, range=rng, roll=roll,
                          damage=points)
            if not points:
                continue
            if is_drone:
                drone_hits[name] = drone_hits.get(name, 0) + points
                continue
            if is_plasma or victim is None:
                plasma_hits[name] = plasma_hits.get(name, 0) + points
                continue
            key = (ship.name, name)
            known = boundary.get(key)  # one lookup, not ``in`` then a read
            if known is None:
                origin, aim = self.geometry(ship, victim)
                # hexes compared coordinate by coordinate (compiled, ``==`` on two tuples is a generic rich compare)
                if origin[0] == aim[0] and origin[1] == aim[1]:
                    shield = 1
                else:
                    saved = victim.hex
                    victim.hex = aim
                    shield = self.shield_hit(victim, origin, f"fire from {ship.name}")
                    victim.hex = saved
                boundary[key] = shield
            else:
                shield = known
            volleys[(name, shield)] = volleys.get((name, shield), 0) + points
        for label, points in drone_hits.items():
            drone = next(d for d in self.drones if d.label == label)
            drone.damage += points
            if drone.damage >= self.drone_kill and drone.alive:
                drone.alive = False
                self.emit("drone-destroyed", drone.side, drone=label)
        if self.drones:  # an empty list is left as it is (the list is this game's own: cloning makes a new one)
            self.drones = [d for d in self.drones if d.alive]
        if plasma_hits:
            for torp in self.plasmas:
                if torp.label in plasma_hits:
                    self.hit_plasma(torp, plasma_hits[torp.label])  # FP1.6: 2 points take 1 off
            self.plasmas = [t for t in self.plasmas if t.alive]
        self.resolve_volleys(volleys, "direct")

    def resolve_volleys(self, volleys: dict[tuple[str, int], int], step_name: str) -> None:
        """SFB.DMG4: all damage through one shield in one step is one volley."""
        dmg1 = self.scenario.damage == "dmg1"  # read once (the scenario is an interpreted model: a read by name)
        items = list(volleys.items())
        if len(items) > 1:  # the same order as sorted(); one volley (the usual) is not sorted
            items.sort()
        for (name, shield), points in items:
            if self.by_name[name].destroyed:  # not ``ship.destroyed``: mypy would keep it False below, where the
                continue  # damage may have destroyed the ship (compiled, the test below would be dropped)
            ship = self.by_name[name]
            absorbed = min(points, ship.shields[shield - 1])
            ship.shields[shield - 1] -= absorbed
            internal = points - absorbed
            hits: list[str] = []
            if internal:
                ship.internal += internal
                if dmg1:
                    hits = dmg.dmg1_volley(ship, internal, self.turn)
                else:
                    hits = dmg.dac_volley(ship, internal, self.turn, self.dice)
            if self.rec:
                self.emit("damage", ship.side, ship=name, shield=shield, points=points, absorbed=absorbed,
                          internal=internal, hits=hits, step=step_name, rule="SFB.DMG4",
                          damage_rule="SFB.DMG1" if dmg1 else "DAC")
            if ship.destroyed:
                self.emit("destroyed", ship.side, ship=name)
                for drone in self.drones:  # D4.41: its drones are removed (its plasma flies on, FP4.0)
                    if drone.owner == name:
                        drone.alive = False
        if self.has_tubes:
            self.note_tube_losses()  # SFB.PLASMA.TUBE: a destroyed armed tube's 1/4-turn window
        self.check_end()
