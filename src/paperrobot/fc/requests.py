"""The legal answers of every FC request: options, forms, and the checks that run before the engine resumes.

Each ``*_request`` builds the Request the engine yields; its ``check`` (or its form's check) turns an answer
in contract terms (an option key, or a form's values) into the engine's action, or raises IllegalAction
naming the FC rule it breaks. Nothing here changes game state. ``encode(kind, action)`` turns an engine
action (what the robot and the policy compute) back into contract terms.

Contract answers, by request kind:
  allocate   form {"speed": 16, "regen": [1, 1], "hold": ["p3"], "photons": ["phot-1"]} (regen: shield numbers,
             a number repeated for two boxes)
  accelerate "none" | "accel" | "emergency"
  move       "straight" | "turn-left" | ... | "het-A".."het-F" (the legal moves only)
  defend     form {"order": [drone ids], "<drone id>": [steps in order]}
  reinforce  "0".."cap"
  fire       form {"shot1": "ph1-1@ship", "shot2": "disr-1@ship:overload", "shot3": "ph3-1@p2", ...} in firing
             order; "none" (or missing) fires nothing
  launch     form {"launch1": "ship", "launch2": "p4", ...}; "none" launches nothing
  batteries  a number ("0" .. the most that can be stored)
  repair     form {"order": [systems, weapon ids, rack-N, reload-N, reload-add]} (a repeated name repairs two boxes)
  transfer   form {"move1": "1>2:4", ...}: from shield, to shield, boxes
  dac_phaser a phaser id ; dac_tractor "free" | "holding"
"""
from __future__ import annotations

from typing import Any

from ..core.contract import Field, Form, Option, Request
from ..core.errors import IllegalAction
from ..core.hexgrid import distance

SPEEDS = (0, 8, 16, 24)
DEFENCE_STEPS = ("add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "phaser-1", "phaser-2", "tractor")
NONE = ("", "none", None)
PLAIN = frozenset(("accelerate", "move", "dac_phaser", "dac_tractor"))  # answers that are the engine's action
EPS = 1e-9


def num_key(x: float) -> str:
    """A number as an option key that reads back exactly."""
    return str(int(x)) if float(x) == int(x) else repr(float(x))


def _list(value: Any, name: str, rule: str) -> list:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, (str, int)):
        return [value] if value not in NONE else []
    raise IllegalAction(f"{name} must be a list, not {type(value).__name__}", rule)


def _int(value: Any, name: str, rule: str) -> int:
    if isinstance(value, bool):
        raise IllegalAction(f"{name} must be a whole number", rule)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value == int(value):
        return int(value)
    if isinstance(value, str) and value.strip().isascii() and value.strip().lstrip("-").isdigit() and len(value) < 6:
        return int(value)
    raise IllegalAction(f"{name} must be a whole number, not {str(value)[:20]!r}", rule)


def form_parser(check, known: frozenset, presets, kind: str):
    """A form request's parser: a dict of values (only this form's fields) or a preset's key, through ``check``.
    The same answers as Request.parse with the form, without building a set per answer (the hot path)."""
    def parse(answer):
        if isinstance(answer, dict):
            for name in answer:
                if name not in known:
                    raise IllegalAction(f"{str(name)[:30]!r} is not a field of this form; the fields are "
                                        f"{', '.join(sorted(known))}")
            return check(answer)
        if isinstance(answer, str):
            for option in presets():
                if option.key == answer:
                    return check(option.value)
        shown = ", ".join(o.key for o in presets())
        raise IllegalAction(f"{str(answer)[:40]!r} is not an answer to this {kind} question; choose one of: {shown}, "
                            f"or the form's values")
    return parse


def _options(presets):
    """Presets as Options; a duplicate of an earlier preset's values is left out."""
    out, seen = [], []
    for key, label, value in presets:
        if value in seen:
            continue
        seen.append(value)
        out.append(Option(key, label, value))
    return tuple(out)


