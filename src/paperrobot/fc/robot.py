"""The Robot Rules for Federation Commander (seed 001), steps 1A-7C, as a controller.

Each request kind maps to the seed's steps; every decision carries Reason(rule ID, dice, sentence).
Choices where the seed is silent are documented in docs/fc.md (section names in the comments).
"""
from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from ..core.contract import Request
from ..core.controller import Decision, Reason
from ..core.dice import Dice
from ..core.hexgrid import BASIC_ARCS, Hex
from .arcs import arc_parts
from .procedure import numbers
from .reasons import HOLD_5D, NO_POWER, NUMBER_WORDS, R, why
from .robot_base import Nums
from .robot_movement import MovementSteps
from .answers import AS_SHOTS, PLAIN, encode
from . import geometry as geo
from .lookups import Lookups
from .state import Drone, Ship, Weapon


def _purposes(n: Any) -> tuple[str, ...]:
    """The fire and launch dice's purposes, as published: "fire at range 0-4" (they are in the log)."""
    close, mid, far = n.fire_range_close, n.fire_range_mid, n.fire_range_far
    racks = NUMBER_WORDS.get(n.launch_reroll_racks, n.launch_reroll_racks)
    return (f"fire at range 0-{close}", f"fire at range {close + 1}-{mid}", f"fire at range {mid + 1}-{far}",
            f"launch: enemy within {n.launch_closing_range}, closing",
            f"launch: more than {racks} racks, roll again",
            f"launch: enemy within {n.launch_away_range}, moving away",
            f"launch: enemy {n.launch_closing_range + 1}-{n.launch_far_range}, closing")


def _hold_5d(n: Any) -> Reason:
    return HOLD_5D if not n.n_fire_mid_hold_speeds else R(
        "FC.5D", HOLD_5D.text.replace("8/16", "/".join(map(str, n.fire_mid_hold_speeds))) + n.n_fire_mid_hold_speeds)


def _native(n: Any) -> Nums:
    """The numbers ``n`` (procedure.Numbers) copied into a native Nums, slot by slot (robot_base.Nums says why)."""
    nums = Nums()
    for name in type(n).__slots__:
        setattr(nums, name, getattr(n, name))
    return nums


# id of a procedure's numbers -> (the numbers, the purposes, the 5D hold reason, the numbers as a native Nums); the
# numbers are held here, so their id is not reused while the entry lives
_MADE: Final[dict[int, tuple[Any, tuple[str, ...], Reason, Nums]]] = {}


def _made(n: Any) -> tuple[Any, tuple[str, ...], Reason, Nums]:
    made = _MADE.get(id(n))
    if made is None or made[0] is not n:  # a robot per fork (a search's simulation): made once per procedure
        made = _MADE[id(n)] = (n, _purposes(n), _hold_5d(n), _native(n))
    return made


