"""Command-line front end for Star Wars: Armada (battle, simulate, play, assist; ships and data).

Every command builds its match through the registry (``paperrobot.new_game``-style, set-up options only):
``battle`` and ``simulate`` drive it with the Imperial AI and the Rebel policy, ``play`` runs it in the
terminal loop (cli/terminal.py) with ArmadaFront for what only armada shows (the table, the attack dice).
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional

import typer

from ..core.errors import PaperRobotError
from ..core.events import EventLog
from ..core.files import write_text_atomic
from .common import (check_outputs, fail, force_option, handicap_option, handicap_setup, prices_option, say,
                     show_handicap)

GAME = "armada"
GEOMETRY_HELP = "Your own measurements (a copy of the package's data/geometry.toml, edited)."


def setup_options(fleet_file: Optional[Path] = None, ships_dir: Optional[Path] = None,
                  geometry: Optional[Path] = None) -> dict:
    """The set-up options of the registry for these command-line options (a fleet file is read here, so a
    save holds the fleets themselves; paths are made absolute so a save resumes from another folder)."""
    from ..armada import Setup, load_fleet
    folder = str(Path(ships_dir).resolve()) if ships_dir else None
    setup = load_fleet(fleet_file, folder) if fleet_file else Setup()
    setup.ships_dir = folder
    setup.geometry = str(Path(geometry).resolve()) if geometry else None
    return setup.to_options()


def new_match(seed: int, options: dict, log: EventLog | None = None):
    from .. import new_game
    return new_game(GAME, seed=seed, log=log, **options)


WHAT = "extra squadrons (data/handicap.toml: TIE fighters at 8 points for the AI, Z-95s at 7 for the Rebels)"


def with_handicap(options: dict, handicap: int, prices: Optional[Path], show: bool = True) -> dict:
    options = {**options, **handicap_setup(GAME, handicap, prices)}
    if show:
        show_handicap(GAME, options, "policy")
    return options


def register(groups) -> None:
    @groups["battle"].command("armada")
    def battle(seed: int = typer.Option(1, help="Random seed: the same seed replays the same battle."),
               log: Optional[Path] = typer.Option(None, "--log", help="Write the event log (JSON lines) here."),
               svg: Optional[Path] = typer.Option(None, "--svg", help="Write a picture of the table after each round here."),
               fleet_file: Optional[Path] = typer.Option(None, "--fleet-file", help="A TOML file: imperial = [...], rebel = [...]."),
               ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
               geometry: Optional[Path] = typer.Option(None, "--geometry", help=GEOMETRY_HELP),
               quiet: bool = typer.Option(False, "--quiet", help="Only the result line."),
               handicap: int = handicap_option(GAME, WHAT),
               handicap_prices: Optional[Path] = prices_option(),
               force: bool = force_option()):
        """Six narrated rounds: the Imperial AI (seed 003) against the Rebel player policy."""
        check_outputs(force, log=log, svg=svg)
        from ..armada import narrator
        from ..core.contract import drive_all
        options = with_handicap(setup_options(fleet_file, ships_dir, geometry), handicap, handicap_prices, not quiet)
        events = EventLog(enabled=True)
        nar = narrator()
        pictures = _Pictures(svg, options["geometry"]) if svg else None

        def show(event):
            if pictures:
                pictures.see(event)
            if quiet and event.kind != "end":
                return
            text = nar.line(event)
            if text:
                say(text)

        events.listeners.append(show)
        drive_all(new_match(seed, options, events), {"imperial": "robot", "rebel": "policy"})
        if log:
            events.write(log)
            say(f"Log written to {log}")
        if pictures:
            say(f"Pictures written to {svg}/ ({pictures.count} files)")

    @groups["simulate"].command("armada")
    def simulate(games: int = typer.Option(200, help="How many battles."),
                 jobs: int = typer.Option(1, help="Worker processes (0 = one per core)."),
                 seed: int = typer.Option(1, help="Base seed."),
                 db: Optional[Path] = typer.Option(None, help="SQLite file for one row per game."),
                 fleet_file: Optional[Path] = typer.Option(None, "--fleet-file", help="A TOML fleet file."),
                 geometry: Optional[Path] = typer.Option(None, "--geometry", help=GEOMETRY_HELP),
                 handicap: int = handicap_option(GAME, WHAT),
                 handicap_prices: Optional[Path] = prices_option(),
                 force: bool = force_option()):
        """Many battles, Imperial AI against the Rebel policy: who wins how often."""
        check_outputs(force, db=db)
        from ..armada import play_options
        from .simview import simulate as run
        options = setup_options(fleet_file, None, geometry)
        if handicap or handicap_prices:  # only when given: a store of earlier runs keeps its configuration
            options = with_handicap(options, handicap, handicap_prices)
        new_match(seed, options)  # refuse a bad set-up (unknown ship, bad geometry file) before any worker starts
        play = functools.partial(play_options, options=options)  # picklable: each worker builds its own matches
        config = dict(options)
        run(GAME, config, play, games, jobs, seed, db, ["imperial", "rebel"],
            "Armada: Imperial AI vs Rebel policy", force=force)

    @groups["play"].command("armada")
    def play(seed: int = typer.Option(1, help="Random seed."),
             save: Optional[Path] = typer.Option(None, "--save", help="Write the game here after every answer."),
             resume: Optional[Path] = typer.Option(None, "--resume", help="Continue a saved game."),
             fleet_file: Optional[Path] = typer.Option(None, "--fleet-file", help="A TOML fleet file."),
             ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
             geometry: Optional[Path] = typer.Option(None, "--geometry", help=GEOMETRY_HELP),
             handicap: int = handicap_option(GAME, WHAT),
             handicap_prices: Optional[Path] = prices_option(),
             force: bool = force_option()):
        """Command the Rebels against the Imperial AI ('save', 'undo', 'quit' at any prompt)."""
        check_outputs(force, save=save, resume=resume)
        options = setup_options(fleet_file, ships_dir, geometry)
        run_play(seed, save, resume, with_handicap(options, handicap, handicap_prices, not resume))

    @groups["assist"].command("armada")
    def assist(state: Optional[Path] = typer.Option(None, "--state", help="Keep the fleet's state in this file."),
               fleet: Optional[str] = typer.Option(None, "--fleet", help="New fleet, e.g. 'victory-ii,gladiator-i,tie-fighter*4'."),
               seed: Optional[int] = typer.Option(None, help="Seed for the AI's dice (default: from the state or 1)."),
               force: bool = force_option()):
        """The AI at your own table: describe what you measured, it answers with its rolls and decisions."""
        check_outputs(force, state=state, new_state=fleet is not None)
        from ..armada import Assistant
        assistant = Assistant.open(state, fleet, seed)
        assist_session(assistant)


ASSIST_HELP = """Questions (one per line; ids are shown by 'show'; ranges: close, medium, long):
  fleet victory-ii,gladiator-i,tie-fighter*4     start a new AI fleet
  show                                           the AI fleet's state
  style                                          roll the commander style (ARM.CMDR.STYLE)
  focal X1 X2 ...                                your ships' positions along your edge, in mm (ARM.DEPLOY.FP)
  deploy                                         where and how the AI deploys (ARM.DEPLOY.ZONE)
  round                                          start the next round (readies tokens, clears activations)
  order SHIP:DICE[:double][:squads][:out] ...    which unactivated AI ship activates next (ARM.ACT.ORDER)
                                                 DICE = most dice it has on one enemy target;
                                                 'order' alone: a die among all unactivated AI ships (4th tier)
  command SHIP in|out [squads] [damaged]         its command by blue die (ARM.CMD.ROLL, ARM.CMD.TOKEN)
  attack SHIP ZONE>TARGET[:TZONE=SHIELDS]@RANGE[!] ...   its attacks; no :TZONE for a squadron, ! = obstructed
                                                 (ARM.TARGET.DICE, DOUBLEARC, WEAKARC)
  defend SHIP ZONE RANGE COLOURS FACES [threat=N] [squad]   e.g. defend victory-ii-1 front medium RRU hit,hit+hit,hit threat=4
                                                 (ARM.DEF.USE, ARM.DEF.BRACE, ARM.DEF.EXHAUSTED)
  squad SQUADRON ENEMY:HULL[:escort][:counter] ...   which engaged enemy squadron it shoots (ARM.SQ.TARGET)
  squadmove SQUADRON [ordered] [squad=ENEMY [reach]] [ship=ENEMY]   where it moves (ARM.SQ.MOVE)
  nav SHIP [double=ENEMY]                        keep formation or break it for a double arc (ARM.CMD.NAV)
  damage SHIP ZONE N | hit SQUADRON N            record damage you dealt outside an answer
  override                                       the sanity checks the AI applies (ARM.OVERRIDE)
  log                                            the numbered questions answered so far
  undo | undo N                                  take back the last question, or go back to question N of the log
  help, quit"""


def assist_session(assistant, input_fn=input) -> None:
    """The assistant at the terminal: one question per line; the state is saved after every answer."""
    say("Armada AI assistant. Type 'help' for the questions, 'quit' to stop.")
    if not assistant.state.ships:
        say("No fleet yet: start with e.g. 'fleet victory-ii,gladiator-i,tie-fighter*4'.")
    while True:
        try:
            line = input_fn("armada> ").strip()
        except EOFError:
            break
        if not line:
            continue
        if line in ("quit", "exit"):
            break
        try:
            for text in assist_answer(assistant, line):
                say(text)
            assistant.save()
        except PaperRobotError as exc:
            say(f"Not understood: {exc}")
    assistant.save()


def assist_answer(assistant, line: str) -> list[str]:
    """One typed question to the assistant's answer (the words split as a shell would)."""
    import shlex
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise PaperRobotError(f"{exc} (close the quotes)") from None
    if not words:
        return []
    verb, args = words[0].lower(), words[1:]
    if verb == "help":
        return [ASSIST_HELP]
    if verb == "log":
        return assistant.log()
    if verb == "undo":
        if len(args) > 1 or (args and not (args[0].isascii() and args[0].isdigit() and len(args[0]) < 7)):
            raise PaperRobotError("type 'undo' or 'undo N' with N a question's number in the 'log'")
        return assistant.undo(int(args[0]) if args else None)
    return assistant.ask_line(line)


