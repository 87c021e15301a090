"""The legal answers of every FC request: options, forms, and the checks that run before the engine resumes.

Each ``*_request`` builds the Request the engine yields; its ``check`` (or its form's check) turns an answer
in contract terms (an option key, or a form's values) into the engine's action, or raises IllegalAction
naming the FC rule it breaks. Nothing here changes game state. The fire and launch requests are in
fire_requests.py, the end-of-turn ones and the damage choices in end_requests.py, the shared pieces in forms.py;
this module re-exports them all (the engine asks ``requests.fire_request(...)``). The fire and launch requests are in
fire_requests.py, the end-of-turn ones and the damage choices in end_requests.py, the shared pieces in forms.py;
this module re-exports them all (the engine asks ``requests.fire_request(...)``). ``encode(kind, action)`` turns an engine
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
from . import candidates
from .answers import DEFENCE_STEPS, PLAIN, encode, num_key, shot_key  # noqa: F401 (re-exported)
from .forms import (EPS, NONE, SPEEDS, Check, Presets, _int, _list, _options, _policy, form_parser)  # noqa: F401 (re-exported)
from .fire_requests import (_fire, fire_check, fire_form, fire_request, launch_check, launch_fields, launch_request,
    launch_targets, shot_fields)  # noqa: F401 (re-exported)
from .shots import legal_shots, parse_shot, shot_cost  # noqa: F401 (re-exported)
from .end_requests import (REPAIR_FIELDS, TRANSFER_FIELDS, TRANSFER_NAMES, batteries_request, battery_room,
    dac_phaser_request, dac_tractor_request, parse_transfer, repair_check, repair_request, repairable,
    transfer_check, transfer_choices, transfer_request, transfer_step)  # noqa: F401 (re-exported)
from .lookups import Lookups
from .state import Ship, Weapon

# ------------------------------------------------------------------------------- allocate (FC.1)
ALLOCATE_FIELDS = (Field("speed", "baseline speed: 0, 8, 16 or 24"),
                   Field("regen", "shield boxes to regenerate: shield numbers, repeat one for two boxes", True),
                   Field("hold", "held drones to keep holding (1 each; a released drone strikes in impulse 1)", True),
                   Field("photons", "photon torpedoes to arm or hold", True))


def photon_cost(game: Lookups, w: Weapon) -> float:
    return game.rules.photon_hold_cost if w.arm == 2 else game.rules.photon_load_cost


def allocation_check(game: Lookups, ship: Ship, values: dict[str, Any]) -> dict[str, Any]:
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


def _allocate_budget(game: Lookups, ship: Ship, earlier: dict[str, Any]) -> float:
    budget = ship.available() - _int(earlier.get("speed") or 0, "speed", "FC.1A") * ship.spec.move_cost
    budget -= game.rules.regen_cost * len(_list(earlier.get("regen"), "regen", "FC.1B"))
    budget -= game.rules.tractor_hold_cost * len(_list(earlier.get("hold"), "hold", "FC.1C"))
    return budget


def allocate_choices(game: Lookups, ship: Ship, name: str, earlier: dict[str, Any]) -> tuple[Any, ...]:
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


class AllocateAsk:
    """One ship's allocation form choices, check and presets (bound methods, not closures: AccelerateAsk says why)."""

    def __init__(self, game: Lookups, ship: Ship) -> None:
        self.game, self.ship = game, ship

    def choices(self, name: str, earlier: dict[str, Any]) -> tuple[Any, ...]:
        return allocate_choices(self.game, self.ship, name, earlier)

    def check(self, values: Any) -> Any:
        return allocation_check(self.game, self.ship, values)

    def presets(self) -> tuple[Option, ...]:
        game, ship = self.game, self.ship
        suggested = _policy(game, "allocate", ship)
        return _options((("suggested", "the player policy's allocation", suggested),
                         ("drift", "speed 0, nothing else", {"speed": 0, "regen": [], "hold": [], "photons": []}))
                        + candidates.allocation(game, ship, suggested))


