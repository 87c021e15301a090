"""The FC robot's steps 2-3 (seed 001): acceleration and movement (drone waves, HETs, the 3B steps, keeping the
enemy in arc); a part of the Robot (robot.py), which inherits these steps."""
from __future__ import annotations

from ..core.controller import Decision, Reason
from typing import Any, Final, Sequence

from ..core.hexgrid import arc_shape, distance, in_arc, in_shape
from . import geometry as geo
from .robot_fire import FireSteps
from .reasons import CENTERLINED_ANYWAY, NO_TURN, NO_TURN_TO_FA, TURN_TO_FA, why
from .lookups import Lookups
from .state import Drone, Ship

# a move and why
Move = tuple[str, list[Reason]]
# a step's "no reason to change the move": one shared empty list (a robot's move asks three such steps); its callers
# only read it (``reasons += extra``, ``reasons + rs``), never change it
_NO_REASON: Final[list[Reason]] = []
# the arcs this file tests, their shapes looked up once (hexgrid.arc_shape), not by name at every test
_FA: Final[tuple[int, ...]] = arc_shape("FA")
_LS: Final[tuple[int, ...]] = arc_shape("LS")
_RS: Final[tuple[int, ...]] = arc_shape("RS")


class MovementSteps(FireSteps):
    # ---------------------------------------------------------------- 2. acceleration
    def do_accelerate(self, game: Lookups, ship: Ship, enemy: Ship, _options: Any) -> Decision:
        mark = self.dice.mark()
        total = self.roll2("acceleration", ship.side)
        can = ship.available() >= game.rules.accel_cost and not ship.stopped
        result = self.n.acceleration[total]
        if result == "accelerate":
            action, fmt = ("accel", "2d6={}: pay for acceleration{}") if can else \
                ("none", "2d6={}: accelerate, but no power (FC.GEN.POWER){}")
        elif result == "accelerate-if-fired-and-rear" and ship.fired_disruptors and geo.in_ra(ship, enemy.pos):
            action, fmt = ("accel", "2d6={}: disruptors fired and enemy in the rear arc: accelerate to get "
                                    "out of Dodge{}") if can else ("none", "2d6={}: would accelerate, no power{}")
        else:
            action, fmt = "none", "2d6={}: continue at baseline speed{}"
        return Decision(action, (why("FC.2", fmt, (total, self.n.n_acceleration), self.dice, mark),))

    # ---------------------------------------------------------------- 3. movement
    def do_move(self, game: Lookups, ship: Ship, enemy: Ship, options: Sequence[str]) -> Decision:
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

    def maneuver(self, game: Lookups, ship: Ship, enemy: Ship, options: Sequence[str], allow_turn: bool) -> Move:
        reasons: list[Reason] = []
        slip_ok = "slip-left" in options
        if allow_turn and game.drones:  # no drone in play: no wave (FC.3B0)
            wave = self.drone_wave(game, ship)
            if wave is not None:
                drones, side = wave
                mark = self.dice.mark()
                roll = self.d6("drone wave evasion", ship.side)
                n_ = self.n
                adjacent = sum(1 for d in drones if distance(d.pos, ship.pos) <= 1)
                if adjacent >= n_.drone_wave_adjacent:  # "treat a die roll of 5 as a 4": its own table
                    result, note = n_.drone_wave_evasion_adjacent[roll], n_.n_drone_wave_evasion_adjacent
                else:
                    result, note = n_.drone_wave_evasion[roll], n_.n_drone_wave_evasion
                note += n_.n_drone_wave_adjacent + n_.n_drone_wave_size + n_.n_drone_wave_one_shield + \
                    n_.n_drone_wave_range
                if result == "sideslip":
                    away = "slip-right" if side == "left" else "slip-left"
                    move = away if slip_ok else "straight"
                    reasons.append(why("FC.3B0", "d6={}: drone wave of {} from the {}: sideslip away" + (
                        "" if slip_ok else " (slip mode not satisfied: straight)") + "{}", (roll, len(drones), side,
                                                                                           note), self.dice, mark))
                    return move, reasons
                reasons.append(why("FC.3B0", "d6={}: drone wave, but go on to 3B1{}", (roll, note), self.dice, mark))
        if not ship.fired_disruptors:
            move, rs = self.step_3b1(game, ship, enemy, options, allow_turn)
        else:
            move, rs = self.step_3b2(game, ship, enemy, options, allow_turn)
        reasons += rs
        move, rs = self.avoid_down_shield(ship, enemy, move, options, allow_turn)
        if rs:
            reasons += rs  # maneuver's own list (a step's list is only read)
        return move, reasons

    def drone_wave(self, game: Lookups, ship: Ship) -> tuple[list[Drone], str] | None:
        """FC.3B0: six or more drones from the LS or RS arc (held ones count), or four hitting one shield
        this impulse, the free ones of the wave within 1-5 hexes (docs/fc.md#drone-wave: the seed's "2-5"
        cannot hold together with its "adjacent" clause, so adjacent drones count; drones farther off are
        not part of the wave and do not cancel it). Returns (drones, side) or None."""
        incoming = game.incoming(ship.side)
        n_ = self.n
        reach = n_.drone_wave_range
        free = [d for d in incoming if not d.held_by and not d.impacting and 1 <= distance(d.pos, ship.pos) <= reach]
        if not free:
            return None
        held = [d for d in incoming if d.held_by == ship.side]
        for shape, side in ((_LS, "left"), (_RS, "right")):
            group = [d for d in free if in_shape(ship.pos, ship.facing, shape, d.pos)]
            if len(group) + len(held) >= n_.drone_wave_size and group:
                return group + held, side
        by_shield: dict[int, list[Drone]] = {}
        for d in free:
            if distance(d.pos, ship.pos) <= 3:  # drones move three hexes an impulse: these hit now
                by_shield.setdefault(game.shield_toward(ship, d.pos), []).append(d)
        for shield, group in sorted(by_shield.items()):
            if len(group) >= n_.drone_wave_one_shield:
                side = "left" if shield in (5, 6) else "right" if shield in (2, 3) else (
                    "left" if in_arc(ship.pos, ship.facing, "LS", group[0].pos) else "right")
                return group, side
        return None

    def step_3b1(self, game: Lookups, ship: Ship, enemy: Ship, options: Sequence[str], allow_turn: bool) -> Move:
        slip_ok = "slip-left" in options
        if not in_shape(ship.pos, ship.facing, _FA, enemy.pos):
            if allow_turn and distance(ship.pos, enemy.pos) <= self.n.het_range:
                het = self.het_choice(game, ship, enemy, options)
                if het is not None:
                    return het
            turn = geo.turn_toward(ship, enemy.pos)
            if not allow_turn:
                return "straight", [NO_TURN_TO_FA]
            return turn, [TURN_TO_FA[turn]]
        mark = self.dice.mark()
        roll = self.d6("enemy in FA: manoeuvre", ship.side)
        result = self.n.enemy_in_fa[roll]
        if result == "slip-toward":
            if slip_ok:
                move, text = geo.slip_relative(ship, enemy.pos, True), "sideslip toward the enemy"
            elif allow_turn:
                move, text = geo.turn_toward(ship, enemy.pos), "slip mode not satisfied: turn toward the enemy"
            else:
                move, text = "straight", "slip mode and turn mode not satisfied: straight"
        elif result == "straight":
            move, text = "straight", "move straight ahead"
        else:
            move, text = (geo.slip_relative(ship, enemy.pos, False), "sideslip away from the enemy") if slip_ok else \
                ("straight", "slip mode not satisfied: straight ahead")
        return move, [why("FC.3B1B", "d6={}: {}{}", (roll, text, self.n.n_enemy_in_fa), self.dice, mark)]

    def het_choice(self, game: Lookups, ship: Ship, enemy: Ship, options: Sequence[str]) -> Move | None:
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
        n_ = self.n
        top, note = (n_.het_with_overloads, n_.n_het_with_overloads) if generous else (n_.het, n_.n_het)
        note += n_.n_het_range
        mark = self.dice.mark()
        roll = self.d6("high energy turn", ship.side)
        if roll <= top:
            return target, [why("FC.3B1AX", "d6={} (HET on 1-{}): high energy turn to centre the enemy in FA{}",
                                (roll, top, note), self.dice, mark)]
        return self._no_het(roll, top, mark, ship, enemy, note)

    def _no_het(self, roll: int, top: int, mark: int, ship: Ship, enemy: Ship, note: str = "") -> Move:
        turn = geo.turn_toward(ship, enemy.pos)
        return turn, [why("FC.3B1AX", "d6={} (HET on 1-{}): no HET{}", (roll, top, note), self.dice, mark),
                      why("FC.3B1A", "enemy not in FA arc: {} to bring it into FA (or FX)", (turn,))]

    def step_3b2(self, game: Lookups, ship: Ship, enemy: Ship, options: Sequence[str], allow_turn: bool) -> Move:
        slip_ok = "slip-left" in options
        mark = self.dice.mark()
        roll = self.d6("disruptors fired: manoeuvre", ship.side)
        down_now = geo.down_shield_toward(ship, enemy.pos)
        note = self.n.n_disruptors_fired
        if self.n.disruptors_fired[roll] == "straight":
            if allow_turn and down_now:
                for turn in ("turn-left", "turn-right"):
                    if not geo.exposes_down_shield(ship, turn, enemy.pos):
                        return turn, [why("FC.3B2", "d6={}: a down shield faces the enemy: {} to present a "
                                                    "working shield{}", (roll, turn, note), self.dice, mark)]
            if slip_ok:
                slip = geo.away_from_centerline(ship, enemy, ("slip-left", "slip-right"))
                return slip, [why("FC.3B2", "d6={}: straight on, sideslipping away from the enemy centerline{}",
                                  (roll, note), self.dice, mark)]
            return "straight", [why("FC.3B2", "d6={}: move straight ahead{}", (roll, note), self.dice, mark)]
        if allow_turn and geo.heading_for_centerline(ship, enemy):
            turn = geo.away_from_centerline(ship, enemy, ("turn-left", "turn-right"))
            if geo.exposes_down_shield(ship, turn, enemy.pos) and not down_now:
                return "straight", [why("FC.3B2", "d6={}: turning away would show a down shield: straight{}",
                                        (roll, note), self.dice, mark)]
            return turn, [why("FC.3B2", "d6={}: heading for the enemy centerline: {} away from it{}", (roll, turn, note),
                              self.dice, mark)]
        return "straight", [why("FC.3B2", "d6={}: not heading for the enemy centerline: straight{}", (roll, note),
                                self.dice, mark)]

    def avoid_down_shield(self, ship: Ship, enemy: Ship, move: str, options: Sequence[str], allow_turn: bool) -> Move:
        """FC.3.SHIELD: never choose to expose a down shield when another manoeuvre would not."""
        if 0 not in ship.shields or move.startswith("het-") or move == "decel":
            return move, _NO_REASON  # no down shield to show (the checks below would all say so)
        if geo.down_shield_toward(ship, enemy.pos) or not geo.exposes_down_shield(ship, move, enemy.pos):
            return move, _NO_REASON
        kinds = {"straight": "straight"}
        if "slip-left" in options:
            kinds["slip"] = geo.slip_relative(ship, enemy.pos, False)
        if allow_turn:
            kinds["turn"] = geo.away_from_centerline(ship, enemy, ("turn-left", "turn-right"))
        mine = "turn" if move.startswith("turn") else "slip" if move.startswith("slip") else "straight"
        others = [m for k, m in kinds.items() if k != mine and not geo.exposes_down_shield(ship, m, enemy.pos)]
        if not others:
            return move, [why("FC.3.SHIELD", "{} shows a down shield but no alternative avoids it", (move,))]
        if len(others) == 1:
            return others[0], [why("FC.3.SHIELD", "{} would show a down shield: {} instead", (move, others[0]))]
        mark = self.dice.mark()
        roll = self.d6("down-shield alternative", ship.side)
        pick = others[0] if roll <= 3 else others[1]
        return pick, [why("FC.3.SHIELD", "d6={}: {} would show a down shield; both others are safe: {}",
                          (roll, move, pick), self.dice, mark)]

    def keep_in_arc(self, game: Lookups, ship: Ship, enemy: Ship, move: str, options: Sequence[str]) -> Move:
        """FC.3.ARC (docs/fc.md#keep-in-arc): disruptors unfired, enemy in FA within 8 hexes, the move would
        take it out of FA, and power remains for all disruptors after paying: cancel the move."""
        if (move.startswith("turn") or move.startswith("het") or move == "decel" or "decel" not in options
                or ship.fired_disruptors):
            return move, _NO_REASON
        if distance(ship.pos, enemy.pos) > self.n.keep_in_arc_range or not in_shape(ship.pos, ship.facing, _FA,
                                                                                     enemy.pos):
            return move, _NO_REASON
        pos, facing = geo.after_move(ship, move)
        if in_shape(pos, facing, _FA, enemy.pos):
            return move, _NO_REASON
        disruptors = 0  # the live, unfired disruptors, counted without a list
        for w in ship.weapons:
            if w.alive and not w.fired and w.kind == "disruptor":
                disruptors += 1
        if not disruptors:
            return move, _NO_REASON
        if ship.available() - game.rules.decel_cost < game.rules.disruptor_cost * disruptors:
            return move, _NO_REASON
        return "decel", [why("FC.3.ARC", "{} would lose the enemy from the FA arc: decelerate to keep it in arc{}",
                             (move, self.n.n_keep_in_arc_range))]

    def centerline_special(self, game: Lookups, ship: Ship, enemy: Ship, move: str, options: Sequence[str]) -> Move:
        """FC.2.CENTERLINE: on the last sub-pulse, do not step onto the enemy centerline from off it."""
        if game.subpulse != 4 or move == "decel" or "decel" not in options:
            return move, _NO_REASON
        pos, _ = geo.after_move(ship, move)
        if not geo.on_centerline(enemy, pos) or geo.on_centerline(enemy, ship.pos):
            return move, _NO_REASON
        turn_ok = enemy.since_turn >= game.turn_mode(enemy)
        if geo.can_be_centerlined(enemy, ship.pos, turn_ok):
            return move, [CENTERLINED_ANYWAY]
        return "decel", [why("FC.2.CENTERLINE", "last sub-pulse: {} would enter the enemy centerline; decelerate",
                             (move,))]