class _Pictures:
    def __init__(self, folder: Path, geometry: str = ""):
        self.folder = Path(folder)
        self.geometry = geometry
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"{folder}: cannot create the picture folder ({exc})")
        self.count = 0
        self.setup = None
        self.deployed = None

    def see(self, event) -> None:
        if event.kind == "setup":
            self.setup = event.data
        elif event.kind == "deployed":
            self.deployed = event.data
            self._write("round-0.svg", "Deployment", event.data["ships"], event.data["squadrons"])
        elif event.kind == "picture":
            name = "final.svg" if self.count and self._ended else f"round-{event.turn}.svg"
            self._write(name, f"After round {event.turn}", event.data["ships"], event.data["squadrons"])
        if event.kind == "end":
            self._ended = True

    _ended = False

    def _write(self, name: str, title: str, ships, squads) -> None:
        from ..armada import picture
        d = self.deployed or {}
        text = picture(self.setup["width"], self.setup["depth"], ships, squads, d.get("obstacles", []), title,
                       tuple(d["focal"]) if d.get("focal") else None, geometry=self.geometry)
        write_text_atomic(self.folder / name, text, kind="svg")
        self.count += 1


def list_ships(ships_dir) -> None:
    from ..armada import catalogue
    ships, squads = catalogue(str(ships_dir) if ships_dir else None)
    say("Star Wars: Armada ships (paperrobot ships NAME --game armada for a card):")
    for s in ships.values():
        say(f"  {s.name:20s} {s.title:36s} {s.faction:8s} {s.size:6s} {s.points:3d} pts")
    say("Squadrons:")
    for q in squads.values():
        say(f"  {q.name:20s} {q.title:36s} {q.faction:8s} speed {q.speed} {q.points:3d} pts")


