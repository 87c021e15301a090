"""What Armada shows its players beyond the contract (core/frontend.py): the character sketch of the table
(sketch.py), the ships and squadrons listed, the attack before a defence, SVG pictures after each round, a fleet
file as a set-up flag, and the question-asking table assistant (assist.py).

Registered as ``GameInfo.frontend``; the terminal (cli/) and the web page reach it only through the registry.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..core import handicap as hc
from ..core.files import write_text_atomic
from ..core.frontend import Frontend
from ..core.registry import SetupOption
from .sketch import sketch

HELP = ("You command the Rebels. At each prompt pick a number or key; Enter takes the suggestion. "
        "'map' draws the table, 'table' lists every ship and squadron; several defence tokens or squadron "
        "targets join with '+'.")
FLEET_FILE = SetupOption("fleet_file", "a TOML fleet file (imperial = [...], rebel = [...], table, evade_close); "
                         "--imperial, --rebel, --table given as well win over it", "", "text")


def table_lines(game) -> list[str]:
    lines = []
    for s in game.ships:
        v = s.to_view()
        if v["destroyed"]:
            lines.append(f"  {v['id']:22s} {v['side']:8s} DESTROYED")
            continue
        lines.append(f"  {v['id']:22s} {v['side']:8s} ({v['x']:.0f}, {v['y']:.0f}) heading {v['heading']:.0f} speed "
                     f"{v['speed']} shields {'/'.join(map(str, v['shields']))} damage {v['damage']}/{s.spec.hull} "
                     f"tokens {' '.join(v['tokens']) or '-'}")
    for q in game.squads:
        if not q.destroyed:
            lines.append(f"  {q.uid:22s} {q.side:8s} ({q.x:.0f}, {q.y:.0f}) hull {q.hull}")
    return lines


class Pictures:
    """Writes an SVG of the table at deployment and after each round into a folder (``--svg``)."""

    def __init__(self, folder: Path, geometry: str = ""):
        self.folder = Path(folder)
        self.geometry = geometry
        self.folder.mkdir(parents=True, exist_ok=True)
        self.count = 0
        self.setup: dict | None = None
        self.deployed: dict | None = None
        self.ended = False

    def see(self, event) -> None:
        if event.kind == "setup":
            self.setup = event.data
        elif event.kind == "deployed":
            self.deployed = event.data
            self._write("round-0.svg", "Deployment", event.data["ships"], event.data["squadrons"])
        elif event.kind == "picture":
            name = "final.svg" if self.count and self.ended else f"round-{event.turn}.svg"
            self._write(name, f"After round {event.turn}", event.data["ships"], event.data["squadrons"])
        if event.kind == "end":
            self.ended = True

    def _write(self, name: str, title: str, ships, squads) -> None:
        from .svg import picture
        d = self.deployed or {}
        setup = self.setup or {}
        text = picture(setup["width"], setup["depth"], ships, squads, d.get("obstacles", []), title,
                       tuple(d["focal"]) if d.get("focal") else None, geometry=self.geometry)
        write_text_atomic(self.folder / name, text, kind="svg")
        self.count += 1


class TableQuestions:
    """Armada's table assistant, where the person asks and the AI answers (assist.py): what a front end needs."""

    prompt = "armada> "
    title = "Armada AI assistant"
    example = "fleet victory-ii,gladiator-i,tie-fighter*4"

    @property
    def questions(self):
        from .assist import QUESTIONS
        return QUESTIONS

    def open(self, path: Path | None, fleet: str | None, seed: int | None, robot_rules: str = ""):
        """The assistant of a state file (continued), or a new one (``fleet``: its first question). ``robot_rules``:
        a variant's text (the registry's robot_rules option, checked)."""
        from .assist import Assistant
        return Assistant.open(path, fleet, seed, robot_rules)

    def new(self, seed: int, robot_rules: str = ""):
        """A fresh assistant with no fleet and no state file (the web page replays its questions on it);
        ``robot_rules``: a variant's text, checked (the registry's robot_rules option), "" the published one."""
        from .assist import Assistant
        from .assist_state import State
        return Assistant(State(seed, robot_rules=robot_rules), None)

    def split(self, line: str) -> list[str]:
        from .assist_state import split_words
        return split_words(line)

    def next_question(self, state) -> str:
        """The question a game usually asks next (preselected on the web page; any may be asked)."""
        if state.style is None:
            return "style"
        if state.focal is None:
            return "focal"
        if not state.round:
            return "deploy" if not any(s.get("speed") for s in state.ships.values()) else "round"
        return "order"


