"""What FC shows its players beyond the contract (core/frontend.py): the text map, both ships' status, the words
before each question (power, shots you can take, drone defences), 'auto' for the minor questions, ships and data.

Registered as ``GameInfo.frontend``; the terminal (cli/) and the web page reach it only through the registry.
"""
from __future__ import annotations

from typing import Any

from ..core.ship_frontend import ShipFrontend
from ..core.hexgrid import distance, label
from ..core.textmap import Counter, draw
from ..core.words import in_words
from . import data
from .data import load_tables, ship

HELP = ("'map' draws the map, 'status' shows both ships, 'auto' answers batteries, repairs, shield transfers and "
        "damage choices with the suggestion from now on (type it again to be asked). A form: Enter accepts the "
        "suggestion shown; edit with name=value, e.g. speed=24 regen=1,1 or shot1=ph1-1@ship shot2=none.")
MINOR = ("batteries", "repair", "transfer", "dac_phaser", "dac_tractor")  # answered by 'auto' if the person asks


def words(values) -> str:
    """Shield boxes and the like in words: 30/24/24/24/24/24."""
    return "/".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)


def map_lines(game, whole: bool = False) -> list[str]:
    """The ships and drones in 80x24 (core/textmap.py): a window around them (``whole``: with room around, or
    the whole of a fixed map). Labels are the game's, so a floating map's hexes may be negative: (-3,5)."""
    counters = [Counter(s.pos, "R" if s.side == "robot" else "P", s.facing,
                        f"{s.spec.title} ({s.side}) at {label(s.pos)} facing {'ABCDEF'[s.facing]}, speed "
                        f"{s.speed_now()}") for s in game.ships.values()]
    counters += [Counter(d.pos, "d", d.facing, f"drone {d.id} of {d.owner} at {label(d.pos)}", 1)
                 for d in game.drones if d.alive]
    board = getattr(game, "board", None)
    size = None if board is None else (board.cols, board.rows)
    return draw(counters, size, whole)


def status_lines(game) -> list[str]:
    lines = []
    for s in game.ships.values():
        lines.append(f"  {s.side}: {s.spec.title} at {label(s.pos)} facing {'ABCDEF'[s.facing]}, speed "
                     f"{s.speed_now()}, shields {words(s.shields)}, internal damage {in_words(s.internals)}")
        lines.append("    weapons: " + ", ".join(f"{w.id}{'' if w.alive else ' (destroyed)'}"
                                                 f"{' fired' if w.fired else ''}" for w in s.weapons))
    for d in game.drones:
        if d.alive:
            lines.append(f"  drone {d.id} of {d.owner} at {label(d.pos)} seeking {d.target}")
    return lines


