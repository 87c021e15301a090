"""A competent heuristic captain for the player's side (simulations, and the defaults offered to a person).

It arms every heavy weapon and fills the phaser capacitor, spends the rest on speed; closes to a good
range (about 3) while keeping the enemy ahead and its strongest shields toward it; fires heavy weapons
at good odds, phasers at short range or at drones and plasma torpedoes about to hit; launches drones
whenever it can. Plasma and cloak habits (scenario #6) are in player_cloak.py.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final, Sequence

from ..core.contract import Request
from ..core.controller import Decision, Reason
from ..core.hexgrid import Hex, arc_shape, distance, first_shield, in_shape, to_offset
from . import player_cloak as pc
from .energy import AS_ALLOCATION, EnergyAllocation, energy_values, shared_allocation
from .plasma import Plasma
from .movement import LEFT, RIGHT, STRAIGHT, state_index, step
from .state import DISRUPTOR, PHASER, PHOTON, Drone, Ship, Weapon

if TYPE_CHECKING:
    from .base import Target
    from .game import Game

# Final: compiled, a module global that is not Final is a dictionary lookup at every read
WANT_RANGE: Final = 3
# the FA arc's shape (hexgrid.arc_shape), looked up once, not at each of the policy's moves weighed
FA_SHAPE: Final = arc_shape("FA")


NO_SHOTS: Final = Decision({})
WHY: Final = (Reason("POLICY", "heuristic captain"),)  # logged with its energy allocation (not narrated)
NO: Final = Decision("no")
MOVES: Final = {steer: Decision(steer) for steer in (STRAIGHT, LEFT, RIGHT)}  # answers are never changed: shared


class Policy:
    """The heuristic captain of one side. It answers in contract terms (option keys, form values); only its
    energy allocation carries a reason ("POLICY", logged, not narrated). The engine also asks it for the
    suggestions offered to a person."""

    # Answers it gives whatever the state (the captain fights on): the engine applies them to a side the policy
    # flies without building a request (Game.standing); "no" changes nothing, and the question would be a
    # quarter of a simulated battle's requests.
    standing: ClassVar[dict[str, str]] = {"disengage": "no"}
    # Nor is it asked a question with one legal answer (a fire question when no weapon is ready: hold fire): it
    # keeps no memory between decisions, so not telling it changes nothing (Game.forced_unasked).
    asked_when_forced: ClassVar[bool] = False

    def __init__(self, game: Game) -> None:
        self.game = game

    def decide(self, request: Request) -> Decision:
        kind, ship = request.kind, request.subject
        if kind == "fire":
            if not self.may_fire(ship):
                return NO_SHOTS
            orders = self.fast_orders(ship)
            if not orders:
                return NO_SHOTS
            game = self.game
            return Decision({w.key: game.name_of(t) for _, w, t in orders})
        if kind == "disengage":
            return NO  # the captain fights on
        if kind == "move":
            return MOVES[self.move(ship, True)]
        if kind == "energy":
            if request.data == AS_ALLOCATION:  # flown in process: the allocation itself (energy.AS_ALLOCATION)
                return Decision(self.energy_allocation(ship), WHY)
            return Decision(energy_values(self.energy_allocation(ship), ship.cloak is not None), WHY)
        if kind == "cloak":
            return Decision("cloak" if self.cloak(ship) else "uncloaked")
        if kind == "speed":  # the 8-impulse game: its own speed; the engineer then allocates as it would
            return Decision(str(self.energy_allocation(ship).speed))
        if kind == "launch":
            what, weapons, target = request.data
            if what == "plasma":
                return Decision({"launch": list(self.launch_plasma(ship, weapons, target))})
            return Decision({"launch": list(self.launch(ship, weapons, target))})
        raise ValueError(f"the policy is not asked '{kind}'")

    # -------------------------------------------------------------------------- energy
    def energy_allocation(self, ship: Ship, speed: int | None = None) -> EnergyAllocation:
        """The policy's allocation; ``speed`` (the 8-impulse game's Chief Engineer, docs/sfb.md) asks for that
        speed instead of the policy's, as far as the power left after the weapons allows."""
        game = self.game
        budget = float(ship.power + ship.charged)  # a float: the phasers take half points
        warp = ship.warp
        arm: list[tuple[str, int]] = []
        for w in game.heavy_keys(ship):
            if w.kind == "plasma":
                continue  # below, after the direct-fire weapons
            if w.kind == "photon":
                points = 1 if w.arm == 2 else 2
                if points == 2 and warp >= 2 and budget >= 2:
                    warp -= 2
                elif points == 1 and budget >= 1:
                    pass
                else:
                    points = 0
            else:
                points = 2 if budget >= 2 else 0
            budget -= points
            arm.append((w.key, points))
        if game.has_tubes:
            lines, budget = pc.plasma_points(ship, budget)  # SFB.PLASMA.ARM: keep arming, hold
            arm += lines
        phasers = min(ship.capacity - ship.capacitor, max(0.0, budget))
        budget -= phasers
        cloak = pc.cloak_points(ship, budget, arm) if ship.cloak is not None else 0
        budget -= cloak
        top = min(game.max_speed(ship), warp + min(1, ship.impulse), int(budget))
        speed = self.safe_speed(ship, max(0, top)) if speed is None else max(0, min(speed, top))
        budget -= speed
        spare = ship.power - (ship.power + ship.charged - budget)  # power left without touching batteries
        recharge = max(0, min(ship.battery - ship.charged, int(spare)))
        return shared_allocation(speed, float(phasers), tuple(arm), recharge, cloak)

    def safe_speed(self, ship: Ship, top: int) -> int:
        """The fastest speed up to ``top`` whose turn mode does not leave the ship where it must run off the map
        (a faster speed can mean a larger turn mode); the policy never disengages by accident."""
        game = self.game
        if game.objective is not None:
            return top  # #4: the way out over the 28xx edge is the goal
        cols, rows, q, r = game.cols, game.rows, ship.hex[0], ship.hex[1]
        for speed in range(top, 0, -1):
            tm = ship.tm_table[speed]
            # the state's byte in the engine's table of movement.viable_states (no set of tuples per test)
            at = state_index(cols, rows, tm, q, r, ship.facing, min(tm, max(1, ship.straight)))
            if at >= 0 and game.viable_set(tm)[at] != 0:
                return speed
        return top

    def cloak(self, ship: Ship) -> bool:
        """G13.1: cloak whenever the cloak was paid for (it is only paid on turns with nothing to launch)."""
        return True

    def launch_plasma(self, ship: Ship, tubes: Sequence[Weapon], target: Ship) -> tuple[str, ...]:
        return tuple(w.key for w in tubes if pc.launch_now(self.game, ship, w, target))

    # -------------------------------------------------------------------------- movement
    def move(self, ship: Ship, can_turn: bool) -> str:
        game = self.game
        target = game.enemy_of(ship)
        thex = target.hex if target is not None else None
        # scenario #4: first the hexes next to the Dakota (``objective``), then the exit edge (``exiting``); tested
        # once here, not for each move (compiled, an optional string's compare is a generic call)
        objective = game.objective if not ship.objective else None
        exiting = game.objective is not None and ship.objective
        goal = objective is not None or exiting
        heavy_ready = False
        for w in ship.weapons:
            if w.ready and w.alive and (w.code == PHOTON or w.code == DISRUPTOR):
                heavy_ready = True
                break
        want = WANT_RANGE if heavy_ready else WANT_RANGE + 3
        # The score in eighths, as an int: every term is a multiple of 1/8 far below 2**50, so the float sums were
        # exact and the same comparisons follow (compiled, a float score was boxed at every store and compare).
        # Weights 2 and 0.5 per hex off the wanted range, bonus 3 and 1 for the FA arc, shields / 8 toward it.
        weight, fa_bonus = (4, 8) if goal else (16, 24)
        # typed lists or None (compiled, a list-or-tuple was iterated through Python's generic protocol)
        threats: list[Hex] | None = [d.hex for d in game.drones if d.alive and d.target == ship.name] \
            if game.drones else None
        torpedoes: list[Hex] | None = [t.hex for t in game.plasmas if t.alive and t.target == ship.name] \
            if game.plasmas else None
        shields = ship.shields
        # SFB.R3.MAP (geometry.Geometry.viable), its states looked up once for the three moves
        tm = ship.tm_table[ship.speed]
        states = game.viable_set(tm)
        cols, rows = game.cols, game.rows
        straight_on = min(tm, ship.straight + 1)
        best, best_score, scored = STRAIGHT, 0, False
        here, ahead = ship.hex, ship.facing
        for i in range(3 if can_turn else 1):
            # movement.candidates' moves in its order (straight, left, right; C3.1) without building its tuples
            if i == 0:
                steer, facing = STRAIGHT, ahead
            elif i == 1:
                steer, facing = LEFT, (ahead - 1) % 6
            else:
                steer, facing = RIGHT, (ahead + 1) % 6
            dest = step(here, facing)
            if not game.on_map(dest):  # dest not in game.cells
                exit_ok = exiting and game.scenario.exit_edge in game.board.edges_crossed(dest)
                score = 8000 if exit_ok else -8000  # +-1000
            else:
                at = state_index(cols, rows, tm, dest[0], dest[1], facing, straight_on if steer == STRAIGHT else 1)
                viable = at >= 0 and states[at] != 0
                score = 0 if viable else (-40 if exiting else -1600)  # -5, -200
                if objective is not None:  # the goal of a scenario with one (#4)
                    score -= 32 * max(0, distance(dest, objective) - 1)
                elif exiting:
                    score -= 32 * (game.board.cols - to_offset(dest)[0])
                if thex is not None:  # hexgrid.sight's three answers, each worked out (its memo missed the caches)
                    rng = distance(dest, thex)
                    score -= (rng - want if rng >= want else want - rng) * weight  # abs(), without a generic call
                    if rng:
                        if in_shape(dest, facing, FA_SHAPE, thex):
                            score += fa_bonus
                        score += shields[first_shield(dest, facing, thex) - 1]  # / 8
                if threats is not None:
                    for h in threats:
                        score += min(distance(dest, h), 4) * 4  # * 0.5
                if torpedoes is not None:
                    for h in torpedoes:  # run from plasma: every hex it must travel weakens it
                        score += distance(dest, h) * 24  # * 3
            if not scored or score > best_score:
                best, best_score, scored = steer, score, True
        return best

    # -------------------------------------------------------------------------- fire
    def may_fire(self, ship: Ship) -> bool:
        """Cheap pre-check: False when ``fire`` would choose nothing (enemy beyond 8, no drone close)."""
        game = self.game
        if game.impulse == game.impulses:
            return True
        for other in game.ships:
            if other.side != ship.side and not other.destroyed and not other.gone \
                    and distance(ship.hex, other.hex) <= 8:
                return True
        for drone in game.drones:
            if drone.target == ship.name and drone.alive and distance(ship.hex, drone.hex) <= 2:
                return True
        for torp in game.plasmas:
            if torp.target == ship.name and torp.alive and distance(ship.hex, torp.hex) <= 3:
                return True
        return False

    def wants(self, ship: Ship, weapon: Weapon, target: Target, rng: int, last: bool, capacitor: float) -> bool:
        """Is this shot worth taking? Drones about to hit us (phasers, range <= 2); the ship at good odds."""
        code = weapon.code  # the kind as an int (state.KIND_CODE)
        if isinstance(target, Drone):
            return code == PHASER and target.target == ship.name and rng <= 2
        if isinstance(target, Plasma):
            return code == PHASER and target.target == ship.name and rng <= 3
        if code == PHASER:
            return rng <= 4 or (last and capacitor >= ship.capacity and rng <= 8)
        if code == PHOTON:
            return rng <= 8 or (last and rng <= 12)
        if code == DISRUPTOR:
            return rng <= 4 or (last and rng <= 15)
        return False

    def fire(self, ship: Ship, pairs: Sequence[tuple[str, str, Weapon, Target]]) -> tuple[str, ...]:
        """The default fire order among the legal shots ``pairs`` (key, label, weapon, target)."""
        game = self.game
        chosen: list[str] = []
        used: set[str] = set()
        capacitor = ship.capacitor
        last = game.impulse == game.impulses
        # torpedoes and drones about to strike first, then the ship
        ordered = sorted(pairs, key=lambda p: (0 if isinstance(p[3], (Drone, Plasma)) else 1))
        for key, _, weapon, target in ordered:
            if weapon.key in used or not self.wants(ship, weapon, target, distance(ship.hex, target.hex), last,
                                                   capacitor):
                continue
            if weapon.kind == "phaser":
                if capacitor + 1e-9 < weapon.cost:
                    continue
                capacitor -= weapon.cost
            used.add(weapon.key)
            chosen.append(key)
        return tuple(chosen)

    def fast_orders(self, ship: Ship) -> list[tuple[Ship, Weapon, Target]]:
        """The same choice as ``fire(game.fire_options(ship))``, computed without building every option."""
        game = self.game
        ready = game.ready_weapons(ship)
        if not ready:
            return []
        if ship.cloak is not None and not ship.cloak.may_fire(game.impulse):
            return []  # SFB.CLOAK
        # F2.2 / F2.3: game.shootable_by_target, called as itself (compiled, a bound static method is a lookup)
        targets: list[Target] = [t for t in game.plasmas if t.alive and t.side != ship.side and t.target == ship.name
                         and game.shootable_by_target(t, ship)]
        targets += [d for d in game.drones if d.alive and d.side != ship.side and d.target == ship.name
                    and game.shootable_by_target(d, ship)]
        targets += game.enemies(ship)
        orders = []
        # the weapons already given a target, as bits by their place in ``ready``, every weapon of the same key
        # marked with it (a key is answered once): compiled, a set of keys was built and hashed at every question
        used = 0
        capacitor = ship.capacitor
        last = game.impulse == game.impulses
        for target in targets:
            rng = distance(ship.hex, target.hex)
            for i, weapon in enumerate(ready):
                if used & (1 << i) or not self.wants(ship, weapon, target, rng, last, capacitor):
                    continue
                if not game.bears(ship, weapon, target):
                    continue
                if isinstance(target, Plasma) and weapon.code != PHASER:
                    continue
                if weapon.code == PHASER:
                    if capacitor + 1e-9 < weapon.cost:
                        continue
                    capacitor -= weapon.cost
                for j, other in enumerate(ready):
                    if other.key == weapon.key:
                        used |= 1 << j
                orders.append((ship, weapon, target))
        return orders

    def launch(self, ship: Ship, racks: Sequence[Weapon], target: Ship) -> tuple[str, ...]:
        return (racks[0].key,) if racks else ()
