"""``paperrobot play|battle|simulate fc``: Federation Commander against the Robot Rules (D7 or Kzinti BC)."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Optional

import typer

import paperrobot

from .. import fc
from ..core.contract import Match, Request, drive_all
from ..core.errors import DataError, PaperRobotError
from ..core.events import Event, EventLog
from ..core.hexgrid import Hex, distance, label, to_offset
from . import simview
from .common import (check_outputs, console, fail, force_option, handicap_option, handicap_setup, prices_option, say,
                     show_handicap)
from .render import Mark, hex_map
from .terminal import Front, TerminalPlay

GAME = "fc"
OPPONENTS = ("policy", "robot")
WHAT = "extra shield boxes (data/handicap.toml: 0.6 points a box, provisional)"
MINOR = ("batteries", "repair", "transfer", "dac_phaser", "dac_tractor")  # answered by 'auto' if the person asks


def register(groups) -> None:
    groups["play"].command("fc")(play)
    groups["battle"].command("fc")(battle)
    groups["simulate"].command("fc")(simulate)


def _setup(robot: str, opponent_ship: str, board: str, ships_dir, tables) -> dict:
    """The registry's set-up options, checked here so that a bad name is one line before anything runs."""
    if robot not in fc.ROBOT_SHIPS:
        fail(f"unknown robot ship '{robot}'; the Robot Rules fly: {', '.join(fc.ROBOT_SHIPS)}")
    fc.ship(opponent_ship, ships_dir)
    fc.load_tables(tables)
    fc.parse_board(board)
    return {"robot_ship": robot, "player_ship": opponent_ship, "map": board,
            "ships_dir": "" if ships_dir is None else str(ships_dir), "tables_dir": "" if tables is None else str(tables)}


def _check_opponent(opponent: str) -> None:
    if opponent not in OPPONENTS:
        fail(f"unknown opponent '{opponent}'; choose one of: {', '.join(OPPONENTS)}")


def _narrate(decisions_only: bool):
    narrator = fc.narrator()

    def show(event: Event) -> None:
        if decisions_only and event.kind not in ("decision", "result", "provisional"):
            return
        text = narrator.line(event)
        if text:
            say(text)
    return show


