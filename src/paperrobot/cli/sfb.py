"""``paperrobot play|battle|simulate sfb``: Star Fleet Battles Cadet scenarios against the Cadet robot."""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Optional

import typer
from rich.table import Table

from .. import sfb
from ..core.controller import Decision, Request
from ..core.errors import PaperRobotError
from ..core.events import Event, EventLog
from ..core.save import read_save
from . import simview
from .common import check_outputs, console, fail, force_option, say
from .render import Mark, hex_map
from .session import PlaySession, Prompter, choose

GAME = "sfb"
OPPONENTS = ("policy", "robot")


def register(groups) -> None:
    groups["play"].command("sfb")(play)
    groups["battle"].command("sfb")(battle)
    groups["simulate"].command("sfb")(simulate)


def _options(impulses: int, tiebreak: Optional[str], plasma_f: Optional[str] = None,
             evade: Optional[str] = None) -> dict:
    if impulses not in (8, 16):
        fail(f"--impulses must be 16 (the scenarios' rule) or 8 (seed 002's quick variant), not {impulses}")
    options = {"impulses": impulses}
    if tiebreak:
        options["tiebreak"] = tiebreak
    if plasma_f:  # scenario #6 options (docs/sfb-plasma-cloak.md)
        options["plasma_f"] = plasma_f
    if evade:
        options["evade"] = evade
    return options


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
           force: bool = force_option()):
    """Watch one narrated battle: every robot decision with its rule ID and dice."""
    check_outputs(force, log=log)
    _check_opponent(opponent)
    events = EventLog()
    events.listeners.append(_narrate_to_console(sfb.narrator(), decisions))
    game = sfb.new_game(scenario, seed=seed, player_ship=opponent_ship, robot_ship=robot_ship, opponent=opponent,
                        ships_dir=ships_dir, log=events, options=_options(impulses, tiebreak, plasma_f, evade))
    if maps:
        draw_map(game, f"Scenario {scenario}: {sfb.scenario_title(scenario)} (seed {seed})")
    outcome = game.run()
    if maps:
        draw_map(game, "Final positions")
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
             force: bool = force_option()):
    """Run many battles in parallel and print win rates with 95% intervals."""
    check_outputs(force, db=db)
    _check_opponent(opponent)
    options = _options(impulses, tiebreak, plasma_f, evade)
    if all_pairings:
        _all_pairings(scenario or "duel", games, jobs, seed, db, options, quiet)
        return
    scenario = scenario or "5"
    # Build one game first so that bad names fail before any process starts.
    sfb.new_game(scenario, seed=seed, player_ship=opponent_ship, robot_ship=robot_ship, opponent=opponent,
                 options=options)
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
    sfb.new_game(scenario, seed=seed, options=options)  # bad scenario or options fail before any work
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
            table.add_row(SHORT[r], *(f"{results[(opponent, r, p)].rate('robot')[0]:.0%}" for p in CADETS))
        console.print(table)
    console.print("Ships: " + ", ".join(f"{v} = {k}" for k, v in SHORT.items()))


# --------------------------------------------------------------------------------------- play

class Terminal:
    """The person's side: shows the map and status at the start of each turn (the energy allocation, or the
    speed question of the 8-impulse game) and asks every question."""

    def __init__(self):
        self.session: PlaySession | None = None
        self.prompter: Prompter | None = None

    def show_map(self) -> None:
        game = self.session.current
        draw_map(game)
        for line in game.status_lines("player"):
            say(line)
        for line in game.status_lines("robot"):
            say(line)

    wants_out = False  # the person typed 'disengage': answer yes at the end of this impulse

    def disengage(self) -> None:
        self.wants_out = True
        say("You will disengage at the end of this impulse (scenario #5: a draw for you, a tactical victory for the robot).")

    def decide(self, request: Request) -> Decision:
        if request.kind == "energy":
            return Decision(self._energy(request))
        if request.kind == "disengage":  # asked every impulse; answered without a prompt (docs/sfb.md)
            answer, self.wants_out = ("yes" if self.wants_out else "no"), False
            return Decision(answer)
        if request.kind == "speed":  # the 8-impulse game: no energy allocation, only a speed (docs/sfb.md)
            self._turn_start("speed (your Chief Engineer allocates the energy)")
        choice = request.options
        say(choice.prompt)
        return Decision(choose(self.prompter, request, choice.items, choice.multi, tuple(choice.default), ">"))

    def _turn_start(self, what: str) -> None:
        say("")
        say(f"=== Turn {self.session.current.turn}: {what} ===")
        self.show_map()

    def _energy(self, request: Request):
        self._turn_start("energy allocation")
        alloc = request.options
        while True:
            for line in sfb.describe_energy(alloc, request.view):
                say(line)
            text = self.prompter.ask("Energy: Enter to accept, or edit as name=value (e.g. speed=10):")
            if not text:
                return alloc
            try:
                alloc = sfb.edit_energy(alloc, text)
            except PaperRobotError as exc:
                say(f"Not allowed: {exc}")


