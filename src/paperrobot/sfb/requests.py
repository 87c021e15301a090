"""Every decision point of the SFB engine as a contract Request: the legal options, presets, forms and cheap
checks, the JSON views, and the decision events. ``Requests`` is a part of the engine class (game.Game
inherits it); it builds and checks, and changes nothing.

Requests (kind: answer in contract terms):
- ``energy``: a Form (speed, phasers, one field per heavy weapon or plasma tube, recharge, cloak); presets
  "suggested" (the captain's allocation), "still", "nothing", and the same weapons at each speed band
  ("speed-N": the top speed they leave power for, 3/4, 1/2, 1/4 of it).
- ``speed``: the 8-impulse game's speed, "0" to the top the engines give (the Chief Engineer allocates).
- ``cloak``: "cloak" or "uncloaked" (G13.1).
- ``move``: "straight", "left" or "right" (the suggestion first).
- ``launch``: a Form with one multi field ``launch`` (drone racks, or plasma tubes: ``data[0]``); presets.
- ``fire``: a Form with one field per direct-fire weapon, its value the target's name or "none"
  (``{"phaser-1#1": "klingon", "photon-A": "KD1"}``; weapons left out hold fire, and the shots are resolved in
  the answer's order); each field's choices leave out what the earlier fields used up (the phaser
  capacitor). Presets "suggested", "all", "none", "heavy" and "phasers" (one weapon group fires, the other
  holds), and each legal shot alone (key "weapon>target").
- ``disengage``: "no" or "yes" (#5, at the end of every impulse).
"""
from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Final, cast

from .geometry import Geometry
from ..core.contract import Decision, Field, Form, Option, Request
from ..core.errors import IllegalAction
from ..core import hexgrid
from .data import heavy_chart, phaser_chart
from .energy import AS_ALLOCATION, EnergyAllocation, EnergyForm, energy_values
from ..core.hexgrid import distance
from .movement import LEFT, RIGHT, STRAIGHT, candidates
from .plasma import Plasma
from .state import DRONE, PHASER, Drone, Ship, Weapon
from .targets_view import fire_view

if TYPE_CHECKING:
    from .base import Target
    from .game import Game

STEERS: Final = (STRAIGHT, LEFT, RIGHT)
CLOAK_OPTIONS: Final = (Option("cloak", "cloaked: cannot fire or launch; fire at it uses 2 x range + 5"),
                 Option("uncloaked", "stay uncloaked"))
DISENGAGE_OPTIONS: Final = (Option("no", "fight on"),
                     Option("yes", "disengage now: a draw for you, a tactical victory for the robot"))
HOLD: Final = "none"  # a weapon's fire-form value when it does not fire
LAUNCHES: Final = (Field("launch", "launchers to fire", multi=True),)


def check_steer(answer: Any) -> str:
    if answer == STRAIGHT or answer == LEFT or answer == RIGHT:  # in STEERS (a global tuple, a dict lookup compiled)
        return cast(str, answer)
    raise IllegalAction(f"'{str(answer)[:40]}' is not a legal move now; choose one of straight, left, right",
                        "SFB.MOVE.COST")


def check_disengage(answer: Any) -> str:
    if answer == "no" or answer == "yes":
        return cast(str, answer)
    raise IllegalAction(f"'{str(answer)[:40]}' is not an answer here; choose yes or no", "SFB.EA")


# the fire form's fields by the weapons' keys: the same few ships in every battle of a simulation (Fields are
# immutable by use)
_FIRE_FIELDS: Final[dict[tuple[str, ...], tuple[Field, ...]]] = {}


def fire_fields(ship: Ship) -> tuple[Field, ...]:
    """One field per direct-fire weapon of ``ship``, its value the target's name or "none"."""
    keys = tuple(w.key for w in ship.weapons if w.kind not in ("drone", "plasma"))
    fields = _FIRE_FIELDS.get(keys)
    if fields is None:
        if len(_FIRE_FIELDS) >= 256:
            _FIRE_FIELDS.clear()
        fields = _FIRE_FIELDS[keys] = tuple(Field(key, f"target of {key} ({HOLD}: hold fire)") for key in keys)
    return fields