def draw_map(game, title: str = "") -> None:
    ships = list(game.ships.values())
    marks = [Mark(s.pos, "R" if s.side == "robot" else "P", s.facing,
                  f"{'R' if s.side == 'robot' else 'P'} = {s.spec.title} ({s.side}) at {label(s.pos)} facing "
                  f"{'ABCDEF'[s.facing]}, speed {s.speed_now()}, shields {s.shields}") for s in ships]
    marks += [Mark(d.pos, "d", d.facing, f"d = drone {d.id} of {d.owner}") for d in game.drones if d.alive]
    # the FC map floats: shift the picture (whole column pairs, so hex parity holds) to keep labels positive
    cols = [to_offset(m.hex)[0] for m in marks]
    rows = [to_offset(m.hex)[1] for m in marks]
    k = max(0, (4 - min(cols) + 1) // 2)
    m_ = max(0, 3 - min(rows))
    marks = [Mark(Hex(mk.hex.q + 2 * k, mk.hex.r - k + m_), mk.mark, mk.facing, mk.legend) for mk in marks]
    cols = [to_offset(m.hex)[0] for m in marks]
    rows = [to_offset(m.hex)[1] for m in marks]
    window = (max(1, min(cols) - 3), max(cols) + 3, max(1, min(rows) - 2), max(rows) + 2)
    if title:
        say(title)
    for line in hex_map(window[1], window[3], marks, window):
        say(line)
    seen = set()
    for m in marks:
        if m.legend not in seen:
            seen.add(m.legend)
            say(f"  {m.legend}")


# --------------------------------------------------------------------------------------- battle

def battle(robot: str = typer.Option("d7", "--robot", help="The robot's ship: d7 or kzinti-bc."),
           opponent_ship: str = typer.Option("federation-ca", help="The other side's ship."),
           opponent: str = typer.Option("policy", help="Who flies the other ship: policy or robot."),
           seed: int = typer.Option(1, help="Seed for the dice; the same seed gives the same battle."),
           log: Optional[Path] = typer.Option(None, help="Write the event log (JSON lines) here."),
           decisions: bool = typer.Option(False, "--decisions", help="Narrate only the robot's decisions."),
           ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
           tables: Optional[Path] = typer.Option(None, "--tables", help="A folder of your own table files "
                                                 "(e.g. dac.toml) that replace the built-in stand-ins."),
           board: str = typer.Option("floating", "--map", help="floating (no edges) or COLSxROWS, e.g. 42x30: "
                                     "leaving a fixed map disengages."),
           handicap: int = handicap_option(GAME, WHAT),
           handicap_prices: Optional[Path] = prices_option(),
           force: bool = force_option(),
):
    """Watch one narrated FC duel: every robot decision with its rule ID and dice."""
    check_outputs(force, log=log)
    _check_opponent(opponent)
    setup = _setup(robot, opponent_ship, board, ships_dir, tables)
    setup.update(handicap_setup(GAME, handicap, handicap_prices))
    show_handicap(GAME, setup, opponent)
    events = EventLog()
    events.listeners.append(_narrate(decisions))
    match = paperrobot.new_game(GAME, seed=seed, log=events, **setup)
    draw_map(match.engine, "Start positions")
    outcome = drive_all(match, {"robot": "robot", "player": opponent})
    draw_map(match.engine, "Final positions")
    winner = "draw" if outcome.winner is None else f"{outcome.winner} wins"
    say(f"Result: {winner} ({outcome.result}) after {outcome.turns} turns")
    if log:
        if not log.parent.exists():
            fail(f"{log}: the folder {log.parent} does not exist")
        events.write(log)
        say(f"Log written to {log}; narrate it again with 'paperrobot replay {log}'")


# --------------------------------------------------------------------------------------- simulate

def simulate(games: int = typer.Option(1000, help="How many battles."),
             jobs: int = typer.Option(0, help="Worker processes (0 = one per core)."),
             seed: int = typer.Option(1, help="Base seed."),
             db: Optional[Path] = typer.Option(None, help="SQLite file to store one row per battle."),
             robot: str = typer.Option("d7", "--robot", help="d7 or kzinti-bc."),
             opponent_ship: str = typer.Option("federation-ca", help="The other side's ship."),
             opponent: str = typer.Option("policy", help="policy or robot."),
             ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
             tables: Optional[Path] = typer.Option(None, "--tables", help="A folder of your own table files."),
             quiet: bool = typer.Option(False, help="No progress bar or table."),
   board: str = typer.Option("floating", "--map", help="floating (no edges) or COLSxROWS, e.g. 42x30: "
                                     "leaving a fixed map disengages."),
   handicap: int = handicap_option(GAME, WHAT),
   handicap_prices: Optional[Path] = prices_option(),
   force: bool = force_option(),
):
    """Run many FC battles in parallel and print win rates with 95% intervals."""
    check_outputs(force, db=db)
    _check_opponent(opponent)
    setup = _setup(robot, opponent_ship, board, ships_dir, tables)
    setup.update(handicap_setup(GAME, handicap, handicap_prices))
    if not quiet:
        show_handicap(GAME, setup, opponent)
    play_one = partial(fc.play, opponent=opponent, **setup)
    config = {"robot": robot, "opponent_ship": opponent_ship, "opponent": opponent, "map": board}
    if handicap or handicap_prices:  # only when given: a store of earlier runs keeps its configuration
        config.update(handicap=handicap, handicap_prices=setup.get("handicap_prices", ""))
    provisional = [t.name for t in fc.load_tables(tables).provisional()]
    if provisional and not quiet:
        say("Provisional data in use (stand-ins for unconfirmed FC charts): " + ", ".join(provisional)
            + "; see 'paperrobot data --provisional --game fc'")
    simview.simulate(GAME, config, play_one, games, jobs, seed, db, fc.SIDES,
                     f"FC robot {robot} vs {opponent_ship} ({opponent})", quiet, force=force)


# --------------------------------------------------------------------------------------- play

PLAY_HELP = ("'map' draws the map, 'status' shows both ships, 'auto' answers batteries, repairs, shield transfers and "
             "damage choices with the suggestion from now on (type it again to be asked). A form: Enter accepts the "
             "suggestion shown; edit with name=value, e.g. speed=24 regen=1,1 or shot1=ph1-1@ship shot2=none.")


class FcFront(Front):
    """What the FC terminal shows before each question, and its extra words."""

    help = PLAY_HELP

    def __init__(self):
        self.narrator = fc.narrator()
        self.auto_minor = False
        self.match: Match | None = None

    def commands(self, match: Match) -> dict:
        self.match = match
        return {"map": lambda: draw_map(match.engine), "status": lambda: status(match.engine),
                "auto": self.toggle_auto}

    def toggle_auto(self) -> None:
        self.auto_minor = not self.auto_minor
        say("Batteries, repairs, shield transfers and damage choices now take the suggestion without asking."
            if self.auto_minor else "You will be asked about batteries, repairs, transfers and damage choices again.")

    def auto(self, match: Match, request: Request):
        if self.auto_minor and request.kind in MINOR:
            return request.default
        return None

    def narrate(self, event: Event) -> str | None:
        return self.narrator.line(event)

    def before(self, match: Match, request: Request) -> None:
        game, side = match.engine, request.side
        ship, enemy = game.ships[side], game.enemy(side)
        kind = request.kind
        if kind == "allocate":
            draw_map(game, f"Turn {game.turn}: energy allocation")
            say(f"Power {ship.power()} + battery {ship.battery:g}. Shields {ship.shields} of {list(ship.shield_max)}. "
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
            from ..fc.requests import legal_shots
            say(f"Range {distance(ship.pos, enemy.pos)}; enemy shields {enemy.shields}.")
            shots = legal_shots(game, ship)
            if shots:
                say("Shots you can take (type shotN=KEY, several in firing order):")
                for key, text in shots:
                    say(f"    {key:24} {text}")
            else:
                say("No weapon can fire now.")
        elif kind == "defend":
            for did in request.data:
                d = game._drone(did)
                shield = game.drone_shield(ship, d)
                say(f"Drone {did} strikes your shield #{shield} ({ship.shields[shield - 1]} boxes). ADD shots "
                    f"{ship.add_shots}, free tractors "
                    f"{ship.tractors() - sum(1 for x in game.drones if x.alive and x.held_by == side)}.")
            say("Defences: " + ", ".join(game_steps()) + "; each only while the drone survives.")
        elif kind == "launch":
            say(f"Range {distance(ship.pos, enemy.pos)}; drones left {ship.drones_left()}.")
        elif kind in ("repair", "transfer", "batteries"):
            say(f"End of turn {game.turn}: shields {ship.shields} of {list(ship.shield_max)}; "
                f"damaged: {', '.join(game.damaged_systems(ship)) or 'nothing'}.")


def game_steps() -> tuple[str, ...]:
    from ..fc.requests import DEFENCE_STEPS
    return DEFENCE_STEPS


def status(game) -> None:
    for s in game.ships.values():
        say(f"  {s.side}: {s.spec.title} at {label(s.pos)} facing {'ABCDEF'[s.facing]}, speed {s.speed_now()}, "
            f"shields {s.shields}, internal damage {s.internals}")
        say("    weapons: " + ", ".join(f"{w.id}{'' if w.alive else ' (destroyed)'}{' fired' if w.fired else ''}"
                                     for w in s.weapons))
    for d in game.drones:
        if d.alive:
            say(f"  drone {d.id} of {d.owner} at {label(d.pos)} seeking {d.target}")


def play(robot: str = typer.Option("d7", "--robot", help="The robot's ship: d7 or kzinti-bc."),
         ship: str = typer.Option("federation-ca", "--ship", help="Your ship."),
         seed: int = typer.Option(1, help="Seed for the dice."),
         resume: Optional[Path] = typer.Option(None, help="Resume a saved game (and keep saving to it)."),
         save: Optional[Path] = typer.Option(None, help="The save file, written after every answer."),
         ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
         tables: Optional[Path] = typer.Option(None, "--tables", help="A folder of your own table files."),
         board: str = typer.Option("floating", "--map", help="floating (no edges) or COLSxROWS, e.g. 42x30: "
                                     "leaving a fixed map disengages."),
         handicap: int = handicap_option(GAME, WHAT),
         handicap_prices: Optional[Path] = prices_option(),
         force: bool = force_option(),
):
    """Play an FC duel against the robot; the game is saved after every answer ('quit' stops, 'undo' takes back)."""
    check_outputs(force, save=save, resume=resume)
    setup = None if resume is not None else _setup(robot, ship, board, ships_dir, tables)
    if setup is not None:
        setup.update(handicap_setup(GAME, handicap, handicap_prices))
        show_handicap(GAME, setup, "policy")
    say(PLAY_HELP)
    terminal = TerminalPlay(GAME, FcFront(), lambda log: paperrobot.new_game(GAME, seed=seed, log=log, **setup),
                            save_path=save, resume=resume)
    outcome = terminal.run()
    if outcome is not None:
        winner = "draw" if outcome.winner is None else f"{outcome.winner} wins"
        say(f"Result: {winner} ({outcome.result}) after {outcome.turns} turns")


# --------------------------------------------------------------------------------------- ships, replay, data

def ship_names(ships_dir=None) -> list[str]:
    return sorted(fc.load_ships(ships_dir))


def has_ship(name: str, ships_dir=None) -> bool:
    return name in fc.load_ships(ships_dir)


def list_ships(ships_dir=None) -> None:
    say("Federation Commander ships (squadron scale):")
    for name, spec in sorted(fc.load_ships(ships_dir).items()):
        flag = " [provisional]" if spec.provisional else ""
        say(f"  {name:15} {spec.title}, {spec.points} points, turn mode {spec.turn_mode}{flag}")


def show_ship(name: str, ships_dir=None) -> None:
    spec = fc.ship(name, ships_dir)
    say(f"{spec.title} ({spec.empire}), {spec.points} points{' [provisional]' if spec.provisional else ''}")
    say(f"  source: {spec.source}")
    say(f"  shields #1-#6: {list(spec.shields)}; turn mode {spec.turn_mode}; move cost {spec.move_cost:g}; "
        f"HET {spec.het_cost:g}; damage control {spec.damage_control}")
    say("  systems: " + ", ".join(f"{k} {n}" for k, n in spec.systems))
    say("  weapons: " + ", ".join(f"{w.id} ({w.kind} {w.arc})" for w in spec.weapons))
    if spec.racks:
        say(f"  drones: {spec.racks} racks of {spec.per_rack}, {spec.reloads} reloads per rack; ADD shots {spec.add_shots}")


def replay(events, decisions_only: bool) -> None:
    show = _narrate(decisions_only)
    for event in events:
        show(event)


def list_data(provisional: bool) -> None:
    tables = fc.load_tables()
    say("Federation Commander tables (replace any with --tables DIR holding a file of the same name):")
    for table in tables.all():
        if provisional and not table.provisional:
            continue
        mark = " [provisional]" if table.provisional else ""
        say(f"  {table.name}{mark}: {table.source}")
    for name, spec in sorted(fc.load_ships().items()):
        if provisional and not spec.provisional:
            continue
        say(f"  ship {name}{' [provisional]' if spec.provisional else ''}: {spec.source}")


__all__ = ["GAME", "register", "list_ships", "ship_names", "has_ship", "show_ship", "replay", "list_data",
           "PaperRobotError", "DataError", "console"]