# ------------------------------------------------------------------------------- allocate (FC.1)
ALLOCATE_FIELDS = (Field("speed", "baseline speed: 0, 8, 16 or 24"),
                   Field("regen", "shield boxes to regenerate: shield numbers, repeat one for two boxes", True),
                   Field("hold", "held drones to keep holding (1 each; a released drone strikes in impulse 1)", True),
                   Field("photons", "photon torpedoes to arm or hold", True))


def photon_cost(game, w) -> float:
    return game.rules.photon_hold_cost if w.arm == 2 else game.rules.photon_load_cost


def allocation_check(game, ship, values: dict) -> dict:
    """FC.1: the allocation as the engine applies it, or IllegalAction."""
    speed = _int(values.get("speed", 0), "speed", "FC.1A")
    if speed not in SPEEDS:
        raise IllegalAction(f"baseline speed {speed} is not one of 0, 8, 16, 24", "FC.1A")
    regen = [_int(n, "a shield number", "FC.1B") for n in _list(values.get("regen"), "regen", "FC.1B")]
    for n in regen:
        if not 1 <= n <= 6:
            raise IllegalAction(f"there is no shield #{n}", "FC.1B")
        if regen.count(n) > ship.shield_max[n - 1] - ship.shields[n - 1]:
            raise IllegalAction(f"shield #{n} has not that many disabled boxes to regenerate", "FC.1B")
    held = {d.id for d in game.drones if d.alive and d.held_by == ship.side}
    hold = [str(d) for d in _list(values.get("hold"), "hold", "FC.1C")]
    for did in hold:
        if did not in held:
            raise IllegalAction(f"drone {did[:30]!r} is not held in this ship's tractor beam", "FC.1C")
    photons = [str(w) for w in _list(values.get("photons"), "photons", "FC.1A")]
    for wid in photons:
        w = next((w for w in ship.weapons if w.id == wid), None)
        if w is None or w.kind != "photon" or not w.alive:
            raise IllegalAction(f"{wid[:30]!r} is not a working photon torpedo", "FC.1A")
    action = {"speed": speed, "regen": regen, "hold": hold, "photons": photons}
    cost = game.allocation_cost(ship, action)
    if cost > ship.available() + EPS:
        raise IllegalAction(f"this allocation costs {cost:g} but only {ship.available():g} is available",
                            "FC.GEN.POWER")
    return action


def _allocate_budget(game, ship, earlier: dict) -> float:
    budget = ship.available() - _int(earlier.get("speed") or 0, "speed", "FC.1A") * ship.spec.move_cost
    budget -= game.rules.regen_cost * len(_list(earlier.get("regen"), "regen", "FC.1B"))
    budget -= game.rules.tractor_hold_cost * len(_list(earlier.get("hold"), "hold", "FC.1C"))
    return budget


