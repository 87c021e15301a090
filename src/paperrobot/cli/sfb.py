"""``paperrobot play|battle|simulate sfb``: Star Fleet Battles Cadet scenarios against the Cadet robot.

Every command builds its match through the game contract (``paperrobot.new_game("sfb", ...)``); ``play`` runs
the shared terminal loop (cli/terminal.py) with ``SfbFront``: the map and status before the energy allocation,
the odds of every shot, the prompts' wording, and 'map' / 'disengage' at any prompt.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Optional

import typer
from rich.table import Table

import paperrobot

from .. import sfb
from ..core.contract import Match, Request, drive_all
from ..core.events import Event, EventLog
from ..sfb.game import check_options
from . import simview
from .common import (check_outputs, console, fail, force_option, handicap_option, handicap_setup, prices_option, say,
                     show_handicap)
from .render import Mark, hex_map
from .terminal import Front, TerminalPlay

GAME = "sfb"
OPPONENTS = ("policy", "robot")


def register(groups) -> None:
    groups["play"].command("sfb")(play)
    groups["battle"].command("sfb")(battle)
    groups["simulate"].command("sfb")(simulate)


def _setup(scenario: str, player_ship: Optional[str], robot_ship: Optional[str], impulses: int,
           tiebreak: Optional[str], plasma_f: Optional[str] = None, evade: Optional[str] = None,
           ships_dir: Optional[Path] = None) -> dict:
    """The registry set-up of the command's options (only those given; the registry fills in the defaults)."""
    if impulses not in (8, 16):
        fail(f"--impulses must be 16 (the scenarios' rule) or 8 (seed 002's quick variant), not {impulses}")
    options = {"impulses": impulses}
    if tiebreak:
        options["tiebreak"] = tiebreak
    if plasma_f:  # scenario #6 options (docs/sfb-plasma-cloak.md)
        options["plasma_f"] = plasma_f
    if evade:
        options["evade"] = evade
    check_options(options)  # one line naming the option, before any work
    setup: dict[str, Any] = {"scenario": scenario, **options}
    if player_ship:
        setup["player_ship"] = player_ship
    if robot_ship:
        setup["robot_ship"] = robot_ship
    if ships_dir:
        setup["ships_dir"] = str(ships_dir)
    return setup


def _options(setup: dict) -> dict:
    return {k: v for k, v in setup.items() if k in sfb.game.OPTIONS or k.startswith("handicap")}


WHAT = "extra shield boxes (data/handicap.toml: 1.15 BPV a box, provisional)"


PLASMA_F_HELP = "Plasma-F: 'seed' (hold 0, starts armed; default) or 'cth' (hold 1, starts empty)."
EVADE_HELP = "Robot R.CLOAK2-4 against: 'cloak' (a cloaking enemy, seed 000; default) or 'plasma' (any plasma)."


def _check_opponent(opponent: str) -> None:
    if opponent not in OPPONENTS:
        fail(f"unknown opponent '{opponent}'; choose one of: {', '.join(OPPONENTS)}")


def draw_map(game, title: str = "") -> None:
    marks = [Mark(item.hex, item.name[:1].upper() if item.kind == "ship" else item.name[:1].lower(), item.facing,
                  item.label) for item in game.map_items()]
    if title:
        say(title)
    for line in hex_map(game.board.cols, game.board.rows, marks):
        say(line)
    for mark in marks:
        say(f"  {mark.mark}{'' if mark.facing is None else 'ABCDEF'[mark.facing]}  {mark.legend}")


def status_lines(game, side: str) -> list[str]:
    """Each ship of ``side``: position, speed, shields, power and weapons (the robot's: what slows it)."""
    from ..core import hexgrid
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
            speed = max(0, sfb.game.ROBOT_SPEED[game.impulses] - s.warp_lost)
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


def _narrate_to_console(narrator, decisions_only: bool):
    def show(event: Event) -> None:
        if decisions_only and event.kind not in ("decision", "result"):
            return
        text = narrator.line(event)
        if text:
            say(text)
    return show


# --------------------------------------------------------------------------------------- battle

