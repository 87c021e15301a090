"""Property: many seeded battles finish without error and keep the invariants; replays are identical."""
from hypothesis import given, settings, strategies as st

from paperrobot import sfb
from paperrobot.core.events import EventLog
from paperrobot.core.hexgrid import parse

BOX_FIELDS = ("warp", "impulse", "apr", "battery", "charged", "hull", "bridge", "security", "transporter", "lab",
              "shuttle", "excess")


def check(game, outcome):
    assert outcome.winner in (None, *sfb.SIDES)
    for ship in game.ships:
        assert all(s >= 0 for s in ship.shields)
        assert all(getattr(ship, f) >= 0 for f in BOX_FIELDS)
        assert 0 <= ship.charged <= ship.battery
        assert -1e-9 <= ship.capacitor <= ship.capacity + 1e-9
        assert all(w.ammo >= 0 for w in ship.weapons)
        if ship.robot:
            assert game.board.contains(ship.hex) and not ship.gone  # SFB.R3.MAP: never leaves the map
    for event in game.log.events:
        if event.kind == "moved" and game.by_name[event.data["ship"]].robot:
            assert game.board.contains(parse(event.data["to"]))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), scenario=st.sampled_from(["4", "5"]),
       opponent=st.sampled_from(["policy", "robot"]), impulses=st.sampled_from([16, 8]),
       robots=st.sampled_from([1, 2, 3]), robot_ship=st.sampled_from(["klingon", "federation", "kzinti", "orion"]))
def test_battles_keep_invariants_and_replay(seed, scenario, opponent, impulses, robots, robot_ship):
    options = {"impulses": impulses}
    if scenario == "4":
        options["robots"] = robots
    log = EventLog()
    game = sfb.new_game(scenario, seed=seed, opponent=opponent, robot_ship=robot_ship, log=log, options=options)
    outcome = game.run()
    check(game, outcome)
    again = EventLog()
    sfb.new_game(scenario, seed=seed, opponent=opponent, robot_ship=robot_ship, log=again, options=options).run()
    assert again.to_jsonl() == log.to_jsonl()
    assert sfb.play_battle(seed, scenario=scenario, opponent=opponent, robot_ship=robot_ship,
                           options=options) == outcome  # the log switch does not change the game


class RandomCaptain:
    """A person answering at random among the legal options (the engine must cope with any of them)."""

    def __init__(self, seed):
        import random
        self.rnd = random.Random(seed)

    def decide(self, request):
        from paperrobot.core.controller import Decision
        rnd = self.rnd
        if request.kind == "energy":
            values = dict(request.option("suggested").value)
            values["speed"] = rnd.randint(0, values["speed"])
            return Decision(values)
        if request.kind == "disengage":
            return Decision("yes" if rnd.random() < 0.002 else "no")
        if request.form is None:
            return Decision(rnd.choice([o.key for o in request.options]))
        if request.kind == "launch":
            return Decision({"launch": [k for k in request.form.choices("launch") if rnd.random() < 0.5]})
        values = {}  # fire: each weapon's target at random among its legal ones, field by field
        for field in request.form.fields:
            choices = request.form.choices(field.name, values)
            values[field.name] = choices[0] if rnd.random() < 0.5 else rnd.choice(choices)
        return Decision(values)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), scenario=st.sampled_from(["4", "5"]),
       ship=st.sampled_from(["federation", "klingon", "kzinti", "orion"]))
def test_random_person_keeps_invariants(seed, scenario, ship):
    game = sfb.new_game(scenario, seed=seed, player=RandomCaptain(seed), player_ship=ship, log=EventLog())
    check(game, game.run())