class EnergyRequest(Request):
    """The energy question. The policy flying a side in process answers it with the EnergyAllocation itself
    (``data`` AS_ALLOCATION); whoever records that answer (a caller wrapping the engine's policy: a watched game,
    a mixed ladder rung) records the form's values, as a person gives them: saves and copies replay those."""

    def encode(self, answer: Any) -> Any:
        if isinstance(answer, EnergyAllocation):
            return energy_values(answer, self.subject.cloak is not None)
        return super().encode(answer)


class ShipAsks:
    """The per-ship callables of the hot requests (move, fire, disengage), built once per ship: no closures per
    request. A side flown in process by the engine's own robot or policy (``Game.controller``), which never keeps a
    request after answering it, gets the same three Request objects again, made new: building
    hundreds of requests per battle was a measurable part of a simulation's time (core.contract.Request.reissue)."""

    def __init__(self, game: Requests, ship: Ship) -> None:
        self.move_options = partial(game.move_options, ship)
        self.fire_options = partial(game.fire_presets, ship)
        self.fire_check = partial(game.check_fire, ship)
        self.fire_form = Form(fire_fields(ship), partial(game.fire_choices, ship), self.fire_check)
        self.fire_view = partial(game.view, ship.side, fire=ship)
        self.view = partial(game.view, ship.side)
        self.move_view = partial(game.view, ship.side, move=ship)
        self.move = Request("move", ship.side, state=game, subject=ship, options=self.move_options,
                            check=check_steer, view=self.view)
        self.fire = Request("fire", ship.side, state=game, subject=ship, form=self.fire_form,
                            options=self.fire_options, check=self.fire_check, view=self.fire_view)
        self.disengage = Request("disengage", ship.side, state=game, subject=ship, options=DISENGAGE_OPTIONS,
                                 default="no", check=check_disengage, view=self.view)