def allocate_request(game: Lookups, ship: Ship) -> Request:
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new (as move's)
        kept: tuple[AllocateAsk, Request, Presets] | None = game.forms.get(("allocate", ship.side))
        if kept is None:
            kept = game.forms[("allocate", ship.side)] = _allocate(game, ship)
        return kept[1].reissue(kept[2], game.view_fns[ship.side])
    return _allocate(game, ship)[1]


def _allocate(game: Lookups, ship: Ship) -> tuple[AllocateAsk, Request, Presets]:
    ask = AllocateAsk(game, ship)
    options = ask.presets  # one bound method, given again at every reissue
    return ask, Request("allocate", ship.side, state=game, subject=ship, options=options,
                        form=Form(ALLOCATE_FIELDS, ask.choices, ask.check), view=game.view_fns[ship.side],
                        prompt="Energy allocation"), options


# ------------------------------------------------------------------------------- accelerate (FC.2)
ACCELERATE_LABELS = {"none": "no acceleration", "accel": "accelerate: one more move this impulse",
                     "emergency": "emergency deceleration: stop this turn"}


def accelerate_legal(game: Lookups, ship: Ship) -> tuple[str, ...]:
    if not ship.stopped and ship.available() >= game.rules.accel_cost:
        return ("none", "accel", "emergency")
    return ("none", "emergency")


def accelerate_check(game: Lookups, ship: Ship, answer: Any) -> Any:
    if answer in ("none", "emergency"):
        return answer
    if answer == "accel":
        if ship.stopped:
            raise IllegalAction("a ship that made an emergency deceleration cannot accelerate", "FC.2")
        if ship.available() < game.rules.accel_cost:
            raise IllegalAction("no power left to accelerate", "FC.GEN.POWER")
        return answer
    raise IllegalAction(f"{str(answer)[:30]!r} is not accel, none or emergency", "FC.2")


# a kept question's options and check, and the request kept for a side flown in process
Asks = tuple[Presets, Check, Request]


class AccelerateAsk:
    """One ship's accelerate options and check, kept by the engine (``game.forms``). The kept questions' callables
    are bound methods of small classes, not closures: compiled by mypyc, a closure that the engine keeps would make
    a cycle the garbage collector cannot see through, and no engine would ever be freed."""

    def __init__(self, game: Lookups, ship: Ship) -> None:
        self.game, self.ship = game, ship

    def options(self) -> tuple[Option, ...]:
        return tuple([Option(k, ACCELERATE_LABELS[k]) for k in accelerate_legal(self.game, self.ship)])

    def check(self, answer: Any) -> Any:
        return accelerate_check(self.game, self.ship, answer)


def accelerate_request(game: Lookups, ship: Ship) -> Request:
    asks: Asks | None = game.forms.get(("accelerate", ship.side))
    if asks is None:  # built once per ship: they read the state when called, while the request is open
        ask = AccelerateAsk(game, ship)
        asks = (ask.options, ask.check, _accelerate(game, ship, ask.options, ask.check))
        game.forms[("accelerate", ship.side)] = asks
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new
        return asks[2].reissue(asks[0], game.view_fns[ship.side])
    return _accelerate(game, ship, asks[0], asks[1])


def _accelerate(game: Lookups, ship: Ship, options: Presets, check: Check) -> Request:
    return Request("accelerate", ship.side, state=game, subject=ship, options=options, default="none",
                   check=check, view=game.view_fns[ship.side], prompt="Accelerate this impulse?")


# ------------------------------------------------------------------------------- move (FC.3)
class MoveAsk:
    """One ship's move options, check and view, kept by the engine (see AccelerateAsk): the legal moves of the open
    move request are read from ``game.moves``."""

    def __init__(self, game: Lookups, ship: Ship) -> None:
        self.game, self.ship, self.side = game, ship, ship.side

    def check(self, answer: Any) -> Any:
        legal = self.game.moves[self.side]
        if answer in legal:
            return answer
        raise IllegalAction(f"{str(answer)[:30]!r} is not possible now (legal: {', '.join(legal)})", "FC.3A")

    def options(self) -> tuple[Option, ...]:
        return tuple([Option(m) for m in self.game.moves[self.side]])

    def view(self) -> dict[str, Any]:
        return move_view(self.game, self.ship)


def move_request(game: Lookups, ship: Ship, moves: tuple[str, ...]) -> Request:
    """``moves``: the legal moves now (``Game.legal_moves``); the check and options read them from the game."""
    game.moves[ship.side] = moves
    found: tuple[MoveAsk, Presets, Request] | None = game.forms.get(("move", ship.side))
    if found is None:
        ask = MoveAsk(game, ship)
        found = (ask, ask.options, _move(game, ship, moves, ask))
        game.forms[("move", ship.side)] = found
    ask, options, kept = found
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new
        return kept.reissue(options, game.view_fns[ship.side], moves)
    return _move(game, ship, moves, ask)


def _move(game: Lookups, ship: Ship, moves: tuple[str, ...], ask: MoveAsk) -> Request:
    return Request("move", ship.side, state=game, subject=ship, data=moves, options=ask.options, default="straight",
                   check=ask.check, view=ask.view, prompt="Move")


def move_view(game: Lookups, ship: Ship) -> dict[str, Any]:
    """The side's view with where each legal move leads (``moves``: key, hex, cube q/r, facing), for front ends to
    draw each move's destination (FC.3: turns, sideslips, HETs)."""
    from .geometry import _STEPS, after_move
    from ..core.hexgrid import label
    out = dict(game.view_fns[ship.side]())
    out["moves"] = []
    for key in game.moves[ship.side]:
        if key not in _STEPS:
            continue  # not a place on the map
        pos, facing = after_move(ship, key)
        out["moves"].append({"key": key, "hex": label(pos), "q": pos.q, "r": pos.r, "facing": "ABCDEF"[facing]})
    return out


# ------------------------------------------------------------------------------- defend (FC.4)
def defend_check(game: Lookups, ship: Ship, drone_ids: list[str], values: dict[str, Any]) -> list[Any]:
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


def defend_request(game: Lookups, ship: Ship, drone_ids: list[str]) -> Request:
    fields = (Field("order", "drones to defend against, in order", True),) + tuple(
        Field(did, f"defences against drone {did}, in order, each only while it survives", True) for did in drone_ids)

    def choices(name: str, earlier: dict[str, Any]) -> tuple[str, ...]:
        return tuple(drone_ids) if name == "order" else DEFENCE_STEPS

    form = Form(fields, choices, lambda values: defend_check(game, ship, drone_ids, values))

    def presets() -> tuple[Option, ...]:
        every: dict[str, Any] = {"order": list(drone_ids), **{d: ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]
                                              for d in drone_ids}}
        return _options((("suggested", "the player policy's defence", encode("defend", _policy(game, "defend", ship,
                                                                                               drone_ids))),
                         ("everything", "every defence against every drone", every),
                         ("nothing", "no defence", {"order": []})))
    return Request("defend", ship.side, state=game, subject=ship, data=drone_ids, options=presets, form=form,
                   view=game.view_fns[ship.side], prompt="Defensive fire: drones strike your ship")


