"""What SFB shows its players beyond the contract (core/frontend.py): the text map, the ships' status, the energy
allocation against the power available, the words before each question, ships and data listings.

Registered as ``GameInfo.frontend``; the terminal (cli/) and the web page reach it only through the registry.
"""
from __future__ import annotations

from typing import Any

from ..core import hexgrid
from ..core.ship_frontend import ShipFrontend
from ..core.textmap import Counter, draw
from . import data
from .data import scenario, ship_sheet

HELP = ("'map' draws the whole board and both ships' status; 'disengage' leaves the battle at the end of this impulse "
        "(scenario #5). Fire: pick a preset by number, or give weapons their targets, e.g. "
        "phaser-1#1=klingon photon-A=klingon.")
RANK = {"ship": 0, "plasma": 1, "drone": 2}  # the top of a stack: ships, then plasma, then drones, then the rest
CADETS = (("federation", "Fed"), ("klingon", "Kli"), ("romulan-eagle", "Eagle"), ("romulan-kr", "KR"),
          ("kzinti", "Kzi"), ("gorn", "Gorn"), ("orion", "Ori"))


def map_lines(game, whole: bool = False) -> list[str]:
    """The map around the ships (``whole``: the whole board), with its legend, in 80x24 (core/textmap.py)."""
    counters = []
    for item in game.map_items():
        ship = item.kind == "ship"
        facing = None if item.kind == "objective" else item.facing
        what = item.name if item.kind in item.name else f"{item.kind} {item.name}"  # "drone KD1", "PL1 plasma-F ..."
        where = f"at {hexgrid.label(item.hex)}" + ("" if facing is None else f" facing {hexgrid.facing_letter(facing)}")
        counters.append(Counter(item.hex, item.name[:1].upper() if ship else item.name[:1].lower(), facing,
                                f"{item.label} ({item.side}) {where}" if ship else f"{what} {where}",
                                RANK.get(item.kind, 3)))
    return draw(counters, (game.board.cols, game.board.rows), whole)


def status_lines(game, side: str) -> list[str]:
    """Each ship of ``side``: position, speed, shields, power and weapons (the robot's: what slows it)."""
    lines = []
    for s in game.side_ships(side):
        state = "destroyed" if s.destroyed else (s.gone or f"{hexgrid.label(s.hex)} "
                                                            f"{hexgrid.facing_letter(s.facing)} speed {s.speed}")
        cloak = "" if s.cloak is None else (" CLOAKED" if s.cloak.cloaked else f" (cloak {s.cloak.cost})")
        lines.append(f"{s.name} ({side}): {state}{cloak}; shields {'/'.join(str(x) for x in s.shields)}")
        ready = []
        for w in s.weapons:
            if not w.alive:
                ready.append(f"{w.key} X")
            elif w.kind == "drone":
                ready.append(f"{w.key} {w.ammo}")
            elif w.tube is not None and not s.robot:
                ready.append(f"{w.key} {('armed', 'held')[w.tube.state - 3] if w.tube.armed else w.tube.state}/3")
            elif w.kind == "photon" and not s.robot:
                ready.append(f"{w.key} {'armed' if w.arm == 2 else ('half' if w.arm == 1 else 'empty')}")
            else:
                ready.append(w.key)
        if s.robot:  # the robot allocates no energy: show what slows it instead (SFB.DMG3)
            # the speed in force: the robot's own procedure (a --robot-rules variant may change it), not the book's
            speed = game.robot_numbers.robot_speed(game.impulses, s.warp_lost)
            lines.append(f"  robot: warp boxes lost {s.warp_lost} (speed {speed} from next turn); hull {s.hull}, "
                         f"excess {s.excess}, internal damage {s.internal}")
        else:
            lines.append(f"  power {s.power} (warp {s.warp}, impulse {s.impulse}, APR {s.apr}), batteries "
                         f"{s.charged}/{s.battery}, capacitor {s.capacitor:g}/{s.capacity:g}; hull {s.hull}, "
                         f"excess {s.excess}, internal damage {s.internal}")
        lines.append("  weapons: " + ", ".join(ready))
    return lines