class Robot(MovementSteps):
    """The paper robot: steps 1 and 7 and the damage choices here, steps 2-3 in MovementSteps (robot_movement.py),
    4-6 in FireSteps (robot_fire.py), one chain of classes (robot_base.py). ``dice`` is the game's dice (one source of chance); ``rules`` its procedure's numbers
    (core.robot_rules.RobotRules of fc/data/robot_rules.toml or a variant; None: the published one)."""

    def __init__(self, dice: Dice, rules: Any = None) -> None:
        self.dice = dice
        made = _made(numbers(rules))  # the procedure's values (fc/procedure.py), made once per procedure
        self.n = made[3]  # the same values, read natively (robot_base.Nums)
        self.purposes, self.hold_5d = made[1], made[2]
        self.steps = {}  # request kind -> the class's do_<kind> function (not a bound method: a robot per fork,
        # and bound methods kept on it would make each a reference cycle for the garbage collector)

    def decide(self, request: Request) -> Decision:
        """The robot's answer in contract terms (an option key or a form's values), with its reasons."""
        kind = request.kind
        game: Lookups = request.state
        ship: Ship = request.subject
        enemy = game.enemies[request.side]
        # The questions of every impulse are called by name (compiled: a native call; a step from the table is a
        # bound method called through the interpreter's protocol); the rest through the table.
        if kind == "move":
            return self.do_move(game, ship, enemy, request.data)
        if kind == "fire":
            decision = self.do_fire(game, ship, enemy, request.data)
            if request.data == AS_SHOTS:  # flown in process: the shots themselves (answers.AS_SHOTS)
                return decision
        elif kind == "accelerate":
            return self.do_accelerate(game, ship, enemy, request.data)
        else:
            step = self.steps.get(kind)
            if step is None:
                step = self.steps[kind] = getattr(type(self), "do_" + kind)
            decision = step(self, game, ship, enemy, request.data)  # act(), one call fewer
            if kind in PLAIN:  # the engine's action is already an option key
                return decision
        decision.action = encode(kind, decision.action)  # the step's own new Decision: nobody else holds it yet
        return decision

    def act(self, request: Request) -> Decision:
        """The robot's decision as an engine action (lists and dicts), with its reasons."""
        step = self.steps.get(request.kind)
        if step is None:
            step = self.steps[request.kind] = getattr(type(self), "do_" + request.kind)
        game = request.state
        return step(self, game, request.subject, game.enemy(request.side), request.data)

    # ---------------------------------------------------------------- 1. start of turn
    def do_allocate(self, game: Lookups, ship: Ship, enemy: Ship, _options: Any) -> Decision:
        reasons: list[Reason] = []
        budget = ship.available()
        mark = self.dice.mark()
        total = self.roll2("baseline speed", ship.side)
        speed = self.n.baseline_speed[total]
        chosen = speed
        while chosen > 0 and chosen * ship.spec.move_cost > budget:
            chosen -= 8  # FC.1A: drop to the next lower baseline speed
        if chosen != speed:
            reasons.append(why("FC.1A", "2d6={}: baseline speed {}, dropped to {} for lack of power{}",
                               (total, speed, chosen, self.n.n_baseline_speed), self.dice, mark))
            reasons.append(NO_POWER)
        else:
            reasons.append(why("FC.1A", "2d6={}: baseline speed {}{}", (total, speed, self.n.n_baseline_speed),
                               self.dice, mark))
        budget -= chosen * ship.spec.move_cost
        regen, r = self.regenerate(game, ship, enemy, budget)
        if r:
            reasons.append(r)
        budget -= game.rules.regen_cost * len(regen)
        hold, hold_reasons = self.hold_drones(game, ship, enemy, budget)
        reasons += hold_reasons
        return Decision({"speed": chosen, "regen": regen, "hold": hold, "photons": []}, tuple(reasons))

    def regenerate(self, game: Lookups, ship: Ship, enemy: Ship, budget: float) -> tuple[list[int], Reason | None]:
        """FC.1B: roll only if boxes are disabled and power allows at least one box."""
        damaged = [n for n in range(1, 7) if ship.shields[n - 1] < ship.shield_max[n - 1]]
        cost = game.rules.regen_cost
        if not damaged or budget < cost:
            return [], None
        mark = self.dice.mark()
        roll = self.d6("shield regeneration", ship.side)
        n_ = self.n
        boxes = min(n_.regeneration_boxes, int(budget // cost))  # FC.GEN.POWER: as many as power allows
        level = list(ship.shields)
        regen: list[int] = []
        result = n_.regeneration[roll]
        if result == "weakest":
            for _ in range(boxes):  # weakest first; the next weakest when it is full (seed note)
                room = [n for n in range(1, 7) if level[n - 1] < ship.shield_max[n - 1]]
                if not room:
                    break
                n = min([(level[k - 1], k) for k in room])[1]  # the weakest, the lowest number among equals
                level[n - 1] += 1
                regen.append(n)
            fmt = "d6={}: regenerate {} box(es) on the weakest shield(s) {}{}"
        elif result == "facing":
            facing = geo.shields_toward(ship, enemy.pos)
            # split shield: one on each (and so on, for a variant's other number of boxes)
            targets = list(facing) * boxes if len(facing) == 1 else list(facing) * ((boxes + 1) // 2)
            for n in targets[:boxes]:
                if level[n - 1] < ship.shield_max[n - 1]:
                    level[n - 1] += 1
                    regen.append(n)
            fmt = "d6={}: regenerate {} box(es) on the shield facing the enemy {}{}"
        else:
            fmt = "d6={0}: do not regenerate shield boxes{3}"
        note = n_.n_regeneration + n_.n_regeneration_boxes
        return regen, why("FC.1B", fmt, (roll, len(regen), list(regen), note), self.dice, mark)

    def hold_drones(self, game: Lookups, ship: Ship, enemy: Ship, budget: float) -> tuple[list[str], list[Reason]]:
        """FC.1C: most dangerous held drone first; release or keep paying to hold."""
        warhead = game.rules.drone_warhead
        held = [d for _, _, d in sorted([(ship.shields[game.drone_shield(ship, d) - 1] - warhead, d.id, d)
                                         for d in game.drones if d.alive and d.held_by == ship.side])]  # ids differ
        keep: list[str] = []
        reasons: list[Reason] = []
        phasers = any(w.alive and w.phaser for w in ship.weapons)
        for d in held:
            shield = game.drone_shield(ship, d)
            zero = ship.shields[shield - 1] == 0
            if budget < game.rules.tractor_hold_cost:
                reasons.append(why("FC.1C", "no power to hold drone {}: release it", (d.id,)))
                continue
            mark = self.dice.mark()
            roll = self.d6(f"held drone {d.id}", ship.side)
            result = self.n.held_drone[roll]
            if result == "release":
                hold = zero or not phasers
                cause = "facing a zero-strength shield" if zero else "no phaser can target it" if not phasers else ""
            elif result == "release-unless-enemy-near":
                near = geo.rng(ship, enemy) <= self.n.held_drone_near and geo.enemy_facing_shield(ship, enemy, shield)
                hold = zero or near or not phasers
                cause = ("facing a zero-strength shield" if zero else
                       f"the enemy is within {self.n.held_drone_near} hexes on the same shield"
                       if near else "no phaser can target it" if not phasers else "")
            else:
                hold, cause = True, ""
            reasons.append(why("FC.1C", "d6={}: {} drone {} ({}){}" if cause else "d6={0}: {1} drone {2}{4}",
                               (roll, "hold" if hold else "release", d.id, cause,
                                self.n.n_held_drone + self.n.n_held_drone_near), self.dice, mark))
            if hold:
                keep.append(d.id)
                budget -= game.rules.tractor_hold_cost
        return keep, reasons

    # ---------------------------------------------------------------- 7. end of turn
    def do_batteries(self, game: Lookups, ship: Ship, enemy: Ship, _options: Any) -> Decision:
        store = max(0.0, min(ship.battery_cap() - ship.battery, ship.energy))
        return Decision(store, (why("FC.7A", "put {:g} into the batteries (as much as possible)", (store,)),))

    def do_repair(self, game: Lookups, ship: Ship, enemy: Ship, options: Any) -> Decision:
        order = repair_order(game, ship, enemy, self.n)
        n = self.n
        return Decision(order, (R("FC.7B", "repair in the robot's priority order: " + ", ".join(order[:6])
                                  + (" ..." if len(order) > 6 else "") + n.n_repair_steps + n.n_repair_phaser_preference
                                  + n.n_repair_weapons + n.n_repair_power + n.n_repair_rotation),))

    def do_transfer(self, game: Lookups, ship: Ship, enemy: Ship, _options: Any) -> Decision:
        pairs, reasons = self.transfer_pairs(ship)
        moves: list[list[int]] = []
        for weak, strong in pairs:
            mark = self.dice.mark()
            roll = self.d6(f"shield transfer #{strong} to #{weak}", ship.side)
            n_ = self.n
            n = min(n_.transfer_boxes, ship.shield_max[weak - 1] - ship.shields[weak - 1])
            if roll <= n_.transfer and n > 0:
                moves.append([strong, weak, n])
            reasons.append(R("FC.7C", f"d6={roll}: " + (f"move {n} boxes from shield #{strong} to #{weak}"
                                                        if roll <= n_.transfer else "no transfer")
                             + n_.n_transfer + n_.n_transfer_boxes + n_.n_transfer_weak + n_.n_transfer_strong,
                             self.dice.since(mark)))
        return Decision(moves, tuple(reasons))

    def transfer_pairs(self, ship: Ship) -> tuple[list[tuple[int, int]], list[Reason]]:
        s = ship.shields
        low, high = self.n.transfer_weak, self.n.transfer_strong
        weak = [n for n in range(1, 7) if s[n - 1] <= low and s[n - 1] < ship.shield_max[n - 1]]
        strong = [n for n in range(1, 7) if s[n - 1] >= high]
        edges = [(w, t) for w in weak for t in strong if (w - t) % 6 in (1, 5)]
        if not edges:
            return [], []
        best: list[tuple[tuple[int, int], ...]] = []
        for k in range(min(len(weak), len(strong)), 0, -1):
            for combo in combinations(edges, k):
                used = [x for e in combo for x in e]
                if len(used) == len(set(used)):
                    best.append(combo)
            if best:
                break
        if len(best) == 1:
            return list(best[0]), []
        mark = self.dice.mark()
        roll = self.d6("shield transfer: which pairing", ship.side)
        best = [c for _, _, c in sorted([(sum([x for e in c for x in e]), i, c) for i, c in enumerate(best)])]  # stable
        lower = roll <= self.n.transfer_pairing
        pick = best[0] if lower else best[-1]
        return list(pick), [R("FC.7C", f"d6={roll}: a shield could pair two ways; use the "
                                       f"{'lower' if lower else 'higher'}-numbered pairing {list(pick)}"
                                       + self.n.n_transfer_pairing, self.dice.since(mark))]

    # ---------------------------------------------------------------- damage choices
    def do_dac_phaser(self, game: Lookups, ship: Ship, enemy: Ship, candidates: list[str]) -> Decision:
        ws = [game._weapon(ship, c) for c in candidates]
        steps: list[str] = []
        fired = [w for w in ws if w.fired]
        if fired and len(fired) < len(ws):
            ws = fired
            steps.append("a fired phaser")
        rank = {"phaser-3": 0, "phaser-2": 1, "phaser-1": 2}
        low = min(rank[w.kind] for w in ws)
        if any(rank[w.kind] != low for w in ws):
            steps.append("the lighter phaser")
        ws = [w for w in ws if rank[w.kind] == low]
        drones = [d.pos for d in game.incoming(ship.side) if geo.approaching_drone(ship, d)]
        idle = [w for w in ws if not w.fired and not _has_target(game, ship, w, enemy, drones)]
        if idle and len(idle) < len(ws):
            ws = idle
            steps.append("one with no target")
        narrow = min(geo.arc_width(w.arc) for w in ws)
        if any(geo.arc_width(w.arc) != narrow for w in ws):
            steps.append("the narrower arc")
        ws = [w for w in ws if geo.arc_width(w.arc) == narrow]
        mark = self.dice.mark()
        if len(ws) > 1:
            roll = self.d6("which phaser is hit", ship.side)
            pick = ws[(roll - 1) % len(ws)]
            steps.append(f"d6={roll} among {len(ws)}")
        else:
            pick = ws[0]
        return Decision(pick.id, (R("FC.DAC.PHASER", f"lose {pick.id}: " + (", ".join(steps) or "the only choice"),
                                    self.dice.since(mark)),))

    def do_dac_tractor(self, game: Lookups, ship: Ship, enemy: Ship, options: dict[str, Any]) -> Decision:
        choice = "free" if options.get("free") else "holding"
        return Decision(choice, (R("FC.DAC.TRACTOR", "lose a tractor not holding a seeking weapon" if choice == "free"
                                   else "every tractor holds a seeking weapon: one of them is lost"),))


def _has_target(game: Lookups, ship: Ship, w: Weapon, enemy: Ship, drones: list[Hex]) -> bool:
    if game.in_arc(ship, w.arc, enemy.pos):
        return True
    for p in drones:
        if game.in_arc(ship, w.arc, p):
            return True
    return False


# a repair step's arguments: the order so far, the game, the ship, the enemy, the procedure's numbers, the most boxes
# of a system and the boxes left of a system (dictionaries, read natively by .get: not bound methods called through
# the interpreter's protocol)


def repair_order(game: Any, ship: Ship, enemy: Ship, n: Any = None) -> list[str]:
    """FC.7B's nine steps as one priority list (the engine spends repair points down it), in the order and with the
    preferences of the procedure ``n`` (fc/procedure.py's numbers; None: the published one)."""
    nums: Nums = n if isinstance(n, Nums) else _made(n or numbers(None))[3]  # read natively (robot_base.Nums)
    order: list[str] = []
    mx = _box_max(ship)  # ship.box_max without a scan per question
    box = ship.boxes
    for step in nums.repair_steps:  # the steps named, called directly (compiled: a native call, not a Python one)
        if step in ALL_OUT:
            _all_out(order, step, mx, box)
        elif step == "phaser-arcs":
            _phaser_arcs(order, game, ship, enemy, nums, mx, box)
        elif step == "weapons-and-power":
            _weapons_and_power(order, game, ship, enemy, nums, mx, box)
        elif step == "rotation":
            _rotation(order, game, ship, enemy, nums, mx, box)
        elif step == "batteries":
            _batteries(order, game, ship, enemy, nums, mx, box)
        elif step == "reloads":
            _reloads(order, game, ship, enemy, nums, mx, box)
        elif step == "probe":
            _probe(order, game, ship, enemy, nums, mx, box)
        else:
            raise KeyError(step)
    order += ["shuttle"] * (mx.get("shuttle", 0) - box.get("shuttle", 0))  # not in steps 1-9: last (docs/fc.md#repairs)
    order += ["battery"] * (mx.get("battery", 0) - box.get("battery", 0))
    return order


_MAX: Final[dict[int, tuple[Any, dict[str, int]]]] = {}  # id(a ship's spec) -> (the spec, its boxes by system)


def _box_max(ship: Ship) -> dict[str, int]:
    """Each system's boxes on the ship's card (its spec's, a dictionary built once per spec)."""
    spec = ship.spec
    found = _MAX.get(id(spec))
    if found is None or found[0] is not spec:
        if len(_MAX) > 64:
            _MAX.clear()
        found = _MAX[id(spec)] = (spec, dict(spec.systems))
    return found[1]


ALL_OUT: Final[tuple[str, ...]] = ("control", "tractor", "transporter")  # steps 1, 2 and 6, named as their system


def _all_out(order: list[str], system: str, mx: dict[str, int], box: dict[str, int]) -> None:
    """Steps 1, 2 and 6: if every box of ``system`` is disabled, repair one."""
    if mx.get(system, 0) and box.get(system, 0) == 0:
        order.append(system)


def _phaser_arcs(order: list[str], game: Any, ship: Ship, enemy: Ship, n: Nums, mx: dict[str, int], box: dict[str, int]) -> None:
    """Step 3: a firing arc no phaser covers: repair the preferred phaser that covers it, the widest arc first."""
    down, covered = False, 0
    for w in ship.weapons:  # first: is any phaser down, and do the working ones still cover every sector?
        if w.phaser:
            if w.alive:
                covered |= _sector_bits(w.arc)
            else:
                down = True
    if not down or covered == _EVERY_SECTOR:
        return  # nothing below would be chosen
    dead = [w for w in ship.weapons if not w.alive and w.phaser]
    live_arcs = {p for w in ship.weapons if w.alive and w.phaser for p in arc_parts(w.arc)}
    rank = {kind: i for i, kind in enumerate(n.repair_phaser_preference)}
    for part in BASIC_ARCS:
        if part in live_arcs:
            continue
        cover = [w for w in dead if part in arc_parts(w.arc) and w.id not in order]
        if cover:
            first = min([(rank[w.kind], -geo.arc_width(w.arc), w.id, i) for i, w in enumerate(cover)])
            w = cover[first[3]]  # the sort's first: ids differ
            order.append(w.id)
            live_arcs |= set(arc_parts(w.arc))


_SECTOR_BITS: Final[dict[str, int]] = {}  # arc name -> its 60-degree sectors as bits, in BASIC_ARCS' order
_EVERY_SECTOR: Final = (1 << len(BASIC_ARCS)) - 1


def _sector_bits(arc: str) -> int:
    bits = _SECTOR_BITS.get(arc)
    if bits is None:
        parts = arc_parts(arc)
        bits = 0
        for i, part in enumerate(BASIC_ARCS):
            if part in parts:
                bits |= 1 << i
        _SECTOR_BITS[arc] = bits
    return bits


def _batteries(order: list[str], game: Any, ship: Ship, enemy: Ship, n: Nums, mx: dict[str, int], box: dict[str, int]) -> None:
    """Step 4: all battery boxes disabled: two; all but one: one."""
    if mx.get("battery", 0) and box.get("battery", 0) == 0:
        order += ["battery", "battery"]
    elif mx.get("battery", 0) > 1 and box.get("battery", 0) == 1:
        order.append("battery")


def _reloads(order: list[str], game: Any, ship: Ship, enemy: Ship, n: Nums, mx: dict[str, int], box: dict[str, int]) -> None:
    """Step 5: every live rack empty: reload one; the ADD empty: reload it, unless the opponent has no drones."""
    racks = [i for i, r in enumerate(ship.racks) if r.alive]
    if racks and all(ship.racks[i].ammo == 0 for i in racks) and ship.reloads > 0:
        order.append(f"reload-{racks[0] + 1}")
    if ship.spec.add_shots and ship.add_shots == 0 and (  # the enemy's drones asked only when it matters
            enemy.drones_left() > 0 or any(d.alive and d.owner == enemy.side for d in game.drones)):
        order.append("reload-add")


def _weapons_and_power(order: list[str], game: Any, ship: Ship, enemy: Ship, n: Nums, mx: dict[str, int], box: dict[str, int]) -> None:
    """Step 7: a weapon, then a power box, alternating, in their orders; then drone racks and their reloads."""
    dead = [w for w in ship.weapons if not w.alive]  # one pass over the card (most weapons work)
    weapons = [w.id for kind in n.repair_weapons for w in dead if w.kind == kind] if dead else []
    power = [k for k in n.repair_power for _ in range(mx.get(k, 0) - box.get(k, 0))]
    for i in range(max(len(weapons), len(power))):
        if i < len(weapons):
            order.append(weapons[i])
        if i < len(power):
            order.append(power[i])
    racks = ship.racks
    if racks:
        for i, r in enumerate(racks):
            if not r.alive:
                order.append(f"rack-{i + 1}")
        for i, r in enumerate(racks):
            if r.ammo == 0:
                order.append(f"reload-{i + 1}")
    if dead:
        order += [w.id for w in dead if w.id not in order]


def _rotation(order: list[str], game: Any, ship: Ship, enemy: Ship, n: Nums, mx: dict[str, int], box: dict[str, int]) -> None:
    """Step 8: the other systems one of each in rotating order ("hull": the forward and rear hull)."""
    rotation = _ROTATIONS.get(n.repair_rotation)
    if rotation is None:  # the procedure's order with "hull" as its two systems, worked out once per procedure
        rotation = _ROTATIONS[n.repair_rotation] = tuple(
            [k for name in n.repair_rotation for k in (("fhull", "rhull") if name == "hull" else (name,))])
    for k in rotation:
        if mx.get(k, 0) != box.get(k, 0):
            break
    else:
        return  # nothing of the rotation is damaged (most turns)
    if len(set(rotation)) < len(rotation):  # a system named twice shares one count: the loop as written
        missing = {k: mx.get(k, 0) - box.get(k, 0) for k in rotation}
        while any(missing.values()):
            for k in rotation:
                if missing[k] > 0:
                    order.append(k)
                    missing[k] -= 1
        return
    # one of each damaged system per round, in rotating order: the same list, without a dictionary and its scans
    counts = [mx.get(k, 0) - box.get(k, 0) for k in rotation]
    for done in range(max(counts)):
        for i in range(len(rotation)):
            if counts[i] > done:
                order.append(rotation[i])


_ROTATIONS: Final[dict[Any, tuple[str, ...]]] = {}  # a procedure's repair_rotation -> the systems in rotating order


def _probe(order: list[str], game: Any, ship: Ship, enemy: Ship, n: Nums, mx: dict[str, int], box: dict[str, int]) -> None:
    """Step 9: the probe launcher (FC has no armor on these ships)."""
    order += ["probe"] * (mx.get("probe", 0) - box.get("probe", 0))