class FcFrontend(ShipFrontend):
    """FC's hooks: one per session ('auto' is a toggle of the session). The handicap's line and the ship listings are
    core/ship_frontend.py's, from FC's prices and ships."""

    help = HELP
    decision_kinds = ("decision", "result", "provisional")
    paths = ("ships_dir", "tables_dir", "handicap_prices")
    handicap_what = "extra shield boxes (data/handicap.toml: 0.6 points a box, provisional)"
    handicap_unit = "points"
    ships_title = "Federation Commander ships (squadron scale):"

    def __init__(self):
        self.auto_minor = False

    def handicap_prices(self, path: str):
        return data.handicap_prices_for(path)

    def load_ships(self, ships_dir):
        return data.load_ships(ships_dir)

    def ship_summary(self, key: str, spec) -> str:
        return (f"{spec.title}, {spec.points} points, turn mode {spec.turn_mode}"
                f"{' [provisional]' if spec.provisional else ''}")

    def simulate_notes(self, setup: dict) -> list[str]:
        provisional = [t.name for t in load_tables(setup.get("tables_dir") or None).provisional()]
        if not provisional:
            return []
        return ["Provisional data in use (stand-ins for unconfirmed FC charts): " + ", ".join(provisional)
                + "; see 'paperrobot data --provisional --game fc'"]

    def map_lines(self, engine, whole: bool = False) -> list[str]:
        return map_lines(engine, whole)

    def status_lines(self, engine) -> list[str]:
        return status_lines(engine)

    def commands(self, match) -> dict:
        return {"map": lambda: map_lines(match.engine, whole=True), "status": lambda: status_lines(match.engine),
                "auto": self.toggle_auto}

    def toggle_auto(self) -> list[str]:
        self.auto_minor = not self.auto_minor
        return ["Batteries, repairs, shield transfers and damage choices now take the suggestion without asking."
                if self.auto_minor else "You will be asked about batteries, repairs, transfers and damage choices "
                                        "again."]

    def auto(self, match, request) -> Any:
        if self.auto_minor and request.kind in MINOR:
            return request.default
        return None

    def before(self, match, request) -> list[str]:
        from .requests import DEFENCE_STEPS, legal_shots
        game, side = match.engine, request.side
        ship, enemy = game.ships[side], game.enemy(side)
        kind = request.kind
        lines: list[str] = []
        say = lines.append
        if kind == "allocate" and request.error:
            say(f"Turn {game.turn}: energy allocation, again ('map' draws the map):")
        elif kind == "allocate":
            say(f"Turn {game.turn}: energy allocation")
            lines += map_lines(game)
            say(f"Power {ship.power()} + battery {ship.battery:g}. Shields {words(ship.shields)} of "
                f"{words(ship.shield_max)}. "
                f"Baseline speed costs {ship.spec.move_cost:g} per hex, a shield box "
                f"{game.rules.regen_cost:g}, holding a drone {game.rules.tractor_hold_cost:g}.")
            held = [d.id for d in game.drones if d.alive and d.held_by == side]
            if held:
                say(f"Drones held in your tractors: {' '.join(held)}; keep holding which (hold=...)? A released drone "
                    f"strikes in impulse 1.")
            photons = ship.live_weapons("photon")
            if photons:
                say("Photons: " + ", ".join(f"{w.id} {('empty', 'loaded', 'armed')[w.arm]}" for w in photons)
                    + f" (arming costs {game.rules.photon_load_cost:g}, holding {game.rules.photon_hold_cost:g})")
        elif kind == "accelerate":
            say(f"Impulse {game.impulse}: speed {ship.speed_now()}, power {ship.available():g} left.")
        elif kind == "move":
            say(f"Sub-pulse {game.subpulse}: you are at {label(ship.pos)} facing {'ABCDEF'[ship.facing]}; enemy at "
                f"{label(enemy.pos)} facing {'ABCDEF'[enemy.facing]}, range {distance(ship.pos, enemy.pos)}.")
        elif kind == "fire":
            say(f"Range {distance(ship.pos, enemy.pos)}; enemy shields {words(enemy.shields)}.")
            shots = legal_shots(game, ship)
            if shots:
                say("Shots you can take (type shotN=KEY, several in firing order):")
                lines += [f"    {key:24} {text}" for key, text in shots]
            else:
                say("No weapon can fire now.")
        elif kind == "defend":
            for did in request.data:
                d = game._drone(did)
                shield = game.drone_shield(ship, d)
                say(f"Drone {did} strikes your shield #{shield} ({ship.shields[shield - 1]} boxes). ADD shots "
                    f"{ship.add_shots}, free tractors "
                    f"{ship.tractors() - sum(1 for x in game.drones if x.alive and x.held_by == side)}.")
            say("Defences: " + ", ".join(DEFENCE_STEPS) + "; each only while the drone survives.")
        elif kind == "launch":
            say(f"Range {distance(ship.pos, enemy.pos)}; drones left {ship.drones_left()}.")
        elif kind in ("repair", "transfer", "batteries"):
            say(f"End of turn {game.turn}: shields {words(ship.shields)} of {words(ship.shield_max)}; "
                f"damaged: {', '.join(game.damaged_systems(ship)) or 'nothing'}.")
        return lines

    # ------------------------------------------------------------------ ships and data
    def ship_sheet(self, name: str, ships_dir: Any) -> list[str]:
        spec = ship(name, ships_dir or None)
        lines = [f"{spec.title} ({spec.empire}), {spec.points} points{' [provisional]' if spec.provisional else ''}",
                 f"  source: {spec.source}",
                 f"  shields #1-#6: {words(spec.shields)}; turn mode {spec.turn_mode}; move cost {spec.move_cost:g}; "
                 f"HET {spec.het_cost:g}; damage control {spec.damage_control}",
                 "  systems: " + ", ".join(f"{k} {n}" for k, n in spec.systems),
                 "  weapons: " + ", ".join(f"{w.id} ({w.kind} {w.arc})" for w in spec.weapons)]
        if spec.racks:
            lines.append(f"  drones: {spec.racks} racks of {spec.per_rack}, {spec.reloads} reloads per rack; ADD "
                         f"shots {spec.add_shots}")
        return lines

    def data_lines(self, provisional: bool) -> list[str]:
        lines = ["Federation Commander tables (replace any with --tables-dir DIR holding a file of the same name):"]
        for table in load_tables().all():
            if provisional and not table.provisional:
                continue
            lines.append(f"  {table.name}{' [provisional]' if table.provisional else ''}: {table.source}")
        return lines + self.ship_sources(provisional, "  ship ")