def describe_energy(values: dict, view: dict) -> list[str]:
    """Lines showing an allocation (form values) against the power available, field names as the form has them."""
    arm = [(k, v) for k, v in values.items() if k not in ("speed", "phasers", "recharge", "cloak")]
    lines = [f"Power: warp {view['warp']} + impulse {view['impulse']} + APR {view['apr']} = {view['power']}; "
             f"batteries {view['batteries']} charged, {view['discharged']} empty",
             f"  speed={values.get('speed', 0)}   (last turn {view['speed']}; at most {view['max_speed']} this turn; "
             f"1 energy per hex, at most 1 from impulse, none from APR)",
             f"  phasers={values.get('phasers', 0):g}   (capacitor {view['capacitor']:g} of {view['capacity']:g})"]
    for key, points in arm:
        lines.append(f"  {key}={points}   ({view['weapons'].get(key, '')})")
    lines.append(f"  recharge={values.get('recharge', 0)}")
    if view.get("cloak_cost"):
        lines.append(f"  cloak={values.get('cloak', 0)}   (the cloak costs {view['cloak_cost']} a turn; 0 stays "
                     f"uncloaked)")
    total = sum(v for v in values.values() if isinstance(v, (int, float)))
    over = max(0.0, total - view["power"])
    lines.append(f"  total {total:g} of {view['power']} (+{view['batteries']} in batteries)"
                 + (f"; {over:g} from batteries" if over else ""))
    return lines


class SfbFrontend(ShipFrontend):
    """SFB's hooks; 'disengage' and what a person is not asked are sfb/asking.py's (the web page's too). The handicap's
    line and the ship listings are core/ship_frontend.py's, from SFB's prices and ships."""

    help = HELP
    handicap_what = "extra shield boxes (data/handicap.toml: 1.15 BPV a box, provisional)"
    handicap_unit = "BPV"
    ships_title = "Star Fleet Battles Cadet ships (sfb):"
    pairings = CADETS
    pairings_setup = {"scenario": "duel"}

    def intro(self, setup: dict) -> list[str]:
        name = setup.get("scenario", "5")
        return [f"Scenario {name}: {scenario(name).title}. At any prompt: {HELP} 'help' lists every word."]

    def battle_title(self, setup: dict, seed: int) -> str:
        name = setup.get("scenario", "5")
        return f"Scenario {name}: {scenario(name).title} (seed {seed})"

    def handicap_prices(self, path: str):
        from .setup import handicap_prices_for
        return handicap_prices_for(path)

    def load_ships(self, ships_dir):
        return data.load_ships(ships_dir)

    def ship_summary(self, key: str, spec) -> str:
        return f"{getattr(spec, 'title', key)}  ({getattr(spec, 'source', '')})"

    def map_lines(self, engine, whole: bool = False) -> list[str]:
        return map_lines(engine, whole)

    def status_lines(self, engine) -> list[str]:
        return status_lines(engine, "player") + status_lines(engine, "robot")

    def commands(self, match) -> dict:
        return {"map": lambda: self.map_lines(match.engine, whole=True) + self.status_lines(match.engine)}

    def before(self, match, request) -> list[str]:
        game, ship, kind = match.engine, request.subject, request.kind
        lines: list[str] = []
        if kind == "energy" and request.error:
            lines.append(f"{ship.name}: energy allocation, again:")
        elif kind == "speed":  # the 8-impulse game: no energy allocation, only a speed (docs/sfb.md)
            if not request.error:
                lines += ["", f"=== Turn {game.turn}: speed (your Chief Engineer allocates the energy) ==="]
                lines += self.map_lines(game) + self.status_lines(game)
            lines.append(f"{ship.name}: speed this turn (your Chief Engineer allocates the energy)?")
        elif kind == "energy":
            lines += ["", f"=== Turn {game.turn}: energy allocation ==="]
            lines += self.map_lines(game) + self.status_lines(game)
            default = request.option(request.default)
            lines += describe_energy(default.value if default else {}, request.view["energy"])
            lines.append(f"{ship.name}: energy allocation (Enter accepts the suggestion):")
        elif kind == "cloak":
            lines.append(f"{ship.name}: cloak for this turn (energy {game.cloak_paid.get(ship.name, 0)} paid)?")
        elif kind == "move":
            lines.append(f"{ship.name} moves from {hexgrid.label(ship.hex)} facing "
                         f"{hexgrid.facing_letter(ship.facing)}:")
        elif kind == "launch":
            lines.append(f"{ship.name}: launch {'plasma torpedoes' if request.data[0] == 'plasma' else 'drones'}?")
        elif kind == "fire":
            lines.append(f"{ship.name}: fire which weapons? (a preset number, or weapon=target for each weapon to "
                         f"fire)")
        return lines

    # ------------------------------------------------------------------ ships and data
    def ship_sheet(self, name: str, ships_dir: Any) -> list[str]:
        return list(ship_sheet(self.load_ships(ships_dir or None)[name]))

    def data_lines(self, provisional: bool) -> list[str]:
        from .plasma_data import plasma_sources
        lines = self.ship_sources(provisional, "sfb ship ")
        if provisional and not lines:
            lines = ["sfb: no provisional data."]
        if not provisional:
            lines += [f"sfb table plasma-{name}: {line}" for name, line in plasma_sources()]
        return lines