def ship_names(ships_dir) -> list[str]:
    from ..armada import catalogue
    ships, squads = catalogue(str(ships_dir) if ships_dir else None)
    return list(ships) + list(squads)


def has_ship(name, ships_dir) -> bool:
    return name in ship_names(ships_dir)


def show_ship(name, ships_dir) -> None:
    from ..armada import catalogue
    ships, squads = catalogue(str(ships_dir) if ships_dir else None)
    if name in ships:
        s = ships[name]
        say(f"{s.title} ({s.name}), {s.faction}, {s.size} base, {s.points} points (printed {s.points_printed})")
        say(f"  hull {s.hull}  command {s.command}  squadron {s.squadron}  engineering {s.engineering}")
        say(f"  battery: front {s.front}  left {s.left}  right {s.right}  rear {s.rear}  anti-squadron {s.anti_squadron}")
        say(f"  shields front/left/right/rear {'/'.join(map(str, s.shields))}")
        say(f"  defence tokens: {', '.join(s.tokens)}")
        chart = "  ".join(f"{v}:[{' '.join('-' if c == 0 else 'I' * c for c in row)}]" for v, row in enumerate(s.speed_chart, 1))
        say(f"  navigation chart: {chart}")
    else:
        q = squads[name]
        say(f"{q.title} ({q.name}), {q.faction}, {q.points} points")
        say(f"  speed {q.speed}  hull {q.hull}  anti-squadron {q.anti_squadron}  battery {q.battery}  "
            f"keywords: {', '.join(q.keywords) or 'none'}")


