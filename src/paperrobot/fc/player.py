"""A heuristic FC captain for the human side in simulations: close at 16, fire heavy weapons at 4 hexes or
less (overloaded) or on impulse 8, shoot drones within two hexes, turn away once the heavy weapons are
spent, reinforce the shield that is hit, repair sensibly. Deterministic (no dice)."""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Final

from ..core.contract import Request
from ..core.controller import Decision, Reason
from ..core.hexgrid import distance, from_offset, in_arc, neighbour
from . import geometry as geo
from .arcs import wedges
from .answers import AS_SHOTS, PLAIN, encode
from .robot import Robot, repair_order
from .lookups import Lookups
from .state import Drone, Ship

WHY = (Reason("POLICY", "heuristic player policy"),)


# Typed for mypyc (compiled: docs/speed.md). ``game`` is the engine (its lookups part: fc/lookups.py). No closure or
# key lambda is left in a method (slow compiled): the runway test is a method and the choices are loops that keep
# max()'s and min()'s first-of-the-best order.


def _heavy_ready(ship: Ship) -> bool:
    """A heavy weapon (not a phaser) that can fire: unfired, and a photon armed."""
    for w in ship.weapons:
        if w.alive and not w.phaser and not w.fired and (w.kind != "photon" or w.arm == 2):
            return True
    return False
_KEYS: Final[dict[str, Decision]] = {}  # the policy's Decisions for option-key answers (moves, accelerate, ...)


