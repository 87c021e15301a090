"""Command-line front end for Star Wars: Armada (battle, simulate, play, assist; ships and data)."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Optional

import typer

from ..core.events import EventLog
from ..core.files import write_text_atomic
from .common import check_outputs, fail, force_option, say

GAME = "armada"


def _geometry(path: Optional[Path]) -> None:
    from ..armada import use_geometry
    use_geometry(path)


def _geometry_setter(path: Optional[Path]):
    """The table in use, for each worker process (a spawned worker does not inherit it)."""
    from ..armada import use_geometry
    return functools.partial(use_geometry, path) if path else None


GEOMETRY_HELP = "Your own measurements (a copy of the package's data/geometry.toml, edited)."


def _fleet(fleet_file: Optional[Path], ships_dir: Optional[Path]):
    from ..armada import Setup
    from ..armada import load_fleet
    setup = load_fleet(fleet_file, str(ships_dir) if ships_dir else None) if fleet_file else Setup()
    if ships_dir:
        setup.ships_dir = str(ships_dir)
    return setup


def register(groups) -> None:
    @groups["battle"].command("armada")
    def battle(seed: int = typer.Option(1, help="Random seed: the same seed replays the same battle."),
               log: Optional[Path] = typer.Option(None, "--log", help="Write the event log (JSON lines) here."),
               svg: Optional[Path] = typer.Option(None, "--svg", help="Write a picture of the table after each round here."),
               fleet_file: Optional[Path] = typer.Option(None, "--fleet-file", help="A TOML file: imperial = [...], rebel = [...]."),
               ships_dir: Optional[Path] = typer.Option(None, "--ships-dir", help="A folder of your own ship files."),
               geometry: Optional[Path] = typer.Option(None, "--geometry", help=GEOMETRY_HELP),
               quiet: bool = typer.Option(False, "--quiet", help="Only the result line."),
               force: bool = force_option()):
        """Six narrated rounds: the Imperial AI (seed 003) against the Rebel player policy."""
        check_outputs(force, log=log, svg=svg)
        from ..armada import new_game
        from ..armada import narrator
        _geometry(geometry)
        setup = _fleet(fleet_file, ships_dir)
        events = EventLog(enabled=True)
        nar = narrator()
        pictures = _Pictures(svg) if svg else None

        def show(event):
            if pictures:
                pictures.see(event)
            if quiet and event.kind != "end":
                return
            text = nar.line(event)
            if text:
                say(text)

        events.listeners.append(show)
        new_game(setup, seed, log=events).run()
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
                 force: bool = force_option()):
        """Many battles, Imperial AI against the Rebel policy: who wins how often."""
        check_outputs(force, db=db)
        from ..armada import play_battle
        from .simview import simulate as run
        _geometry(geometry)  # set before the worker processes fork, so they measure the same table
        setup = _fleet(fleet_file, None)
        play = functools.partial(play_battle, setup=setup)
        config = dict(setup.to_dict(), geometry=str(geometry) if geometry else None)
        run(GAME, config, play, games, jobs, seed, db, ["imperial", "rebel"],
            "Armada: Imperial AI vs Rebel policy", init=_geometry_setter(geometry), force=force)

    @groups["play"].command("armada")
    def play(seed: int = typer.Option(1, help="Random seed."),
             save: Optional[Path] = typer.Option(None, "--save", help="Save here on 'save' or 'quit'."),
             resume: Optional[Path] = typer.Option(None, "--resume", help="Continue a saved game."),
             fleet_file: Optional[Path] = typer.Option(None, "--fleet-file", help="A TOML fleet file."),
             force: bool = force_option()):
        """Command the Rebels against the Imperial AI ('save' / 'quit' at any prompt)."""
        check_outputs(force, save=save, resume=resume)
        run_play(seed, save, resume, _fleet(fleet_file, None) if fleet_file else None)

    @groups["assist"].command("armada")
    def assist(state: Optional[Path] = typer.Option(None, "--state", help="Keep the fleet's state in this file."),
               fleet: Optional[str] = typer.Option(None, "--fleet", help="New fleet, e.g. 'victory-ii,gladiator-i,tie-fighter*4'."),
               seed: Optional[int] = typer.Option(None, help="Seed for the AI's dice (default: from the state or 1)."),
               force: bool = force_option()):
        """The AI at your own table: describe what you measured, it answers with its rolls and decisions."""
        check_outputs(force, state=state, new_state=fleet is not None)
        from ..armada import Assistant
        assistant = Assistant.open(state, fleet, seed)
        assistant.session(say)


class _Pictures:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            fail(f"{folder}: cannot create the picture folder ({exc})")
        self.count = 0
        self.setup = None
        self.deployed = None

    def see(self, event) -> None:
        from ..armada import picture
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
                       tuple(d["focal"]) if d.get("focal") else None)
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


PLAY_HELP = ("You command the Rebels. At each prompt pick a number or key; Enter takes the default. "
             "'table' shows the ships, 'save' saves, 'quit' stops (and saves with --save).")


class _Terminal:
    """The person's answers to the engine's requests, through numbered prompts."""

    def __init__(self):
        self.session = None
        self.prompter = None

    def show_table(self) -> None:
        game = self.session.current
        for s in game.ships:
            v = s.to_view()
            say(f"  {v['id']:22s} {v['side']:8s} ({v['x']:.0f}, {v['y']:.0f}) heading {v['heading']:.0f} speed "
                f"{v['speed']} shields {'/'.join(map(str, v['shields']))} damage {v['damage']}/{s.spec.hull}"
                f"{' DESTROYED' if v['destroyed'] else ''}")
        for q in game.squads:
            if not q.destroyed:
                say(f"  {q.uid:22s} {q.side:8s} ({q.x:.0f}, {q.y:.0f}) hull {q.hull}")

    def decide(self, request):
        from ..core.controller import Decision
        from .session import choose
        kind, opts = request.kind, request.options
        if kind == "command":
            prompt, default = f"Command dial for {request.view.uid}", ("concentrate",)
        elif kind == "activate":
            prompt, default = "Activate which ship", ()
        elif kind == "attack":
            prompt, default = "Attack", ()
        elif kind == "defend":
            v = request.view
            say(f"{v['shot'].attacker.uid} rolled {', '.join(v['faces'])} at your {v['ship'].uid} "
                f"({v['shot'].tzone} zone, {v['ship'].zone_shields(v['shot'].tzone)} shields)")
            return Decision(choose(self.prompter, request, opts, True, (), "Spend defence tokens"))
        elif kind == "maneuver":
            ship = self.session.current.active
            straight = f"{ship.speed}:" + ",".join("0" for _ in range(ship.speed))
            prompt, default = f"Course for {ship.uid} (speed:yaw per joint, + = to port)", (straight,)
            if not any(o.key == straight for o in opts):
                default = ()
        elif kind == "squadron-pick":
            prompt, default = "Activate which squadron", ()
        else:
            prompt, default = f"{request.view['squad'].uid}: move or attack", ()
        return Decision(choose(self.prompter, request, opts, False, default, prompt))


def _encode(kind, action):
    return list(action) if isinstance(action, (list, tuple)) else action


def _decode(kind, raw):
    if kind == "defend":
        return tuple(str(x) for x in raw)
    if isinstance(raw, list):
        return [str(x) for x in raw]
    return str(raw)


def run_play(seed, save, resume, setup) -> None:
    from ..armada import Setup, new_game
    from ..armada import narrator
    from ..core.save import read_save
    from .session import PlaySession, Prompter
    answers: list = []
    if resume:
        data = read_save(resume, GAME)
        try:
            setup = Setup.from_dict(data.setup)
        except (KeyError, TypeError, ValueError):
            fail(f"{resume}: the save's set-up is damaged")
        seed, answers = data.seed, data.answers
        save = save or resume
    setup = setup or Setup()
    terminal = _Terminal()
    nar = narrator()

    def build(controller, events):
        return new_game(setup, seed, rebel=controller, log=events)

    def narrate(event) -> None:
        text = nar.line(event)
        if text:
            say(text)

    session = PlaySession(GAME, setup.to_dict(), seed, build, terminal, _encode, _decode, narrate, save, answers)
    terminal.session = session
    terminal.prompter = Prompter(session, {"table": terminal.show_table, "help": lambda: say(PLAY_HELP)})
    say(PLAY_HELP)
    if answers:
        say(f"Resuming {resume}: replaying {len(answers)} answers.")
    outcome = session.run()
    if outcome is None:
        return
    say(f"Game over: {'you win' if outcome.winner == 'rebel' else 'the Imperial AI wins'} ({outcome.result}) "
        f"after {outcome.turns} rounds.")