class Requests(Geometry):
    """Builds the engine's requests (needs the engine's ships, policy and Geometry)."""

    # ------------------------------------------------------------------------------ building
    def asks(self, ship: Ship) -> ShipAsks:
        asks = self._asks.get(ship.name)
        if asks is None:
            asks = self._asks[ship.name] = ShipAsks(self, ship)
        return asks

    def energy_request(self, ship: Ship) -> Request:
        energy = EnergyForm(cast("Game", self), ship)
        presets = partial(self.energy_presets, ship, energy)
        view = partial(self.view, ship.side, energy=ship)
        if ship.side in self.in_process:
            # The policy flying this side answers with its EnergyAllocation (data AS_ALLOCATION), checked by the
            # engine's own check_energy: not written out as the form's values and read back (about a tenth of a
            # simulated battle's time went there). The form stays, for anyone who reads the request.
            return EnergyRequest("energy", ship.side, state=self, subject=ship, form=energy.form, options=presets,
                                 view=view, check=partial(self.check_allocation, ship, energy), data=AS_ALLOCATION)
        return EnergyRequest("energy", ship.side, state=self, subject=ship, form=energy.form, options=presets,
                             view=view)

    def energy_presets(self, ship: Ship, energy: EnergyForm) -> tuple[Option, ...]:
        return energy.presets(self.policy.energy_allocation(ship), partial(self.policy.energy_allocation, ship))

    def check_allocation(self, ship: Ship, energy: EnergyForm, answer: Any) -> EnergyAllocation:
        """The energy answer of a side flown in process: an EnergyAllocation, checked by the engine's rules
        (check_energy, as the form's check does after reading the values); any other answer as a person's."""
        if isinstance(answer, EnergyAllocation):
            cast("Game", self).check_energy(ship, answer)
            return answer
        full = Request("energy", ship.side, form=energy.form, options=partial(self.energy_presets, ship, energy))
        return cast(EnergyAllocation, full.parse(answer))

    def speed_request(self, ship: Ship) -> Request:
        """The 8-impulse game's only energy question (SFB.EA): a speed, 0 to what the engines give after the
        weapons; keys "1".."top" then "0", so a typed number n picks speed n; the captain's speed first."""
        top = self.policy.energy_allocation(ship, speed=self.impulses).speed
        default = min(top, self.policy.energy_allocation(ship).speed)
        keys = tuple(str(v) for v in range(1, top + 1)) + ("0",)

        def check(answer: Any) -> int:
            if answer in keys:
                return int(answer)
            raise IllegalAction(f"'{str(answer)[:40]}' is not a speed here; choose 0 to {top}", "SFB.EA")

        options = tuple(Option(k, f"speed {k}") for k in keys)
        return Request("speed", ship.side, state=self, subject=ship, options=options, default=str(default),
                       check=check, view=lambda: self.view(ship.side, energy=ship))

    def cloak_request(self, ship: Ship) -> Request:
        default = "cloak" if self.policy.cloak(ship) else "uncloaked"
        return Request("cloak", ship.side, state=self, subject=ship, options=CLOAK_OPTIONS, default=default,
                       view=lambda: self.view(ship.side))

    def move_request(self, ship: Ship) -> Request:
        asks = self._asks.get(ship.name)
        if asks is None:  # not ``or``: compiled, an object's truth is a generic call
            asks = self.asks(ship)
        if ship.side in self.in_process:
            return asks.move.reissue(asks.move_options, asks.view)
        return Request("move", ship.side, state=self, subject=ship, options=asks.move_options,
                       check=check_steer, view=asks.move_view)

    def fire_request(self, ship: Ship) -> Request:
        asks = self._asks.get(ship.name)
        if asks is None:  # not ``or``: compiled, an object's truth is a generic call
            asks = self.asks(ship)
        if ship.side in self.in_process:
            return asks.fire.reissue(asks.fire_options, asks.fire_view)
        return Request("fire", ship.side, state=self, subject=ship, form=asks.fire_form, options=asks.fire_options,
                       check=asks.fire_check, view=asks.fire_view)

    def launch_request(self, ship: Ship, what: str, weapons: list[Weapon], target: Ship) -> Request:
        keys = tuple(w.key for w in weapons)
        by_key = {w.key: w for w in weapons}

        def check(values: dict[str, Any]) -> list[Weapon]:
            chosen = values.get("launch", [])
            if isinstance(chosen, str):
                chosen = [chosen]
            if not isinstance(chosen, (list, tuple)):
                raise IllegalAction("a launch answer is a list of launchers", "SFB.EA")
            out: list[Weapon] = []
            for key in chosen:
                if key not in by_key or by_key[key] in out:
                    if what == "plasma":
                        raise IllegalAction(f"cannot launch '{str(key)[:40]}' now; ready with {target.name} in arc: "
                                            f"{', '.join(sorted(keys))}", "SFB.PLASMA.LAUNCH")
                    raise IllegalAction(f"cannot launch from '{str(key)[:40]}' now; racks ready: "
                                        f"{', '.join(sorted(keys))}", "SFB.R5")
                out.append(by_key[key])
            return out

        def presets() -> tuple[Option, ...]:
            out: list[Option] = []
            if not ship.robot:
                if what == "plasma":
                    suggested = self.policy.launch_plasma(ship, weapons, target)
                else:
                    suggested = self.policy.launch(ship, weapons, target)
                out.append(Option("suggested", "launch " + (", ".join(suggested) or "nothing") + " (suggested)",
                                  {"launch": list(suggested)}))
            rng = distance(ship.hex, target.hex)
            if what == "plasma":
                label = ", ".join(f"{w.key} (plasma-{w.tube.ptype.name}, {w.tube.ptype.warhead[0]} at launch, "
                                  f"{w.tube.ptype.endurance} hexes)" for w in weapons)
            else:
                label = ", ".join(f"{w.key} ({w.ammo} drones)" for w in weapons)
            out.append(Option("all", f"launch {label} at {target.name}, range {rng}", {"launch": list(keys)}))
            out.append(Option("none", "launch nothing", {"launch": []}))
            return tuple(out)

        return Request("launch", ship.side, state=self, subject=ship, data=(what, tuple(weapons), target),
                       form=Form(LAUNCHES, lambda name, earlier: keys, check), options=presets,
                       view=lambda: self.view(ship.side))

    def disengage_request(self, ship: Ship) -> Request:
        asks = self._asks.get(ship.name)
        if asks is None:  # not ``or``: compiled, an object's truth is a generic call
            asks = self.asks(ship)
        if ship.side in self.in_process:
            return asks.disengage.reissue(DISENGAGE_OPTIONS, asks.view)
        return Request("disengage", ship.side, state=self, subject=ship, options=DISENGAGE_OPTIONS, default="no",
                       check=check_disengage, view=asks.view)

    # ------------------------------------------------------------------------------ move
    def move_options(self, ship: Ship) -> tuple[Option, ...]:
        """Every move (off the map included: leaving is disengaging or loss, by scenario), the suggestion first."""
        items = []
        for steer, facing, dest in candidates(ship.hex, ship.facing, True):
            where = hexgrid.label(dest) if self.board.contains(dest) else "off the map"
            items.append(Option(steer, f"{steer} to {where} facing {hexgrid.facing_letter(facing)}"))
        suggested = STRAIGHT if ship.robot else self.policy.move(ship, True)
        items.sort(key=lambda o: o.key != suggested)
        return tuple(items)

    # ------------------------------------------------------------------------------ fire
    def fire_options(self, ship: Ship, labels: bool = True) -> list[tuple[str, str, Weapon, Any]]:
        """(key, label, weapon, target) for every legal shot of a ship now."""
        ready = self.ready_weapons(ship)
        if not ready or (ship.cloak is not None and not self.may_act(ship)):
            return []
        out: list[tuple[str, str, Weapon, Any]] = []
        targets: list[Target] = []
        targets += self.enemies(ship)
        targets += [d for d in self.drones if d.alive and d.side != ship.side]
        targets += [t for t in self.plasmas if t.alive and t.side != ship.side]
        for target in targets:
            if isinstance(target, (Drone, Plasma)) and not self.shootable_by_target(target, ship):
                continue
            for weapon in ready:
                if isinstance(target, Plasma) and weapon.kind != "phaser":
                    continue  # FP1.6: only phasers hurt plasma
                if self.bears(ship, weapon, target):
                    name = target.name if isinstance(target, Ship) else target.label
                    key = f"{weapon.key}>{name}"
                    label = f"{weapon.key} at {name}: {self.odds_text(ship, weapon, target)}" if labels else key
                    out.append((key, label, weapon, target))
        return out

    def shot_keys(self, ship: Ship) -> tuple[str, ...]:
        return tuple(key for key, _, _, _ in self.fire_options(ship, labels=False))

    def fire_choices(self, ship: Ship, name: str, earlier: dict[str, Any]) -> tuple[str, ...]:
        """Targets weapon ``name`` may fire at now ("none" first), given the weapons chosen before it: a phaser
        only while the capacitor still holds its cost (H6.1)."""
        weapon = ship.weapon(name)
        if weapon is None:
            return ()
        targets = [self.name_of(t) for _, _, w, t in self.fire_options(ship, labels=False) if w is weapon]
        if targets and weapon.kind == "phaser" and not ship.robot:
            spent = sum(w.cost for key, value in earlier.items() if value not in (None, HOLD)
                        for w in (ship.weapon(key),) if w is not None and w.kind == "phaser")
            if spent + weapon.cost > ship.capacitor + 1e-9:
                targets = []
        return (HOLD, *targets)

    def fire_presets(self, ship: Ship) -> tuple[Option, ...]:
        pairs = self.fire_options(ship)
        name = self.name_of
        out = []
        if not ship.robot:
            suggested = list(self.policy.fire(ship, pairs))
            labels = {key: label for key, label, _, _ in pairs}
            chosen = {w.key: name(t) for key, _, w, t in pairs if key in suggested}
            out.append(Option("suggested", "fire " + ("; ".join(labels[k] for k in suggested) or "nothing")
                              + " (suggested)", chosen))
        every: dict[str, str] = {}
        capacitor = ship.capacitor
        for key, _, weapon, target in pairs:
            if weapon.key in every:
                continue
            if weapon.kind == "phaser" and not ship.robot:
                if capacitor + 1e-9 < weapon.cost:
                    continue
                capacitor -= weapon.cost
            every[weapon.key] = name(target)
        if every:
            out.append(Option("all", "fire every ready weapon at its first target: "
                              + ", ".join(f"{k}>{v}" for k, v in every.items()), every))
        out.append(Option("none", "hold fire", {}))
        out += self.fire_groups(ship, pairs, every)
        out += [Option(key, label, {w.key: name(t)}) for key, label, w, t in pairs]  # one shot alone
        return tuple(out)

    def fire_groups(self, ship: Ship, pairs: list[tuple[str, str, Weapon, Any]], every: dict[str, str]) -> list[Option]:
        """Fire now or hold, per weapon group (docs/search.md "Candidates"): the heavy weapons alone (phasers held
        for later in the turn) and the phasers alone (the heavy weapons held for a closer range), each weapon at
        its first target as in "all"; offered when the group is neither empty nor all of "all"."""
        out = []
        for key, label, phasers in (("heavy", "fire the heavy weapons, hold the phasers", False),
                                    ("phasers", "fire the phasers, hold the heavy weapons", True)):
            group = {k: v for k, v in every.items() if (cast(Weapon, ship.weapon(k)).kind == "phaser") == phasers}
            if group and len(group) < len(every):
                out.append(Option(key, f"{label}: " + ", ".join(f"{k}>{v}" for k, v in group.items()), group))
        return out

    def check_fire(self, ship: Ship, answer: Any) -> list[tuple[Ship, Weapon, Any]] | dict[str, Any]:
        """The orders of a fire answer (a preset key, or ``{weapon: target}``), in the answer's order, or
        IllegalAction with the rule. No shot at all is an empty dict, whatever the answer that says so (so two
        such answers are the same action: the search compares them): holding fire (``{}``) is always legal and is
        its own action, so the driver passes the controller's Decision on as it is (core.contract.Match._drive)
        instead of making one per quiet fire step (most fire questions of a battle); the log shows it as []
        (action_json)."""
        if not answer and type(answer) is dict:
            return cast("dict[str, Any]", answer)
        if isinstance(answer, str):
            preset = next((o for o in self.fire_presets(ship) if o.key == answer), None)
            if preset is None:
                raise IllegalAction(f"'{answer[:40]}' is not an answer to this fire question; choose suggested, all, "
                                    f"none, a shot weapon>target, or weapon=target for each weapon", "SFB.EA")
            answer = preset.value
        if not isinstance(answer, dict):
            raise IllegalAction("a fire answer gives each weapon's target: {'phaser-1#1': 'klingon', ...}", "SFB.EA")
        orders = []
        spent = 0.0
        for key, target_name in answer.items():
            if target_name is None or target_name == HOLD:
                continue
            weapon = ship.weapon(key) if isinstance(key, str) else None
            if weapon is None or weapon.code >= DRONE:  # drones and plasma (state.KIND_CODE): not direct fire
                raise IllegalAction(f"'{str(key)[:40]}' is not a direct-fire weapon of {ship.name}", "SFB.EA")
            if weapon.alive and weapon.fired_turn == self.turn:
                raise IllegalAction(f"{weapon.key} can fire only once a turn (E1.5)", "SFB.R1")
            target = self.target_named(target_name) if isinstance(target_name, str) else None
            if target is None or not self.legal_shot(ship, weapon, target):
                legal = ", ".join(self.shot_keys(ship))
                raise IllegalAction(f"'{weapon.key}>{str(target_name)[:40]}' is not a legal shot now; legal: "
                                    f"{legal or 'none'}", "SFB.EA")
            if weapon.code == PHASER and not ship.robot:
                spent += weapon.cost
            orders.append((ship, weapon, target))
        if spent > ship.capacitor + 1e-9:
            raise IllegalAction(f"the phaser capacitor holds {ship.capacitor:g}, not enough for these phasers",
                                "SFB.PHASER.ENERGY")
        return orders if orders else {}

    def worth_asking(self, ship: Ship, pairs: list[tuple[str, str, Weapon, Any]] | None = None) -> bool:
        """Is a shot worth a person's thought: one (at a ship or a drone) expected to do at least 1 point, or the
        last impulse of the turn (so long shots stay possible once a turn)? Front ends answer "none" without a
        prompt otherwise: asking on every impulse from range 26 would bury the game in prompts (docs/sfb.md
        "When a person is asked")."""
        if pairs is None:
            pairs = self.fire_options(ship, labels=False)
        if not pairs:
            return False
        if self.impulse == self.impulses:
            return True
        return any(self.expected_damage(ship, w, t) >= 1.0 for _, _, w, t in pairs)

    def odds_text(self, ship: Ship, weapon: Weapon, target: Target) -> str:
        rng = distance(ship.hex, target.hex)
        eff = self.effective_range(ship, target, rng)
        where = f"range {rng}" + (f" (effective {eff}: cloaked)" if eff != rng else "")
        if isinstance(target, Plasma):
            where += f", torpedo strength {target.strength}"
        if weapon.kind == "phaser":
            chart = phaser_chart(weapon.type)
            return f"{where}, damage {'/'.join(str(chart[d][eff]) for d in range(6))} on 1-6"
        hit, dmg_by_range = heavy_chart(weapon.type)
        need = hit[eff] - (self.heavy_penalty if isinstance(target, Drone) else 0)
        return f"{where}, hits on 1-{max(0, need)} ({max(0, need) / 6:.0%}) for {dmg_by_range[rng]}"

    def expected_damage(self, ship: Ship, weapon: Weapon, target: Target) -> float:
        rng = distance(ship.hex, target.hex)
        eff = self.effective_range(ship, target, rng)
        if weapon.kind == "phaser":
            chart = phaser_chart(weapon.type)
            return sum(chart[d][eff] for d in range(6)) / 6
        hit, dmg_by_range = heavy_chart(weapon.type)
        need = hit[eff] - (self.heavy_penalty if isinstance(target, Drone) else 0)
        return float(max(0, need) / 6 * dmg_by_range[rng])

    # ------------------------------------------------------------------------------ views
    def energy_view(self, ship: Ship) -> dict[str, Any]:
        weapons: dict[str, str] = {}
        for w in ship.weapons:
            if w.kind == "photon" and w.alive:
                weapons[w.key] = {0: "empty: 2 warp starts arming", 1: "half armed: 2 warp completes it",
                                  2: "armed: 1 holds it, 0 ejects it"}[w.arm]
            elif w.kind == "disruptor" and w.alive:
                weapons[w.key] = "2 energises it for this turn"
            elif w.tube is not None and w.alive:
                weapons[w.key] = self.tube_view(w)
        return {"ship": ship.name, "warp": ship.warp, "impulse": ship.impulse, "apr": ship.apr,
                "power": ship.power, "batteries": ship.charged, "discharged": ship.battery - ship.charged,
                "capacitor": ship.capacitor, "capacity": ship.capacity, "speed": ship.speed,
                "max_speed": self.max_speed(ship), "weapons": weapons,
                "cloak_cost": ship.cloak.cost if ship.cloak is not None else 0}

    def view(self, side: str, energy: Ship | None = None, fire: Ship | None = None, move: Ship | None = None) -> dict[str, Any]:
        """What ``side`` may know, as JSON data: the turn, every ship on the map (a cloaked enemy included: the
        cadet rules keep its position known), seeking weapons, its own ships' power and weapons; for a move
        question, where each move leads (``moves``: key, hex or None off the map, facing), for front ends to draw."""
        ships = []
        for s in self.ships:
            entry: dict[str, Any] = {"name": s.name, "side": s.side, "hex": hexgrid.label(s.hex),
                     "facing": hexgrid.facing_letter(s.facing),
                     "speed": s.speed, "shields": list(s.shields), "destroyed": s.destroyed, "gone": s.gone,
                     "cloaked": bool(s.cloak is not None and s.cloak.cloaked), "internal": s.internal}
            if s.side == side:
                entry.update(capacitor=s.capacitor, batteries=s.charged, power=s.power,
                             weapons=[{"key": w.key, "type": w.type, "alive": w.alive, "ready": w.ready,
                                       "ammo": w.ammo, "fired_turn": w.fired_turn} for w in s.weapons])
            if s.side == "robot":  # what the robot's rules remember (game state: a person running it at a table
                # keeps the same notes)
                entry["memory"] = {"primary_fire_point_taken": s.primary_done, "tie_side": s.tie_side,
                                   "running_from": s.focus}
            ships.append(entry)
        seekers: list[dict[str, Any]] = [{"label": d.label, "kind": "drone", "side": d.side, "target": d.target,
                    "hex": hexgrid.label(d.hex)} for d in self.drones if d.alive]
        seekers += [{"label": t.label, "kind": "plasma", "side": t.side, "target": t.target,
                     "hex": hexgrid.label(t.hex), "strength": t.strength} for t in self.plasmas if t.alive]
        out: dict[str, Any] = {"turn": self.turn, "impulse": self.impulse, "impulses": self.impulses,
               "map": f"{self.board.cols}x{self.board.rows}", "ships": ships, "seekers": seekers}
        if energy is not None:
            out["energy"] = self.energy_view(energy)
        if fire is not None:
            pairs = self.fire_options(fire, labels=False)
            out["worth_asking"] = self.worth_asking(fire, pairs)
            out.update(fire_view(self, fire, pairs))  # targets and arcs, for front ends to draw
        if move is not None:
            out["moves"] = [{"key": steer, "hex": hexgrid.label(dest) if self.board.contains(dest) else None,
                             "facing": hexgrid.facing_letter(facing)}
                            for steer, facing, dest in candidates(move.hex, move.facing, True)]
        return out

    # ------------------------------------------------------------------------------ the log
    def record(self, request: Request, decision: Decision) -> None:
        """The decision events of a robot's answer: rule, sentence, dice (the policy's and a person's have none)."""
        if not self.rec or not decision.reasons:
            return
        ship = request.subject
        action = action_json(decision.action)
        for reason in decision.reasons:
            self.emit("decision", ship.side, ship=ship.name, request=request.kind, rule=reason.rule, text=reason.text,
                      rolls=[r.to_json() for r in reason.rolls], action=action)


def action_json(action: Any) -> Any:
    """A parsed answer as the log shows it: shots as [weapon, target] pairs, launchers by key."""
    if isinstance(action, EnergyAllocation):
        return {"speed": action.speed, "phasers": action.phasers, "arm": [list(a) for a in action.arm],
                "recharge": action.recharge, "cloak": action.cloak}
    if type(action) is dict and not action:
        return []  # held fire (check_fire): shown as no shots, as an empty list of orders
    if isinstance(action, list):
        out: list[Any] = []
        for item in action:
            if isinstance(item, tuple) and len(item) == 3:  # (ship, weapon, target)
                out.append([item[1].key, item[2].name if isinstance(item[2], Ship) else item[2].label])
            elif isinstance(item, Weapon):
                out.append(item.key)
            else:
                out.append(item)
        return out
    return action
