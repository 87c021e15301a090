"""FC's fire and launch requests (FC.5, FC.6): the shots a ship may fire, their costs and forms, the drone launch
form; part of the requests (requests.py re-exports them)."""
from __future__ import annotations

from typing import Any, Callable, Final

from ..core.contract import Field, Form, Option, Request
from ..core.errors import IllegalAction
from . import candidates
from .answers import AS_SHOTS, encode
from .forms import EPS, NONE, Check, Presets, _options, _policy, form_parser
from .shots import legal_shots, parse_shot, shot_cost  # noqa: F401 (re-exported)
from .targets_view import fire_view, launch_view
from .lookups import Lookups
from .state import Ship

# ------------------------------------------------------------------------------- fire (FC.5)
# a volley's fields, their names, the names as a set
Fields = tuple[tuple[Field, ...], tuple[str, ...], frozenset[str]]
# a fire form, its presets, its parser, the request kept for a side flown in process
FireForm = tuple[Form, Presets, Check, Request]
_SHOT_FIELDS: Final[dict[int, Fields]] = {}


def shot_fields(n: int) -> Fields:
    """The fields of a volley of up to ``n`` shots, and their names."""
    found = _SHOT_FIELDS.get(n)
    if found is None:
        fields = tuple(Field(f"shot{i}", f"shot {i}: weapon@target[:mode], or none") for i in range(1, n + 1))
        names = tuple(f.name for f in fields)
        found = _SHOT_FIELDS[n] = (fields, names, frozenset(names))
    return found


def fire_check(game: Lookups, ship: Ship, names: tuple[str, ...], values: dict[str, Any]) -> list[Any]:
    if not values:
        return []  # hold fire (the answer most often given)
    shots: list[Any] = []
    used: set[str] = set()
    spent = 0.0
    for name in names:
        text = values.get(name)
        if text in NONE:
            continue
        wid, tgt, mode = parse_shot(text)
        spent = _take(game, ship, wid, tgt, mode, used, spent)
        shots.append([wid, tgt, mode, False])
    return shots


def shots_check(game: Lookups, ship: Ship, names: tuple[str, ...], shots: list[Any]) -> list[Any]:
    """The engine's own robot's shots (``[weapon, target, mode, only_if_alive]``, AS_SHOTS): the action fire_check
    gives for them written as the form's values (answers.encode), checked by the same rules, in the same order."""
    if len(shots) > len(names):
        raise IllegalAction(f"{len(shots)} shots: this volley has {len(names)} weapons that may fire", "FC.GEN.ARC")
    out: list[Any] = []
    used: set[str] = set()
    spent = 0.0
    for shot in shots:
        if not isinstance(shot, (list, tuple)) or len(shot) != 4:
            raise IllegalAction(f"a shot is [weapon, target, mode, only if alive], not {str(shot)[:30]!r}",
                                "FC.GEN.ARC")
        wid, tgt, mode = shot[0], shot[1], shot[2]
        if not isinstance(wid, str) or not isinstance(tgt, str) or not isinstance(mode, str) or not tgt:
            raise IllegalAction(f"a shot is [weapon, target, mode, only if alive], not {str(shot)[:30]!r}",
                                "FC.GEN.ARC")
        spent = _take(game, ship, wid, tgt, mode, used, spent)
        out.append([wid, tgt, mode, False])  # as read back from the form (which has no only-if-alive)
    return out


def _take(game: Lookups, ship: Ship, wid: str, tgt: str, mode: str, used: set[str], spent: float) -> float:
    """One more shot of a volley (FC.GEN.ARC, FC.5A, FC.GEN.POWER): the power spent with it."""
    if wid in used:
        raise IllegalAction(f"{wid} cannot fire (each weapon fires once per turn)", "FC.GEN.ARC")
    w, cost = shot_cost(game, ship, wid, tgt, mode)
    spent += cost
    if spent > ship.available() + EPS:
        raise IllegalAction(f"no power to fire {wid} ({cost:g} needed)", "FC.GEN.POWER")
    used.add(wid)
    return spent


