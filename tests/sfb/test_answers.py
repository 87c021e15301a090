"""The player's side: requests, choices, illegal answers, and the JSON form of answers for saves."""
import pytest

from paperrobot import sfb
from paperrobot.core.controller import Decision
from paperrobot.core.errors import IllegalAction
from paperrobot.core.events import EventLog


class Scripted:
    """Answers the default, except as overridden per request kind (in contract terms); records what it was asked."""

    def __init__(self, override=None):
        self.asked = []
        self.override = override or {}

    def decide(self, request):
        self.asked.append(request)
        request.view  # a view is built when read: read it while the request is open
        if request.kind in self.override:
            return Decision(self.override.pop(request.kind))
        return Decision(request.default)


def test_person_gets_energy_move_and_fire_requests():
    person = Scripted()
    outcome = sfb.new_game("5", seed=3, player=person).run()
    kinds = {r.kind for r in person.asked}
    assert {"energy", "move", "fire"} <= kinds and outcome.winner in (None, *sfb.SIDES)
    energy = next(r for r in person.asked if r.kind == "energy")
    assert energy.form is not None and energy.view["energy"]["power"] == 20
    move = next(r for r in person.asked if r.kind == "move")
    assert move.form is None and len(move.options) == 3
    fire = next(r for r in person.asked if r.kind == "fire" and any(">" in o.key for o in r.options))
    assert len(fire.form.fields) == 5 and all("range" in o.label for o in fire.options if ">" in o.key)


def test_illegal_answers_raise_before_any_change():
    game = sfb.new_game("5", seed=3, player=Scripted({"energy": {"speed": 30, "phasers": 0, "recharge": 0}}))
    with pytest.raises(IllegalAction):
        game.run()
    game = sfb.new_game("5", seed=3, player=Scripted({"move": "backwards"}))
    with pytest.raises(IllegalAction, match="not a legal move"):
        game.run()


def test_same_answers_same_log():
    logs = []
    for _ in range(2):
        log = EventLog()
        sfb.new_game("5", seed=5, player=Scripted(), log=log).run()
        logs.append(log.to_jsonl())
    assert logs[0] == logs[1]


@pytest.mark.parametrize("kind,answer", [
    ("energy", {"speed": 12, "phasers": 2.5, "photon-A": 2, "photon-B": 2, "recharge": 0}),
    ("move", "left"),
    ("fire", {"phaser-1#1": "klingon", "photon-A": "klingon"}),
    ("fire", {}),
])
def test_answers_round_trip(kind, answer):
    """A save holds answers as JSON: the same answer read back gives the same action."""
    import json
    from .helpers import make, place, ships
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    if kind == "fire":
        fed.capacitor = 3
        weapon = next(w for w in fed.weapons if w.key == "photon-A")
        weapon.arm, weapon.ready = 2, True
    request = {"energy": game.energy_request, "move": game.move_request, "fire": game.fire_request}[kind](fed)
    raw = json.loads(json.dumps(request.encode(answer)))
    assert raw == answer and request.parse(raw) == request.parse(answer)


def test_narrator_covers_every_event_kind():
    narrator = sfb.narrator()
    kinds = set()
    for seed in range(6):
        for scenario, options in (("4", {"robots": 2}), ("5", {}), ("5", {"impulses": 8})):
            log = EventLog()
            sfb.new_game(scenario, seed=seed, log=log, options=options, robot_ship="kzinti" if seed % 2 else None,
                         player_ship="klingon" if seed == 3 else None).run()
            kinds |= {e.kind for e in log.events}
            assert all(isinstance(line, str) for line in narrator.lines(log.events))
    assert {"setup", "turn", "energy", "decision", "moved", "launched", "fired", "damage", "result"} <= kinds
    assert kinds <= set(narrator.formatters)


def test_ship_data_and_sheet():
    ships = sfb.load_ships()
    assert set(ships) == {"federation", "klingon", "romulan-eagle", "romulan-kr", "kzinti", "gorn", "orion"}
    assert ships["federation"].power == 20 and ships["romulan-eagle"].power == 18 and ships["kzinti"].warp == 15
    sheet = sfb.ship_sheet(ships["klingon"])
    assert any("disruptor-A" in line for line in sheet) and any("capacitor: 4" in line for line in sheet)


def test_bad_ship_file_is_data_error(tmp_path):
    from paperrobot.core.errors import DataError
    (tmp_path / "bad.toml").write_text('name = "bad"\ntitle = "x"\n')
    with pytest.raises(DataError, match="bad.toml"):
        sfb.load_ships(tmp_path)


def test_person_is_not_pestered_about_long_shots():
    """docs/sfb.md 'When a person is asked': only shots worth >= 1 point, or the last impulse."""
    from .helpers import make, place, ships
    game = make()
    fed, kl = ships(game)
    place(fed, "2801", "E")
    place(kl, "0216", "B")
    fed.capacitor = 3
    pairs = game.fire_options(fed)
    assert pairs  # legal: phaser-1 reaches 75 hexes
    game.impulse = 5
    assert not game.worth_asking(fed, pairs)
    game.impulse = 16
    assert game.worth_asking(fed, pairs)
    place(kl, "2808", "A")
    game.impulse = 5
    assert game.worth_asking(fed, game.fire_options(fed))


def test_holding_fire_is_its_own_action_and_logged_as_no_shots():
    """SFB.EA: holding fire is always legal. ``{}`` parses to itself (the driver passes a controller's Decision on
    unchanged, no new one per quiet fire step); "none" and an answer holding every weapon are the same action
    (the search compares actions); the log shows no shots as [] (requests.action_json)."""
    from paperrobot.sfb.requests import action_json
    from .helpers import make, place, ships
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    fed.capacitor = 3
    request = game.fire_request(fed)
    hold: dict = {}
    assert request.parse(hold) is hold
    assert request.parse("none") == {} == request.parse({"phaser-1#1": "none"})
    assert action_json(request.parse("none")) == [] and request.parse({"phaser-1#1": "klingon"}) != {}