def replay(events, decisions_only: bool) -> None:
    from ..armada import narrator
    nar = narrator()
    for e in events:
        if decisions_only and e.kind != "decision":
            continue
        text = nar.line(e)
        if text:
            say(text)


def list_data(provisional: bool) -> None:
    from ..armada import tables
    say("Star Wars: Armada data tables:")
    for name, source, prov in tables():
        if provisional and not prov:
            continue
        say(f"  {name}{' (PROVISIONAL)' if prov else ''}: {source}")


PLAY_HELP = ("You command the Rebels. At each prompt pick a number or key; Enter takes the suggestion. "
             "'table' (or 'map') shows the ships; several defence tokens or squadron targets join with '+'.")


def show_table(game) -> None:
    for s in game.ships:
        v = s.to_view()
        say(f"  {v['id']:22s} {v['side']:8s} ({v['x']:.0f}, {v['y']:.0f}) heading {v['heading']:.0f} speed "
            f"{v['speed']} shields {'/'.join(map(str, v['shields']))} damage {v['damage']}/{s.spec.hull} "
            f"tokens {' '.join(v['tokens']) or '-'}{' DESTROYED' if v['destroyed'] else ''}")
    for q in game.squads:
        if not q.destroyed:
            say(f"  {q.uid:22s} {q.side:8s} ({q.x:.0f}, {q.y:.0f}) hull {q.hull}")


def _make_front():
    from .terminal import Front

    class ArmadaFront(Front):
        """What the armada terminal shows besides the questions: the table, the attack before a defence."""

        help = PLAY_HELP

        def __init__(self):
            from ..armada import narrator
            self.narrator = narrator()
            self.shown_round = -1

        def commands(self, match):
            show = lambda: show_table(match.engine)  # noqa: E731
            return {"table": show, "map": show}

        def before(self, match, request):
            game = request.state
            if game is None:
                return
            if request.kind in ("command", "activate") and game.round != self.shown_round:
                self.shown_round = game.round
                say(f"The table in round {game.round}:")
                show_table(game)
            elif request.kind == "defend":
                v = request.subject
                shot, ship = v["shot"], v["ship"]
                locked = f"; locked by accuracies: {', '.join(sorted(v['locked']))}" if v["locked"] else ""
                say(f"{shot.attacker.uid} rolled {', '.join(v['faces'])} at your {ship.uid} ({shot.tzone or 'hull'} "
                    f"zone, {ship.zone_shields(shot.tzone) if shot.tzone else 0} shields){locked}")
            elif request.kind in ("attack", "maneuver"):
                ship = game.active
                if ship is not None:
                    v = ship.to_view()
                    say(f"{ship.uid} at ({v['x']:.0f}, {v['y']:.0f}) heading {v['heading']:.0f} speed {ship.speed}, "
                        f"command {ship.dial or 'none'}, tokens {', '.join(sorted(ship.cmd_tokens)) or 'none'}")

        def narrate(self, event):
            return self.narrator.line(event)

    return ArmadaFront()


def run_play(seed, save, resume, options, input_fn=input) -> None:
    from ..core.save import read_match_save
    from .terminal import TerminalPlay
    say(PLAY_HELP)
    if resume:
        say(f"Resuming {resume}: replaying {len(read_match_save(resume, GAME).answers)} answers.")
    terminal = TerminalPlay(GAME, _make_front(), lambda log: new_match(seed, options, log),
                            save_path=Path(save) if save else None, resume=Path(resume) if resume else None,
                            input_fn=input_fn)
    outcome = terminal.run()
    if outcome is None:
        return
    say(f"Game over: {'you win' if outcome.winner == 'rebel' else 'the Imperial AI wins'} ({outcome.result}) "
        f"after {outcome.turns} rounds.")