def fire_form(game: Lookups, ship: Ship, n: int) -> FireForm:
    """The form of a volley of up to ``n`` shots of ``ship``, its presets and its parser, built once per ship and
    size: they read the state when called, which is the state of the open request."""
    key = ("fire", ship.side, n)
    kept: FireForm | None = game.forms.get(key)
    if kept is not None:
        return kept
    fields, names, known = shot_fields(n)
    ask = FireAsk(game, ship, names)
    presets = ask.presets
    form, parse = Form(fields, ask.choices, ask.check), form_parser(ask.check, known, presets, "fire")
    request = FireRequest("fire", ship.side, state=game, subject=ship, options=presets, form=form,
                          check=FireAnswer(ask, parse).answer, view=ask.view, prompt="Offensive fire")
    made: FireForm = (form, presets, parse, request)
    game.forms[key] = made
    return made


class FireAsk:
    """A volley form's choices, check, presets and view for one ship, kept by the engine (bound methods, not
    closures: requests.AccelerateAsk says why)."""

    def __init__(self, game: Lookups, ship: Ship, names: tuple[str, ...]) -> None:
        self.game, self.ship, self.names = game, ship, names

    def choices(self, name: str, earlier: dict[str, Any]) -> tuple[str, ...]:
        game, ship = self.game, self.ship
        used: set[str] = set()
        spent = 0.0
        for prev in self.names[:self.names.index(name)]:
            text = earlier.get(prev)
            if text in NONE:
                continue
            wid, tgt, mode = parse_shot(text)
            spent += shot_cost(game, ship, wid, tgt, mode)[1]
            used.add(wid)
        return ("none",) + tuple([k for k, _ in legal_shots(game, ship, used, ship.available() - spent)])

    def check(self, values: Any) -> Any:
        return fire_check(self.game, self.ship, self.names, values)

    def presets(self) -> tuple[Option, ...]:
        game, ship, names = self.game, self.ship, self.names
        hold = dict.fromkeys(names, "none")
        return _options((("suggested", "the player policy's fire", {**hold, **encode("fire", _policy(game, "fire",
                                                                                                        ship))}),
                         ("hold", "hold fire", hold)) + candidates.fire(game, ship, names))

    def view(self) -> dict[str, Any]:
        return fire_view(self.game, self.ship)  # targets and arcs to draw


def fire_request(game: Lookups, ship: Ship) -> Request:
    n = 0
    for w in ship.weapons:
        if w.alive and not w.fired:
            n += 1
    form, presets, parse, kept = fire_form(game, ship, n)
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new
        return kept.reissue(presets, game.view_fns[ship.side], AS_SHOTS)
    return _fire(game, ship, form, presets, parse, FireAsk(game, ship, ()).view)


class FireAnswer:
    """The kept fire request's check: the robot's shots (a list, AS_SHOTS), else the form's values or a preset (its
    parser). Apart from FireAsk, which the parser holds: kept on it, the two would make a reference cycle."""

    def __init__(self, ask: FireAsk, parse: Check) -> None:
        self.ask, self.parse = ask, parse

    def answer(self, answer: Any) -> Any:
        if isinstance(answer, list):
            ask = self.ask
            return shots_check(ask.game, ask.ship, ask.names, answer)
        return self.parse(answer)


class FireRequest(Request):
    """The fire request kept for a side flown in process (data AS_SHOTS): the engine's own robot answers it with its
    shots; whoever records that answer (a caller wrapping the engine's robot: a watched game) records the form's
    values, as a person gives them: saves and copies replay those."""

    def encode(self, answer: Any) -> Any:
        if isinstance(answer, list):
            return encode("fire", answer)
        return super().encode(answer)


def _fire(game: Lookups, ship: Ship, form: Form, presets: Presets, parse: Check,
          view: Callable[[], dict[str, Any]]) -> Request:
    """``view``: a FireAsk's (targets and arcs to draw; the same for any number of fields): the kept request's is its
    form's own ask, not one more object per form in every fork."""
    return Request("fire", ship.side, state=game, subject=ship, options=presets, form=form, check=parse,
                   view=view, prompt="Offensive fire")