def battle(scenario: str = typer.Option("5", help="Scenario: " + ", ".join(sfb.scenario_names())),
           seed: int = typer.Option(1, help="Seed for the dice; the same seed gives the same battle."),
           opponent: str = typer.Option("policy", help="Who flies the other ship: policy (a heuristic captain) or robot."),
           robot_ship: Optional[str] = typer.Option(None, "--robot", help="The robot's ship (default: the scenario's)."),
           opponent_ship: Optional[str] = typer.Option(None, help="The other side's ship (default: the scenario's)."),
           impulses: int = typer.Option(16, help="Impulses per turn: 16, or 8 for seed 002's quick variant "
                                                  "(no energy allocation, robot speed 8)."),
           tiebreak: Optional[str] = typer.Option(None, help="Robot R3 tie-break: 'shields' (seed 000, default) or 'coin' (CTH)."),
           plasma_f: Optional[str] = typer.Option(None, "--plasma-f", help=PLASMA_F_HELP),
           evade: Optional[str] = typer.Option(None, help=EVADE_HELP),
           log: Optional[Path] = typer.Option(None, help="Write the event log (JSON lines) here, for 'paperrobot replay'."),
           decisions: bool = typer.Option(False, "--decisions", help="Narrate only the robot's decisions."),
           maps: bool = typer.Option(True, help="Draw the map at the start and the end."),
           ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
           handicap: int = handicap_option(GAME, WHAT),
           handicap_prices: Optional[Path] = prices_option(),
           force: bool = force_option()):
    """Watch one narrated battle: every robot decision with its rule ID and dice."""
    check_outputs(force, log=log)
    _check_opponent(opponent)
    setup = _setup(scenario, opponent_ship, robot_ship, impulses, tiebreak, plasma_f, evade, ships_dir)
    setup.update(handicap_setup(GAME, handicap, handicap_prices))
    show_handicap(GAME, setup, opponent)
    events = EventLog()
    events.listeners.append(_narrate_to_console(sfb.narrator(), decisions))
    match = paperrobot.new_game(GAME, seed=seed, log=events, **setup)
    if maps:
        draw_map(match.engine, f"Scenario {scenario}: {sfb.scenario_title(scenario)} (seed {seed})")
    outcome = drive_all(match, {"player": opponent, "robot": "robot"})
    if maps:
        draw_map(match.engine, "Final positions")
    winner = "draw" if outcome.winner is None else f"{outcome.winner} wins"
    say(f"Result: {winner} ({outcome.result}) after {outcome.turns} turns")
    if log:
        _write_log(events, log)


def _write_log(events: EventLog, path: Path) -> None:
    if path.parent and not path.parent.exists():
        fail(f"{path}: the folder {path.parent} does not exist")
    events.write(path)
    say(f"Log written to {path}; narrate it again with 'paperrobot replay {path}'")


# --------------------------------------------------------------------------------------- simulate

