"""FC's end-of-turn requests (FC.7: batteries, repairs, shield transfers) and the damage choices (which phaser,
which tractor); part of the requests (requests.py re-exports them)."""
from __future__ import annotations

from typing import Any, Final

from ..core.contract import Field, Form, Option, Request
from ..core.errors import IllegalAction
from .answers import encode, num_key
from .forms import EPS, NONE, Presets, _int, _list, _options, _policy
from .lookups import Lookups
from .state import Ship

# ------------------------------------------------------------------------------- end of turn (FC.7)
def battery_room(ship: Ship) -> float:
    return max(0.0, min(ship.battery_cap() - ship.battery, ship.energy))


class BatteriesAsk:
    """One batteries question's check and options: ``top``, the most that can be stored, read when it is asked
    (bound methods, not closures: requests.AccelerateAsk says why)."""

    def __init__(self, top: float) -> None:
        self.top = top

    def check(self, answer: Any) -> float:
        store: float | None
        try:
            store = float(answer) if isinstance(answer, (str, int, float)) and not isinstance(answer, bool) else None
        except ValueError:
            store = None
        top = self.top
        if store is None or store != store or store < 0 or store > top + EPS:
            raise IllegalAction(f"can store 0 to {top:g} in batteries", "FC.7A")
        return store

    def options(self) -> tuple[Option, ...]:
        top = self.top
        return (Option(num_key(top), f"store {top:g} (as much as possible)"),) + (
            (Option("0", "store nothing"),) if top > 0 else ())