class Policy:
    # Answers the policy gives whatever the state (see accelerate): the engine applies them to a side the
    # policy flies without building a request (Game.standing): a tenth of a simulated battle's questions.
    standing: ClassVar[dict[str, str]] = {"accelerate": "none"}
    phaser_range: ClassVar[int] = 5  # fire phasers at the ship from this range in (always on impulse 8)
    photon_range: ClassVar[int] = 4  # heavy weapons: close in (always on impulse 8 within 12); tuned on 200 seeds each
    disruptor_range: ClassVar[int] = 2

    def __init__(self) -> None:
        # request kind -> the class's function answering it (not a bound method: that would make a policy, one per
        # fork, a reference cycle for the garbage collector)
        self.steps: dict[str, Callable[..., Any]] = {}
        self.drone_robot: Robot | None = None  # the robot whose phaser_for_drone picks phasers for drones (built once)

    def decide(self, request: Request) -> Decision:
        """The policy's answer in contract terms (an option key or a form's values)."""
        game: Lookups = request.state
        kind = request.kind
        # move and fire (every impulse) called by name: compiled, a native call (Robot.decide says why)
        if kind == "move":
            action: Any = self.move(game, request.subject, game.enemies[request.side], request.data)
        elif kind == "fire":
            action = self.fire(game, request.subject, game.enemies[request.side], request.data)
            if request.data == AS_SHOTS:  # the kept request of a side flown in process: the shots themselves, as
                return Decision(action, ())  # the robot's (answers.AS_SHOTS): not written out as the form's values
        else:
            step = self.steps.get(kind)
            if step is None:
                step = self.steps[kind] = getattr(type(self), kind)
            action = step(self, game, request.subject, game.enemies[request.side], request.data)
        if kind in PLAIN:  # an option key: one shared Decision per key (answers are never changed)
            found = _KEYS.get(action)
            if found is None:
                found = _KEYS[action] = Decision(action)
            return found
        return Decision(encode(kind, action), ())

    def act(self, request: Request) -> Decision:
        """The policy's decision as an engine action."""
        game = request.state
        return Decision(getattr(self, request.kind)(game, request.subject, game.enemy(request.side), request.data),
                        WHY)

    def allocate(self, game: Lookups, ship: Ship, enemy: Ship, _o: Any) -> dict[str, Any]:
        budget = ship.available()
        photons = [w for w in ship.live_weapons("photon")]
        photon_cost = sum(game.rules.photon_hold_cost if w.arm == 2 else game.rules.photon_load_cost for w in photons)
        reserve = 10 + photon_cost
        far = geo.rng(ship, enemy) > 16
        speed = 24 if far and budget - 24 * ship.spec.move_cost >= reserve else 16
        while speed and speed * ship.spec.move_cost > budget:
            speed -= 8
        budget -= speed * ship.spec.move_cost
        chosen: list[str] = []
        for w in photons:
            cost = game.rules.photon_hold_cost if w.arm == 2 else game.rules.photon_load_cost
            if cost <= budget - 6:
                chosen.append(w.id)
                budget -= cost
        regen: list[int] = []
        level = list(ship.shields)
        for _ in range(2):
            room = [n for n in range(1, 7) if level[n - 1] < ship.shield_max[n - 1]]
            if not room or budget < game.rules.regen_cost + 6:
                break
            n = room[0]  # the weakest shield with room, the lowest number on a tie
            for k in room:
                if level[k - 1] < level[n - 1]:
                    n = k
            level[n - 1] += 1
            regen.append(n)
            budget -= game.rules.regen_cost
        hold: list[str] = []
        for d in game.drones:
            if d.alive and d.held_by == ship.side and budget >= game.rules.tractor_hold_cost:
                hold.append(d.id)
                budget -= game.rules.tractor_hold_cost
        return {"speed": speed, "regen": regen, "hold": hold, "photons": chosen}

    def accelerate(self, game: Lookups, ship: Ship, enemy: Ship, _o: Any) -> str:
        return "none"

    def move(self, game: Lookups, ship: Ship, enemy: Ship, options: Any) -> str:
        move = self.steer(game, ship, enemy, options)
        board = game.board
        if board is None:
            return move
        # a fixed map: never fly off it (that would disengage): keep at least four hexes of runway ahead
        if _runway(board, ship, "straight") < 6 and "turn-left" in options:
            # head back toward the middle while there is room to turn (toward the centre, else the roomier way)
            turns = [t for t in ("turn-left", "turn-right") if _runway(board, ship, t) >= 1]
            toward = geo.turn_toward(ship, from_offset(board.cols // 2, board.rows // 2))
            if turns:
                return toward if toward in turns else _roomiest(board, ship, turns)
        if _runway(board, ship, move) >= 4:
            return move
        cheap: list[str] = [m for m in options if not m.startswith("het") and m != "decel"]  # pivots included
        if not cheap:
            raise ValueError("max() arg is an empty sequence")  # as max() would
        best, best_key = cheap[0], (_runway(board, ship, cheap[0]), cheap[0] == move)
        for m in cheap[1:]:
            key = (_runway(board, ship, m), m == move)
            if key > best_key:  # the first of the best, as max()
                best, best_key = m, key
        if best_key[0] >= 1 or "decel" not in options:
            hets: list[str] = [m for m in options if m.startswith("het")]
            if best_key[0] <= 1 and hets:
                return _roomiest(board, ship, hets)
            return best
        return "decel"

    def steer(self, game: Lookups, ship: Ship, enemy: Ship, options: Any) -> str:
        if distance(ship.pos, enemy.pos) <= 6 and not _heavy_ready(ship):
            # heavy weapons spent: turn away to show fresh shields until they are ready again
            toward = geo.turn_toward(ship, enemy.pos)
            away = "turn-left" if toward == "turn-right" else "turn-right"
            return away if away in options and in_arc(ship.pos, ship.facing, "FA", enemy.pos) else "straight"
        if not in_arc(ship.pos, ship.facing, "FA", enemy.pos):
            turn = geo.turn_toward(ship, enemy.pos)
            if turn in options:
                return turn
        return "straight"

    def defend(self, game: Lookups, ship: Ship, enemy: Ship, drone_ids: Any) -> list[list[Any]]:
        plan: list[list[Any]] = []
        for did in drone_ids:
            d = game._drone(did)
            shield = game.drone_shield(ship, d)
            if game.rules.drone_warhead > ship.shields[shield - 1]:
                plan.append([did, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]])
            else:
                plan.append([did, ["add", "phaser-3"]])
        return plan

    def reinforce(self, game: Lookups, ship: Ship, enemy: Ship, options: Any) -> Any:
        if options["penetrates"] or options["kind"] == "direct":
            return min(options["cap"], options["damage"])
        return 0

    def fire(self, game: Lookups, ship: Ship, enemy: Ship, _o: Any) -> list[list[Any]]:
        shots: list[list[Any]] = []
        budget = [ship.available()]
        used: set[str] = set()
        if game.drones:
            self.fire_at_drones(game, ship, shots, budget, used)
        rng = distance(ship.pos, enemy.pos)
        last = game.impulse == 8
        plan: list[str] = []
        if rng <= self.photon_range or (last and rng <= 12):
            plan.append("photon")
        if rng <= self.disruptor_range or (last and rng <= 12):
            plan.append("disruptor")
        if rng <= self.phaser_range or last:
            plan += ["phaser-1", "phaser-2"]
        if rng <= 2 or last:
            plan += ["phaser-3"]  # phaser-3s stay for drones until the enemy is close
        arms = game.arms[ship.side]
        pos, facing, target = ship.pos, ship.facing % 6, enemy.pos
        holds = wedges(target[0] - pos[0], target[1] - pos[1])  # the enemy's wedges: the arcs that hold it
        for kind in plan:
            heavy = kind in ("photon", "disruptor")
            for w in arms.get(kind, ()):
                if not w.alive or w.fired or w.id in used:
                    continue
                masks = w.masks
                if not (masks[facing] & holds if masks is not None else in_arc(pos, facing, w.arc, target)):
                    continue
                mode = ""
                if heavy:
                    over = game.weapon_cost(w, "overload", rng)
                    if over is not None and over <= budget[0] - 2:
                        mode = "overload"
                cost = game.weapon_cost(w, mode, rng)
                if cost is None or cost > budget[0]:
                    continue
                budget[0] -= cost
                used.add(w.id)
                shots.append([w.id, "ship", mode, False])
        return shots

    def fire_at_drones(self, game: Lookups, ship: Ship, shots: list[list[Any]], budget: list[float],
                       used: set[str]) -> None:
        """Drones first: every drone within two hexes gets phasers until it is likely dead (4 points)."""
        robot = self.drone_robot  # its phaser_for_drone (no die is rolled there, nothing of its own is read)
        if robot is None:
            robot = self.drone_robot = Robot(game.dice)
        keyed: list[tuple[int, str, int, Drone]] = []  # nearest first, then by id (as a stable sort by that key)
        for d in game.incoming(ship.side):
            keyed.append((distance(d.pos, ship.pos), d.id, len(keyed), d))
        keyed.sort()
        for _, _, _, d in keyed:
            if d.held_by or d.impacting or distance(d.pos, ship.pos) > 2:
                continue
            dealt = d.damage
            for kinds in (["phaser-3"], ["phaser-2", "phaser-1"]):
                while dealt < game.rules.drone_hits:
                    w, c = robot.phaser_for_drone(game, ship, d, kinds, used, budget)
                    if not w:
                        break
                    shots.append([w.id, d.id, "", True])
                    used.add(w.id)
                    budget[0] -= c
                    dealt += 3

    def launch(self, game: Lookups, ship: Ship, enemy: Ship, _o: Any) -> list[str]:
        if geo.rng(ship, enemy) <= 12:
            return ["ship"] * len(ship.ready_racks())
        return []

    def batteries(self, game: Lookups, ship: Ship, enemy: Ship, _o: Any) -> float:
        return max(0.0, min(ship.battery_cap() - ship.battery, ship.energy))

    def repair(self, game: Lookups, ship: Ship, enemy: Ship, _o: Any) -> list[str]:
        return repair_order(game, ship, enemy)

    def transfer(self, game: Lookups, ship: Ship, enemy: Ship, _o: Any) -> list[list[int]]:
        moves: list[list[int]] = []
        level = list(ship.shields)
        for weak in range(1, 7):
            if level[weak - 1] > 4 or level[weak - 1] >= ship.shield_max[weak - 1]:
                continue
            for strong in ((weak % 6) + 1, ((weak - 2) % 6) + 1):
                if level[strong - 1] >= 12:
                    n = min(4, ship.shield_max[weak - 1] - level[weak - 1])
                    moves.append([strong, weak, n])
                    level[strong - 1] -= n
                    level[weak - 1] += n
                    break
        return moves

    def dac_phaser(self, game: Lookups, ship: Ship, enemy: Ship, candidates: Any) -> Any:
        return candidates[-1]

    def dac_tractor(self, game: Lookups, ship: Ship, enemy: Ship, options: Any) -> str:
        return "free" if options.get("free") else "holding"


def _runway(board: Any, ship: Ship, move: str) -> int:
    """Hexes (up to 6) the ship could fly straight on after ``move`` and stay on the fixed map; -1: off it."""
    pos, facing = geo.after_move(ship, move)
    if not board.contains(pos):
        return -1
    n = 0
    while n < 6 and board.contains(neighbour(pos, facing)):
        pos, n = neighbour(pos, facing), n + 1
    return n


def _roomiest(board: Any, ship: Ship, moves: list[str]) -> str:
    """The move with the longest runway, the first of equals (as max() with that key)."""
    best, most = moves[0], _runway(board, ship, moves[0])
    for m in moves[1:]:
        room = _runway(board, ship, m)
        if room > most:
            best, most = m, room
    return best
