"""The Cadet robot opponent (seeds 002 and 000, "THE ROBOT OPPONENT"), one controller per robot ship.

Every decision returns the rule it follows, the dice it used and a sentence. Interpretations are in
docs/sfb.md (sections named in the comments).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..core.contract import Request
from ..core.controller import Decision, Reason
from ..core.hexgrid import distance, in_shape
from .movement import LEFT, RIGHT, STRAIGHT, candidates, seek_choice, step
from .procedure import numbers
from .robot_cloak import CloakRules
from .state import DRONE, PHOTON, Ship, Weapon

if TYPE_CHECKING:
    from .base import Target
    from .game import Game


# Final: compiled, a module global that is not Final is a dictionary lookup at every read
NOTHING: Final = Decision(())
NO_SHOTS: Final[dict[str, str]] = {}
NO_LAUNCH: Final[dict[str, list[str]]] = {"launch": []}
HOLD: Final = Decision(NO_SHOTS)
RATE_REASON: Final = Reason("SFB.R1", "each weapon fires once a turn and never within 1/4 turn of its last shot")
HOLD_COURSE_REASON: Final = Reason("SFB.R4", "no unfired weapons: continue in the same direction")
NO_TURN_REASON: Final = Reason("SFB.R3", "no unfired weapon can be brought to bear by turning: do not turn")


def _n(count: int) -> str:
    return f"{count} unfired weapon{'' if count == 1 else 's'}"


class Robot(CloakRules):
    """Flies one ship by rules SFB.R1-R9, R3.MAP and the scenario #6 rules (R.PLASMA, R.CLOAK1-4, robot_cloak.py).
    ``tiebreak``: "shields" (seed 000) or "coin" (CTH).

    It answers the engine's requests in contract terms: a move key, ``{weapon: target, ...}``,
    ``{"launch": [keys]}``. What it remembers between decisions (Primary Fire Point taken, a decided R3 tie,
    the torpedo it runs from) is game state on its ship (state.Ship): the robot reads it there and hands
    changes back in ``Decision.memory`` for the engine to store; the turn-start reload (SFB.R6) is the
    engine's (game.Game.robot_turn_start).
    """

    def __init__(self, game: Game, ship: Ship, tiebreak: str = "shields") -> None:
        self.memory: dict[str, Any] | None = None
        self.game = game
        self.ship = ship
        self.tiebreak = tiebreak
        self.n = numbers(getattr(game, "robot_rules", None))  # the procedure's numbers (sfb/procedure.py)
        self.photon_limit = self.photons_per_turn(ship)
        self.primary_range = self.n.primary_fire_range  # SFB.R2's range, read once (Numbers is an interpreted class)
        self.six = game.has_tubes or game.has_cloaks  # scenario #6 rules in play at all

    @property
    def photons_fired(self) -> int:
        return self.ship.photons_fired(self.game.turn)

    def photons_per_turn(self, ship: Ship) -> int:
        """SFB.R7 / SFB.R9: one photon a turn for two tubes (half the two-turn-arming tubes, at least one)."""
        tubes = sum(1 for w in ship.weapons if w.kind == "photon")
        return self.n.photons_per_turn(tubes)

    def decide(self, request: Request) -> Decision:
        """The answer to ``request``, with what the robot's rules make it remember (``note``) as its memory."""
        self.forget()
        kind = request.kind
        if kind == "move":
            decision = self.move()
        elif kind == "fire":
            decision = self.fire() if self.six else self.fire_normal()
            if not decision.action:
                decision = Decision(NO_SHOTS, decision.reasons) if decision.reasons else HOLD
            else:
                decision = Decision(dict(decision.action), decision.reasons)
        elif kind == "launch":
            decision = self.launch_decision(request)
        else:
            raise ValueError(f"the robot is not asked '{kind}'")
        if self.memory is not None:
            return Decision(decision.action, decision.reasons, self.memory)
        return decision

    def forget(self) -> None:
        """Nothing noted yet (the start of ``decide``). A method, not ``self.memory = None`` in ``decide``: a type
        checker would take the field to stay None there after the reset, though the rules called after it note things
        (compiled, the test of ``self.memory`` would be dropped); nor a module global, read by name at every call."""
        self.memory = None

    def note(self, name: str, value: Any) -> None:
        """Remember ``name`` after this decision (SFB.R2 primary_done, SFB.R3 tie_side, SFB.R.CLOAK4 focus): the
        engine stores it on the ship; the robot never writes game state itself."""
        if self.memory is None:
            self.memory = {}
        self.memory[name] = value

    def recall(self, name: str) -> Any:
        """What the robot remembers: noted in this decision, else as the ship holds it."""
        memory = self.memory
        if memory is not None and name in memory:
            return memory[name]
        return getattr(self.ship, name)

    def primary_done(self) -> bool:
        """``recall("primary_done")`` (SFB.R2) read as the ship's field, not looked up by its name: asked at every move
        and fire question of the robot."""
        memory = self.memory
        if memory is not None and "primary_done" in memory:
            return bool(memory["primary_done"])
        return self.ship.primary_done

    def launch_decision(self, request: Request) -> Decision:
        if self.six and self.threatened():
            return Decision(NO_LAUNCH)  # SFB.R.CLOAK4: nothing launched while a torpedo hunts it
        if request.data is not None and request.data[0] == "plasma":
            keys, reasons = self.plasma_launch()
            return Decision({"launch": list(keys)}, tuple(reasons))
        decision = self.launch()
        return Decision({"launch": list(decision.action)}, decision.reasons)

    # -------------------------------------------------------------------------- weapons
    def unfired(self) -> list[Weapon]:
        """Weapons (not drones) that have not fired this turn and may still do so (R3, R7)."""
        out: list[Weapon] = []
        turn = self.game.turn
        photons_done = None
        for w in self.ship.weapons:
            if not w.alive or w.code >= DRONE or w.fired_turn == turn:  # drones and plasma: not direct fire
                continue
            if w.code == PHOTON:
                if photons_done is None:
                    photons_done = self.photons_fired >= self.photon_limit
                if photons_done:
                    continue
            out.append(w)
        return out

    def bearing(self, target: Target) -> list[Weapon]:
        """Unfired weapons (``unfired``, inlined: asked on every impulse) that will bear on the target now and
        may fire under the firing-rate rule."""
        game = self.game
        ship = self.ship
        out: list[Weapon] = []
        photons: int | None = None
        turn = game.turn
        now, quarter = (turn - 1) * game.impulses + game.impulse, game.quarter
        for w in ship.weapons:
            if not w.alive or w.code >= DRONE or w.fired_turn == turn or now - w.last_fired < quarter:
                continue  # not unfired (R3), or E1.5 (game.rate_ok, inlined)
            if w.code == PHOTON:
                if photons is None:
                    photons = self.photons_fired
                if photons >= self.photon_limit:
                    continue  # R7
            if not game.bears(ship, w, target):  # a pure test: asked again rather than kept by (arc, rmin, rmax)
                continue
            if w.code == PHOTON:
                assert photons is not None  # counted above for this photon
                photons += 1
            out.append(w)
        return out

    def fire(self) -> Decision:
        if self.six:
            hunted = self.torpedo_fire()  # SFB.R.CLOAK2 / R.CLOAK4
            if hunted is not None:
                if self.recall("focus") is not None or hunted.action:
                    return hunted
                return self._with(hunted.reasons, self.fire_normal())  # the hunt just ended: resume
        return self.fire_normal()

    @staticmethod
    def _with(reasons: tuple[Reason, ...], decision: Decision) -> Decision:
        return Decision(decision.action, tuple(reasons) + decision.reasons)

    def fire_normal(self) -> Decision:
        game, ship = self.game, self.ship
        target = game.enemy_of(ship)
        if target is None:
            return NOTHING
        rng = distance(ship.hex, target.hex)
        uncloak = self.uncloak_reason(target) if self.six else None
        primary_done = self.primary_done()  # read once: nothing below notes it before it is read again
        weapons = None
        if uncloak is None and primary_done:
            weapons = self.bearing(target)
            if not weapons:
                return NOTHING  # R3 (or R3.MAP): nothing bears, and nothing to note; most impulses
        if uncloak is not None:
            self.note("primary_done", True)
            rule, text = uncloak.rule, uncloak.text
        elif self.must_leave(target):
            rule, text = "SFB.R3.MAP", (f"{target.name} is in a map-edge hex and must leave the map next impulse: "
                                        f"fire everything that can fire")
        elif not primary_done:
            if rng <= self.primary_range:  # SFB.R2
                self.note("primary_done", True)
                rule, text = "SFB.R2", (f"first impulse this turn within {self.n.primary_fire_range} hexes "
                                        f"(range {rng}): Primary Fire Point, fire every weapon that bears"
                                        + self.n.n_primary_fire_range)
            elif game.impulse == game.impulses:
                self.note("primary_done", True)
                rule, text = "SFB.R2", (f"no Primary Fire Point this turn (range {rng}): last impulse, fire all "
                                        f"weapons that bear")
            else:
                return NOTHING
        else:
            rule, text = "SFB.R3", ""
        if weapons is None:
            weapons = self.bearing(target)
        if not weapons:
            if rule in ("SFB.R2", "SFB.R.CLOAK1"):
                return Decision((), (Reason(rule, text + "; none bears"),))
            return NOTHING
        if rule == "SFB.R3":
            text = f"Secondary Fire Point: fire every unfired weapon that now bears (range {rng})"
        self.note("tie_side", None)  # R4: instruction #3 starts again after every firing
        reasons = [Reason(rule, text), RATE_REASON]
        for w in weapons:
            if w.code == PHOTON:
                reasons.append(Reason("SFB.R7", f"{w.key}: one photon torpedo per turn"
                                                + self.n.n_photon_tubes_per_shot))
        return Decision(tuple((w.key, target.name) for w in weapons), tuple(reasons))

    def must_leave(self, target: Ship) -> bool:
        """SFB.R3.MAP: the target is in a map-edge hex and every move it may make next impulse leaves the map."""
        game = self.game
        if target.hex not in game.edges or game.impulse >= game.impulses:
            return False
        nxt = game.impulse + 1
        if not (target.speed > 0 and game.chart[min(target.speed, game.impulses)][nxt]):
            return False
        can_turn = target.straight >= target.tm_table[target.speed]  # Ship.turn_mode(), inlined
        for _, _, dest in candidates(target.hex, target.facing, can_turn):
            if game.on_map(dest):  # dest in game.cells
                return False
        return True

    # -------------------------------------------------------------------------- drones
    def launch(self) -> Decision:
        """SFB.R5: one drone at the enemy on the first impulse of every turn."""
        n = self.n
        if self.game.impulse != n.drone_launch_impulse:
            return Decision(())
        racks = [w for w in self.ship.weapons if w.kind == "drone" and w.alive and w.ammo > 0
                 and self.game.rate_ok(w)][:n.drones_per_turn]  # one drone a rack (a rack fires once in 1/4 turn)
        if not racks:
            return Decision(())
        target = self.game.enemy_of(self.ship)
        assert target is not None  # the launch request is made only with a target (game.launch_seekers)
        note = n.n_drone_launch_impulse + n.n_drones_per_turn
        return Decision(tuple(rack.key for rack in racks),
                        tuple(Reason("SFB.R5", f"first impulse: launch one drone from {rack.key} at "
                                               f"{target.name}" + note) for rack in racks))

    # -------------------------------------------------------------------------- movement
    def move(self) -> Decision:
        game, ship = self.game, self.ship
        target = game.enemy_of(ship)
        can_turn = ship.straight >= ship.tm_table[ship.speed]  # Ship.turn_mode(), inlined
        if target is None:
            return Decision(self._safe(STRAIGHT, can_turn))
        if self.six:
            evade = self.evade_move(can_turn)  # SFB.R.CLOAK3
            if evade is not None:
                return evade
        if not self.primary_done():
            choice = seek_choice(ship.hex, ship.facing, can_turn, target.hex)
            assert choice is not None  # every move allowed: there is one
            steer, facing, dest = choice
            reason = Reason.later("SFB.R2", "pursue {} as a seeking weapon (own turn mode {}): {}",
                                  (target.name, ship.tm_table[ship.speed], steer))  # built only when read
            if game.viable(ship, steer, facing, dest):
                return Decision(steer, (reason,))
            safe = seek_choice(ship.hex, ship.facing, can_turn, target.hex, self.viable)
            steer = safe[0] if safe else self._safe(STRAIGHT, can_turn)
            return Decision(steer, (reason, Reason("SFB.R3.MAP", f"the pursuit course would take it off the map "
                                                                 f"before it could turn again: {steer}")))
        unfired = self.unfired()
        if not unfired:
            steer = self._safe(STRAIGHT, can_turn)
            reasons = [HOLD_COURSE_REASON]
            if steer != STRAIGHT:
                reasons.append(Reason("SFB.R3.MAP", f"straight on would take it off the map before it could turn "
                                                    f"again: {steer}"))
            return Decision(steer, tuple(reasons))
        if not can_turn:
            return Decision(STRAIGHT)
        side, reasons = self.turn_side(target, unfired)
        if side is None:
            steer = self._safe(STRAIGHT, can_turn)
            if steer != STRAIGHT:
                reasons.append(Reason("SFB.R3.MAP", f"straight on would take it off the map before it could turn "
                                                    f"again: {steer}"))
            return Decision(steer, tuple(reasons))
        steer = self._safe(side, can_turn)
        if steer != side:
            reasons.append(Reason("SFB.R3.MAP", f"turning {side} would take it off the map before it could turn "
                                                f"again: {steer}"))
        return Decision(steer, tuple(reasons))

    def _safe(self, wanted: str, can_turn: bool) -> str:
        """The wanted move if it keeps the ship on the map with a way on; else the nearest safe one."""
        game, ship = self.game, self.ship
        if wanted == STRAIGHT or (can_turn and (wanted == LEFT or wanted == RIGHT)):
            # the wanted move, one of the candidates, tested without building them (most answers end here)
            ahead = ship.facing
            facing = ahead if wanted == STRAIGHT else ((ahead - 1) % 6 if wanted == LEFT else (ahead + 1) % 6)
            if game.viable(ship, wanted, facing, step(ship.hex, facing)):
                return wanted
        moves = candidates(ship.hex, ship.facing, can_turn)
        for s, facing, dest in moves:  # the wanted move first (one move a steer)
            if s == wanted and game.viable(ship, s, facing, dest):
                return s
        for steer in (STRAIGHT, LEFT, RIGHT):  # then the others in this order
            if steer != wanted:
                for s, facing, dest in moves:
                    if s == steer and game.viable(ship, s, facing, dest):
                        return s
        for s, facing, dest in moves:  # no safe move (only if it started badly placed): at least stay on the map
            if s == wanted and game.on_map(dest):  # dest in game.cells
                return s
        for steer in (STRAIGHT, LEFT, RIGHT):
            if steer != wanted:
                for s, facing, dest in moves:
                    if s == steer and game.on_map(dest):
                        return s
        return STRAIGHT

    def turn_steps(self, weapon: Weapon, target: Target) -> tuple[int, int]:
        """60-degree turns left and right (1-3, 9 = never) that would bring ``weapon`` to bear, turning in place."""
        game, ship = self.game, self.ship
        origin, aim = game.geometry(ship, target)
        shape = weapon.shape  # the arc's shape (state.Weapon), for the six facings tested
        facing = ship.facing
        left = right = 9
        for k in range(1, 4):
            if in_shape(origin, (facing - k) % 6, shape, aim):
                left = k
                break
        for k in range(1, 4):
            if in_shape(origin, (facing + k) % 6, shape, aim):
                right = k
                break
        return left, right

    def turn_side(self, target: Ship, unfired: list[Weapon]) -> tuple[str | None, list[Reason]]:
        """SFB.R3: the side that brings more unfired weapons to bear; tie -> shields (seed 000) -> coin."""
        game, ship = self.game, self.ship
        rng = distance(ship.hex, target.hex)
        left = right = 0
        for w in unfired:
            if not (w.rmin <= rng <= w.rmax):
                continue  # turning cannot bring it into range (docs/sfb.md "Will bear")
            if game.bears(ship, w, target):
                continue
            kl, kr = self.turn_steps(w, target)
            if kl == 9 and kr == 9:
                continue
            if kl <= kr:
                left += 1
            if kr <= kl:
                right += 1
        if not left and not right:
            return None, [NO_TURN_REASON]
        # the sentences are built only when read (Reason.later): a simulation reads none
        if left != right:
            side = LEFT if left > right else RIGHT
            most = max(left, right)
            return side, [Reason.later("SFB.R3", "turn {}: {} unfired weapon{} that way against {}",
                                       (side, most, "" if most == 1 else "s", min(left, right)))]
        tie_side = self.recall("tie_side")
        if tie_side is not None:  # a tie already decided since the last firing: keep that way
            return tie_side, [Reason.later("SFB.R3", "{} unfired weapon{} each way: keep turning {} as decided "
                                           "since the last firing", (left, "" if left == 1 else "s", tie_side))]
        mark = game.dice.mark()
        if self.tiebreak == "shields":
            lsh = ship.shields[4] + ship.shields[5]
            rsh = ship.shields[1] + ship.shields[2]
            if lsh != rsh:
                side = LEFT if lsh > rsh else RIGHT
                self.note("tie_side", side)
                return side, [Reason("SFB.R3", f"{_n(left)} each way: turn {side}, the side with more "
                                               f"undamaged shield boxes ({max(lsh, rsh)} against {min(lsh, rsh)})")]
        heads = game.dice.coin("R3 turn direction tie", ship.side)
        side = LEFT if heads else RIGHT
        self.note("tie_side", side)
        return side, [Reason("SFB.R3", f"{_n(left)} each way" +
                             (", shields equal" if self.tiebreak == "shields" else "") +
                             f": coin toss, turn {side}", game.dice.since(mark))]