def batteries_request(game: Lookups, ship: Ship) -> Request:
    top = battery_room(ship)
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new (as move's)
        kept: tuple[BatteriesAsk, Request, Presets] | None = game.forms.get(("batteries", ship.side))
        if kept is None:
            kept = game.forms[("batteries", ship.side)] = _batteries(game, ship, top)
        kept[0].top = top
        return kept[1].reissue(kept[2], game.view_fns[ship.side])
    return _batteries(game, ship, top)[1]


def _batteries(game: Lookups, ship: Ship, top: float) -> tuple[BatteriesAsk, Request, Presets]:
    ask = BatteriesAsk(top)
    options = ask.options  # one bound method, given again at every reissue
    return ask, Request("batteries", ship.side, state=game, subject=ship, options=options, check=ask.check,
                        view=game.view_fns[ship.side], prompt="End of turn: energy into the batteries"), options


# id of a ship card -> (the card, every name a repair order may hold for a ship of it); the card is held here, so its
# id is not reused while the entry lives
_REPAIRABLE: Final[dict[int, tuple[Any, frozenset[str]]]] = {}


def repairable(game: Lookups, ship: Ship) -> frozenset[str]:
    """Every name a repair order may hold for this ship: its card's (a ship's weapons and racks are its card's,
    state.new_ship), built once per card, not once per engine (every fork of a search built it again)."""
    spec = ship.spec
    found = _REPAIRABLE.get(id(spec))
    if found is None or found[0] is not spec:
        names = {k for k, _ in spec.systems} | {w.id for w in ship.weapons} | {"reload-add"}
        names |= {f"rack-{i + 1}" for i in range(len(ship.racks))} | {f"reload-{i + 1}" for i in range(len(ship.racks))}
        if len(_REPAIRABLE) > 64:
            _REPAIRABLE.clear()
        found = _REPAIRABLE[id(spec)] = (spec, frozenset(names))
    return found[1]


def repair_check(game: Lookups, ship: Ship, values: dict[str, Any]) -> list[Any]:
    order = [str(x) for x in _list(values.get("order"), "order", "FC.7B")]
    known = repairable(game, ship)
    for item in order:
        if item not in known:
            raise IllegalAction(f"{item[:30]!r} is not a system, weapon, rack or reload of this ship", "FC.7B")
    return order


REPAIR_FIELDS = (Field("order", "what to repair, in priority order (points are spent down the list)", True),)


class RepairAsk:
    """One ship's repair form choices, check and presets (bound methods, not closures)."""

    def __init__(self, game: Lookups, ship: Ship) -> None:
        self.game, self.ship = game, ship

    def choices(self, name: str, earlier: dict[str, Any]) -> tuple[Any, ...]:
        game, ship = self.game, self.ship
        return tuple(dict.fromkeys(game.damaged_systems(ship) + game.reload_options(ship)))

    def check(self, values: Any) -> Any:
        return repair_check(self.game, self.ship, values)

    def presets(self) -> tuple[Option, ...]:
        return _options((("suggested", "the repair priority of FC.7B", {"order": _policy(self.game, "repair",
                                                                                          self.ship)}),
                         ("none", "no repairs", {"order": []})))


def repair_request(game: Lookups, ship: Ship, points: int) -> Request:
    prompt = f"Repairs: {points} damage control points"
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new (as move's)
        kept: tuple[RepairAsk, Request, Presets] | None = game.forms.get(("repair", ship.side))
        if kept is None:
            kept = game.forms[("repair", ship.side)] = _repair(game, ship, points, prompt)
        kept[1].prompt = prompt
        return kept[1].reissue(kept[2], game.view_fns[ship.side], {"points": points})
    return _repair(game, ship, points, prompt)[1]


def _repair(game: Lookups, ship: Ship, points: int, prompt: str) -> tuple[RepairAsk, Request, Presets]:
    ask = RepairAsk(game, ship)
    options = ask.presets  # one bound method, given again at every reissue
    return ask, Request("repair", ship.side, state=game, subject=ship, data={"points": points}, options=options,
                        form=Form(REPAIR_FIELDS, ask.choices, ask.check), view=game.view_fns[ship.side],
                        prompt=prompt), options


TRANSFER_FIELDS = tuple(Field(f"move{i}", "FROM>TO:BOXES between adjacent shields, or none") for i in range(1, 7))
TRANSFER_NAMES = tuple(f.name for f in TRANSFER_FIELDS)


def parse_transfer(text: Any) -> tuple[int, int, int]:
    if isinstance(text, (list, tuple)) and len(text) == 3:
        a, b, n = text
    else:
        head, _, n = str(text).partition(":")
        a, _, b = head.partition(">")
    return (_int(a, "a shield number", "FC.7C"), _int(b, "a shield number", "FC.7C"), _int(n, "boxes", "FC.7C"))


def transfer_step(game: Lookups, level: list[int], ship: Ship, a: int, b: int, n: int) -> None:
    if not (1 <= a <= 6 and 1 <= b <= 6) or (a - b) % 6 not in (1, 5):
        raise IllegalAction(f"shields #{a} and #{b} are not adjacent", "FC.7C")
    room = ship.shield_max[b - 1] - level[b - 1]
    if not 0 < n <= min(game.rules.shield_transfer_max, room, level[a - 1]):
        raise IllegalAction(f"cannot move {n} boxes from shield #{a} to #{b}", "FC.7C")
    level[a - 1] -= n
    level[b - 1] += n


def transfer_check(game: Lookups, ship: Ship, values: dict[str, Any]) -> list[Any]:
    level = list(ship.shields)
    moves: list[list[int]] = []
    for name in TRANSFER_NAMES:
        text = values.get(name)
        if text in NONE:
            continue
        a, b, n = parse_transfer(text)
        transfer_step(game, level, ship, a, b, n)
        moves.append([a, b, n])
    return moves


def transfer_choices(game: Lookups, ship: Ship, name: str, earlier: dict[str, Any]) -> tuple[Any, ...]:
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


class TransferAsk:
    """One ship's transfer form choices, check and presets (bound methods, not closures)."""

    def __init__(self, game: Lookups, ship: Ship) -> None:
        self.game, self.ship = game, ship

    def choices(self, name: str, earlier: dict[str, Any]) -> tuple[Any, ...]:
        return transfer_choices(self.game, self.ship, name, earlier)

    def check(self, values: Any) -> Any:
        return transfer_check(self.game, self.ship, values)

    def presets(self) -> tuple[Option, ...]:
        none = dict.fromkeys(TRANSFER_NAMES, "none")
        return _options((("suggested", "the player policy's transfers",
                          {**none, **encode("transfer", _policy(self.game, "transfer", self.ship))}),
                         ("none", "no transfer", none)))


def transfer_request(game: Lookups, ship: Ship) -> Request:
    if ship.side in game.in_process:  # the engine's own robot or policy: the kept request, made new (as move's)
        kept: tuple[TransferAsk, Request, Presets] | None = game.forms.get(("transfer", ship.side))
        if kept is None:
            kept = game.forms[("transfer", ship.side)] = _transfer(game, ship)
        return kept[1].reissue(kept[2], game.view_fns[ship.side])
    return _transfer(game, ship)[1]


def _transfer(game: Lookups, ship: Ship) -> tuple[TransferAsk, Request, Presets]:
    ask = TransferAsk(game, ship)
    options = ask.presets  # one bound method, given again at every reissue
    return ask, Request("transfer", ship.side, state=game, subject=ship, options=options,
                        form=Form(TRANSFER_FIELDS, ask.choices, ask.check), view=game.view_fns[ship.side],
                        prompt="End of turn: shield transfers"), options


# ------------------------------------------------------------------------------- damage choices
def dac_phaser_request(game: Lookups, ship: Ship, candidates: list[str]) -> Request:
    def check(answer: Any) -> Any:
        if answer in candidates:
            return answer
        raise IllegalAction(f"{str(answer)[:30]!r} is not a working phaser", "FC.DAC.PHASER")

    def options() -> tuple[Option, ...]:
        first = _policy(game, "dac_phaser", ship, candidates)
        return tuple(Option(c, f"lose {c}") for c in [first] + [c for c in candidates if c != first])
    return Request("dac_phaser", ship.side, state=game, subject=ship, data=candidates, options=options, check=check,
                   view=game.view_fns[ship.side], prompt="A phaser is hit: which one is lost?")


def dac_tractor_request(game: Lookups, ship: Ship, info: dict[str, Any]) -> Request:
    legal = ("free", "holding") if info["free"] else ("holding",)

    def check(answer: Any) -> Any:
        if answer in legal:
            return answer
        raise IllegalAction(f"{str(answer)[:30]!r} is not one of: {', '.join(legal)}", "FC.DAC.TRACTOR")
    labels = {"free": "lose a tractor that holds nothing", "holding": "lose a tractor holding a drone (it is released)"}
    return Request("dac_tractor", ship.side, state=game, subject=ship, data=info,
                   options=lambda: tuple(Option(k, labels[k]) for k in legal), check=check,
                   view=game.view_fns[ship.side], prompt="A tractor is hit: which one?")
