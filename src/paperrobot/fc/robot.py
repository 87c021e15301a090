"""The Robot Rules for Federation Commander (seed 001), steps 1A-7C, as a controller.

Each request kind maps to the seed's steps; every decision carries Reason(rule ID, dice, sentence).
Choices where the seed is silent are documented in docs/fc.md (section names in the comments).
"""
from __future__ import annotations

from itertools import combinations

from ..core.contract import Request
from ..core.controller import Decision, Reason
from ..core.hexgrid import BASIC_ARCS, distance
from .arcs import arc_parts, wedges
from .geometry import in_arc
from .reasons import Why
from .requests import PLAIN, encode
from . import geometry as geo
from .state import Drone, Ship

R = Reason  # built at once: the constants below and the rarer steps; Why (reasons.py) is built when read
NO_POWER = R("FC.GEN.POWER", "not enough energy for that speed: do as much as power allows")
NO_TURN = R("FC.3A", "turn mode not satisfied: move straight or sideslip")
NO_TURN_TO_FA = R("FC.3B1A", "enemy not in FA arc but no turn allowed: straight")
TURN_TO_FA = {t: R("FC.3B1A", f"disruptors unfired, enemy not in FA arc: {t} to bring it into FA (or FX)")
              for t in ("turn-left", "turn-right")}
CENTERLINED_ANYWAY = R("FC.2.CENTERLINE", "about to enter the enemy centerline, but the enemy can centerline the "
                                          "robot anyway: move on")
HOLD_5D = R("FC.5D", "special: faster but behind, or closing at 8/16: hold fire until closer")
HOLD_5E = R("FC.5E", "special: faster but behind, or on a closing course: hold fire until closer")
RANGE_1_AS_PH3 = R("FC.5C", "range 1 with one point of power: fire two phasers as phaser-3s")
NO_FIRE_STEP = (R("FC.5C", "no enemy drone near and no fire step ordered fire"),)
_PAIRS: dict[str, tuple[str, str]] = {}  # roll2's purposes -> the two dice's purposes
# a fire plan's entries, "kind" or "kind:limit", as (kind, limits)
_PLAN_STEPS = {f"{k}{limit}": (k, (limit[1:],) if limit else ()) for k in ("phaser-1", "phaser-2", "phaser-3",
               "disruptor") for limit in ("", ":not-fa", ":waist")}


