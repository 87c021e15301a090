"""``paperrobot play|battle|simulate fc``: Federation Commander against the Robot Rules (D7 or Kzinti BC)."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Optional

import typer

from .. import fc
from ..core.controller import Decision, Request
from ..core.errors import DataError, PaperRobotError
from ..core.events import Event, EventLog
from ..core.hexgrid import Hex, distance, label, to_offset
from ..core.save import read_save
from . import simview
from .common import check_outputs, console, fail, force_option, say
from .render import Mark, hex_map
from .session import PlaySession, Prompter, choose

GAME = "fc"
OPPONENTS = ("policy", "robot")


def register(groups) -> None:
    groups["play"].command("fc")(play)
    groups["battle"].command("fc")(battle)
    groups["simulate"].command("fc")(simulate)


def _check(robot: str, opponent: str, opponent_ship: str, ships_dir, tables) -> None:
    if robot not in fc.ROBOT_SHIPS:
        fail(f"unknown robot ship '{robot}'; the Robot Rules fly: {', '.join(fc.ROBOT_SHIPS)}")
    if opponent not in OPPONENTS:
        fail(f"unknown opponent '{opponent}'; choose one of: {', '.join(OPPONENTS)}")
    fc.ship(opponent_ship, ships_dir)
    fc.load_tables(tables)


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
           force: bool = force_option(),
):
    """Watch one narrated FC duel: every robot decision with its rule ID and dice."""
    check_outputs(force, log=log)
    _check(robot, opponent, opponent_ship, ships_dir, tables)
    fc.parse_board(board)
    events = EventLog()
    events.listeners.append(_narrate(decisions))
    game = fc.make_game(seed, robot, opponent_ship, opponent, events, ships_dir, tables, board=board)
    draw_map(game, "Start positions")
    outcome = game.run()
    draw_map(game, "Final positions")
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
   force: bool = force_option(),
):
    """Run many FC battles in parallel and print win rates with 95% intervals."""
    check_outputs(force, db=db)
    _check(robot, opponent, opponent_ship, ships_dir, tables)
    fc.parse_board(board)
    play_one = partial(fc.play, robot=robot, opponent_ship=opponent_ship, opponent=opponent, board=board,
                       ships_dir=None if ships_dir is None else str(ships_dir),
                       tables_dir=None if tables is None else str(tables))
    config = {"robot": robot, "opponent_ship": opponent_ship, "opponent": opponent, "map": board}
    provisional = [t.name for t in fc.load_tables(tables).provisional()]
    if provisional and not quiet:
        say("Provisional data in use (stand-ins for unconfirmed FC charts): " + ", ".join(provisional)
            + "; see 'paperrobot data --provisional --game fc'")
    simview.simulate(GAME, config, play_one, games, jobs, seed, db, fc.SIDES,
                     f"FC robot {robot} vs {opponent_ship} ({opponent})", quiet, force=force)


# --------------------------------------------------------------------------------------- play

class Terminal:
    """The person's side: prompts with the policy's suggestion as the editable default."""

    def __init__(self):
        self.policy = fc.Policy()
        self.prompter: Prompter | None = None
        self.game = None

    def ask(self, text: str) -> str:
        return self.prompter.ask(text)

    def decide(self, request: Request) -> Decision:
        game = request.view
        suggestion = self.policy.decide(request).action
        handler = getattr(self, "ask_" + request.kind, None)
        if handler is None:  # batteries, repairs, transfers, damage choices: the policy's sensible default
            return Decision(suggestion, ())
        return Decision(handler(game, request, suggestion), ())

    def ask_allocate(self, game, request, suggestion):
        ship = game.ships[request.side]
        draw_map(game, f"Turn {game.turn}: energy allocation")
        say(f"Power {ship.power()} + battery {ship.battery:g}. Shields {ship.shields} of {list(ship.shield_max)}.")
        default = suggestion
        while True:
            text = self.ask(f"Baseline speed (0/8/16/24) [Enter = {default['speed']}]:")
            if not text:
                speed = default["speed"]
            elif text.isdigit() and int(text) in (0, 8, 16, 24):
                speed = int(text)
            else:
                say("Type 0, 8, 16 or 24.")
                continue
            break
        text = self.ask(f"Shield boxes to regenerate, shield numbers with repeats (2 energy each) "
                        f"[Enter = {' '.join(map(str, default['regen'])) or 'none'}]:")
        regen = default["regen"] if not text else ([] if text == "none" else
                                                   [int(x) for x in text.split() if x.isdigit()])
        photons = default["photons"]
        if photons or ship.live_weapons("photon"):
            text = self.ask(f"Photons to arm or hold [Enter = {' '.join(photons) or 'none'}]:")
            photons = photons if not text else ([] if text == "none" else text.split())
        hold = default["hold"]
        held = [d.id for d in game.drones if d.alive and d.held_by == ship.side]
        if held:
            text = self.ask(f"Drones held in your tractors ({' '.join(held)}): keep holding which, 1 each; a "
                            f"released drone strikes in impulse 1 [Enter = {' '.join(hold) or 'none'}]:")
            hold = hold if not text else ([] if text == "none" else text.split())
        return {"speed": speed, "regen": regen, "hold": hold, "photons": photons}

    def ask_accelerate(self, game, request, suggestion):
        while True:
            text = self.ask(f"Impulse {game.impulse}: accelerate? (y/n/emergency) [Enter = n]:").lower()
            if text in ("", "n", "no"):
                return "none"
            if text in ("y", "yes"):
                return "accel"
            if text == "emergency":
                return "emergency"
            say("Type y, n or emergency.")

    def ask_move(self, game, request, suggestion):
        ship, enemy = game.ships[request.side], game.enemy(request.side)
        say(f"Sub-pulse {game.subpulse}: you are at {label(ship.pos)} facing {'ABCDEF'[ship.facing]}; enemy at "
            f"{label(enemy.pos)}, range {distance(ship.pos, enemy.pos)}.")
        from .session import choose as pick
        items = [_Item(m, m) for m in request.options]
        return pick(self.prompter, request, items, False, (suggestion,), "Move")

    def ask_fire(self, game, request, suggestion):
        ship = game.ships[request.side]
        enemy = game.enemy(request.side)
        rng = distance(ship.pos, enemy.pos)
        items = []
        for w in ship.weapons:
            if not w.alive or w.fired:
                continue
            if game.in_arc(ship, w.arc, enemy.pos):
                for mode in ("", "overload", "as3"):
                    if game.weapon_cost(w, mode, rng) is not None and (mode != "as3" or w.kind in ("phaser-1", "phaser-2")):
                        items.append(_Item(f"{w.id}{':' + mode if mode else ''}",
                                           f"{w.id} {mode or 'standard'} at the ship (range {rng}, cost "
                                           f"{game.weapon_cost(w, mode, rng):g})"))
            for d in game.incoming(ship.side):
                if w.phaser and not d.held_by and game.in_arc(ship, w.arc, d.pos) and distance(ship.pos, d.pos) <= 3:
                    items.append(_Item(f"{w.id}@{d.id}", f"{w.id} at drone {d.id} (range {distance(ship.pos, d.pos)})"))
        if not items:
            return []
        say(f"Offensive fire, impulse {game.impulse}: power {ship.available():g} left.")
        default = tuple(f"{s[0]}{'@' + s[1] if s[1] != 'ship' else ''}{':' + s[2] if s[2] else ''}"
                        for s in suggestion)
        picked = choose(self.prompter, request, items, True, default, "Fire")
        shots = []
        for key in picked:
            wid, _, mode = key.partition(":")
            wid, _, drone = wid.partition("@")
            shots.append([wid, drone or "ship", mode, False])
        return shots

    def ask_launch(self, game, request, suggestion):
        ship = game.ships[request.side]
        n = len(ship.ready_racks())
        text = self.ask(f"Launch drones at the enemy ship? How many (0-{n}) [Enter = {len(suggestion)}]:")
        if text.isdigit() and int(text) <= n:
            return ["ship"] * int(text)
        return suggestion

    def ask_defend(self, game, request, suggestion):
        ship = game.ships[request.side]
        plan = []
        suggested = {did: steps for did, steps in suggestion}
        for did in request.options:
            d = game._drone(did)
            say(f"Drone {did} strikes your shield #{game.drone_shield(ship, d)} ({ship.shields[game.drone_shield(ship, d) - 1]} "
                f"boxes). ADD shots {ship.add_shots}, free tractors "
                f"{ship.tractors() - sum(1 for x in game.drones if x.alive and x.held_by == ship.side)}.")
            items = [_Item(step, {"add": "anti-drone (ADD)", "tractor": "tractor beam (hold it)"}.get(
                step, step.replace("-as3", " fired as phaser-3") + "s that bear")) for step in
                ("add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor")]
            steps = choose(self.prompter, request, items, True, tuple(suggested.get(did, ())),
                           f"Defences against {did}, in order, each only while it survives")
            plan.append([did, list(steps)])
        return plan

    def ask_reinforce(self, game, request, suggestion):
        o = request.options
        text = self.ask(f"{o['damage']} damage on shield #{o['shield']}: reinforce with how many (0-{o['cap']}) "
                        f"[Enter = {suggestion}]:")
        return int(text) if text.isdigit() and int(text) <= o["cap"] else suggestion


class _Item:
    def __init__(self, key: str, label_: str):
        self.key, self.label = key, label_


def play(robot: str = typer.Option("d7", "--robot", help="The robot's ship: d7 or kzinti-bc."),
         ship: str = typer.Option("federation-ca", "--ship", help="Your ship."),
         seed: int = typer.Option(1, help="Seed for the dice."),
         resume: Optional[Path] = typer.Option(None, help="Resume a saved game (and keep saving to it)."),
         save: Optional[Path] = typer.Option(None, help="Where 'save' and 'quit' write the game."),
         ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
         tables: Optional[Path] = typer.Option(None, "--tables", help="A folder of your own table files."),
         board: str = typer.Option("floating", "--map", help="floating (no edges) or COLSxROWS, e.g. 42x30: "
                                     "leaving a fixed map disengages."),
         force: bool = force_option(),
):
    """Play an FC duel against the robot: type 'save' at any prompt to save, 'quit' to save and stop."""
    check_outputs(force, save=save, resume=resume)
    answers: list = []
    if resume is not None:
        data = read_save(resume, GAME)
        robot, ship, seed = data.setup.get("robot", robot), data.setup.get("ship", ship), data.seed
        board = data.setup.get("map", board)
        answers = data.answers
        save = save or resume
    _check(robot, "policy", ship, ships_dir, tables)
    fc.parse_board(board)
    setup = {"robot": robot, "ship": ship, "map": board}
    terminal = Terminal()
    narrate = _narrate(False)

    def build(controller, log):
        game = fc.make_game(seed, robot, ship, "policy", log, ships_dir, tables, player_controller=controller,
                            board=board)
        terminal.game = game
        return game

    session = PlaySession(GAME, setup, seed, build, terminal, lambda kind, a: a, lambda kind, a: a, narrate,
                          save, answers)
    terminal.prompter = Prompter(session, {"map": lambda: draw_map(terminal.game)})
    outcome = session.run()
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