# ------------------------------------------------------------------------------- reinforce (FC.5F)
class ReinforceAsk:
    """One reinforcement question's check and options (``info``: its data; bound methods, not closures)."""

    def __init__(self, game: Lookups, ship: Ship, info: dict[str, Any]) -> None:
        self.game, self.ship, self.info, self.cap = game, ship, info, int(info["cap"])

    def check(self, answer: Any) -> int:
        n = _int(answer, "reinforcement", "FC.5F")
        if not 0 <= n <= self.cap:
            raise IllegalAction(f"reinforcement must be 0 to {self.cap} (working batteries and power)", "FC.5F")
        return n

    def default(self) -> str:
        return str(int(_policy(self.game, "reinforce", self.ship, self.info)))

    def options(self) -> tuple[Option, ...]:
        return (Option(self.default(), "suggested"),) + tuple(
            Option(str(n)) for n in range(self.cap + 1) if str(n) != self.default())


def reinforce_request(game: Lookups, ship: Ship, info: dict[str, Any]) -> Request:
    prompt = f"{info['damage']} damage on shield #{info['shield']}: reinforce with how many (0-{info['cap']})?"
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new (as move's)
        kept: tuple[ReinforceAsk, Request, Presets] | None = game.forms.get(("reinforce", ship.side))
        if kept is None:
            kept = game.forms[("reinforce", ship.side)] = _reinforce(game, ship, info, prompt)
        ask, request, options = kept
        ask.info, ask.cap = info, int(info["cap"])
        request.prompt = prompt
        return request.reissue(options, game.view_fns[ship.side], info)
    return _reinforce(game, ship, info, prompt)[1]


def _reinforce(game: Lookups, ship: Ship, info: dict[str, Any], prompt: str) -> tuple[ReinforceAsk, Request, Presets]:
    ask = ReinforceAsk(game, ship, info)
    options = ask.options  # one bound method, given again at every reissue
    return ask, Request("reinforce", ship.side, state=game, subject=ship, data=info, options=options,
                        check=ask.check, view=game.view_fns[ship.side], prompt=prompt), options