class Robot:
    """The paper robot. ``dice`` is the game's dice (one source of chance)."""

    def __init__(self, dice):
        self.dice = dice
        self.steps: dict = {}  # request kind -> the do_<kind> method

    def decide(self, request: Request) -> Decision:
        """The robot's answer in contract terms (an option key or a form's values), with its reasons."""
        kind = request.kind
        step = self.steps.get(kind)
        if step is None:
            step = self.steps[kind] = getattr(self, "do_" + kind)
        game = request.state
        decision = step(game, request.subject, game.enemies[request.side], request.data)  # act(), one call fewer
        if kind in PLAIN:  # the engine's action is already an option key
            return decision
        return Decision(encode(kind, decision.action), decision.reasons)

    def act(self, request: Request) -> Decision:
        """The robot's decision as an engine action (lists and dicts), with its reasons."""
        step = self.steps.get(request.kind)
        if step is None:
            step = self.steps[request.kind] = getattr(self, "do_" + request.kind)
        game = request.state
        return step(game, request.subject, game.enemy(request.side), request.data)

    # ---------------------------------------------------------------- helpers
    def d6(self, purpose: str, side: str) -> int:
        return self.dice.roll(6, purpose, side)  # Dice.d6 without its own call

    def roll2(self, purpose: str, side: str) -> int:
        """2d6; each die's purpose is ``purpose`` and "(1 of 2)" / "(2 of 2)", joined once per purpose."""
        pair = _PAIRS.get(purpose)
        if pair is None:
            pair = _PAIRS[purpose] = (purpose + " (1 of 2)", purpose + " (2 of 2)")
        roll = self.dice.roll
        return roll(6, pair[0], side) + roll(6, pair[1], side)

    # ---------------------------------------------------------------- 1. start of turn
    def do_allocate(self, game, ship: Ship, enemy: Ship, _options) -> Decision:
        reasons = []
        budget = ship.available()
        mark = self.dice.mark()
        total = self.roll2("baseline speed", ship.side)
        speed = 8 if total <= 4 else 16 if total <= 10 else 24
        chosen = speed
        while chosen > 0 and chosen * ship.spec.move_cost > budget:
            chosen -= 8  # FC.1A: drop to the next lower baseline speed
        if chosen != speed:
            reasons.append(Why("FC.1A", "2d6={}: baseline speed {}, dropped to {} for lack of power",
                               (total, speed, chosen), self.dice, mark))
            reasons.append(NO_POWER)
        else:
            reasons.append(Why("FC.1A", "2d6={}: baseline speed {}", (total, speed), self.dice, mark))
        budget -= chosen * ship.spec.move_cost
        regen, r = self.regenerate(game, ship, enemy, budget)
        if r:
            reasons.append(r)
        budget -= game.rules.regen_cost * len(regen)
        hold, hold_reasons = self.hold_drones(game, ship, enemy, budget)
        reasons += hold_reasons
        return Decision({"speed": chosen, "regen": regen, "hold": hold, "photons": []}, tuple(reasons))

    def regenerate(self, game, ship: Ship, enemy: Ship, budget: float):
        """FC.1B: roll only if boxes are disabled and power allows at least one box."""
        damaged = [n for n in range(1, 7) if ship.shields[n - 1] < ship.shield_max[n - 1]]
        cost = game.rules.regen_cost
        if not damaged or budget < cost:
            return [], None
        mark = self.dice.mark()
        roll = self.d6("shield regeneration", ship.side)
        boxes = min(2, int(budget // cost))  # FC.GEN.POWER: as many as power allows
        level = list(ship.shields)
        regen: list[int] = []
        if roll <= 2:
            for _ in range(boxes):  # weakest first; the next weakest when it is full (seed note)
                room = [n for n in range(1, 7) if level[n - 1] < ship.shield_max[n - 1]]
                if not room:
                    break
                n = min(room, key=lambda k: (level[k - 1], k))
                level[n - 1] += 1
                regen.append(n)
            fmt = "d6={}: regenerate {} box(es) on the weakest shield(s) {}"
        elif roll <= 4:
            facing = geo.shields_toward(ship, enemy.pos)
            targets = list(facing) * 2 if len(facing) == 1 else list(facing)  # split shield: one on each
            for n in targets[:boxes]:
                if level[n - 1] < ship.shield_max[n - 1]:
                    level[n - 1] += 1
                    regen.append(n)
            fmt = "d6={}: regenerate {} box(es) on the shield facing the enemy {}"
        else:
            fmt = "d6={}: do not regenerate shield boxes"
        return regen, Why("FC.1B", fmt, (roll, len(regen), list(regen)), self.dice, mark)

    def hold_drones(self, game, ship: Ship, enemy: Ship, budget: float):
        """FC.1C: most dangerous held drone first; release or keep paying to hold."""
        held = [d for d in game.drones if d.alive and d.held_by == ship.side]

        def danger(d: Drone) -> int:
            return game.rules.drone_warhead - ship.shields[game.drone_shield(ship, d) - 1]
        held.sort(key=lambda d: (-danger(d), d.id))
        keep, reasons = [], []
        phasers = any(w.alive and w.phaser for w in ship.weapons)
        for d in held:
            shield = game.drone_shield(ship, d)
            zero = ship.shields[shield - 1] == 0
            if budget < game.rules.tractor_hold_cost:
                reasons.append(Why("FC.1C", "no power to hold drone {}: release it", (d.id,)))
                continue
            mark = self.dice.mark()
            roll = self.d6(f"held drone {d.id}", ship.side)
            if roll <= 2:
                hold = zero or not phasers
                why = "facing a zero-strength shield" if zero else "no phaser can target it" if not phasers else ""
            elif roll <= 4:
                near = geo.rng(ship, enemy) <= 4 and geo.enemy_facing_shield(ship, enemy, shield)
                hold = zero or near or not phasers
                why = ("facing a zero-strength shield" if zero else "the enemy is within 4 hexes on the same shield"
                       if near else "no phaser can target it" if not phasers else "")
            else:
                hold, why = True, ""
            reasons.append(Why("FC.1C", "d6={}: {} drone {} ({})" if why else "d6={}: {} drone {}",
                               (roll, "hold" if hold else "release", d.id, why), self.dice, mark))
            if hold:
                keep.append(d.id)
                budget -= game.rules.tractor_hold_cost
        return keep, reasons

    # ---------------------------------------------------------------- 2. acceleration
    def do_accelerate(self, game, ship: Ship, enemy: Ship, _options) -> Decision:
        mark = self.dice.mark()
        total = self.roll2("acceleration", ship.side)
        can = ship.available() >= game.rules.accel_cost and not ship.stopped
        if total <= 4:
            action, fmt = ("accel", "2d6={}: pay for acceleration") if can else \
                ("none", "2d6={}: accelerate, but no power (FC.GEN.POWER)")
        elif total <= 10 and ship.fired_disruptors and geo.in_ra(ship, enemy.pos):
            action, fmt = ("accel", "2d6={}: disruptors fired and enemy in the rear arc: accelerate to get "
                                    "out of Dodge") if can else ("none", "2d6={}: would accelerate, no power")
        else:
            action, fmt = "none", "2d6={}: continue at baseline speed"
        return Decision(action, (Why("FC.2", fmt, (total,), self.dice, mark),))

    # ---------------------------------------------------------------- 3. movement
    def do_move(self, game, ship: Ship, enemy: Ship, options: list[str]) -> Decision:
        turn_ok = "turn-left" in options
        reasons: list[Reason] = []
        if not turn_ok:
            move, reasons = self.maneuver(game, ship, enemy, options, allow_turn=False)
            reasons.insert(0, NO_TURN)
        else:
            move, reasons = self.maneuver(game, ship, enemy, options, allow_turn=True)
        move, extra = self.keep_in_arc(game, ship, enemy, move, options)
        reasons += extra
        move, extra = self.centerline_special(game, ship, enemy, move, options)
        reasons += extra
        if move not in options:  # e.g. a slip whose mode is unsatisfied: straight ahead
            move = "straight"
        return Decision(move, tuple(reasons))

    def maneuver(self, game, ship, enemy, options, allow_turn: bool):
        reasons: list[Reason] = []
        slip_ok = "slip-left" in options
        if allow_turn and game.drones:  # no drone in play: no wave (FC.3B0)
            wave = self.drone_wave(game, ship)
            if wave is not None:
                drones, side = wave
                mark = self.dice.mark()
                roll = self.d6("drone wave evasion", ship.side)
                adjacent = sum(1 for d in drones if distance(d.pos, ship.pos) <= 1)
                if roll == 5 and adjacent >= 2:
                    roll_as = 4
                else:
                    roll_as = roll
                if roll_as <= 4:
                    away = "slip-right" if side == "left" else "slip-left"
                    move = away if slip_ok else "straight"
                    reasons.append(Why("FC.3B0", "d6={}: drone wave of {} from the {}: sideslip away" + (
                        "" if slip_ok else " (slip mode not satisfied: straight)"), (roll, len(drones), side),
                        self.dice, mark))
                    return move, reasons
                reasons.append(Why("FC.3B0", "d6={}: drone wave, but go on to 3B1", (roll,), self.dice, mark))
        if not ship.fired_disruptors:
            move, rs = self.step_3b1(game, ship, enemy, options, allow_turn)
        else:
            move, rs = self.step_3b2(game, ship, enemy, options, allow_turn)
        reasons += rs
        move, rs = self.avoid_down_shield(ship, enemy, move, options, allow_turn)
        return move, reasons + rs

    def drone_wave(self, game, ship: Ship):
        """FC.3B0: six or more drones from the LS or RS arc (held ones count), or four hitting one shield
        this impulse, the free ones of the wave within 1-5 hexes (docs/fc.md#drone-wave: the seed's "2-5"
        cannot hold together with its "adjacent" clause, so adjacent drones count; drones farther off are
        not part of the wave and do not cancel it). Returns (drones, side) or None."""
        incoming = game.incoming(ship.side)
        free = [d for d in incoming if not d.held_by and not d.impacting and 1 <= distance(d.pos, ship.pos) <= 5]
        if not free:
            return None
        held = [d for d in incoming if d.held_by == ship.side]
        for arc, side in (("LS", "left"), ("RS", "right")):
            group = [d for d in free if in_arc(ship.pos, ship.facing, arc, d.pos)]
            if len(group) + len(held) >= 6 and group:
                return group + held, side
        by_shield: dict[int, list[Drone]] = {}
        for d in free:
            if distance(d.pos, ship.pos) <= 3:  # drones move three hexes an impulse: these hit now
                by_shield.setdefault(game.shield_toward(ship, d.pos), []).append(d)
        for shield, group in sorted(by_shield.items()):
            if len(group) >= 4:
                side = "left" if shield in (5, 6) else "right" if shield in (2, 3) else (
                    "left" if in_arc(ship.pos, ship.facing, "LS", group[0].pos) else "right")
                return group, side
        return None

    def step_3b1(self, game, ship, enemy, options, allow_turn):
        slip_ok = "slip-left" in options
        if not in_arc(ship.pos, ship.facing, "FA", enemy.pos):
            if allow_turn and distance(ship.pos, enemy.pos) <= 4:
                het = self.het_choice(game, ship, enemy, options)
                if het is not None:
                    return het
            turn = geo.turn_toward(ship, enemy.pos)
            if not allow_turn:
                return "straight", [NO_TURN_TO_FA]
            return turn, [TURN_TO_FA[turn]]
        mark = self.dice.mark()
        roll = self.d6("enemy in FA: manoeuvre", ship.side)
        if roll == 1:
            if slip_ok:
                move, text = geo.slip_relative(ship, enemy.pos, True), "sideslip toward the enemy"
            elif allow_turn:
                move, text = geo.turn_toward(ship, enemy.pos), "slip mode not satisfied: turn toward the enemy"
            else:
                move, text = "straight", "slip mode and turn mode not satisfied: straight"
        elif roll <= 3:
            move, text = "straight", "move straight ahead"
        else:
            move, text = (geo.slip_relative(ship, enemy.pos, False), "sideslip away from the enemy") if slip_ok else \
                ("straight", "slip mode not satisfied: straight ahead")
        return move, [Why("FC.3B1B", "d6={}: {}", (roll, text), self.dice, mark)]

    def het_choice(self, game, ship, enemy, options):
        """FC.3B1AX: HET to centre the enemy in FA; 1-3, or 1-5 if power then still overloads half."""
        target = f"het-{'ABCDEF'[geo.direction_to(ship, enemy.pos)]}"
        if target not in options:
            return None
        disruptors = [w for w in ship.live_weapons("disruptor") if not w.fired]
        left = ship.available() - ship.spec.het_cost
        need = game.rules.disruptor_cost * len(disruptors)
        if left < need:
            return None  # the HET would not leave power to fire all the disruptors
        half = (len(disruptors) + 1) // 2
        generous = left >= need + (game.rules.disruptor_overload_cost - game.rules.disruptor_cost) * half
        top = 5 if generous else 3
        mark = self.dice.mark()
        roll = self.d6("high energy turn", ship.side)
        if roll <= top:
            return target, [Why("FC.3B1AX", "d6={} (HET on 1-{}): high energy turn to centre the enemy in FA",
                                (roll, top), self.dice, mark)]
        return self._no_het(roll, top, mark, ship, enemy)

    def _no_het(self, roll, top, mark, ship, enemy):
        turn = geo.turn_toward(ship, enemy.pos)
        return turn, [Why("FC.3B1AX", "d6={} (HET on 1-{}): no HET", (roll, top), self.dice, mark),
                      Why("FC.3B1A", "enemy not in FA arc: {} to bring it into FA (or FX)", (turn,))]

    def step_3b2(self, game, ship, enemy, options, allow_turn):
        slip_ok = "slip-left" in options
        mark = self.dice.mark()
        roll = self.d6("disruptors fired: manoeuvre", ship.side)
        down_now = geo.down_shield_toward(ship, enemy.pos)
        if roll <= 2:
            if allow_turn and down_now:
                for turn in ("turn-left", "turn-right"):
                    if not geo.exposes_down_shield(ship, turn, enemy.pos):
                        return turn, [Why("FC.3B2", "d6={}: a down shield faces the enemy: {} to present a "
                                                    "working shield", (roll, turn), self.dice, mark)]
            if slip_ok:
                slip = geo.away_from_centerline(ship, enemy, ("slip-left", "slip-right"))
                return slip, [Why("FC.3B2", "d6={}: straight on, sideslipping away from the enemy centerline",
                                  (roll,), self.dice, mark)]
            return "straight", [Why("FC.3B2", "d6={}: move straight ahead", (roll,), self.dice, mark)]
        if allow_turn and geo.heading_for_centerline(ship, enemy):
            turn = geo.away_from_centerline(ship, enemy, ("turn-left", "turn-right"))
            if geo.exposes_down_shield(ship, turn, enemy.pos) and not down_now:
                return "straight", [Why("FC.3B2", "d6={}: turning away would show a down shield: straight",
                                        (roll,), self.dice, mark)]
            return turn, [Why("FC.3B2", "d6={}: heading for the enemy centerline: {} away from it", (roll, turn),
                              self.dice, mark)]
        return "straight", [Why("FC.3B2", "d6={}: not heading for the enemy centerline: straight", (roll,),
                                self.dice, mark)]

    def avoid_down_shield(self, ship, enemy, move, options, allow_turn):
        """FC.3.SHIELD: never choose to expose a down shield when another manoeuvre would not."""
        if 0 not in ship.shields or move.startswith("het-") or move == "decel":
            return move, []  # no down shield to show (the checks below would all say so)
        if geo.down_shield_toward(ship, enemy.pos) or not geo.exposes_down_shield(ship, move, enemy.pos):
            return move, []
        kinds = {"straight": "straight"}
        if "slip-left" in options:
            kinds["slip"] = geo.slip_relative(ship, enemy.pos, False)
        if allow_turn:
            kinds["turn"] = geo.away_from_centerline(ship, enemy, ("turn-left", "turn-right"))
        mine = "turn" if move.startswith("turn") else "slip" if move.startswith("slip") else "straight"
        others = [m for k, m in kinds.items() if k != mine and not geo.exposes_down_shield(ship, m, enemy.pos)]
        if not others:
            return move, [Why("FC.3.SHIELD", "{} shows a down shield but no alternative avoids it", (move,))]
        if len(others) == 1:
            return others[0], [Why("FC.3.SHIELD", "{} would show a down shield: {} instead", (move, others[0]))]
        mark = self.dice.mark()
        roll = self.d6("down-shield alternative", ship.side)
        pick = others[0] if roll <= 3 else others[1]
        return pick, [Why("FC.3.SHIELD", "d6={}: {} would show a down shield; both others are safe: {}",
                          (roll, move, pick), self.dice, mark)]

    def keep_in_arc(self, game, ship, enemy, move, options):
        """FC.3.ARC (docs/fc.md#keep-in-arc): disruptors unfired, enemy in FA within 8 hexes, the move would
        take it out of FA, and power remains for all disruptors after paying: cancel the move."""
        if move.startswith(("turn", "het")) or move == "decel" or "decel" not in options or ship.fired_disruptors:
            return move, []
        if distance(ship.pos, enemy.pos) > 8 or not in_arc(ship.pos, ship.facing, "FA", enemy.pos):
            return move, []
        pos, facing = geo.after_move(ship, move)
        if in_arc(pos, facing, "FA", enemy.pos):
            return move, []
        disruptors = [w for w in ship.live_weapons("disruptor") if not w.fired]
        if not disruptors:
            return move, []
        if ship.available() - game.rules.decel_cost < game.rules.disruptor_cost * len(disruptors):
            return move, []
        return "decel", [Why("FC.3.ARC", "{} would lose the enemy from the FA arc: decelerate to keep it in arc",
                             (move,))]

    def centerline_special(self, game, ship, enemy, move, options):
        """FC.2.CENTERLINE: on the last sub-pulse, do not step onto the enemy centerline from off it."""
        if game.subpulse != 4 or move == "decel" or "decel" not in options:
            return move, []
        pos, _ = geo.after_move(ship, move)
        if not geo.on_centerline(enemy, pos) or geo.on_centerline(enemy, ship.pos):
            return move, []
        turn_ok = enemy.since_turn >= game.turn_mode(enemy)
        if geo.can_be_centerlined(enemy, ship.pos, turn_ok):
            return move, [CENTERLINED_ANYWAY]
        return "decel", [Why("FC.2.CENTERLINE", "last sub-pulse: {} would enter the enemy centerline; decelerate",
                             (move,))]

    # ---------------------------------------------------------------- 4. defensive fire
    def do_defend(self, game, ship: Ship, enemy: Ship, drone_ids: list[str]) -> Decision:
        drones = [game._drone(i) for i in drone_ids]
        by_shield: dict[int, list[Drone]] = {}
        for d in drones:
            by_shield.setdefault(game.drone_shield(ship, d), []).append(d)
        warhead = game.rules.drone_warhead
        order = sorted(by_shield, key=lambda s: (-len(by_shield[s]) * warhead, s))
        reasons: list[Reason] = []
        top = len(by_shield[order[0]])
        tied = [s for s in order if len(by_shield[s]) == top]
        if len(tied) > 1:
            mark = self.dice.mark()
            roll = self.d6("defensive fire: which shield first", ship.side)
            first = tied[(roll - 1) % len(tied)]
            order.remove(first)
            order.insert(0, first)
            reasons.append(Why("FC.4A", "d6={}: shields {} tie on potential damage; start with #{}",
                               (roll, tied, first), self.dice, mark))
        else:
            reasons.append(Why("FC.4A", "start with shield #{} ({} potential damage points)", (order[0], top * warhead)))
        plan = []
        for shield in order:
            group = sorted(by_shield[shield], key=lambda d: d.id)
            penetrates = len(group) * warhead > ship.shields[shield - 1]
            for d in group:
                mark = self.dice.mark()
                roll = self.d6(f"defence against drone {d.id}", ship.side)
                if penetrates:
                    steps = (["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"] if roll <= 2 else
                             ["add", "phaser-3", "phaser-2-as3", "tractor"] if roll <= 4 else
                             ["add", "phaser-3", "tractor"] if roll == 5 else ["add", "phaser-3"])
                    rule = "FC.4B"
                else:
                    steps = (["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"] if roll <= 2 else
                             ["add", "phaser-3", "tractor"] if roll <= 4 else ["add", "phaser-3"])
                    rule = "FC.4C"
                word = "penetrate" if penetrates else "not penetrate"
                reasons.append(Why(rule, "d6={}: drone {} would {} shield #{}: {}, each only while it survives",
                                   (roll, d.id, word, shield, ", ".join(steps)), self.dice, mark))
                plan.append([d.id, steps])
        return Decision(plan, tuple(reasons))

    def do_reinforce(self, game, ship: Ship, enemy: Ship, options: dict) -> Decision:
        cap, damage, shield = options["cap"], options["damage"], options["shield"]
        mark = self.dice.mark()
        if options["kind"] == "drone":
            roll = self.d6("reinforce against a drone", ship.side)
            facing = geo.enemy_facing_shield(ship, enemy, shield)
            if options["penetrates"]:
                rule, use = "FC.4D1", roll <= 3 or (roll <= 5 and facing)
            else:
                rule, use = "FC.4D2", roll <= 2 or (roll <= 4 and facing)
            amount = min(cap, damage) if use else 0
            return Decision(amount, (Why(rule, "d6={}: reinforce shield #{} with {}" + (
                " (enemy faces it)" if facing and use else ""), (roll, shield, amount), self.dice, mark),))
        total = self.roll2("reinforce after being hit", ship.side)
        if total <= 5:
            amount, text = min(cap, damage), "up to all available energy"
        elif total <= 10:
            amount, text = min(cap, damage, int(ship.available() // 2)), "up to half the available energy"
        else:
            amount, text = 0, "no reinforcement"
        return Decision(amount, (Why("FC.5F", "2d6={}: {}: reinforce shield #{} with {}", (total, text, shield, amount),
                                     self.dice, mark),))

    # ---------------------------------------------------------------- 5. offensive fire
    def do_fire(self, game, ship: Ship, enemy: Ship, _options) -> Decision:
        shots: list[list] = []
        reasons: list[Reason] = []
        budget = [ship.available()]
        used: set[str] = set()
        if game.drones:  # FC.5A, FC.5A1: only drones seeking the robot within two hexes
            self.fire_at_drones(game, ship, enemy, shots, reasons, budget, used)
        rng = distance(ship.pos, enemy.pos)
        overload = True
        mark = self.dice.mark()
        roll = None
        if game.impulse == 8:
            plan, rule, fmt = ["phaser-1", "disruptor", "phaser-2", "phaser-3"], "FC.5B", "last impulse: fire everything"
        elif rng <= 4:
            roll = self.d6("fire at range 0-4", ship.side)
            rule = "FC.5C"
            if roll <= 2:
                plan, fmt = ["phaser-1", "disruptor", "phaser-2", "phaser-3"], "d6={}: fire everything"
            elif roll <= 5:
                plan, fmt = ["phaser-1", "disruptor", "phaser-2"], "d6={}: Ph-1s, disruptors, Ph-2s; no Ph-3s"
            else:
                plan, fmt = ["phaser-1", "phaser-2"], "d6={}: Ph-1s and Ph-2s; no disruptors, no Ph-3s"
        elif rng <= 8:
            rule = "FC.5D"
            in_fa = in_arc(ship.pos, ship.facing, "FA", enemy.pos)
            hold = (in_fa and geo.faster_but_behind(ship, enemy)) or (
                geo.closing_course(ship, enemy) and ship.baseline in (8, 16) and enemy.baseline in (8, 16))
            if hold and not geo.down_shield_toward(enemy, ship.pos):  # unless facing a down shield
                return self._done(shots, reasons + [HOLD_5D])
            roll = self.d6("fire at range 5-8", ship.side)
            fast = in_fa and geo.faster(ship, enemy)
            if roll == 1:
                plan = ["phaser-1", "disruptor", "phaser-2"] + (["phaser-3"] if in_fa else [])
                fmt = "d6={}: fire everything" + ("" if in_fa else " but Ph-3s (enemy not in FA)")
            elif roll <= 3:
                plan, fmt = ["phaser-1", "phaser-2"], "d6={}: Ph-1s and Ph-2s, no disruptors"
                if not in_fa:
                    plan = ["phaser-1", "phaser-2:not-fa"]
                if fast:
                    plan = [k + ":waist" for k in ("phaser-1", "phaser-2")]
                    fmt += " (faster with enemy in FA: waist and rear phasers only)"
            elif roll <= 5:
                plan, fmt = ([] if fast else ["phaser-1"]), "d6={}: Ph-1s only" + (
                    " (none: faster with enemy in FA)" if fast else "")
            else:
                plan, fmt = [], "d6={}: do not fire"
        elif rng <= 15:
            rule = "FC.5E"
            in_fa = in_arc(ship.pos, ship.facing, "FA", enemy.pos)
            hold = (in_fa and geo.faster_but_behind(ship, enemy)) or geo.closing_course(ship, enemy)
            if hold and not geo.down_shield_toward(enemy, ship.pos):
                return self._done(shots, reasons + [HOLD_5E])
            roll = self.d6("fire at range 9-15", ship.side)
            fast = in_fa and geo.faster(ship, enemy)
            p2 = ["phaser-2"] if in_fa else []
            if fast and roll <= 3:
                plan, fmt = [], "d6={}: no fire (faster with the enemy in FA)"
            elif roll <= 2:
                plan, fmt = ["phaser-1", "disruptor"] + p2, "d6={}: Ph-1s, disruptors" + (", Ph-2s" if p2 else "")
            elif roll == 3:
                plan, fmt = ["phaser-1"] + p2, "d6={}: Ph-1s" + (", Ph-2s" if p2 else "") + ", no disruptors"
            else:
                plan, fmt = [], "d6={}: do not fire"
            overload = False
        else:
            return self._done(shots, reasons + [Why("FC.5E", "enemy {} hexes away, beyond 15: no fire step applies",
                                                    (rng,))])
        reasons.append(Why(rule, fmt, (roll,), self.dice, mark))
        if plan:
            reasons += self.fire_plan(game, ship, enemy, plan, overload, shots, budget, used)
        return self._done(shots, reasons)

    def _done(self, shots, reasons):
        return Decision(shots, tuple(reasons) if reasons else NO_FIRE_STEP)

    def fire_plan(self, game, ship, enemy, plan, overload, shots, budget, used) -> list[Reason]:
        """Fire each named kind in order as far as arcs (FC.GEN.ARC) and power (FC.GEN.POWER) allow."""
        pos, facing, target = ship.pos, ship.facing % 6, enemy.pos
        rng = distance(pos, target)
        cost_of = game.weapon_cost
        reasons: list[Reason] = []
        out_of_arc, short, downgraded = [], [], []
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
            firing = []  # heavy: (weapon, cost, only an overload can fire), paid standard so far
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
                    cost = standard[arm]
                else:
                    cost = standard[arm] = cost_of(w, "", rng)
                only = cost is None  # range 0: the overload is the only shot
                if only:
                    cost = cost_of(w, "overload", rng) if heavy else None
                    if cost is None:
                        continue  # out of range (an overload can fire at range 0, where a standard shot cannot)
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
            reasons.append(Why("FC.GEN.ARC", "not fired, the enemy is out of arc: {}", (", ".join(out_of_arc),)))
        if short:
            reasons.append(Why("FC.GEN.POWER", "not fired for lack of power: {}", (", ".join(short),)))
        if downgraded and all(cost_of(game._weapon(ship, w), "overload", rng) is not None for w in downgraded):
            reasons.append(Why("FC.GEN.POWER", "fired standard, no power to overload: {}", (", ".join(downgraded),)))
        return reasons

    def phaser_for_drone(self, game, ship, drone, kinds, used, budget, mode="", exclude_bearing=None):
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

    def fire_at_drones(self, game, ship, enemy, shots, reasons, budget, used) -> None:
        near = sorted((d for d in game.incoming(ship.side) if not d.held_by and not d.impacting
                       and distance(d.pos, ship.pos) <= 2), key=lambda d: (distance(d.pos, ship.pos), d.id))

        def shoot(w, cost, d, mode, conditional):
            shots.append([w.id, d.id, mode, conditional])
            used.add(w.id)
            budget[0] -= cost

        for d in near:
            if distance(d.pos, ship.pos) > 1:
                continue
            mark = self.dice.mark()
            roll = self.d6(f"drone {d.id} within one hex", ship.side)
            w3, c3 = self.phaser_for_drone(game, ship, d, ["phaser-3"], used, budget)
            text = f"d6={roll}: "
            if roll <= 4:
                if w3:
                    shoot(w3, c3, d, "", False)
                    text += f"fire {w3.id} at drone {d.id}"
                else:
                    exclude = enemy.pos if roll >= 2 else None  # 2-4: only a phaser that cannot fire at the ship
                    w, c = self.phaser_for_drone(game, ship, d, ["phaser-2", "phaser-1"], used, budget, "as3", exclude)
                    if w:
                        shoot(w, c, d, "as3", False)
                        text += f"no phaser-3: fire {w.id} at drone {d.id} as a phaser-3"
                    else:
                        text += "no phaser available for the drone"
            elif roll == 5:
                if w3:
                    shoot(w3, c3, d, "", False)
                    text += f"fire {w3.id} at drone {d.id}"
                else:
                    text += "no phaser-3 available: do not fire at it"
            else:
                shield = game.shield_toward(ship, d.pos)
                free = ship.tractors() - sum(1 for x in game.drones if x.alive and x.held_by == ship.side)
                threats = sum(1 for x in game.incoming(ship.side) if not x.held_by and distance(x.pos, ship.pos) <= 3)
                if ship.shields[shield - 1] <= 7 and free < threats:
                    w, c = self.phaser_for_drone(game, ship, d, ["phaser-3", "phaser-2", "phaser-1"], used, budget)
                    if w:
                        shoot(w, c, d, "", False)
                        text += f"drone faces shield #{shield} of 7 or fewer boxes, tractors are short: fire {w.id}"
                    else:
                        text += "no phaser available"
                else:
                    text += "do not fire at the drone"
            reasons.append(R("FC.5A", text, self.dice.since(mark)))
        if near and geo.rng(ship, enemy) > 8:
            d = near[0]
            mark = self.dice.mark()
            roll = self.d6(f"drone {d.id} within two hexes, enemy far", ship.side)
            kinds = ["phaser-1", "phaser-2"] if roll <= 2 else ["phaser-1"] if roll == 3 else []
            w, c = self.phaser_for_drone(game, ship, d, kinds, used, budget) if kinds else (None, 0)
            if w:
                shoot(w, c, d, "", True)
            reasons.append(R("FC.5A1", f"d6={roll}: " + (f"fire {w.id} at drone {d.id}" if w else
                                                         "do not fire at the drone"), self.dice.since(mark)))

    # ---------------------------------------------------------------- 6. launch
    def do_launch(self, game, ship: Ship, enemy: Ship, _options) -> Decision:
        ready = len(ship.ready_racks())
        rng = geo.rng(ship, enemy)
        closing = geo.approaching(ship, enemy)
        imp8 = game.impulse == 8
        mark = self.dice.mark()
        incoming = [d for d in game.incoming(ship.side) if not d.held_by and distance(d.pos, ship.pos) <= 4]
        targets: list[str] = []
        args: tuple = ()
        if rng <= 8 and closing:
            rule = "FC.6A"
            roll = self.d6("launch: enemy within 8, closing", ship.side)
            n = 2 if roll <= 2 else 1 if roll <= 4 else (2 if imp8 else 0)
            fmt, args = "d6={}: launch {}", (roll, n)
            if roll <= 2 and len(ship.racks) > 2:
                again = self.d6("launch: more than two racks, roll again", ship.side)
                more = 2 if again <= 2 else 1 if again <= 4 else (2 if imp8 else 0)
                fmt, args = "d6={}: launch {}; more than two racks, d6={}: {} more", (roll, n, again, more)
                n += more
            targets = ["ship"] * n
        elif rng <= 8 and geo.moving_away(ship, enemy) and enemy.speed_now() <= 16:
            rule = "FC.6B"
            roll = self.d6("launch: enemy within 8, moving away", ship.side)
            n = 1 if roll == 1 else 2 if roll == 2 else 0
            fmt, args, targets = "d6={}: launch {}", (roll, n), ["ship"] * n
        elif 9 <= rng <= 12 and closing:
            rule = "FC.6C"
            roll = self.d6("launch: enemy 9-12, closing", ship.side)
            n = 1 if roll == 1 else 2 if roll == 2 else (2 if imp8 else 0)
            fmt, args, targets = "d6={}: launch {}", (roll, n), ["ship"] * n
        elif len(incoming) > 2:
            rule = "FC.6D"
            roll = self.d6("launch: counter-drones", ship.side)
            n = 2 if roll == 1 else 1 if roll <= 4 else 0
            incoming.sort(key=lambda d: (distance(d.pos, ship.pos), d.id))
            targets = [d.id for d in incoming[:n]]
            fmt, args = "d6={}: launch {} at incoming drones {}", (roll, n, list(targets))
        else:
            rule = "FC.6E"
            roll = self.d6("launch: other cases", ship.side)
            if roll == 1:
                seekers = sorted(game.incoming(ship.side), key=lambda d: (distance(d.pos, ship.pos), d.id))
                if seekers and distance(seekers[0].pos, ship.pos) < rng and not seekers[0].held_by:
                    targets = [seekers[0].id]
                else:
                    targets = ["ship"]
                fmt, args = "d6={}: launch one at the nearest target ({})", (roll, targets[0])
            else:
                fmt, args = "d6={}: do not launch", (roll,)
        if len(targets) > ready:
            fmt, args = fmt + " (only {} rack(s) ready)", args + (ready,)
            targets = targets[:ready]
        return Decision(targets, (Why(rule, fmt, args, self.dice, mark),))

    # ---------------------------------------------------------------- 7. end of turn
    def do_batteries(self, game, ship: Ship, enemy: Ship, _options) -> Decision:
        store = max(0.0, min(ship.battery_cap() - ship.battery, ship.energy))
        return Decision(store, (Why("FC.7A", "put {:g} into the batteries (as much as possible)", (store,)),))

    def do_repair(self, game, ship: Ship, enemy: Ship, options) -> Decision:
        order = repair_order(game, ship, enemy)
        return Decision(order, (R("FC.7B", "repair in the robot's priority order: " + ", ".join(order[:6])
                                  + (" ..." if len(order) > 6 else "")),))

    def do_transfer(self, game, ship: Ship, enemy: Ship, _options) -> Decision:
        pairs, reasons = self.transfer_pairs(ship)
        moves = []
        for weak, strong in pairs:
            mark = self.dice.mark()
            roll = self.d6(f"shield transfer #{strong} to #{weak}", ship.side)
            n = min(4, ship.shield_max[weak - 1] - ship.shields[weak - 1])
            if roll <= 4 and n > 0:
                moves.append([strong, weak, n])
            reasons.append(R("FC.7C", f"d6={roll}: " + (f"move {n} boxes from shield #{strong} to #{weak}"
                                                        if roll <= 4 else "no transfer"), self.dice.since(mark)))
        return Decision(moves, tuple(reasons))

    def transfer_pairs(self, ship: Ship):
        s = ship.shields
        weak = [n for n in range(1, 7) if s[n - 1] <= 4 and s[n - 1] < ship.shield_max[n - 1]]
        strong = [n for n in range(1, 7) if s[n - 1] >= 12]
        edges = [(w, t) for w in weak for t in strong if (w - t) % 6 in (1, 5)]
        if not edges:
            return [], []
        best: list[tuple] = []
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
        best.sort(key=lambda c: sum(x for e in c for x in e))
        pick = best[0] if roll <= 3 else best[-1]
        return list(pick), [R("FC.7C", f"d6={roll}: a shield could pair two ways; use the "
                                       f"{'lower' if roll <= 3 else 'higher'}-numbered pairing {list(pick)}",
                              self.dice.since(mark))]

    # ---------------------------------------------------------------- damage choices
    def do_dac_phaser(self, game, ship: Ship, enemy: Ship, candidates: list[str]) -> Decision:
        ws = [game._weapon(ship, c) for c in candidates]
        steps = []
        fired = [w for w in ws if w.fired]
        if fired and len(fired) < len(ws):
            ws, _ = fired, steps.append("a fired phaser")
        rank = {"phaser-3": 0, "phaser-2": 1, "phaser-1": 2}
        low = min(rank[w.kind] for w in ws)
        if any(rank[w.kind] != low for w in ws):
            steps.append("the lighter phaser")
        ws = [w for w in ws if rank[w.kind] == low]
        drones = [d.pos for d in game.incoming(ship.side) if geo.approaching_drone(ship, d)]

        def has_target(w):
            return game.in_arc(ship, w.arc, enemy.pos) or any(game.in_arc(ship, w.arc, p) for p in drones)
        idle = [w for w in ws if not w.fired and not has_target(w)]
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

    def do_dac_tractor(self, game, ship: Ship, enemy: Ship, options: dict) -> Decision:
        choice = "free" if options.get("free") else "holding"
        return Decision(choice, (R("FC.DAC.TRACTOR", "lose a tractor not holding a seeking weapon" if choice == "free"
                                   else "every tractor holds a seeking weapon: one of them is lost"),))


def repair_order(game, ship: Ship, enemy: Ship) -> list[str]:
    """FC.7B's nine steps as one priority list (the engine spends repair points down it)."""
    order: list[str] = []
    mx = dict(ship.spec.systems).get  # ship.box_max without a scan per question
    box = ship.boxes.get
    if mx("control", 0) and box("control", 0) == 0:
        order.append("control")  # 1
    if mx("tractor", 0) and box("tractor", 0) == 0:
        order.append("tractor")  # 2
    live_arcs = {p for w in ship.weapons if w.alive and w.phaser for p in arc_parts(w.arc)}
    dead = [w for w in ship.weapons if not w.alive and w.phaser]
    for part in BASIC_ARCS:  # 3
        if part in live_arcs:
            continue
        cover = [w for w in dead if part in arc_parts(w.arc) and w.id not in order]
        if cover:
            rank = {"phaser-1": 0, "phaser-2": 1, "phaser-3": 2}
            cover.sort(key=lambda w: (rank[w.kind], -geo.arc_width(w.arc), w.id))
            order.append(cover[0].id)
            live_arcs |= set(arc_parts(cover[0].arc))
    if mx("battery", 0) and box("battery", 0) == 0:
        order += ["battery", "battery"]  # 4
    elif mx("battery", 0) > 1 and box("battery", 0) == 1:
        order.append("battery")
    racks = [i for i, r in enumerate(ship.racks) if r.alive]
    if racks and all(ship.racks[i].ammo == 0 for i in racks) and ship.reloads > 0:
        order.append(f"reload-{racks[0] + 1}")  # 5
    enemy_drones = enemy.drones_left() > 0 or any(d.alive and d.owner == enemy.side for d in game.drones)
    if ship.spec.add_shots and ship.add_shots == 0 and enemy_drones:
        order.append("reload-add")  # 5: unless the opponent has no drones
    if mx("transporter", 0) and box("transporter", 0) == 0:
        order.append("transporter")  # 6
    weapons = [w.id for kind in ("phaser-1", "disruptor", "phaser-2") for w in ship.weapons
               if w.kind == kind and not w.alive]
    power = [k for k in ("warp", "impulse", "reactor") for _ in range(mx(k, 0) - box(k, 0))]
    for i in range(max(len(weapons), len(power))):  # 7: a weapon, then a power box, alternating
        if i < len(weapons):
            order.append(weapons[i])
        if i < len(power):
            order.append(power[i])
    order += [f"rack-{i + 1}" for i, r in enumerate(ship.racks) if not r.alive]
    order += [f"reload-{i + 1}" for i, r in enumerate(ship.racks) if r.ammo == 0]
    other = [w.id for w in ship.weapons if not w.alive and w.id not in order]
    order += other
    rotation = ("tractor", "lab", "control", "fhull", "rhull", "transporter", "cargo")  # 8
    missing = {k: mx(k, 0) - box(k, 0) for k in rotation}
    while any(missing.values()):
        for k in rotation:
            if missing[k] > 0:
                order.append(k)
                missing[k] -= 1
    order += ["probe"] * (mx("probe", 0) - box("probe", 0))  # 9 (FC has no armor on these ships)
    order += ["shuttle"] * (mx("shuttle", 0) - box("shuttle", 0))
    order += ["battery"] * (mx("battery", 0) - box("battery", 0))  # not in steps 7-9: last (docs/fc.md#repairs)
    return order