HELP = ("At any prompt: 'map' draws the map and both ships' status, 'save' writes the save file, "
        "'quit' saves (if you gave --save or --resume) and stops, 'disengage' leaves the battle at the end of "
        "the impulse (scenario #5), 'help' shows this.")


def play(scenario: str = typer.Option("5", help="Scenario: " + ", ".join(sfb.scenario_names())),
         ship: Optional[str] = typer.Option(None, help="Your ship (default: the scenario's)."),
         robot_ship: Optional[str] = typer.Option(None, "--robot", help="The robot's ship (default: the scenario's)."),
         seed: int = typer.Option(1, help="Seed for the dice."),
         impulses: int = typer.Option(16, help="Impulses per turn: 16, or 8 (seed 002's quick variant: no energy "
                                                "allocation, you choose a speed)."),
         tiebreak: Optional[str] = typer.Option(None, help="Robot R3 tie-break: shields or coin."),
         plasma_f: Optional[str] = typer.Option(None, "--plasma-f", help=PLASMA_F_HELP),
         evade: Optional[str] = typer.Option(None, help=EVADE_HELP),
         save: Optional[Path] = typer.Option(None, help="Save file to write on 'save' / 'quit'."),
         resume: Optional[Path] = typer.Option(None, help="Resume a saved game (and keep saving to it)."),
         log: Optional[Path] = typer.Option(None, help="Write the event log here at the end."),
         ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
         force: bool = force_option()):
    """Play your ship against the Cadet robot: allocate energy, steer, fire; the robot explains itself."""
    check_outputs(force, save=save, resume=resume, log=log)
    answers: list = []
    if resume:
        data = read_save(resume, GAME)
        setup, seed, answers = data.setup, data.seed, data.answers
        save = save or resume
    else:
        setup = {"scenario": scenario, "ship": ship, "robot_ship": robot_ship,
                 "options": _options(impulses, tiebreak, plasma_f, evade), "ships_dir": str(ships_dir) if ships_dir else None}
    terminal = Terminal()
    narrator = sfb.narrator()

    def build(controller, events):
        return sfb.new_game(setup["scenario"], seed=seed, player_ship=setup.get("ship"),
                            robot_ship=setup.get("robot_ship"), player=controller,
                            ships_dir=Path(setup["ships_dir"]) if setup.get("ships_dir") else None,
                            log=events, options=setup.get("options"))

    def narrate(event: Event) -> None:
        text = narrator.line(event)
        if text:
            say(text)

    session = PlaySession(GAME, setup, seed, build, terminal, sfb.encode_answer, sfb.decode_answer, narrate,
                          save, answers)
    terminal.session = session
    terminal.prompter = Prompter(session, {"map": terminal.show_map, "help": lambda: say(HELP),
                                            "disengage": terminal.disengage})
    say(f"Scenario {setup['scenario']}: {sfb.scenario_title(setup['scenario'])}. {HELP}")
    if answers:
        say(f"Resuming {resume}: replaying {len(answers)} answers.")
    outcome = session.run()
    if outcome is None:
        return
    winner = "draw" if outcome.winner is None else ("you win" if outcome.winner == "player" else "the robot wins")
    say(f"Game over: {winner} ({outcome.result}) after {outcome.turns} turns.")
    if log:
        _write_log(session.log, log)


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
