"""A heuristic FC captain for the human side in simulations: close at 16, fire heavy weapons at 4 hexes or
less (overloaded) or on impulse 8, shoot drones within two hexes, turn away once the heavy weapons are
spent, reinforce the shield that is hit, repair sensibly. Deterministic (no dice)."""
from __future__ import annotations

from ..core.contract import Request
from ..core.controller import Decision, Reason
from ..core.hexgrid import distance, from_offset, in_arc, neighbour
from . import geometry as geo
from .arcs import wedges
from .requests import PLAIN, encode
from .robot import Robot, repair_order
from .state import Ship

WHY = (Reason("POLICY", "heuristic player policy"),)


def _heavy_ready(ship: Ship) -> bool:
    """A heavy weapon (not a phaser) that can fire: unfired, and a photon armed."""
    for w in ship.weapons:
        if w.alive and not w.phaser and not w.fired and (w.kind != "photon" or w.arm == 2):
            return True
    return False
_KEYS: dict[str, Decision] = {}  # the policy's Decisions for option-key answers (moves, accelerate, ...)


class Policy:
    # Answers the policy gives whatever the state (see accelerate): the engine applies them to a side the
    # policy flies without building a request (Game.standing): a tenth of a simulated battle's questions.
    standing = {"accelerate": "none"}
    phaser_range = 5  # fire phasers at the ship from this range in (always on impulse 8)
    photon_range = 4  # heavy weapons: close in (always on impulse 8 within 12); tuned on 200 seeds each
    disruptor_range = 2

    def __init__(self):
        self.steps: dict = {}  # request kind -> the method answering it

    def decide(self, request: Request) -> Decision:
        """The policy's answer in contract terms (an option key or a form's values)."""
        game = request.state
        kind = request.kind
        step = self.steps.get(kind)
        if step is None:
            step = self.steps[kind] = getattr(self, kind)
        action = step(game, request.subject, game.enemies[request.side], request.data)
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

    def allocate(self, game, ship: Ship, enemy: Ship, _o):
        budget = ship.available()
        photons = [w for w in ship.live_weapons("photon")]
        photon_cost = sum(game.rules.photon_hold_cost if w.arm == 2 else game.rules.photon_load_cost for w in photons)
        reserve = 10 + photon_cost
        far = geo.rng(ship, enemy) > 16
        speed = 24 if far and budget - 24 * ship.spec.move_cost >= reserve else 16
        while speed and speed * ship.spec.move_cost > budget:
            speed -= 8
        budget -= speed * ship.spec.move_cost
        chosen = []
        for w in photons:
            cost = game.rules.photon_hold_cost if w.arm == 2 else game.rules.photon_load_cost
            if cost <= budget - 6:
                chosen.append(w.id)
                budget -= cost
        regen, level = [], list(ship.shields)
        for _ in range(2):
            room = [n for n in range(1, 7) if level[n - 1] < ship.shield_max[n - 1]]
            if not room or budget < game.rules.regen_cost + 6:
                break
            n = min(room, key=lambda k: (level[k - 1], k))
            level[n - 1] += 1
            regen.append(n)
            budget -= game.rules.regen_cost
        hold = []
        for d in game.drones:
            if d.alive and d.held_by == ship.side and budget >= game.rules.tractor_hold_cost:
                hold.append(d.id)
                budget -= game.rules.tractor_hold_cost
        return {"speed": speed, "regen": regen, "hold": hold, "photons": chosen}

    def accelerate(self, game, ship, enemy, _o):
        return "none"

    def move(self, game, ship: Ship, enemy: Ship, options):
        move = self.steer(game, ship, enemy, options)
        board = game.board
        if board is None:
            return move
        # a fixed map: never fly off it (that would disengage): keep at least four hexes of runway ahead

        def runway(m: str) -> int:
            pos, facing = geo.after_move(ship, m)
            if not board.contains(pos):
                return -1
            n = 0
            while n < 6 and board.contains(neighbour(pos, facing)):
                pos, n = neighbour(pos, facing), n + 1
            return n

        if runway("straight") < 6 and "turn-left" in options:
            # head back toward the middle while there is room to turn (toward the centre, else the roomier way)
            turns = [t for t in ("turn-left", "turn-right") if runway(t) >= 1]
            toward = geo.turn_toward(ship, from_offset(board.cols // 2, board.rows // 2))
            if turns:
                return toward if toward in turns else max(turns, key=runway)
        if runway(move) >= 4:
            return move
        cheap = [m for m in options if not m.startswith("het") and m != "decel"]  # pivots included
        best = max(cheap, key=lambda m: (runway(m), m == move))
        if runway(best) >= 1 or "decel" not in options:
            hets = [m for m in options if m.startswith("het")]
            if runway(best) <= 1 and hets:
                return max(hets, key=runway)
            return best
        return "decel"

    def steer(self, game, ship: Ship, enemy: Ship, options):
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

    def defend(self, game, ship, enemy, drone_ids):
        plan = []
        for did in drone_ids:
            d = game._drone(did)
            shield = game.drone_shield(ship, d)
            if game.rules.drone_warhead > ship.shields[shield - 1]:
                plan.append([did, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]])
            else:
                plan.append([did, ["add", "phaser-3"]])
        return plan

    def reinforce(self, game, ship, enemy, options):
        if options["penetrates"] or options["kind"] == "direct":
            return min(options["cap"], options["damage"])
        return 0

    def fire(self, game, ship: Ship, enemy: Ship, _o):
        shots, budget, used = [], [ship.available()], set()
        if game.drones:
            self.fire_at_drones(game, ship, shots, budget, used)
        rng = distance(ship.pos, enemy.pos)
        last = game.impulse == 8
        plan = []
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

    def fire_at_drones(self, game, ship: Ship, shots: list, budget: list, used: set) -> None:
        """Drones first: every drone within two hexes gets phasers until it is likely dead (4 points)."""
        robot = Robot(None)
        for d in sorted(game.incoming(ship.side), key=lambda d: (distance(d.pos, ship.pos), d.id)):
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

    def launch(self, game, ship, enemy, _o):
        if geo.rng(ship, enemy) <= 12:
            return ["ship"] * len(ship.ready_racks())
        return []

    def batteries(self, game, ship, enemy, _o):
        return max(0.0, min(ship.battery_cap() - ship.battery, ship.energy))

    def repair(self, game, ship, enemy, _o):
        return repair_order(game, ship, enemy)

    def transfer(self, game, ship, enemy, _o):
        moves = []
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

    def dac_phaser(self, game, ship, enemy, candidates):
        return candidates[-1]

    def dac_tractor(self, game, ship, enemy, options):
        return "free" if options.get("free") else "holding"
