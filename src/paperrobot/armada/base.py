"""The Armada engine's declared fields: what every part of the engine class (table.py, squadron_phase.py, movement.py,
attacks.py, deployment.py, game.py) may read, with its type, and the small helpers every part calls.

The parts are one chain of plain classes, ``Game(Deployment(Attacks(Movement(SquadronPhase(Measures(GameBase))))))``
(the order the mixins had: every method resolves as before), which mypyc compiles into one native class
(docs/speed.md, "Compiled, sixth step"). The fields are annotations here only, declared once (a field annotated again
in a part is listed twice in the native class's traversal: the FC leak, docs/speed.md "Compiled, fourth step");
``Game.__init__`` sets them, ``snapshot.restore`` sets a restored engine's. The methods at the end raise
NotImplementedError: the part named beside each overrides it.
"""
from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, ClassVar

from ..core.contract import Request
from ..core.dice import Dice
from ..core.errors import IllegalAction
from ..core.events import EventLog
from ..core.robot_rules import RobotRules
from .data import Geometry
from .requests import table_view
from .setup import Setup
from .sides import IMPERIAL, REBEL
from .state import Obstacle, Place, Ship, Squad

if TYPE_CHECKING:
    from .measure import Disc, ShotOpt
    from .player import Policy
    from .robot import Robot

# What the engine's steps are: generators yielding requests, resumed with the answer (a Decision)
Steps = Generator[Request, Any, None]


class TableView:
    """A request's view, built only when read: what ``side`` may know (Game.view_for). A class, not a closure:
    mypyc compiles no lambda in a method."""

    def __init__(self, game: GameBase, side: str, kind: str, subject: Any) -> None:
        self.game = game
        self.side = side
        self.kind = kind
        self.subject = subject

    def __call__(self) -> dict[str, Any]:
        return self.game.view_for(self.side, self.kind, self.subject)


class GameBase:
    """The fields of one Armada battle's engine (set in game.Game.__init__; restored by snapshot.restore)."""

    sides: ClassVar[tuple[str, str]] = (REBEL, IMPERIAL)
    robot_side: ClassVar[str] = IMPERIAL

    setup: Setup
    robot_rules: RobotRules  # the AI's procedure (armada/procedure.py): read-only, shared by restored engines
    dice: Dice
    log: EventLog
    geo: Geometry
    width: float
    depth: float
    inset: float
    round: int
    ships: list[Ship]
    squads: list[Squad]
    obstacles: list[Obstacle]
    score: dict[str, int]
    first: str
    style: str
    focal: tuple[float, float]
    deck: list[str]
    active: Ship | None
    # the position in the sequence of play (a restored engine's sequence() resumes from it, docs/armada.md
    # 'Clone and fork'): the phase, whose turn it is in the ship phase, and in the squadron phase whose turn,
    # how many sides in a row have had nothing left to activate and which of the turn's two activations is next
    phase: str
    turn: str
    squad_turn: str
    squad_passes: int
    squad_step: int
    boundary: Callable[[], None] | None  # set by a Match that keeps snapshots: called at each boundary
    attacks_left: int
    plan: str | None  # the target group of the active ship's first attack (ARM.TARGET.DOUBLEARC)
    version: int  # bumped whenever a unit moves or dies: the key of the shot cache
    _shots: dict[tuple[str, float, float, float, frozenset[str], bool], list[ShotOpt]]
    _memo: dict[str, dict[Any, Any]]  # measurements that depend only on where the live ships are (ship_memo)
    _memo_key: list[Place] | None  # the live ships' places when _memo was started (ship_memo)
    _memo_obstacles: int  # and how many obstacles there were
    _pairs: dict[Any, Any]  # what one unit's zone measures of another, kept while others move (pair_memo)
    _obstacle_discs: list[Disc] | None  # each obstacle with the disc that holds it (measure.obstructed)
    _controllers: dict[str, Robot | Policy]
    _shared: dict[str, Any] | None  # what every engine restored from this one shares with it (snapshot.py)

    # ------------------------------------------------------------------ helpers
    def emit(self, kind: str, side: str = "", **data: Any) -> None:
        if self.log.enabled or self.log.listeners:
            self.log.emit(kind, self.round, 0, side, **data)

    def logging(self) -> bool:
        """Whether an event would be kept or heard (emit's test): callers whose event data costs work to build (each
        unit's view, rounded coordinates) build it only then. Simulations and searches run with the log off."""
        return self.log.enabled or bool(self.log.listeners)

    def _ask(self, kind: str, side: str, *, state: Any = None, subject: Any = None,
             options: tuple[Any, ...] | Callable[[], tuple[Any, ...]] = (), default: Any = None,
             check: Callable[[Any], Any] | None = None, prompt: str = "") -> Request:
        """A request of this game: its view (JSON data of what ``side`` may know) is built only when read. The
        fields are named (no ``**`` dict): compiled, Request is then built by a direct call."""
        return Request(kind, side, state=state, subject=subject, options=options, default=default,
                       view=TableView(self, side, kind, subject), check=check, prompt=prompt)

    def view_for(self, side: str, kind: str = "", subject: Any = None) -> dict[str, Any]:
        """What ``side`` may know, as plain JSON data (requests.table_view)."""
        return table_view(self, side, kind, subject)

    def live_ships(self, side: str | None = None) -> list[Ship]:
        return [s for s in self.ships if not s.destroyed and (side is None or s.side == side)]

    def live_squads(self, side: str | None = None) -> list[Squad]:
        return [q for q in self.squads if not q.destroyed and (side is None or q.side == side)]

    def unit(self, uid: str) -> Ship | Squad:
        for u in self.ships:
            if u.uid == uid:
                return u
        for q in self.squads:
            if q.uid == uid:
                return q
        raise IllegalAction(f"no unit '{uid}' on the table")

    def ship(self, uid: str) -> Ship:
        """The ship ``uid`` (unit() for a caller that needs a ship)."""
        for u in self.ships:
            if u.uid == uid:
                return u
        raise IllegalAction(f"no ship '{uid}' on the table")

    @staticmethod
    def enemy(side: str) -> str:
        return REBEL if side == IMPERIAL else IMPERIAL

    def over(self) -> bool:
        """Whether a side has no ship left (not live_ships(IMPERIAL) or not live_ships(REBEL), no list built)."""
        imperial = rebel = False
        for s in self.ships:
            if not s.destroyed:
                if s.side == IMPERIAL:
                    imperial = True
                elif s.side == REBEL:
                    rebel = True
        return not imperial or not rebel

    # ------------------------------------------------------------------ parts later in the chain
    def attack(self, shot: ShotOpt, counter: int = 0) -> Steps:  # attacks.py
        raise NotImplementedError

    def hurt_ship(self, s: Ship, zone: str, dmg: int, crit: bool, by: Ship | Squad | None) -> None:  # attacks.py
        raise NotImplementedError

    def faceup(self, s: Ship) -> None:  # attacks.py
        raise NotImplementedError

    def check_destroyed(self, s: Ship) -> None:  # attacks.py
        raise NotImplementedError

    def spend_command(self, ship: Ship, cmd: str) -> str:  # game.py
        raise NotImplementedError
