"""Plasma torpedoes and the cloak inside the impulse procedure: the scenario #6 steps of the engine.

``PlasmaCloakSteps`` is a part of the engine class (game.Game inherits it): its methods run at the points
of the sequence of play (energy allocation, cloak declaration after it, step 2-3 seeking weapons, step 4
launch, step 5-6 fire at torpedoes, step 7 end of impulse). The rules themselves are in plasma.py and
cloak.py; interpretations in docs/sfb-plasma-cloak.md.
"""
from __future__ import annotations

from .combat import Combat
from ..core import hexgrid
from ..core.errors import IllegalAction
from . import cloak as ck
from . import plasma as pl
from .energy import EnergyAllocation
from .movement import seek_choice, step
from .state import Drone, Ship, Weapon


class PlasmaCloakSteps(Combat):
    """The scenario #6 steps; needs the engine's board, ships, plasmas, dice, emit and shield_hit."""

    # ----------------------------------------------------------------------------------- energy

    def tube_view(self, w: Weapon) -> str:
        tube = w.tube
        assert tube is not None
        legal = "/".join(str(p) for p in tube.legal_points())
        return f"plasma-{tube.ptype.name} {pl.STATE_NAMES[tube.state]}: takes {legal}"

    def plasma_check_energy(self, ship: Ship, alloc: EnergyAllocation) -> None:
        """SFB.PLASMA.ARM and SFB.CLOAK lines of an allocation; raises IllegalAction, changes nothing."""
        for w in ship.weapons:
            if w.tube is None or not w.alive:
                continue
            points = alloc.armed(w.key)
            if points not in w.tube.legal_points():
                pl.next_state(w.tube.ptype, w.tube.state, points, w.key)  # raises with the rule's message
        cloak = getattr(alloc, "cloak", 0)
        if ship.cloak is None:
            if cloak:
                raise IllegalAction(f"{ship.name} has no cloaking device; put 0 on the cloak line", "SFB.CLOAK")
        else:
            ship.cloak.check_energy(cloak)

    def plasma_apply_energy(self, ship: Ship, alloc: EnergyAllocation) -> None:
        for w in ship.weapons:
            if w.tube is None or not w.alive:
                continue
            what = w.tube.allocate(alloc.armed(w.key))
            w.ready = w.tube.armed
            if what in ("lost", "ejected", "rolling delay", "armed"):
                self.emit("plasma-arming", ship.side, ship=ship.name, tube=w.key, what=what, rule="SFB.PLASMA.ARM")

    def declare_cloak(self, ship: Ship, want: bool, paid: int) -> None:
        """G13.1: announced after energy allocation, for the whole turn."""
        was = ship.cloak.cloaked
        ship.cloak.declare(want, paid)
        if ship.cloak.cloaked or was:
            self.emit("cloak", ship.side, ship=ship.name, cloaked=ship.cloak.cloaked, rule="SFB.CLOAK")

    # ----------------------------------------------------------------------------------- launch (step 4)

    def may_act(self, ship: Ship) -> bool:
        """G13.33-34: a cloaked ship, or one on impulse 1 after uncloaking, neither fires nor launches."""
        return ship.cloak is None or ship.cloak.may_fire(self.impulse)

    def sees(self, ship: Ship, w: Weapon, target: Ship) -> bool:
        """SFB.PLASMA.LAUNCH: the target is in the launcher's acceptable arc (fixed: the ship's FA)."""
        origin, aim = self.geometry(ship, target)
        if origin == aim:
            return True
        return pl.can_target(w.arc, origin, ship.facing, aim)

    def launchable(self, ship: Ship) -> list[Weapon]:
        if not self.may_act(ship):
            return []
        return [w for w in ship.weapons if w.tube is not None and w.tube.launchable(self.now, self.impulses)]

    def launch_plasma(self, ship: Ship, w: Weapon, target: Ship) -> pl.Plasma:
        facing = pl.launch_facing(w.arc, ship.hex, ship.facing, target.hex)
        self.plasma_count += 1
        back = step(ship.hex, (ship.facing + 3) % 6)  # F2.3: a same-hex launch is judged from one hex astern
        torp = pl.Plasma(f"{ship.name[:1].upper()}P{self.plasma_count}", ship.side, ship.name, target.name,
                         w.tube.ptype, ship.hex, facing, back, self.now, feedback=ship.hex == target.hex)
        w.tube.launch()
        w.ready = False
        w.last_fired, w.fired_turn = self.now, self.turn
        self.plasmas.append(torp)
        self.emit("plasma-launched", ship.side, ship=ship.name, tube=w.key, plasma=torp.label, target=target.name,
                  facing=hexgrid.facing_letter(facing), strength=torp.strength, rule="SFB.PLASMA.LAUNCH")
        return torp

    # ----------------------------------------------------------------------------------- move and resolve (steps 2-3)

    def plasma_moved(self, ship: Ship) -> None:
        """FP1.8: feedback only while launcher and target both stay in the launch hex."""
        for torp in self.plasmas:
            if torp.feedback and ship.name in (torp.owner, torp.target):
                torp.feedback = False

    def move_plasmas(self, volleys: dict[tuple[str, int], int]) -> None:
        """SFB.PLASMA.MOVE: every plasma moves on every impulse (scenario top speed), first straight ahead, then
        seeking (F2 special rule, no controlling player); it strikes on entering its target's hex, or when the
        target enters its hex; past its endurance, or at zero strength, it is gone. Damage joins ``volleys``."""
        for torp in self.plasmas:
            if not torp.alive:
                continue
            target = self.by_name[torp.target]
            if not target.active:
                torp.alive = False
                self.emit("plasma-lost", torp.side, plasma=torp.label, why="its target is gone")
                continue
            if torp.hex == target.hex:  # the target is in its hex (same-hex launch, or it entered): it strikes
                if torp.moves == 0 and torp.feedback:
                    # F2.3: launched in the target's hex, neither has moved: judged from one hex astern of the launcher
                    shield = self.shield_hit(target, torp.prev_hex, "plasma launched in its target's hex")
                else:  # the target entered the weapon's hex (F2.1): the shield leading into it, as for drones
                    direction = hexgrid.facing_toward(target.prev_hex, target.hex)
                    shield = hexgrid.shield_facing_direction(target.facing, direction[0]) if direction else 1
                self.plasma_impact(torp, target, shield, volleys)
                continue
            if pl.must_go_straight(torp.moves):
                steer, facing, dest = "straight", torp.facing, step(torp.hex, torp.facing)
            else:
                choice = seek_choice(torp.hex, torp.facing, True, target.hex)
                assert choice is not None  # every move allowed: there is one
                steer, facing, dest = choice
            torp.prev_hex, torp.hex, torp.facing = torp.hex, dest, facing
            torp.moves += 1
            torp.feedback = False
            if not self.board.contains(dest):
                torp.alive = False
                self.emit("plasma-lost", torp.side, plasma=torp.label, why="left the map")
                continue
            if self.rec:
                self.emit("plasma-moved", torp.side, plasma=torp.label, steer=steer, to=hexgrid.label(dest),
                          strength=torp.strength)
            if dest == target.hex:
                self.plasma_impact(torp, target, self.shield_hit(target, torp.prev_hex, "plasma"), volleys)
            elif pl.fizzled(torp):
                torp.alive = False
                self.emit("plasma-lost", torp.side, plasma=torp.label, why="endurance", rule="SFB.PLASMA.MOVE")
        self.plasmas = [t for t in self.plasmas if t.alive]

    def plasma_impact(self, torp: pl.Plasma, target: Ship, shield: int, volleys: dict[tuple[str, int], int]) -> None:
        """Resolve Seeking Weapons: strength at impact (SFB.PLASMA.STRENGTH), the cloak roll (SFB.CLOAK), and
        feedback on the launcher (SFB.PLASMA.FEEDBACK)."""
        torp.alive = False
        warhead = torp.strength
        damage = warhead
        if target.cloak is not None and target.cloak.cloaked:
            hits, damage, roll = ck.seeking_roll(self.dice, warhead, f"plasma {torp.label}", target.side)
            self.emit("cloak-roll", target.side, weapon=torp.label, target=target.name, roll=roll.value, hits=hits,
                      damage=damage, rule="SFB.CLOAK")
            if not hits:
                return
        self.emit("plasma-impact", torp.side, plasma=torp.label, target=target.name, shield=shield, travelled=torp.moves,
                  strength=warhead, damage=damage, rule="SFB.PLASMA.STRENGTH")
        if damage:
            volleys[(target.name, shield)] = volleys.get((target.name, shield), 0) + damage
        owner = self.by_name.get(torp.owner)
        if torp.feedback and owner is not None and owner.active:
            points = pl.feedback(warhead)
            if points:
                origin, aim = owner.prev_hex, target.prev_hex
                fb_shield = 1 if origin == aim else hexgrid.shield_facing_direction(
                    owner.facing, hexgrid.facing_toward(origin, aim)[0])
                self.emit("feedback", owner.side, ship=owner.name, plasma=torp.label, shield=fb_shield, damage=points,
                          rule="SFB.PLASMA.FEEDBACK")
                volleys[(owner.name, fb_shield)] = volleys.get((owner.name, fb_shield), 0) + points

    def cloak_roll_drone(self, drone: Drone, target: Ship, damage: int) -> int:
        """SFB.CLOAK for drones: a drone entering a cloaked ship's hex misses on 1-4, does half on 5-6."""
        if target.cloak is None or not target.cloak.cloaked:
            return damage
        hits, dealt, roll = ck.seeking_roll(self.dice, damage, f"drone {drone.label}", target.side)
        self.emit("cloak-roll", target.side, weapon=drone.label, target=target.name, roll=roll.value, hits=hits,
                  damage=dealt, rule="SFB.CLOAK")
        return dealt

    # ----------------------------------------------------------------------------------- fire (steps 5-6)

    def hit_plasma(self, torp: pl.Plasma, points: int) -> None:
        """FP1.6: phaser damage is recorded; every 2 points take 1 off the warhead, for good."""
        torp.phaser += points
        if torp.strength <= 0 and torp.alive:
            torp.alive = False
            self.emit("plasma-destroyed", torp.side, plasma=torp.label, rule="SFB.PLASMA.STRENGTH")

    # ----------------------------------------------------------------------------------- tube losses

    def note_tube_losses(self) -> None:
        """After damage: a plasma tube box destroyed while armed opens its 1/4-turn window (SFB.PLASMA.TUBE)."""
        for ship in self.ships:
            for w in ship.weapons:
                if w.tube is not None and not w.alive and w.tube.alive:
                    w.tube.destroy(self.now)
                    if w.tube.lost_at >= 0:
                        self.emit("plasma-tube", ship.side, ship=ship.name, tube=w.key,
                                  until=pl.tube_deadline(w.tube.lost_at, self.impulses), rule="SFB.PLASMA.TUBE")

    def tube_end_impulse(self) -> None:
        """SFB.PLASMA.TUBE: a destroyed tube's torpedo is lost once its 1/4-turn window has passed."""
        for ship in self.ships:
            for w in ship.weapons:
                if w.tube is not None and not w.tube.alive and w.tube.expire(self.now, self.impulses):
                    self.emit("plasma-arming", ship.side, ship=ship.name, tube=w.key, what="lost with its tube",
                              rule="SFB.PLASMA.TUBE")
