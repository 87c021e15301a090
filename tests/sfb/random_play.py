"""Random legal play on the contract: answers any sfb request with a random listed option, or (for a form, half
the time) with values chosen field by field among ``form.choices``; and the invariants a battle keeps."""
from __future__ import annotations

import random

from paperrobot.core.hexgrid import parse
from tests.random_answer import random_answer as any_answer

BOX_FIELDS = ("warp", "impulse", "apr", "battery", "charged", "hull", "bridge", "security", "transporter", "lab",
              "shuttle", "excess")
ACTING = ("moved", "fired", "launched", "plasma-launched", "energy")


def random_answer(request, rng: random.Random):
    if request.kind == "disengage":  # listed options, but leaving at once every other impulse ends every game
        return "yes" if rng.random() < 0.01 else "no"
    return any_answer(request, rng)


def check_invariants(game, events) -> None:
    """No negative energy or boxes; no ship on the map outside it; no weapon fired twice within its firing-rate
    window (E1.5: once a turn, never within 1/4 turn); nothing done by a ship once destroyed or gone."""
    for ship in game.ships:
        assert all(s >= 0 for s in ship.shields), ship.name
        assert all(getattr(ship, f) >= 0 for f in BOX_FIELDS), ship.name
        assert 0 <= ship.charged <= ship.battery
        assert -1e-9 <= ship.capacitor <= ship.capacity + 1e-9
        assert all(w.ammo >= 0 for w in ship.weapons)
        if ship.active:
            assert game.board.contains(ship.hex), f"{ship.name} is on the map outside it"
    last: dict[tuple[str, str], tuple[int, int]] = {}
    out: set[str] = set()
    for event in events:
        data = event.data
        if event.kind in ACTING:
            assert data["ship"] not in out, f"{data['ship']} acts after it was destroyed or left: {event}"
        if event.kind == "moved":
            assert game.board.contains(parse(data["to"]))
        if event.kind == "fired":
            key = (data["ship"], data["weapon"])
            now = (event.turn - 1) * game.impulses + event.impulse
            if key in last:
                turn, then = last[key]
                assert turn != event.turn and now - then >= game.impulses // 4, f"{key} fired twice: {event}"
            last[key] = (event.turn, now)
        if event.kind == "destroyed" or (event.kind == "left-map"):
            out.add(data["ship"])
