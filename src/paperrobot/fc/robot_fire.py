"""The FC robot's steps 4-6 (seed 001): defensive fire at drones, reinforcement, offensive fire and drone launches; a
part of the Robot (robot.py), which inherits these steps."""
from __future__ import annotations

from ..core.controller import Decision, Reason
from typing import Any, Final

from ..core.hexgrid import Hex, distance, in_arc
from .arcs import wedges
from . import geometry as geo
from .robot_base import RobotBase
from .reasons import FIRE_5C, HOLD_5E, NO_FIRE_STEP, NUMBER_WORDS, R, RANGE_1_AS_PH3, why
from .lookups import Lookups
from .state import Drone, Ship, Weapon

# a fire plan's entries, "kind" or "kind:limit", as (kind, limits)
_PLAN_STEPS: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    f"{k}{limit}": (k, (limit[1:],) if limit else ()) for k in ("phaser-1", "phaser-2", "phaser-3", "disruptor")
    for limit in ("", ":not-fa", ":waist")}


class FireSteps(RobotBase):
    # ---------------------------------------------------------------- 4. defensive fire
    def do_defend(self, game: Lookups, ship: Ship, enemy: Ship, drone_ids: list[str]) -> Decision:
        drones = [game._drone(i) for i in drone_ids]
        by_shield: dict[int, list[Drone]] = {}
        for d in drones:
            by_shield.setdefault(game.drone_shield(ship, d), []).append(d)
        warhead = game.rules.drone_warhead
        order = [s for _, s in sorted([(-len(group) * warhead, s) for s, group in by_shield.items()])]  # shields differ
        reasons: list[Reason] = []
        top = len(by_shield[order[0]])
        tied = [s for s in order if len(by_shield[s]) == top]
        if len(tied) > 1:
            mark = self.dice.mark()
            roll = self.d6("defensive fire: which shield first", ship.side)
            first = tied[(roll - 1) % len(tied)]
            order.remove(first)
            order.insert(0, first)
            reasons.append(why("FC.4A", "d6={}: shields {} tie on potential damage; start with #{}",
                               (roll, tied, first), self.dice, mark))
        else:
            reasons.append(why("FC.4A", "start with shield #{} ({} potential damage points)", (order[0], top * warhead)))
        plan: list[list[Any]] = []
        for shield in order:
            group = [d for _, d in sorted([(d.id, d) for d in by_shield[shield]])]  # by id (ids differ)
            penetrates = len(group) * warhead > ship.shields[shield - 1]
            for d in group:
                mark = self.dice.mark()
                roll = self.d6(f"defence against drone {d.id}", ship.side)
                if penetrates:
                    steps, rule, note = self.n.defence_penetrating[roll], "FC.4B", self.n.n_defence_penetrating
                else:
                    steps, rule, note = (self.n.defence_not_penetrating[roll], "FC.4C",
                                         self.n.n_defence_not_penetrating)
                word = "penetrate" if penetrates else "not penetrate"
                reasons.append(why(rule, "d6={}: drone {} would {} shield #{}: {}, each only while it survives{}",
                                   (roll, d.id, word, shield, ", ".join(steps), note), self.dice, mark))
                plan.append([d.id, list(steps)])
        return Decision(plan, tuple(reasons))

    def do_reinforce(self, game: Lookups, ship: Ship, enemy: Ship, options: dict[str, Any]) -> Decision:
        cap, damage, shield = options["cap"], options["damage"], options["shield"]
        mark = self.dice.mark()
        if options["kind"] == "drone":
            roll = self.d6("reinforce against a drone", ship.side)
            facing = geo.enemy_facing_shield(ship, enemy, shield)
            if options["penetrates"]:
                rule, result, note = "FC.4D1", self.n.reinforce_penetrating[roll], self.n.n_reinforce_penetrating
            else:
                rule, result, note = ("FC.4D2", self.n.reinforce_not_penetrating[roll],
                                      self.n.n_reinforce_not_penetrating)
            use = result == "reinforce" or (result == "reinforce-if-enemy-faces" and facing)
            amount = min(cap, damage) if use else 0
            return Decision(amount, (why(rule, "d6={}: reinforce shield #{} with {}" + (
                " (enemy faces it)" if facing and use else "") + "{}", (roll, shield, amount, note), self.dice, mark),))
        total = self.roll2("reinforce after being hit", ship.side)
        result = self.n.reinforce_after_hit[total]
        if result == "all":
            amount, text = min(cap, damage), "up to all available energy"
        elif result == "half":
            amount, text = min(cap, damage, int(ship.available() // 2)), "up to half the available energy"
        else:
            amount, text = 0, "no reinforcement"
        return Decision(amount, (why("FC.5F", "2d6={}: {}: reinforce shield #{} with {}{}",
                                     (total, text, shield, amount, self.n.n_reinforce_after_hit), self.dice, mark),))

    # ---------------------------------------------------------------- 5. offensive fire
    def do_fire(self, game: Lookups, ship: Ship, enemy: Ship, _options: Any) -> Decision:
        shots: list[list[Any]] = []
        reasons: list[Reason] = []
        budget = [ship.available()]
        used: set[str] = set()
        if game.drones:  # FC.5A, FC.5A1: only drones seeking the robot within two hexes
            self.fire_at_drones(game, ship, enemy, shots, reasons, budget, used)
        rng = distance(ship.pos, enemy.pos)
        overload = True
        mark = self.dice.mark()
        roll: int | None = None
        n_ = self.n
        plan: list[str]
        note = ""
        if game.impulse == 8:
            plan, rule, fmt = ["phaser-1", "disruptor", "phaser-2", "phaser-3"], "FC.5B", "last impulse: fire everything"
        elif rng <= n_.fire_range_close:
            roll = self.d6(self.purposes[0], ship.side)
            rule, note = "FC.5C", n_.n_fire_close + n_.n_fire_range_close
            plan = list(n_.fire_close[roll])
            fmt = FIRE_5C.get(n_.fire_close[roll]) or "d6={}: " + (", ".join(plan) or "do not fire")
        elif rng <= n_.fire_range_mid:
            rule, note = "FC.5D", n_.n_fire_mid + n_.n_fire_range_mid
            in_fa = in_arc(ship.pos, ship.facing, "FA", enemy.pos)
            speeds = n_.fire_mid_hold_speeds
            hold = (in_fa and geo.faster_but_behind(ship, enemy)) or (
                geo.closing_course(ship, enemy) and ship.baseline in speeds and enemy.baseline in speeds)
            if hold and not geo.down_shield_toward(enemy, ship.pos):  # unless facing a down shield
                return self._done(shots, reasons + [self.hold_5d])
            roll = self.d6(self.purposes[1], ship.side)
            fast = in_fa and geo.faster(ship, enemy)
            result = n_.fire_mid[roll]
            if result == "everything":
                plan = ["phaser-1", "disruptor", "phaser-2"] + (["phaser-3"] if in_fa else [])
                fmt = "d6={}: fire everything" + ("" if in_fa else " but Ph-3s (enemy not in FA)")
            elif result == "phasers":
                plan, fmt = ["phaser-1", "phaser-2"], "d6={}: Ph-1s and Ph-2s, no disruptors"
                if not in_fa:
                    plan = ["phaser-1", "phaser-2:not-fa"]
                if fast:
                    plan = [k + ":waist" for k in ("phaser-1", "phaser-2")]
                    fmt += " (faster with enemy in FA: waist and rear phasers only)"
            elif result == "phaser-1":
                plan, fmt = ([] if fast else ["phaser-1"]), "d6={}: Ph-1s only" + (
                    " (none: faster with enemy in FA)" if fast else "")
            else:
                plan, fmt = [], "d6={}: do not fire"
        elif rng <= n_.fire_range_far:
            rule, note = "FC.5E", n_.n_fire_far + n_.n_fire_range_far
            in_fa = in_arc(ship.pos, ship.facing, "FA", enemy.pos)
            hold = (in_fa and geo.faster_but_behind(ship, enemy)) or geo.closing_course(ship, enemy)
            if hold and not geo.down_shield_toward(enemy, ship.pos):
                return self._done(shots, reasons + [HOLD_5E])
            roll = self.d6(self.purposes[2], ship.side)
            fast = in_fa and geo.faster(ship, enemy)
            p2 = ["phaser-2"] if in_fa else []
            result = n_.fire_far[roll]
            if fast and result != "none":
                plan, fmt = [], "d6={}: no fire (faster with the enemy in FA)"
            elif result == "phasers-and-disruptors":
                plan, fmt = ["phaser-1", "disruptor"] + p2, "d6={}: Ph-1s, disruptors" + (", Ph-2s" if p2 else "")
            elif result == "phasers":
                plan, fmt = ["phaser-1"] + p2, "d6={}: Ph-1s" + (", Ph-2s" if p2 else "") + ", no disruptors"
            else:
                plan, fmt = [], "d6={}: do not fire"
            overload = False
        else:
            return self._done(shots, reasons + [why("FC.5E", "enemy {} hexes away, beyond {}: no fire step applies{}",
                                                    (rng, n_.fire_range_far, n_.n_fire_range_far))])
        reasons.append(why(rule, fmt + "{}", (roll, note), self.dice, mark) if note else
                       why(rule, fmt, (roll,), self.dice, mark))
        if plan:
            reasons += self.fire_plan(game, ship, enemy, plan, overload, shots, budget, used)
        return self._done(shots, reasons)

    def _done(self, shots: list[list[Any]], reasons: list[Reason]) -> Decision:
        return Decision(shots, tuple(reasons) if reasons else NO_FIRE_STEP)

    def fire_plan(self, game: Lookups, ship: Ship, enemy: Ship, plan: list[str], overload: bool, shots: list[list[Any]],
                  budget: list[float], used: set[str]) -> list[Reason]:
        """Fire each named kind in order as far as arcs (FC.GEN.ARC) and power (FC.GEN.POWER) allow."""
        pos, facing, target = ship.pos, ship.facing % 6, enemy.pos
        rng = distance(pos, target)
        cost_of = game.weapon_cost
        reasons: list[Reason] = []
        out_of_arc: list[str] = []
        short: list[str] = []
        downgraded: list[str] = []
        kinds = [_PLAN_STEPS[k] for k in plan]
        # 5C note: at range 1, two Ph-1/2 and only one point of power: fire both as Ph-3s
        if rng == 1 and 1 <= budget[0] < 2 and any(kind in ("phaser-1", "phaser-2") for kind, _ in kinds):
            p12 = [w for w in ship.weapons if w.alive and not w.fired and w.id not in used and w.kind in
                   ("phaser-1", "phaser-2") and in_arc(pos, facing, w.arc, target)]
            if len(p12) >= 2:
                for w in p12[:2]:
                    shots.append([w.id, "ship", "as3", False])
                    used.add(w.id)
                budget[0] -= 2 * game.rules.phaser_cost["phaser-3"]
                reasons.append(RANGE_1_AS_PH3)
        arms = game.arms[ship.side]
        holds = wedges(target[0] - pos[0], target[1] - pos[1])  # the enemy's wedges: the arcs that hold it
        # FC.GEN.POWER: fire as many as power allows, in the card's order; then overload as many of those as power
        # allows (docs/fc.md#power: all disruptors standard before any overloaded; at range 0 only overloads fire)
        for kind, limits in kinds:
            heavy = kind == "disruptor" and overload
            firing: list[tuple[Weapon, float, bool]] = []  # heavy: (weapon, cost, only an overload can fire), paid standard so far
            standard: dict[int, float | None] = {}  # this kind's standard cost at this range, by photon arming
            for w in arms.get(kind, ()):
                if not w.alive or w.fired or w.id in used:
                    continue
                if limits:
                    if "not-fa" in limits and geo.is_fa_weapon(w.arc):
                        continue
                    if "waist" in limits and not geo.is_waist_or_rear(w.arc):
                        continue
                masks = w.masks
                if not (masks[facing] & holds if masks is not None else in_arc(pos, facing, w.arc, target)):
                    out_of_arc.append(w.id)
                    continue
                arm = w.arm
                if arm in standard:
                    found = standard[arm]
                else:
                    found = standard[arm] = cost_of(w, "", rng)
                only = found is None  # range 0: the overload is the only shot
                if found is None:
                    found = cost_of(w, "overload", rng) if heavy else None
                    if found is None:
                        continue  # out of range (an overload can fire at range 0, where a standard shot cannot)
                cost = found
                if cost > budget[0] + 1e-9:
                    short.append(w.id)
                    continue
                budget[0] -= cost
                if heavy:
                    firing.append((w, cost, only))
                else:  # only a heavy weapon has an overload to add
                    used.add(w.id)
                    shots.append([w.id, "ship", "", False])
            for w, cost, only in firing:
                mode = "overload" if only else ""
                if heavy and not only:
                    over = cost_of(w, "overload", rng)
                    if over is not None and over - cost <= budget[0] + 1e-9:
                        budget[0] -= over - cost
                        mode = "overload"
                    else:
                        downgraded.append(w.id)
                used.add(w.id)
                shots.append([w.id, "ship", mode, False])
        if out_of_arc:
            reasons.append(why("FC.GEN.ARC", "not fired, the enemy is out of arc: {}", (", ".join(out_of_arc),)))
        if short:
            reasons.append(why("FC.GEN.POWER", "not fired for lack of power: {}", (", ".join(short),)))
        if downgraded and all(cost_of(game._weapon(ship, w), "overload", rng) is not None for w in downgraded):
            reasons.append(why("FC.GEN.POWER", "fired standard, no power to overload: {}", (", ".join(downgraded),)))
        return reasons

    def phaser_for_drone(self, game: Lookups, ship: Ship, drone: Drone, kinds: Any, used: set[str], budget: list[float],
                         mode: str = "", exclude_bearing: Hex | None = None) -> tuple[Weapon | None, float]:
        arms = game.arms[ship.side]
        for kind in kinds:
            for w in arms.get(kind, ()):
                if (w.alive and not w.fired and w.id not in used
                        and game.in_arc(ship, w.arc, drone.pos)):
                    if exclude_bearing is not None and game.in_arc(ship, w.arc, exclude_bearing):
                        continue
                    cost = game.rules.phaser_cost["phaser-3" if mode == "as3" else kind]
                    if cost <= budget[0] + 1e-9:
                        return w, cost
        return None, 0.0

    def fire_at_drones(self, game: Lookups, ship: Ship, enemy: Ship, shots: list[list[Any]], reasons: list[Reason],
                       budget: list[float], used: set[str]) -> None:
        n_ = self.n
        reach = max(n_.drone_near, n_.drone_close)
        near = [d for _, _, d in sorted([(distance(d.pos, ship.pos), d.id, d) for d in game.incoming(ship.side)
                                         if not d.held_by and not d.impacting and distance(d.pos, ship.pos) <= reach])]
        shoot = _Shots(shots, used, budget)  # by range, then id (ids differ)

        for d in near:
            if distance(d.pos, ship.pos) > n_.drone_close:
                continue
            mark = self.dice.mark()
            roll = self.d6(f"drone {d.id} within one hex", ship.side)
            w3, c3 = self.phaser_for_drone(game, ship, d, ["phaser-3"], used, budget)
            text = f"d6={roll}: "
            result = n_.drone_close_fire[roll]
            if result in ("phaser-3-else-any-as-3", "phaser-3-else-idle-as-3"):
                if w3:
                    shoot.add(w3, c3, d, "", False)
                    text += f"fire {w3.id} at drone {d.id}"
                else:
                    # 2-4: only a phaser that cannot fire at the ship
                    exclude = enemy.pos if result == "phaser-3-else-idle-as-3" else None
                    w, c = self.phaser_for_drone(game, ship, d, ["phaser-2", "phaser-1"], used, budget, "as3", exclude)
                    if w:
                        shoot.add(w, c, d, "as3", False)
                        text += f"no phaser-3: fire {w.id} at drone {d.id} as a phaser-3"
                    else:
                        text += "no phaser available for the drone"
            elif result == "phaser-3":
                if w3:
                    shoot.add(w3, c3, d, "", False)
                    text += f"fire {w3.id} at drone {d.id}"
                else:
                    text += "no phaser-3 available: do not fire at it"
            else:
                shield = game.shield_toward(ship, d.pos)
                free = ship.tractors() - sum(1 for x in game.drones if x.alive and x.held_by == ship.side)
                threats = sum(1 for x in game.incoming(ship.side) if not x.held_by and distance(x.pos, ship.pos) <= 3)
                if ship.shields[shield - 1] <= n_.drone_weak_shield and free < threats:
                    w, c = self.phaser_for_drone(game, ship, d, ["phaser-3", "phaser-2", "phaser-1"], used, budget)
                    if w:
                        shoot.add(w, c, d, "", False)
                        text += (f"drone faces shield #{shield} of {n_.drone_weak_shield} or fewer boxes, tractors are "
                                 f"short: fire {w.id}")
                    else:
                        text += "no phaser available"
                else:
                    text += "do not fire at the drone"
            reasons.append(R("FC.5A", text + n_.n_drone_close_fire + n_.n_drone_close + n_.n_drone_weak_shield,
                             self.dice.since(mark)))
        near = [d for d in near if distance(d.pos, ship.pos) <= n_.drone_near] if reach != n_.drone_near else near
        if near and geo.rng(ship, enemy) > n_.drone_near_enemy_far:
            d = near[0]
            mark = self.dice.mark()
            roll = self.d6(f"drone {d.id} within two hexes, enemy far", ship.side)
            kinds = n_.drone_near_fire[roll]
            w, c = self.phaser_for_drone(game, ship, d, kinds, used, budget) if kinds else (None, 0)
            if w:
                shoot.add(w, c, d, "", True)
            reasons.append(R("FC.5A1", f"d6={roll}: " + (f"fire {w.id} at drone {d.id}" if w else
                                                         "do not fire at the drone")
                             + n_.n_drone_near_fire + n_.n_drone_near + n_.n_drone_near_enemy_far, self.dice.since(mark)))

    # ---------------------------------------------------------------- 6. launch
    def do_launch(self, game: Lookups, ship: Ship, enemy: Ship, _options: Any) -> Decision:
        ready = len(ship.ready_racks())
        rng = geo.rng(ship, enemy)
        closing = geo.approaching(ship, enemy)
        imp8 = game.impulse == 8
        mark = self.dice.mark()
        n_ = self.n
        incoming = [d for d in game.incoming(ship.side) if not d.held_by
                    and distance(d.pos, ship.pos) <= n_.launch_counter_range]
        targets: list[str] = []
        args: tuple[Any, ...] = ()
        fmt: str
        if rng <= n_.launch_closing_range and closing:
            rule, note = "FC.6A", n_.n_launch_closing + n_.n_launch_closing_range + n_.n_launch_closing_last_impulse
            roll = self.d6(self.purposes[3], ship.side)
            n = n_.launch_closing[roll] or (n_.launch_closing_last_impulse if imp8 else 0)
            fmt, args = "d6={}: launch {}{}", (roll, n, note)
            if n_.launch_closing[roll] >= 2 and len(ship.racks) > n_.launch_reroll_racks:
                again = self.d6(self.purposes[4], ship.side)
                more = n_.launch_closing[again] or (n_.launch_closing_last_impulse if imp8 else 0)
                fmt, args = "d6={}: launch {}; more than {} racks, d6={}: {} more{}", (
                    roll, n, NUMBER_WORDS.get(n_.launch_reroll_racks, n_.launch_reroll_racks), again, more,
                    note + n_.n_launch_reroll_racks)
                n += more
            targets = ["ship"] * n
        elif rng <= n_.launch_away_range and geo.moving_away(ship, enemy) and enemy.speed_now() <= n_.launch_away_speed:
            rule = "FC.6B"
            roll = self.d6(self.purposes[5], ship.side)
            n = n_.launch_away[roll]
            fmt, args, targets = "d6={}: launch {}{}", (roll, n, n_.n_launch_away + n_.n_launch_away_range
                                                          + n_.n_launch_away_speed), ["ship"] * n
        elif rng <= n_.launch_far_range and closing:  # beyond 6A's range: 6A took the nearer closing cases
            rule = "FC.6C"
            roll = self.d6(self.purposes[6], ship.side)
            n = n_.launch_far[roll] or (n_.launch_far_last_impulse if imp8 else 0)
            fmt, args, targets = "d6={}: launch {}{}", (roll, n, n_.n_launch_far + n_.n_launch_far_range
                                                          + n_.n_launch_far_last_impulse), ["ship"] * n
        elif len(incoming) > n_.launch_counter_drones:
            rule = "FC.6D"
            roll = self.d6("launch: counter-drones", ship.side)
            n = n_.launch_counter[roll]
            incoming = [d for _, _, d in sorted([(distance(d.pos, ship.pos), d.id, d) for d in incoming])]  # ids differ
            targets = [d.id for d in incoming[:n]]
            fmt, args = "d6={}: launch {} at incoming drones {}{}", (roll, n, list(targets), n_.n_launch_counter
                                                                     + n_.n_launch_counter_drones
                                                                     + n_.n_launch_counter_range)
        else:
            rule = "FC.6E"
            roll = self.d6("launch: other cases", ship.side)
            if n_.launch_other[roll]:
                seekers = [d for _, _, d in sorted([(distance(d.pos, ship.pos), d.id, d)
                                                    for d in game.incoming(ship.side)])]  # ids differ
                if seekers and distance(seekers[0].pos, ship.pos) < rng and not seekers[0].held_by:
                    targets = [seekers[0].id]
                else:
                    targets = ["ship"]
                fmt, args = "d6={}: launch one at the nearest target ({}){}", (roll, targets[0], n_.n_launch_other)
            else:
                fmt, args = "d6={}: do not launch{}", (roll, n_.n_launch_other)
        if len(targets) > ready:
            fmt, args = fmt + " (only {} rack(s) ready)", args + (ready,)
            targets = targets[:ready]
        return Decision(targets, (why(rule, fmt, args, self.dice, mark),))


class _Shots:
    """fire_at_drones' shots at drones: each one taken, its weapon used, its power spent."""

    def __init__(self, shots: list[list[Any]], used: set[str], budget: list[float]) -> None:
        self.shots, self.used, self.budget = shots, used, budget

    def add(self, w: Weapon, cost: float, d: Drone, mode: str, conditional: bool) -> None:
        self.shots.append([w.id, d.id, mode, conditional])
        self.used.add(w.id)
        self.budget[0] -= cost