def simulate(scenario: Optional[str] = typer.Option(None, help="Scenario: " + ", ".join(sfb.scenario_names()) +
                                                   " (default 5; 'duel' with --all-pairings)"),
             games: int = typer.Option(1000, help="How many battles."),
             jobs: int = typer.Option(0, help="Worker processes (0 = one per core)."),
             seed: int = typer.Option(1, help="Base seed; battle i gets a seed derived from it and i."),
             db: Optional[Path] = typer.Option(None, help="SQLite file to store one row per battle."),
             opponent: str = typer.Option("policy", help="policy or robot."),
             robot_ship: Optional[str] = typer.Option(None, "--robot", help="The robot's ship."),
             opponent_ship: Optional[str] = typer.Option(None, help="The other side's ship."),
             impulses: int = typer.Option(16, help="Impulses per turn (16, or 8)."),
             tiebreak: Optional[str] = typer.Option(None, help="Robot R3 tie-break: shields or coin."),
             plasma_f: Optional[str] = typer.Option(None, "--plasma-f", help=PLASMA_F_HELP),
             evade: Optional[str] = typer.Option(None, help=EVADE_HELP),
             quiet: bool = typer.Option(False, help="No progress bar or table (for scripts)."),
             all_pairings: bool = typer.Option(False, "--all-pairings",
                                               help="Every pairing of the seven cadet ships, robot vs robot and "
                                                    "robot vs policy; --games is per pairing."),
             handicap: int = handicap_option(GAME, WHAT),
             handicap_prices: Optional[Path] = prices_option(),
             force: bool = force_option()):
    """Run many battles in parallel and print win rates with 95% intervals."""
    check_outputs(force, db=db)
    _check_opponent(opponent)
    simview.check_counts(games, jobs, seed)  # counts and seed first, in the words every simulate uses
    if all_pairings:
        setup = _setup(scenario or "duel", None, None, impulses, tiebreak, plasma_f, evade)
        _all_pairings(scenario or "duel", games, jobs, seed, db, _options(setup), quiet)
        return
    scenario = scenario or "5"
    setup = _setup(scenario, opponent_ship, robot_ship, impulses, tiebreak, plasma_f, evade)
    if handicap or handicap_prices:  # only when given: a store of earlier runs keeps its configuration
        setup.update(handicap_setup(GAME, handicap, handicap_prices))
        if not quiet:
            show_handicap(GAME, setup, opponent)
    paperrobot.new_game(GAME, seed=seed, **setup)  # bad names fail before any process starts
    options = _options(setup)
    play = partial(sfb.play_battle, scenario=scenario, opponent=opponent, robot_ship=robot_ship,
                   player_ship=opponent_ship, options=options)
    config = {"scenario": scenario, "opponent": opponent, "robot_ship": robot_ship, "player_ship": opponent_ship,
              "options": options}
    title = f"SFB scenario {scenario}, robot vs {opponent}"
    simview.simulate(GAME, config, play, games, jobs, seed, db, list(sfb.SIDES[::-1]), title, quiet, force=force)


CADETS = ("federation", "klingon", "romulan-eagle", "romulan-kr", "kzinti", "gorn", "orion")
SHORT = {"federation": "Fed", "klingon": "Kli", "romulan-eagle": "Eagle", "romulan-kr": "KR", "kzinti": "Kzi",
         "gorn": "Gorn", "orion": "Ori"}


def _all_pairings(scenario: str, games: int, jobs: int, seed: int, db: Optional[Path], options: dict,
                  quiet: bool) -> None:
    """Win-rate tables of every robot ship against every opponent ship, flown by the robot and by the policy."""
    paperrobot.new_game(GAME, seed=seed, scenario=scenario, **options)  # bad scenario or options fail first
    simview.check_counts(games, jobs)
    results: dict[tuple[str, str, str], object] = {}
    pairs = [(opp, r, p) for opp in OPPONENTS[::-1] for r in CADETS for p in CADETS]
    with simview.Progress(simview.TextColumn("[bold]{task.description}"), simview.BarColumn(),
                          simview.MofNCompleteColumn(), simview.TimeElapsedColumn(), console=console,
                          transient=True, disable=quiet) as progress:
        task = progress.add_task(f"SFB {scenario}: every pairing", total=len(pairs))
        for opponent, robot_ship, player_ship in pairs:
            play = partial(sfb.play_battle, scenario=scenario, opponent=opponent, robot_ship=robot_ship,
                           player_ship=player_ship, options=options)
            config = {"scenario": scenario, "opponent": opponent, "robot_ship": robot_ship,
                      "player_ship": player_ship, "options": options}
            results[(opponent, robot_ship, player_ship)] = simview.simulate(
                GAME, config, play, games, jobs, seed, db, list(sfb.SIDES[::-1]), "", quiet=True)
            progress.advance(task)
    for opponent in OPPONENTS[::-1]:
        table = Table(title=f"SFB scenario {scenario}: robot's win rate (rows: robot ship; columns: opponent ship "
                            f"flown by the {opponent}; {games} games each, draws = the rest)", title_justify="left")
        table.add_column("robot")
        for p in CADETS:
            table.add_column(SHORT[p], justify="right")
        for r in CADETS:
            table.add_row(SHORT[r], *(pairing_cell(results[(opponent, r, p)]) for p in CADETS))
        console.print(table)
    console.print("Ships: " + ", ".join(f"{v} = {k}" for k, v in SHORT.items()))
    console.print("Each cell: the robot's win rate and its 95% Wilson interval; the Elo-style difference of the "
                  "robot's score (wins + half the draws) with its 95% interval; LOS, the likelihood that the robot "
                  "wins more often than it loses (docs/balance.md 'The formulas').")


