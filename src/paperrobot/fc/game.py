"""The Federation Commander sequence of play (squadron scale): the engine that enforces; controllers decide.

Turn: Energy Allocation (human first, FC.GEN.ORDER), eight impulses, End of Turn. Impulse: acceleration,
four movement sub-pulses (ships by the sub-pulse chart, the robot last; drones after ships), Defensive
Fire (impacted drones: ADD, phasers, tractors, then impacts), Offensive Fire (both sides decide, then
resolve, player's volley first), Launch. End of turn: batteries, repairs, shield transfer. See docs/fc.md.

``Game.sequence()`` is the whole game as a generator on the game contract (core/contract.py): where the rules
ask a side it yields a Request built by requests.py (its options, form and check: nothing illegal reaches the
engine) and resumes with the parsed answer, the engine action:
  allocate   {"speed": 16, "regen": [1, 1], "hold": ["r1"], "photons": ["phot-1"]}
  accelerate "accel" | "none" | "emergency"
  move       "straight" | "turn-left" | "turn-right" | "slip-left" | "slip-right" | "decel" |
             "pivot-left" | "pivot-right" (turn + deceleration) | "het-A".."het-F"
  defend     [[drone_id, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]], ...]
  reinforce  int tokens (request data: {"damage", "shield", "cap", "kind", "penetrates"})
  fire       [[weapon_id, target ("ship" or a drone id), mode ("" | "overload" | "as3"), only_if_alive], ...]
  launch     [target, ...] ("ship" or a drone id)
  batteries  number of tokens to store
  repair     [system, ...] in priority order
  transfer   [[from_shield, to_shield, boxes], ...]
  dac_phaser weapon id ; dac_tractor "free" | "holding"
The steps that may ask (energy allocation, impulses, fire, damage allocation, end of turn) are generators
called with ``yield from``. Lookups (arcs, costs, legal moves) are in lookups.py, ships' state in state.py; the engine's fire (fire.py),
damage (damage.py) and end of turn (end_of_turn.py) are parts of Game it inherits.
"""
from __future__ import annotations

from functools import partial
from typing import Any, ClassVar, Final, Generator

from ..core.contract import Request
from ..core.controller import Decision
from ..core.dice import Dice
from ..core.events import EventLog
from ..core.hexgrid import DIRECTIONS, Board, Hex, facing_index, facing_toward, from_offset, neighbour
from ..core.outcome import Outcome
from .data import ShipSpec, Tables, load_tables
from .answers import DEFENCE_STEPS  # noqa: F401 (re-exported)
from .base import Steps
from . import fix as corrections, requests as opt, snapshot as snapshots
from .lookups import ACCEL_SUBPULSE, BASE_SUBPULSES, HETS, SPEEDS, Lookups  # noqa: F401 (re-exported)
from .state import Drone, Ship, new_ship
from .fire import Fire
from .player import Policy
from .robot import Robot

DRONE_SUBPULSES: Final[tuple[int, ...]] = (2, 3, 4)  # drones move at speed 24
MOVES = ("straight", "turn-left", "turn-right", "slip-left", "slip-right", "decel")