class ArmadaFrontend(Frontend):
    """Armada's hooks: one per session (the round last drawn, the last question's view for 'map')."""

    help = HELP
    turns = "rounds"
    decision_kinds = ("decision",)
    paths = ("ships_dir", "geometry", "handicap_prices")
    default_games = 200  # a game takes ~10x an SFB or FC game
    handicap_what = ("extra squadrons (data/handicap.toml: TIE fighters at 8 points for the AI, Z-95s at 7 for the "
                     "Rebels)")
    setup_flags = (FLEET_FILE,)
    question_assistant = TableQuestions()

    def __init__(self):
        self.shown_round = -1
        self.sketched = None  # (round, kind, active ship) last drawn with its arcs
        self.view = None  # the last question's view, for 'map'

    def setup_from_flags(self, values: dict) -> dict:
        path = values.get("fleet_file")
        if not path:
            return {}
        from .fleets import load_fleet
        options = load_fleet(path, values.get("ships_dir") or None).to_options()
        return {k: options[k] for k in ("imperial", "rebel", "table", "evade_close")}

    def intro(self, setup: dict) -> list[str]:
        return [HELP]

    def handicap_line(self, setup: dict) -> str:
        handicap = int(setup.get("handicap") or 0)
        if not handicap:
            return ""
        from .data import catalogue
        from .handicap import handicap_prices
        prices = handicap_prices(setup.get("handicap_prices") or "")
        who, points = hc.side_and_amount(handicap)
        unit = prices.robot_unit if who == "robot" else prices.player_unit
        card = catalogue(setup.get("ships_dir") or None)[1][unit].points
        side = "the Imperial AI" if who == "robot" else "your Rebel fleet"
        return (f"Handicap {handicap:+d} fleet points: {side} gets {hc.units_for(points, card)} extra {unit} "
                f"squadrons ({card} points each), on top of its fleet")

    def status_lines(self, engine) -> list[str]:
        return table_lines(engine)

    def pictures(self, folder, setup: dict) -> Pictures:
        return Pictures(folder, setup.get("geometry") or "")

    def draw(self, suggested=None) -> list[str]:
        if isinstance(self.view, dict) and self.view.get("table"):
            return sketch(self.view, suggested)
        return []

    def commands(self, match) -> dict:
        return {"table": lambda: table_lines(match.engine), "map": self.draw}

    def before(self, match, request) -> list[str]:
        game = request.state
        if game is None:
            return []
        self.view = request.view
        lines: list[str] = []
        if request.kind in ("command", "activate") and game.round != self.shown_round:
            self.shown_round = game.round
            lines.append(f"The table in round {game.round}:")
            lines += self.draw() + table_lines(game)
        elif request.kind in ("attack", "maneuver") and not request.error \
                and (game.round, request.kind, self.view.get("active")) != self.sketched:
            self.sketched = (game.round, request.kind, self.view.get("active"))
            lines += self.draw(request.default if request.kind == "maneuver" else None)
        elif request.kind == "defend":
            v = request.subject
            shot, ship = v["shot"], v["ship"]
            locked = f"; locked by accuracies: {', '.join(sorted(v['locked']))}" if v["locked"] else ""
            lines.append(f"{shot.attacker.uid} rolled {', '.join(v['faces'])} at your {ship.uid} "
                         f"({shot.tzone or 'hull'} zone, {ship.zone_shields(shot.tzone) if shot.tzone else 0} "
                         f"shields){locked}")
        elif request.kind in ("attack", "maneuver"):
            ship = game.active
            if ship is not None:
                v = ship.to_view()
                lines.append(f"{ship.uid} at ({v['x']:.0f}, {v['y']:.0f}) heading {v['heading']:.0f} speed "
                             f"{ship.speed}, command {ship.dial or 'none'}, tokens "
                             f"{', '.join(sorted(ship.cmd_tokens)) or 'none'}")
        return lines

    # ------------------------------------------------------------------ ships and data
    def ship_names(self, ships_dir: Any) -> list[str]:
        from .data import catalogue
        ships, squads = catalogue(str(ships_dir) if ships_dir else None)
        return list(ships) + list(squads)

    def ship_list(self, ships_dir: Any) -> list[str]:
        from .data import catalogue
        ships, squads = catalogue(str(ships_dir) if ships_dir else None)
        lines = ["Star Wars: Armada ships (paperrobot ships NAME --game armada for a card):"]
        lines += [f"  {s.name:20s} {s.title:36s} {s.faction:8s} {s.size:6s} {s.points:3d} pts" for s in ships.values()]
        lines.append("Squadrons:")
        lines += [f"  {q.name:20s} {q.title:36s} {q.faction:8s} speed {q.speed} {q.points:3d} pts"
                  for q in squads.values()]
        return lines

    def ship_sheet(self, name: str, ships_dir: Any) -> list[str]:
        from .data import catalogue
        ships, squads = catalogue(str(ships_dir) if ships_dir else None)
        if name in ships:
            s = ships[name]
            chart = "  ".join(f"{v}:[{' '.join('-' if c == 0 else 'I' * c for c in row)}]"
                              for v, row in enumerate(s.speed_chart, 1))
            return [f"{s.title} ({s.name}), {s.faction}, {s.size} base, {s.points} points (printed {s.points_printed})",
                    f"  hull {s.hull}  command {s.command}  squadron {s.squadron}  engineering {s.engineering}",
                    f"  battery: front {s.front}  left {s.left}  right {s.right}  rear {s.rear}  anti-squadron "
                    f"{s.anti_squadron}",
                    f"  shields front/left/right/rear {'/'.join(map(str, s.shields))}",
                    f"  defence tokens: {', '.join(s.tokens)}",
                    f"  navigation chart: {chart}"]
        q = squads[name]
        return [f"{q.title} ({q.name}), {q.faction}, {q.points} points",
                f"  speed {q.speed}  hull {q.hull}  anti-squadron {q.anti_squadron}  battery {q.battery}  "
                f"keywords: {', '.join(q.keywords) or 'none'}"]

    def data_lines(self, provisional: bool) -> list[str]:
        from .data import tables
        lines = ["Star Wars: Armada data tables:"]
        for name, source, prov in tables():
            if provisional and not prov:
                continue
            lines.append(f"  {name}{' (PROVISIONAL)' if prov else ''}: {source}")
        return lines