def pairing_cell(summary) -> str:
    """One pairing's cell: win rate with its Wilson interval, the Elo-style difference, the likelihood of superiority."""
    from ..sim.fit import elo_difference, los

    rate, low, high = summary.rate("robot")
    wins = summary.wins.get("robot", 0)
    losses = summary.games - wins - summary.draws
    elo = elo_difference(wins, summary.draws, losses)

    def signed(x: float) -> str:
        return f"{x:+.0f}" if abs(x) != float("inf") else ("+inf" if x > 0 else "-inf")
    return (f"{rate:.0%} ({low:.0%}-{high:.0%})\nElo {signed(elo.elo)} ({signed(elo.low)}..{signed(elo.high)})\n"
            f"LOS {los(wins, losses):.0%}")


# --------------------------------------------------------------------------------------- play

HELP = ("'map' draws the map and both ships' status; 'disengage' leaves the battle at the end of this impulse "
        "(scenario #5). Fire: pick a preset by number, or give weapons their targets, e.g. "
        "phaser-1#1=klingon photon-A=klingon.")


class SfbFront(Front):
    """What the terminal shows a person before each SFB question, and the words only SFB has."""

    help = HELP

    def __init__(self):
        self.narrator = sfb.narrator()
        self.wants_out = False  # the person typed 'disengage': answer yes at the end of this impulse
        self.game = None

    def commands(self, match: Match) -> dict:
        self.game = match.engine
        return {"map": self.show_map, "disengage": self.disengage}

    def show_map(self) -> None:
        game = self.game
        draw_map(game)
        for side in ("player", "robot"):
            for line in status_lines(game, side):
                say(line)

    def disengage(self) -> None:
        self.wants_out = True
        say("You will disengage at the end of this impulse (scenario #5: a draw for you, a tactical victory for "
            "the robot).")

    def auto(self, match: Match, request: Request) -> Any:
        if request.kind == "disengage":  # asked every impulse; answered without a prompt (docs/sfb.md)
            answer, self.wants_out = ("yes" if self.wants_out else "no"), False
            return answer
        if request.kind == "fire" and not request.view.get("worth_asking"):
            return "none"  # no shot worth a thought (docs/sfb.md "When a person is asked")
        return None

    def before(self, match: Match, request: Request) -> None:
        game, ship = match.engine, request.subject
        self.game = game
        kind = request.kind
        if kind == "energy" and request.error:
            say(f"{ship.name}: energy allocation, again:")
        elif kind == "speed":  # the 8-impulse game: no energy allocation, only a speed (docs/sfb.md)
            if not request.error:
                say("")
                say(f"=== Turn {game.turn}: speed (your Chief Engineer allocates the energy) ===")
                self.show_map()
            say(f"{ship.name}: speed this turn (your Chief Engineer allocates the energy)?")
        elif kind == "energy":
            say("")
            say(f"=== Turn {game.turn}: energy allocation ===")
            self.show_map()
            default = request.option(request.default)
            for line in describe_energy(default.value if default else {}, request.view["energy"]):
                say(line)
            say(f"{ship.name}: energy allocation (Enter accepts the suggestion):")
        elif kind == "cloak":
            say(f"{ship.name}: cloak for this turn (energy {game.cloak_paid.get(ship.name, 0)} paid)?")
        elif kind == "move":
            from ..core import hexgrid
            say(f"{ship.name} moves from {hexgrid.label(ship.hex)} facing {hexgrid.facing_letter(ship.facing)}:")
        elif kind == "launch":
            say(f"{ship.name}: launch {'plasma torpedoes' if request.data[0] == 'plasma' else 'drones'}?")
        elif kind == "fire":
            say(f"{ship.name}: fire which weapons? (a preset number, or weapon=target for each weapon to fire)")

    def narrate(self, event: Event) -> str | None:
        return self.narrator.line(event)