# ------------------------------------------------------------------------------- launch (FC.6)
def launch_targets(game: Lookups, ship: Ship) -> tuple[str, ...]:
    return ("ship",) + tuple(d.id for d in game.drones if d.alive and d.target == ship.side)


def launch_check(game: Lookups, ship: Ship, names: tuple[str, ...], values: dict[str, Any]) -> list[Any]:
    targets = [values.get(n) for n in names if values.get(n) not in NONE]
    legal = launch_targets(game, ship)
    for tgt in targets:
        if tgt not in legal:
            raise IllegalAction(f"{str(tgt)[:30]!r} is not a drone seeking this ship", "FC.6D")
    if len(targets) > len(ship.ready_racks()):
        raise IllegalAction("no drone rack is ready (one launch per rack per turn)", "FC.6A")
    return targets


_LAUNCH_FIELDS: Final[dict[int, Fields]] = {}


def launch_fields(n: int) -> Fields:
    found = _LAUNCH_FIELDS.get(n)
    if found is None:
        fields = tuple(Field(f"launch{i}", "a drone's target: ship, a drone id (counter-drone), or none")
                       for i in range(1, n + 1))
        names = tuple(f.name for f in fields)
        found = _LAUNCH_FIELDS[n] = (fields, names, frozenset(names))
    return found


# a launch form, its presets, its parser, its view, the request kept for a side flown in process
LaunchForm = tuple[Form, Presets, Check, Callable[[], dict[str, Any]], Request]


def launch_request(game: Lookups, ship: Ship) -> Request:
    n = len(ship.ready_racks())
    key = ("launch", ship.side, n)
    found: LaunchForm | None = game.forms.get(key)
    if found is None:
        fields, names, known = launch_fields(n)
        ask = LaunchAsk(game, ship, names)
        form = Form(fields, ask.choices, ask.check)
        parse = form_parser(ask.check, known, ask.presets, "launch")
        found = (form, ask.presets, parse, ask.view, _launch(game, ship, form, ask.presets, parse, ask.view))
        game.forms[key] = found
    form, presets, parse, view, kept = found
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new (as fire's)
        return kept.reissue(presets, view)
    return _launch(game, ship, form, presets, parse, LaunchAsk(game, ship, launch_fields(n)[1]).view)


def _launch(game: Lookups, ship: Ship, form: Form, presets: Presets, parse: Check,
            view: Callable[[], dict[str, Any]]) -> Request:
    return Request("launch", ship.side, state=game, subject=ship, options=presets, form=form, check=parse,
                   view=view, prompt="Launch drones")  # targets to draw


class LaunchAsk:
    """A launch form's choices, check and presets for one ship, kept by the engine (bound methods, not closures:
    requests.AccelerateAsk says why)."""

    def __init__(self, game: Lookups, ship: Ship, names: tuple[str, ...]) -> None:
        self.game, self.ship, self.names = game, ship, names

    def choices(self, name: str, earlier: dict[str, Any]) -> tuple[str, ...]:
        return ("none",) + launch_targets(self.game, self.ship)

    def check(self, values: Any) -> Any:
        return launch_check(self.game, self.ship, self.names, values)

    def presets(self) -> tuple[Option, ...]:
        game, ship, names = self.game, self.ship, self.names
        every, none = dict.fromkeys(names, "ship"), dict.fromkeys(names, "none")
        return _options((("suggested", "the player policy's launch",
                          {**none, **encode("launch", _policy(game, "launch", ship))}),
                         ("all", "every ready rack at the enemy ship", every), ("none", "no launch", none)))

    def view(self) -> dict[str, Any]:
        """The side's view with the launch's targets, to draw (targets_view.launch_view)."""
        return launch_view(self.game, self.ship, self.names, launch_targets(self.game, self.ship))