def allocate_choices(game, ship, name: str, earlier: dict) -> tuple:
    """Each field's values given the fields before it; a multi field lists values legal all together."""
    rules = game.rules
    if name == "speed":
        return tuple(s for s in SPEEDS if s * ship.spec.move_cost <= ship.available() + EPS)
    budget = _allocate_budget(game, ship, earlier)
    if name == "regen":
        room = sorted((n for n in range(1, 7) if ship.shields[n - 1] < ship.shield_max[n - 1]),
                      key=lambda n: (ship.shields[n - 1], n))
        return tuple(room[:max(0, int((budget + EPS) // rules.regen_cost))])
    if name == "hold":
        held = [d.id for d in game.drones if d.alive and d.held_by == ship.side]
        return tuple(held[:max(0, int((budget + EPS) // rules.tractor_hold_cost))])
    if name == "photons":
        out = []
        for w in ship.live_weapons("photon"):
            if photon_cost(game, w) <= budget + EPS:
                out.append(w.id)
                budget -= photon_cost(game, w)
        return tuple(out)
    return ()


def allocate_request(game, ship) -> Request:
    form = Form(ALLOCATE_FIELDS, lambda name, earlier: allocate_choices(game, ship, name, earlier),
                lambda values: allocation_check(game, ship, values))

    def presets():
        return _options((("suggested", "the player policy's allocation", _policy(game, "allocate", ship)),
                         ("drift", "speed 0, nothing else", {"speed": 0, "regen": [], "hold": [], "photons": []})))
    return Request("allocate", ship.side, state=game, subject=ship, options=presets, form=form,
                   view=game.view_fns[ship.side], prompt="Energy allocation")


# ------------------------------------------------------------------------------- accelerate (FC.2)
ACCELERATE_LABELS = {"none": "no acceleration", "accel": "accelerate: one more move this impulse",
                     "emergency": "emergency deceleration: stop this turn"}


def accelerate_legal(game, ship) -> tuple[str, ...]:
    if not ship.stopped and ship.available() >= game.rules.accel_cost:
        return ("none", "accel", "emergency")
    return ("none", "emergency")


def accelerate_check(game, ship, answer: Any) -> str:
    if answer in ("none", "emergency"):
        return answer
    if answer == "accel":
        if ship.stopped:
            raise IllegalAction("a ship that made an emergency deceleration cannot accelerate", "FC.2")
        if ship.available() < game.rules.accel_cost:
            raise IllegalAction("no power left to accelerate", "FC.GEN.POWER")
        return answer
    raise IllegalAction(f"{str(answer)[:30]!r} is not accel, none or emergency", "FC.2")


def accelerate_request(game, ship) -> Request:
    asks = game.forms.get(("accelerate", ship.side))
    if asks is None:  # built once per ship: they read the state when called, while the request is open
        options = lambda: tuple(Option(k, ACCELERATE_LABELS[k]) for k in accelerate_legal(game, ship))  # noqa: E731
        check = lambda answer: accelerate_check(game, ship, answer)  # noqa: E731
        asks = game.forms[("accelerate", ship.side)] = (options, check, _accelerate(game, ship, options, check))
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new
        return asks[2].reissue(asks[0], game.view_fns[ship.side])
    return _accelerate(game, ship, asks[0], asks[1])


def _accelerate(game, ship, options, check) -> Request:
    return Request("accelerate", ship.side, state=game, subject=ship, options=options, default="none",
                   check=check, view=game.view_fns[ship.side], prompt="Accelerate this impulse?")


# ------------------------------------------------------------------------------- move (FC.3)
def move_request(game, ship, moves: list[str]) -> Request:
    """``moves``: the legal moves now (``Game.legal_moves``); the check and options read them from the game."""
    game.moves[ship.side] = moves
    asks = game.forms.get(("move", ship.side))
    if asks is None:
        def check(answer, side=ship.side):
            legal = game.moves[side]
            if answer in legal:
                return answer
            raise IllegalAction(f"{str(answer)[:30]!r} is not possible now (legal: {', '.join(legal)})", "FC.3A")
        options = lambda side=ship.side: tuple(Option(m) for m in game.moves[side])  # noqa: E731
        asks = game.forms[("move", ship.side)] = (options, check, _move(game, ship, moves, options, check))
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new
        return asks[2].reissue(asks[0], game.view_fns[ship.side], moves)
    return _move(game, ship, moves, asks[0], asks[1])


def _move(game, ship, moves, options, check) -> Request:
    return Request("move", ship.side, state=game, subject=ship, data=moves, options=options, default="straight",
                   check=check, view=game.view_fns[ship.side], prompt="Move")


# ------------------------------------------------------------------------------- defend (FC.4)
def defend_check(game, ship, drone_ids: list[str], values: dict) -> list:
    order = [str(d) for d in _list(values.get("order"), "order", "FC.4A")]
    plan = []
    for did in order + [d for d in drone_ids if d not in order]:
        if did not in drone_ids:
            raise IllegalAction(f"drone {did[:30]!r} is not an impacted weapon of this ship", "FC.4A")
        steps = [str(s) for s in _list(values.get(did), did, "FC.4B")]
        for step in steps:
            if step not in DEFENCE_STEPS:
                raise IllegalAction(f"{step[:30]!r} is not a defence step ({', '.join(DEFENCE_STEPS)})", "FC.4B")
        if did in order or steps:
            plan.append([did, steps])
    return plan


def defend_request(game, ship, drone_ids: list[str]) -> Request:
    fields = (Field("order", "drones to defend against, in order", True),) + tuple(
        Field(did, f"defences against drone {did}, in order, each only while it survives", True) for did in drone_ids)

    def choices(name, earlier):
        return tuple(drone_ids) if name == "order" else DEFENCE_STEPS

    form = Form(fields, choices, lambda values: defend_check(game, ship, drone_ids, values))

    def presets():
        every = {"order": list(drone_ids), **{d: ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]
                                              for d in drone_ids}}
        return _options((("suggested", "the player policy's defence", encode("defend", _policy(game, "defend", ship,
                                                                                               drone_ids))),
                         ("everything", "every defence against every drone", every),
                         ("nothing", "no defence", {"order": []})))
    return Request("defend", ship.side, state=game, subject=ship, data=drone_ids, options=presets, form=form,
                   view=game.view_fns[ship.side], prompt="Defensive fire: drones strike your ship")


# ------------------------------------------------------------------------------- reinforce (FC.5F)
def reinforce_request(game, ship, info: dict) -> Request:
    cap = info["cap"]

    def check(answer):
        n = _int(answer, "reinforcement", "FC.5F")
        if not 0 <= n <= cap:
            raise IllegalAction(f"reinforcement must be 0 to {cap} (working batteries and power)", "FC.5F")
        return n

    def default():
        return str(int(_policy(game, "reinforce", ship, info)))
    return Request("reinforce", ship.side, state=game, subject=ship, data=info,
                   options=lambda: (Option(default(), "suggested"),) + tuple(
                       Option(str(n)) for n in range(cap + 1) if str(n) != default()),
                   check=check, view=game.view_fns[ship.side],
                   prompt=f"{info['damage']} damage on shield #{info['shield']}: reinforce with how many (0-{cap})?")


# ------------------------------------------------------------------------------- fire (FC.5)
_SHOT_FIELDS: dict[int, tuple] = {}


def shot_fields(n: int) -> tuple:
    """The fields of a volley of up to ``n`` shots, and their names."""
    found = _SHOT_FIELDS.get(n)
    if found is None:
        fields = tuple(Field(f"shot{i}", f"shot {i}: weapon@target[:mode], or none") for i in range(1, n + 1))
        names = tuple(f.name for f in fields)
        found = _SHOT_FIELDS[n] = (fields, names, frozenset(names))
    return found


def shot_key(wid: str, tgt: str, mode: str) -> str:
    return f"{wid}@{tgt}" + (f":{mode}" if mode else "")


def parse_shot(text: Any) -> tuple[str, str, str]:
    if not isinstance(text, str):
        raise IllegalAction(f"a shot is weapon@target[:mode], not {str(text)[:30]!r}", "FC.GEN.ARC")
    head, _, mode = text.partition(":")
    wid, _, tgt = head.partition("@")
    return wid.strip(), (tgt.strip() or "ship"), mode.strip()


def shot_cost(game, ship, wid: str, tgt: str, mode: str, enemy_pos=None) -> tuple[Any, float]:
    """(weapon, cost) of one shot, or IllegalAction naming the rule (FC.GEN.ARC, FC.5A)."""
    w = game.weapon_index[ship.side].get(wid)
    if w is None:
        raise IllegalAction(f"{ship.spec.name} has no weapon {wid[:30]!r}", "FC.GEN.ARC")
    if w.fired or not w.alive:
        raise IllegalAction(f"{wid} cannot fire (each weapon fires once per turn)", "FC.GEN.ARC")
    if tgt == "ship":
        if mode not in ("", "as3", "overload") or (mode == "as3" and not w.phaser) or (mode == "overload" and w.phaser):
            raise IllegalAction(f"{mode[:30]!r} is not a fire mode of {wid}", "FC.GEN.ARC")
        pos = enemy_pos or game.enemy(ship.side).pos
        if not game.in_arc(ship, w.arc, pos):
            raise IllegalAction(f"the enemy ship is not in the {w.arc} arc of {wid}", "FC.GEN.ARC")
    else:
        drone = next((d for d in game.drones if d.id == tgt and d.alive), None)
        if drone is None:
            raise IllegalAction(f"there is no drone {tgt[:30]!r}", "FC.4A")
        if not w.phaser:
            raise IllegalAction("only phasers fire at drones", "FC.5A")
        if mode not in ("", "as3"):
            raise IllegalAction(f"{mode[:30]!r} is not a fire mode of {wid} at a drone", "FC.GEN.ARC")
        pos = drone.pos
        if not game.in_arc(ship, w.arc, pos):
            raise IllegalAction(f"drone {tgt} is not in the {w.arc} arc of {wid}", "FC.GEN.ARC")
    rng = distance(ship.pos, pos)
    cost = game.weapon_cost(w, mode, rng)
    if cost is None:
        raise IllegalAction(f"{wid} cannot fire {mode or 'standard'} at range {rng}", "FC.GEN.ARC")
    return w, cost


def fire_check(game, ship, names: tuple, values: dict) -> list:
    if not values:
        return []  # hold fire (the answer most often given)
    shots, used, spent, enemy_pos = [], set(), 0.0, None
    for name in names:
        text = values.get(name)
        if text in NONE:
            continue
        wid, tgt, mode = parse_shot(text)
        if wid in used:
            raise IllegalAction(f"{wid} cannot fire (each weapon fires once per turn)", "FC.GEN.ARC")
        enemy_pos = enemy_pos or game.enemy(ship.side).pos
        w, cost = shot_cost(game, ship, wid, tgt, mode, enemy_pos)
        spent += cost
        if spent > ship.available() + EPS:
            raise IllegalAction(f"no power to fire {wid} ({cost:g} needed)", "FC.GEN.POWER")
        used.add(wid)
        shots.append([wid, tgt, mode, False])
    return shots


def legal_shots(game, ship, used=(), budget: float | None = None) -> list[tuple[str, str]]:
    """(key, label) of every shot one weapon not in ``used`` may take now within ``budget``."""
    budget = ship.available() if budget is None else budget
    enemy = game.enemy(ship.side)
    drones = [d for d in game.drones if d.alive and d.owner != ship.side]
    out = []
    for w in ship.weapons:
        if not w.alive or w.fired or w.id in used:
            continue
        modes = ("", "as3") if w.kind in ("phaser-1", "phaser-2") else ("",) if w.phaser else ("", "overload")
        targets = [("ship", enemy.pos)] + ([(d.id, d.pos) for d in drones] if w.phaser else [])
        for tgt, pos in targets:
            if not game.in_arc(ship, w.arc, pos):
                continue
            rng = distance(ship.pos, pos)
            for mode in modes:
                cost = game.weapon_cost(w, mode, rng)
                if cost is None or cost > budget + EPS:
                    continue
                what = "the enemy ship" if tgt == "ship" else f"drone {tgt}"
                out.append((shot_key(w.id, tgt, mode), f"{w.id} {mode or 'standard'} at {what} (range {rng}, "
                                                        f"cost {cost:g})"))
    return out


def fire_form(game, ship, n: int) -> tuple:
    """The form of a volley of up to ``n`` shots of ``ship``, its presets and its parser, built once per ship and
    size: they read the state when called, which is the state of the open request."""
    key = ("fire", ship.side, n)
    found = game.forms.get(key)
    if found is not None:
        return found
    fields, names, known = shot_fields(n)

    def choices(name, earlier):
        used, spent = set(), 0.0
        for prev in names[:names.index(name)]:
            text = earlier.get(prev)
            if text in NONE:
                continue
            wid, tgt, mode = parse_shot(text)
            spent += shot_cost(game, ship, wid, tgt, mode)[1]
            used.add(wid)
        return ("none",) + tuple(k for k, _ in legal_shots(game, ship, used, ship.available() - spent))

    def check(values):
        return fire_check(game, ship, names, values)

    def presets():
        hold = dict.fromkeys(names, "none")
        return _options((("suggested", "the player policy's fire", {**hold, **encode("fire", _policy(game, "fire",
                                                                                                        ship))}),
                         ("hold", "hold fire", hold)))
    form, parse = Form(fields, choices, check), form_parser(check, known, presets, "fire")
    found = game.forms[key] = (form, presets, parse, _fire(game, ship, form, presets, parse))
    return found


def fire_request(game, ship) -> Request:
    n = 0
    for w in ship.weapons:
        if w.alive and not w.fired:
            n += 1
    form, presets, parse, kept = fire_form(game, ship, n)
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new
        return kept.reissue(presets, game.view_fns[ship.side])
    return _fire(game, ship, form, presets, parse)


def _fire(game, ship, form, presets, parse) -> Request:
    return Request("fire", ship.side, state=game, subject=ship, options=presets, form=form, check=parse,
                   view=game.view_fns[ship.side], prompt="Offensive fire")


# ------------------------------------------------------------------------------- launch (FC.6)
def launch_targets(game, ship) -> tuple[str, ...]:
    return ("ship",) + tuple(d.id for d in game.drones if d.alive and d.target == ship.side)


def launch_check(game, ship, names: tuple, values: dict) -> list:
    targets = [values.get(n) for n in names if values.get(n) not in NONE]
    legal = launch_targets(game, ship)
    for tgt in targets:
        if tgt not in legal:
            raise IllegalAction(f"{str(tgt)[:30]!r} is not a drone seeking this ship", "FC.6D")
    if len(targets) > len(ship.ready_racks()):
        raise IllegalAction("no drone rack is ready (one launch per rack per turn)", "FC.6A")
    return targets


_LAUNCH_FIELDS: dict[int, tuple] = {}


def launch_fields(n: int) -> tuple:
    found = _LAUNCH_FIELDS.get(n)
    if found is None:
        fields = tuple(Field(f"launch{i}", "a drone's target: ship, a drone id (counter-drone), or none")
                       for i in range(1, n + 1))
        names = tuple(f.name for f in fields)
        found = _LAUNCH_FIELDS[n] = (fields, names, frozenset(names))
    return found


def launch_request(game, ship) -> Request:
    n = len(ship.ready_racks())
    key = ("launch", ship.side, n)
    found = game.forms.get(key)
    if found is None:
        fields, names, known = launch_fields(n)

        def check(values):
            return launch_check(game, ship, names, values)

        def presets():
            every, none = dict.fromkeys(names, "ship"), dict.fromkeys(names, "none")
            return _options((("suggested", "the player policy's launch",
                              {**none, **encode("launch", _policy(game, "launch", ship))}),
                             ("all", "every ready rack at the enemy ship", every), ("none", "no launch", none)))
        form = Form(fields, lambda name, earlier: ("none",) + launch_targets(game, ship), check)
        found = game.forms[key] = (form, presets, form_parser(check, known, presets, "launch"))
    form, presets, parse = found
    return Request("launch", ship.side, state=game, subject=ship, options=presets, form=form, check=parse,
                   view=game.view_fns[ship.side], prompt="Launch drones")


# ------------------------------------------------------------------------------- end of turn (FC.7)
def battery_room(ship) -> float:
    return max(0.0, min(ship.battery_cap() - ship.battery, ship.energy))


def batteries_request(game, ship) -> Request:
    top = battery_room(ship)

    def check(answer):
        try:
            store = float(answer) if isinstance(answer, (str, int, float)) and not isinstance(answer, bool) else None
        except ValueError:
            store = None
        if store is None or store != store or store < 0 or store > top + EPS:
            raise IllegalAction(f"can store 0 to {top:g} in batteries", "FC.7A")
        return store
    return Request("batteries", ship.side, state=game, subject=ship,
                   options=lambda: (Option(num_key(top), f"store {top:g} (as much as possible)"),) + (
                       (Option("0", "store nothing"),) if top > 0 else ()),
                   check=check, view=game.view_fns[ship.side], prompt="End of turn: energy into the batteries")


def repairable(game, ship) -> frozenset[str]:
    """Every name a repair order may hold for this ship (built once)."""
    key = ("repairable", ship.side)
    if key not in game.forms:
        names = {k for k, _ in ship.spec.systems} | {w.id for w in ship.weapons} | {"reload-add"}
        names |= {f"rack-{i + 1}" for i in range(len(ship.racks))} | {f"reload-{i + 1}" for i in range(len(ship.racks))}
        game.forms[key] = frozenset(names)
    return game.forms[key]


def repair_check(game, ship, values: dict) -> list:
    order = [str(x) for x in _list(values.get("order"), "order", "FC.7B")]
    known = repairable(game, ship)
    for item in order:
        if item not in known:
            raise IllegalAction(f"{item[:30]!r} is not a system, weapon, rack or reload of this ship", "FC.7B")
    return order


REPAIR_FIELDS = (Field("order", "what to repair, in priority order (points are spent down the list)", True),)


def repair_request(game, ship, points: int) -> Request:
    form = Form(REPAIR_FIELDS, lambda name, earlier: tuple(dict.fromkeys(
        game.damaged_systems(ship) + game.reload_options(ship))), lambda values: repair_check(game, ship, values))

    def presets():
        return _options((("suggested", "the repair priority of FC.7B", {"order": _policy(game, "repair", ship)}),
                         ("none", "no repairs", {"order": []})))
    return Request("repair", ship.side, state=game, subject=ship, data={"points": points}, options=presets,
                   form=form, view=game.view_fns[ship.side], prompt=f"Repairs: {points} damage control points")


TRANSFER_FIELDS = tuple(Field(f"move{i}", "FROM>TO:BOXES between adjacent shields, or none") for i in range(1, 7))
TRANSFER_NAMES = tuple(f.name for f in TRANSFER_FIELDS)


def parse_transfer(text: Any) -> tuple[int, int, int]:
    if isinstance(text, (list, tuple)) and len(text) == 3:
        a, b, n = text
    else:
        head, _, n = str(text).partition(":")
        a, _, b = head.partition(">")
    return (_int(a, "a shield number", "FC.7C"), _int(b, "a shield number", "FC.7C"), _int(n, "boxes", "FC.7C"))


def transfer_step(game, level: list[int], ship, a: int, b: int, n: int) -> None:
    if not (1 <= a <= 6 and 1 <= b <= 6) or (a - b) % 6 not in (1, 5):
        raise IllegalAction(f"shields #{a} and #{b} are not adjacent", "FC.7C")
    room = ship.shield_max[b - 1] - level[b - 1]
    if not 0 < n <= min(game.rules.shield_transfer_max, room, level[a - 1]):
        raise IllegalAction(f"cannot move {n} boxes from shield #{a} to #{b}", "FC.7C")
    level[a - 1] -= n
    level[b - 1] += n


def transfer_check(game, ship, values: dict) -> list:
    level, moves = list(ship.shields), []
    for name in TRANSFER_NAMES:
        text = values.get(name)
        if text in NONE:
            continue
        a, b, n = parse_transfer(text)
        transfer_step(game, level, ship, a, b, n)
        moves.append([a, b, n])
    return moves


def transfer_choices(game, ship, name: str, earlier: dict) -> tuple:
    level = list(ship.shields)
    for prev in TRANSFER_NAMES[:TRANSFER_NAMES.index(name)]:
        text = earlier.get(prev)
        if text not in NONE:
            a, b, n = parse_transfer(text)
            transfer_step(game, level, ship, a, b, n)
    out = ["none"]
    for a in range(1, 7):
        for b in ((a % 6) + 1, ((a - 2) % 6) + 1):
            top = min(game.rules.shield_transfer_max, ship.shield_max[b - 1] - level[b - 1], level[a - 1])
            out += [f"{a}>{b}:{n}" for n in range(1, int(top) + 1)]
    return tuple(out)


def transfer_request(game, ship) -> Request:
    form = Form(TRANSFER_FIELDS, lambda name, earlier: transfer_choices(game, ship, name, earlier),
                lambda values: transfer_check(game, ship, values))

    def presets():
        none = dict.fromkeys(TRANSFER_NAMES, "none")
        return _options((("suggested", "the player policy's transfers",
                          {**none, **encode("transfer", _policy(game, "transfer", ship))}),
                         ("none", "no transfer", none)))
    return Request("transfer", ship.side, state=game, subject=ship, options=presets, form=form,
                   view=game.view_fns[ship.side], prompt="End of turn: shield transfers")


# ------------------------------------------------------------------------------- damage choices
def dac_phaser_request(game, ship, candidates: list[str]) -> Request:
    def check(answer):
        if answer in candidates:
            return answer
        raise IllegalAction(f"{str(answer)[:30]!r} is not a working phaser", "FC.DAC.PHASER")

    def options():
        first = _policy(game, "dac_phaser", ship, candidates)
        return tuple(Option(c, f"lose {c}") for c in [first] + [c for c in candidates if c != first])
    return Request("dac_phaser", ship.side, state=game, subject=ship, data=candidates, options=options, check=check,
                   view=game.view_fns[ship.side], prompt="A phaser is hit: which one is lost?")


def dac_tractor_request(game, ship, info: dict) -> Request:
    legal = ("free", "holding") if info["free"] else ("holding",)

    def check(answer):
        if answer in legal:
            return answer
        raise IllegalAction(f"{str(answer)[:30]!r} is not one of: {', '.join(legal)}", "FC.DAC.TRACTOR")
    labels = {"free": "lose a tractor that holds nothing", "holding": "lose a tractor holding a drone (it is released)"}
    return Request("dac_tractor", ship.side, state=game, subject=ship, data=info,
                   options=lambda: tuple(Option(k, labels[k]) for k in legal), check=check,
                   view=game.view_fns[ship.side], prompt="A tractor is hit: which one?")


# ------------------------------------------------------------------------------- engine actions -> answers
def encode(kind: str, action: Any) -> Any:
    """An engine action (what the robot and the policy compute) in contract terms."""
    if kind in ("allocate",):
        return {"speed": action.get("speed", 0), "regen": list(action.get("regen", ())),
                "hold": list(action.get("hold", ())), "photons": list(action.get("photons", ()))}
    if kind == "fire":
        if not action:
            return {}  # hold fire
        return {f"shot{i}": shot_key(s[0], s[1], s[2]) for i, s in enumerate(action, 1)}
    if kind == "launch":
        return {f"launch{i}": t for i, t in enumerate(action, 1)}
    if kind == "defend":
        out: dict = {"order": [did for did, _ in action]}
        for did, steps in action:
            out[did] = list(steps)
        return out
    if kind == "repair":
        return {"order": list(action)}
    if kind == "transfer":
        return {f"move{i}": f"{a}>{b}:{n}" for i, (a, b, n) in enumerate(action, 1)}
    if kind == "reinforce":
        return str(int(action))
    if kind == "batteries":
        return num_key(action)
    return action


def _policy(game, kind: str, ship, data: Any = None) -> Any:
    """The player policy's suggestion, as an engine action (for presets and defaults)."""
    from .player import Policy
    return getattr(Policy(), kind)(game, ship, game.enemy(ship.side), data)