def play(scenario: str = typer.Option("5", help="Scenario: " + ", ".join(sfb.scenario_names())),
         ship: Optional[str] = typer.Option(None, help="Your ship (default: the scenario's)."),
         robot_ship: Optional[str] = typer.Option(None, "--robot", help="The robot's ship (default: the scenario's)."),
         seed: int = typer.Option(1, help="Seed for the dice."),
         impulses: int = typer.Option(16, help="Impulses per turn: 16, or 8 (seed 002's quick variant: no energy "
                                                "allocation, you choose a speed)."),
         tiebreak: Optional[str] = typer.Option(None, help="Robot R3 tie-break: shields or coin."),
         plasma_f: Optional[str] = typer.Option(None, "--plasma-f", help=PLASMA_F_HELP),
         evade: Optional[str] = typer.Option(None, help=EVADE_HELP),
         save: Optional[Path] = typer.Option(None, help="Save file, written after every answer."),
         resume: Optional[Path] = typer.Option(None, help="Resume a saved game (and keep saving to it)."),
         log: Optional[Path] = typer.Option(None, help="Write the event log here at the end."),
         ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
         handicap: int = handicap_option(GAME, WHAT),
         handicap_prices: Optional[Path] = prices_option(),
         force: bool = force_option()):
    """Play your ship against the Cadet robot: allocate energy, steer, fire; the robot explains itself."""
    check_outputs(force, save=save, resume=resume, log=log)
    if save and resume and save != resume:
        fail("give --save or --resume, not both (a resumed game keeps saving to its own file)")
    setup = _setup(scenario, ship, robot_ship, impulses, tiebreak, plasma_f, evade, ships_dir)
    setup.update(handicap_setup(GAME, handicap, handicap_prices))
    if not resume:
        show_handicap(GAME, setup, "policy")
    if not resume:
        paperrobot.new_game(GAME, seed=seed, **setup)  # bad names fail before the first question
    front = SfbFront()

    def new(events: EventLog) -> Match:
        return paperrobot.new_game(GAME, seed=seed, log=events, **setup)

    session = TerminalPlay(GAME, front, new, save_path=save, resume=resume)
    shown = session.match.setup
    say(f"Scenario {shown['scenario']}: {sfb.scenario_title(shown['scenario'])}. At any prompt: {HELP} "
        f"'help' lists every word.")
    if session.resumed:
        say(f"Resuming {session.save_path}: replayed {len(session.match.answers)} answers.")
    outcome = session.run()
    if outcome is None:
        return
    winner = "draw" if outcome.winner is None else ("you win" if outcome.winner == "player" else "the robot wins")
    say(f"Game over: {winner} ({outcome.result}) after {outcome.turns} turns.")
    if log:
        _write_log(session.match.log, log)


# --------------------------------------------------------------------------------------- ships, replay, data

def ship_names(ships_dir: Optional[Path]) -> list[str]:
    return sorted(sfb.load_ships(ships_dir))


def has_ship(name: str, ships_dir: Optional[Path]) -> bool:
    return name in sfb.load_ships(ships_dir)


def list_ships(ships_dir: Optional[Path]) -> None:
    table = Table(title="Star Fleet Battles Cadet ships (sfb)", title_justify="left")
    table.add_column("name")
    table.add_column("ship")
    table.add_column("source")
    for key, spec in sorted(sfb.load_ships(ships_dir).items()):
        table.add_row(key, getattr(spec, "title", key), getattr(spec, "source", ""))
    console.print(table)


def show_ship(name: str, ships_dir: Optional[Path]) -> None:
    for line in sfb.ship_sheet(sfb.load_ships(ships_dir)[name]):
        say(line)


def replay(events: list[Event], decisions_only: bool) -> None:
    show = _narrate_to_console(sfb.narrator(), decisions_only)
    for event in events:
        show(event)


def list_data(provisional: bool) -> None:
    ships = sorted(sfb.load_ships(None).items())
    shown = [(key, spec) for key, spec in ships if spec.provisional or not provisional]
    if provisional and not shown:
        say("sfb: no provisional data.")
    for key, spec in shown:
        mark = " [provisional]" if spec.provisional else ""
        say(f"sfb ship {key}{mark}: {spec.source}")
    if not provisional:
        for name, line in sfb.plasma_sources():
            say(f"sfb table plasma-{name}: {line}")