class Game(Fire):
    """One FC duel. ``order`` is (first mover, last mover): the robot moves last (FC.GEN.ORDER)."""

    sides: ClassVar[tuple[str, str]] = ("robot", "player")
    robot_side: ClassVar[str] = "robot"

    def __init__(self, specs: dict[str, ShipSpec], dice: Dice,
                 log: EventLog | None = None, tables: Tables | None = None, order: tuple[str, str] = ("player", "robot"),
                 setup: dict[str, Any] | None = None, start_range: int = 20, max_turns: int | None = None,
                 board: Board | None = None, robot_rules: Any = None, like: Game | None = None):
        """``like``: an engine to restore into (snapshot.build sets every field; the other arguments are not read)."""
        if like is not None:
            return
        self.robot_rules = robot_rules  # the robot's procedure (core.robot_rules; None: published), fc/procedure.py
        self.tables = tables or load_tables()
        self.rules = self.tables.rules
        self.dice, self.log = dice, log if log is not None else EventLog(enabled=False)
        self.order = order
        first, last = order
        self.board = board  # None: the floating map (no edges)
        mid_c, mid_r = (board.cols // 2, board.rows // 2) if board else (21, 20)
        # The two ships start facing each other, a little offset so they do not meet head on.
        self.ships = {
            first: new_ship(first, specs[first], from_offset(mid_c, mid_r + 1 + start_range // 2), 0),
            last: new_ship(last, specs[last], from_offset(mid_c + 2, mid_r - start_range // 2), 3),
        }
        self.drones = []
        self.weapon_index = {side: {w.id: w for w in ship.weapons} for side, ship in self.ships.items()}
        self.arms = {side: ship.weapons_by_kind() for side, ship in self.ships.items()}  # kind -> weapons, in order
        self.forms = {}  # per-ship forms and name sets of the requests (options.py), built once
        self.in_process = set()  # sides flown by this engine's robot or policy (requests.py keeps
        # their accelerate and move requests and asks them again, made new: Request.reissue)
        self.standing = {}  # side -> its controller's standing answers by request kind
        self.standing_accel = {}  # side -> its standing "accelerate" answer (read every impulse)
        self.routed = set()  # sides whose controller() was asked of this very engine (unroute)
        self.moves = {}  # the legal moves of the open move request, per side
        self._turn_modes = {}
        self.view_fns = {side: partial(self.view, side) for side in self.ships}
        self.enemies = {first: self.ships[last], last: self.ships[first]}  # side -> the other ship (enemy())
        self.costs = {}  # weapon_cost by (kind, arm, mode, range): the charts are fixed
        self.turn = 0
        self.impulse = 0
        self.subpulse = 0
        # where the sequence of play stands: "" (not begun), "energy" (allocation), "impulse" (its start: acceleration,
        # movement, defensive fire), "fire" (offensive fire), "launch" (the launch step), "end" (end of turn)
        self.phase = ""
        self.boundary = None  # called at each boundary when a match keeps snapshots (core/contract.py)
        self.max_turns = max_turns or self.rules.max_turns
        self.setup = setup or {}
        self.over = False
        self._drone_count = 0
        self.pending_reasons = []
        self.arm_slots = None  # the weapons of each kind as places on the card (snapshot.py)
        self.start_internal = {}  # begin()
        self.rec = True  # events are recorded (sequence() turns it off for a silent game)

    # ------------------------------------------------------------------------------- helpers

    # ------------------------------------------------------------------------------- the contract
    def fix(self, changes: dict[str, Any]) -> None:
        """The table assistant's corrections (fix.py)."""
        corrections.apply(self, changes)

    def controller(self, side: str, kind: str) -> Any:
        """The robot (Robot Rules, seed 001) or the heuristic player policy for ``side``. (Three per search
        simulation: Policy and Robot are imported with the module, not by an import statement per call.)"""
        if kind in ("robot", "policy"):
            self.in_process.add(side)
            self.routed.add(side)
        if kind == "robot":
            return Robot(self.dice, self.robot_rules)
        if kind == "policy":
            self.standing[side] = Policy.standing  # answers it gives whatever the state: not asked
            if "accelerate" in Policy.standing:
                self.standing_accel[side] = Policy.standing["accelerate"]
            return Policy()
        raise ValueError(f"no '{kind}' controller in FC")

    def record(self, request: Request, decision: Decision) -> None:
        """The decision events of an answer (its reasons: rule, text, dice)."""
        if not decision.reasons or not self.rec or (not self.log.enabled and not self.log.listeners):
            return
        action = _jsonable(decision.action)
        for reason in decision.reasons:
            self.emit("decision", request.side, rule=reason.rule, text=reason.text,
                      rolls=[r.to_json() for r in reason.rolls], request=request.kind, action=action)

    def view(self, side: str) -> dict[str, Any]:
        """Plain JSON data of what ``side`` knows (open information, and its own energy)."""
        from .view import view
        return view(self, side)

    # ------------------------------------------------------------------------------- the game
    def sequence(self) -> Generator[Request, Any, Outcome]:
        """The whole game in the rulebook's order; yields requests, returns the Outcome. A fresh engine starts
        the game; a restored one (``restore``) resumes at its boundary: where the sequence stands is state
        (``phase``, ``turn``, ``impulse``), and ``boundary`` (None, or set by a match keeping snapshots) is
        called at the start of the energy allocation, of every impulse (acceleration and movement), of its
        offensive fire, of its launch step (when a rack is ready) and of the end of turn: never inside a step
        (damage allocation asks inside fire: a copy replays from the start of the fire step)."""
        if not self.log.enabled and not self.log.listeners:
            self.rec = False  # a silent game (simulations): no event is built (emit), the hottest events' data is
            # not even put together (moves, shots)
        if not self.phase:
            self.begin()
        while True:
            if self.phase == "energy":
                self.impulse = 0
                if self.boundary is not None:
                    self.boundary()
                yield from self.energy_allocation()
                self.phase, self.impulse = "impulse", 1
            while self.phase != "end":
                if self.phase == "impulse":  # acceleration, movement, defensive fire
                    if self.boundary is not None:
                        self.boundary()
                    yield from self.impulse_movement()
                    if self.over:
                        return self.let_go(self.ended())
                    self.phase = "fire"
                if self.phase == "fire":
                    if self.boundary is not None:
                        self.boundary()
                    yield from self.offensive_fire()
                    if self.over:
                        return self.let_go(self.ended())
                    self.phase = "launch"
                if self.launch_ready():
                    if self.boundary is not None:
                        self.boundary()
                    yield from self.launch_step()  # asks only a ship with a ready rack
                if self.impulse == 8:
                    self.phase, self.impulse = "end", 0
                else:
                    self.phase, self.impulse = "impulse", self.impulse + 1
            if self.boundary is not None:
                self.boundary()
            yield from self.end_of_turn()
            if self.turn >= self.max_turns:
                return self.let_go(self.outcome("time"))
            self.turn, self.phase = self.turn + 1, "energy"

    def let_go(self, outcome: Outcome) -> Outcome:
        """The game is over (as SFB's Game.let_go): no question is asked any more, so the kept forms and requests and
        the view callables of the questions (requests.py) are let go. They refer back to this engine; without them a
        finished engine (a search's play-out to the end) has no reference cycle of FC's and is freed at once, not by
        the garbage collector (337 -> 15 cyclic objects per simulation at question 120)."""
        self.forms, self.view_fns = {}, {}
        return outcome

    def ended(self) -> Outcome:
        gone = False
        for s in self.ships.values():  # (a loop: compiled, any() of a generator builds the generator object)
            if s.disengaged:
                gone = True
        return self.outcome("disengaged" if gone else "destroyed")

    def begin(self) -> None:
        """The set-up events; the position at the start of turn 1."""
        first, last = self.order
        a, b = self.ships[first], self.ships[last]
        self.emit("setup", game="fc", **self.setup, ships={first: a.spec.name, last: b.spec.name},
                  positions={s.side: [s.pos.q, s.pos.r, s.facing] for s in (a, b)})
        provisional = [t.name for t in self.tables.provisional()]
        if provisional:
            self.emit("provisional", tables=provisional)
        self.start_internal = {s.side: s.internal_boxes() for s in (a, b)}
        self.turn, self.impulse, self.phase = 1, 0, "energy"

    # ------------------------------------------------------------------------------- clone and fork
    def snapshot(self) -> tuple[Any, ...]:
        """The mutable state at a boundary as values nobody changes afterwards (fc/snapshot.py)."""
        return snapshots.take(self)

    def blank(self) -> Game:
        """An empty engine for snapshot.build to set every field of (a native call of the class: build's
        ``type(game)(..., like=game)`` was a generic call, its keyword parsed, every fork)."""
        return Game({}, self.dice, None, None, ("player", "robot"), None, 20, None, None, None, self)

    def restore(self, snapshot: tuple[Any, ...], log: EventLog) -> Game:
        """A new engine in ``snapshot``'s state, logging to ``log``; its ``sequence()`` resumes at that boundary.
        It shares no mutable object with ``snapshot`` or with this engine (fc/snapshot.py)."""
        new: Game = snapshots.build(self, snapshot, log)
        return new

    def unroute(self, side: str) -> None:
        """``side`` is now flown by someone else than the in-process controller this engine inherited from the
        engine it was restored from: forget that controller's standing answer and that its requests may be kept
        and reissued, so every question (its accelerate too) is asked, each time made new. A side whose
        controller was asked of this very engine (``controller()``: the match routing it to "robot" or "policy",
        or a caller wrapping the engine's own robot or policy) keeps what that controller told it: core's Match
        calls this for every side whenever play() routes them (the same rule as sfb's)."""
        if side in self.routed:
            return
        self.in_process.discard(side)
        self.standing.pop(side, None)
        self.standing_accel.pop(side, None)

    # No ``redraw(side, rng)``: FC at squadron scale against the Robot Rules hides nothing from either side beyond
    # the dice to come (docs/fc.md#clone); the fork's fresh dice are the match's (Dice.reseed). Without the method
    # a fork seeds no random generator for it (core/copies.py: seeding one costs about 5 us).

    def outcome(self, how: str) -> Outcome:
        first, last = self.order
        a, b = self.ships[first], self.ships[last]
        # each side's share of its boxes lost and whether it is gone, as locals (every play-out ends here)
        share_first = a.internals / max(1, self.start_internal[first])
        share_last = b.internals / max(1, self.start_internal[last])
        winner: str | None
        gone_first = a.destroyed or a.disengaged
        if gone_first != (b.destroyed or b.disengaged):
            winner = last if gone_first else first
        elif a.destroyed and b.destroyed:
            winner = None  # destroyed together by simultaneous fire
        elif share_first == share_last:
            winner = None
        else:  # the side that did the larger share of damage to the other wins on points
            winner = first if share_last > share_first else last
            how = "points" if how == "time" else how
        if self.rec:  # emit() checks it too; here the event's data is not even built (a silent game: every play-out)
            self.emit("result", winner=winner, result=how, internals={first: a.internals, last: b.internals})
        return Outcome(winner, how, self.turn, {f"{first}_internals": float(a.internals),
                                                f"{last}_internals": float(b.internals)})

    # ------------------------------------------------------------------------------- energy allocation
    def energy_allocation(self) -> Steps:
        for side in self.order:  # the human allocates before the robot rolls (FC.GEN.ORDER)
            ship = self.ships[side]
            ship.energy = float(ship.power())
            ship.stopped = False
            decision = yield opt.allocate_request(self, ship)
            self.apply_allocation(ship, decision.action)

    def apply_allocation(self, ship: Ship, action: dict[str, Any]) -> None:
        """Apply an allocation that ``options.allocation_check`` accepted (FC.1)."""
        speed = int(action.get("speed", 0))
        regen = [int(n) for n in action.get("regen", ())]
        held = [d for d in self.drones if d.alive and d.held_by == ship.side]
        hold = set(action.get("hold", ()))
        photons = list(action.get("photons", ()))
        ship.spend(self.allocation_cost(ship, action))
        ship.baseline = speed
        for n in regen:
            ship.shields[n - 1] += 1
        for d in held:
            if d.id not in hold:  # not paid: released, it hits in the Defensive Fire of impulse 1 (5D4c)
                d.held_by, d.released, d.impacting = "", True, True
        for w in ship.live_weapons("photon"):
            if w.id in photons:
                w.arm = min(2, w.arm + 1) if w.arm < 2 else 2
            else:
                w.arm = 0
        if self.rec:  # emit() checks it too; here the event's data is not even built (a silent game)
            self.emit("allocated", ship.side, speed=speed, regen=regen, hold=sorted(hold), photons=photons,
                      energy=round(ship.energy, 1), battery=round(ship.battery, 1))

    # ------------------------------------------------------------------------------- impulse
    def run_impulse(self) -> Steps:
        """One whole impulse (tests): movement, then fire."""
        yield from self.impulse_movement()
        if not self.over:
            yield from self.impulse_fire()

    def impulse_movement(self) -> Steps:
        """Acceleration, the four sub-pulses of movement, defensive fire."""
        standing = self.standing_accel
        for side in self.order:
            ship = self.ships[side]
            ship.accel = False
            ship.het_used = False
            if side in standing:
                action = standing[side]  # always legal ("none"); nothing to ask
            else:
                action = (yield opt.accelerate_request(self, ship)).action
            if action == "accel":
                ship.spend(self.rules.accel_cost)
                ship.accel = True
                if self.rec:
                    self.emit("accelerated", side, speed=ship.speed_now())
            elif action == "emergency":
                ship.stopped = True
                if self.rec:
                    self.emit("emergency", side)
        first, last = self.ships[self.order[0]], self.ships[self.order[1]]  # the robot moves last (FC.GEN.ORDER)
        first_pulses, last_pulses = self.subpulses(first), self.subpulses(last)  # fixed for the impulse
        for sp in range(1, 5):  # the two ships written out (no zip and pair per sub-pulse: a generator's hot loop)
            self.subpulse = sp
            if sp in first_pulses:
                decision = yield opt.move_request(self, first, self.legal_moves(first))
                self.move_ship(first, decision.action)
                if self.over:
                    return
            if sp in last_pulses:
                decision = yield opt.move_request(self, last, self.legal_moves(last))
                self.move_ship(last, decision.action)
                if self.over:
                    return
            if sp in DRONE_SUBPULSES and self.drones:
                self.move_drones()
        self.subpulse = 0
        if self.drones:  # no drone in play: nothing has impacted (checked on every impulse)
            yield from self.defensive_fire()

    def impulse_fire(self) -> Steps:
        """Offensive fire, then launch."""
        yield from self.offensive_fire()
        if not self.over and self.launch_ready():
            yield from self.launch_step()

    def launch_ready(self) -> bool:
        """Some rack is ready to launch (only then is there a launch step to ask)."""
        return any(r.alive and r.ammo > 0 and not r.launched for s in self.ships.values() for r in s.racks)

    # ------------------------------------------------------------------------------- movement

    def move_ship(self, ship: Ship, move: str) -> None:
        """Carry out a move that the move request's check found in ``legal_moves`` (FC.3A)."""
        ship.prev_pos = ship.pos
        if move.startswith("het-"):
            ship.spend(ship.spec.het_cost)
            ship.facing = facing_index(move[4])
            ship.since_turn, ship.slip_ok, ship.het_used = 0, False, True
            if self.rec:
                self.emit("het", ship.side, facing="ABCDEF"[ship.facing])
            move = "straight"  # the move after an HET is straight ahead
        if move in ("pivot-left", "pivot-right"):  # turn, then decelerate to stay in the hex
            ship.spend(self.rules.decel_cost)
            ship.facing = (ship.facing + (-1 if move == "pivot-left" else 1)) % 6
            ship.since_turn, ship.slip_ok = 1, True
            if self.rec:
                self.emit("moved", ship.side, move=move, to=_hexlist(ship.pos), facing="ABCDEF"[ship.facing])
            return
        if move == "decel":  # cancel this move: it counts for turn mode, not sideslip mode
            ship.spend(self.rules.decel_cost)
            ship.since_turn += 1
            if self.rec:
                self.emit("decelerated", ship.side, at=_hexlist(ship.pos))
            return
        if move == "straight":
            ship.pos = neighbour(ship.pos, ship.facing)
            ship.since_turn += 1
            ship.slip_ok = True
        elif move in ("turn-left", "turn-right"):
            ship.facing = (ship.facing + (-1 if move == "turn-left" else 1)) % 6
            ship.pos = neighbour(ship.pos, ship.facing)
            ship.since_turn, ship.slip_ok = 1, True
        else:  # sideslip: diagonally forward, facing kept
            ship.pos = neighbour(ship.pos, ship.facing + (-1 if move == "slip-left" else 1))
            ship.since_turn += 1
            ship.slip_ok = False
        if self.rec:
            self.emit("moved", ship.side, move=move, to=_hexlist(ship.pos), facing="ABCDEF"[ship.facing])
        if self.board is not None and not self.board.contains(ship.pos):
            # leaving a fixed map is disengagement: the ship is out of the battle (docs/fc.md#engine)
            ship.disengaged = True
            self.over = True
            self.emit("disengaged", ship.side)
            return
        if not self.drones:
            return
        # a ship entering the hex of a drone seeking it is struck at once; the drones it holds move with it
        # (one pass: a held drone is never one that strikes)
        side, pos = ship.side, ship.pos
        for d in self.drones:
            if not d.alive:
                continue
            if d.held_by == side:
                d.pos = pos
            elif d.target == side and d.pos == pos and not d.held_by and not d.impacting:
                d.impacting = True
                d.approach = facing_toward(pos, neighbour(pos, ship.facing))[0]

    def move_drones(self) -> None:
        """Seeking weapons: straight if that closes best, else one hexside toward the target (FC.GEN.DRONES)."""
        for d in self.drones:
            if not d.alive or d.held_by or d.impacting:
                continue
            target = self.drone_target_pos(d)
            if target is None:
                d.alive = False
                continue
            d.facing = seek_facing(d.pos, d.facing, target)
            prev = d.pos
            d.pos = neighbour(d.pos, d.facing)
            if d.pos == target:
                if d.target in self.ships:
                    d.impacting = True
                    d.approach = facing_toward(target, prev)[0]
                else:  # a counter-drone meets its drone: both are destroyed (TOTM-0812)
                    for other in self.drones:
                        if other.id == d.target:
                            other.alive = False
                    d.alive = False
                    self.emit("drone_destroyed", d.owner, drone=d.target, by=d.id)

    # ------------------------------------------------------------------------------- lookups


def seek_facing(pos: Hex, facing: int, target: Hex) -> int:
    """A seeking weapon's facing for its next move: straight if that is among the best, else one hexside."""
    tq, tr = target[0] - pos[0], target[1] - pos[1]
    best, chosen = 1 << 30, facing
    for turn in (0, -1, 1):  # straight first: a drone only turns when it has to (FC.GEN.DRONES)
        f = (facing + turn) % 6
        step = DIRECTIONS[f]
        dq, dr = tq - step[0], tr - step[1]  # the range from the hex ahead that way (hexgrid.distance, inline:
        s = dq + dr                           # three drone moves an impulse each ask it three times)
        d = ((dq if dq > 0 else -dq) + (dr if dr > 0 else -dr) + (s if s > 0 else -s)) >> 1
        if d < best:
            best, chosen = d, f
    return chosen


def _hexlist(h: Hex) -> list[int]:
    return [h.q, h.r]


def _jsonable(action: Any) -> Any:
    if isinstance(action, tuple):
        return [_jsonable(a) for a in action]
    if isinstance(action, list):
        return [_jsonable(a) for a in action]
    if isinstance(action, dict):
        return {k: _jsonable(v) for k, v in action.items()}
    return action
