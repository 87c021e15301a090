"""Armada on the game contract: registered, playable with defaults, the same games as before the contract,
and random legal play of both sides that always ends with the table's invariants intact."""
import hashlib
import json
import random

import pytest

import paperrobot
from paperrobot.armada import Setup, play_battle
from paperrobot.armada.polygons import inside_area
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import derive_seed
from paperrobot.core.errors import PaperRobotError
from paperrobot.core.events import EventLog

# Recorded with the engine before the contract with the issue #10 fixes (branch `fidelity`, its
# new_game(Setup(), seed).run()): outcomes of derive_seed(1, 0..11) and full event logs of seeds 0..2.
# The conversion changed no game. (Without the #10 fixes the same games give 6c83d1fd... and 8c122d7c...)
OUTCOMES_BEFORE = "de23cd1d8f660a400a3658e43afda501aeee27650738745fee5206e6b43d9e1f"
LOGS_BEFORE = ["cdb96a97c28438365fa034b4b2840db30c37557f4637a0e58b30fe6f47016baa",
               "31499bd6ae30bc817270608406782558b020bd09009016b64aac6722b735200f",
               "c5079206f359d62d604d11a706bc8c1554801990d63e829962826bc0e04e7008"]


def _log_digest(log: EventLog) -> str:
    return hashlib.sha256("\n".join(json.dumps(e.to_json(), sort_keys=True) for e in log.events).encode()).hexdigest()


def test_registered_with_every_option_defaulted():
    info = paperrobot.game_info("armada")
    assert "armada" in paperrobot.games() and info.sides == ("rebel", "imperial") and info.robot_side == "imperial"
    assert {o.name for o in info.options} == {"imperial", "rebel", "table", "evade_close", "ships_dir", "geometry",
                                             "handicap", "handicap_prices", "robot_rules"}
    match = paperrobot.new_game("armada", seed=7)
    steps = match.play()
    request = next(steps)
    assert request.side == "rebel" and request.kind == "command" and request.options and request.default
    json.dumps(request.view)
    with pytest.raises(StopIteration) as stop:
        while True:
            request = steps.send(request.default)
    assert stop.value.value.winner in ("rebel", "imperial") and match.answers


def test_the_games_are_those_of_the_engine_before_the_contract():
    outcomes = [[o.winner, o.result, o.turns, o.metrics]
                for o in (play_battle(derive_seed(1, i)) for i in range(12))]
    assert hashlib.sha256(json.dumps(outcomes, sort_keys=True).encode()).hexdigest() == OUTCOMES_BEFORE
    for seed, digest in enumerate(LOGS_BEFORE):
        log = EventLog(enabled=True)
        play_battle(seed, log=log)
        assert _log_digest(log) == digest, f"seed {seed}"


def test_bad_setups_are_one_line_and_the_controllers_of_each_side(tmp_path):
    with pytest.raises(PaperRobotError, match="unknown ship or squadron 'death-star'"):
        paperrobot.new_game("armada", seed=1, imperial="death-star")
    with pytest.raises(PaperRobotError, match="1200 points; a fleet may have at most 400"):  # issue #11: sizes
        paperrobot.new_game("armada", seed=1, imperial="victory-ii*12,tie-fighter*30")
    with pytest.raises(PaperRobotError, match="the rebel fleet is empty"):
        paperrobot.new_game("armada", seed=1, rebel=" , ")
    with pytest.raises(PaperRobotError, match="table"):
        paperrobot.new_game("armada", seed=1, table="huge")
    with pytest.raises(PaperRobotError, match="no such file|not found|cannot"):
        paperrobot.new_game("armada", seed=1, geometry=str(tmp_path / "none.toml"))
    match = paperrobot.new_game("armada", seed=1)
    assert type(match.engine.controller("rebel", "robot")).__name__ == "Policy"  # the seed has no Rebel robot
    assert type(match.engine.controller("imperial", "policy")).__name__ == "Robot"
    with pytest.raises(PaperRobotError, match="no 'agent' controller"):
        match.engine.controller("rebel", "agent")


def test_an_illegal_answer_comes_back_with_the_rule():
    steps = paperrobot.new_game("armada", seed=2).play()
    request = next(steps)
    again = steps.send("warp")
    assert again.seq == request.seq and "RRG Commands" in again.error


def test_geometry_is_a_setup_option_of_each_game(tmp_path):
    from paperrobot.armada.data import DATA
    text = (DATA / "geometry.toml").read_text().replace("close = 123.3", "close = 130.0")
    mine = tmp_path / "geometry.toml"
    mine.write_text(text)
    custom = paperrobot.new_game("armada", seed=1, geometry=str(mine)).engine
    plain = paperrobot.new_game("armada", seed=1).engine  # in the same process, at the same time
    assert custom.geo.ruler.close == 130.0 and plain.geo.ruler.close == 123.3


SMALL = dict(imperial="gladiator-i,tie-fighter*2", rebel="cr90-a,nebulon-b-escort,x-wing,a-wing", table="small")


def _invariants(game):
    for s in game.ships:
        assert all(v >= 0 for v in s.shields) and s.facedown >= 0 and s.hull_left >= 0 or s.destroyed
        assert all(v >= 0 for v in s.shields)
        assert len(s.cmd_tokens) <= s.spec.command
        if not s.destroyed and game.round >= 1:  # (the AI's ships are placed at the end of set-up)
            assert inside_area(s.fp.base, game.width, game.depth), s.uid
    for q in game.squads:
        assert q.hull >= 0 and (q.hull > 0 or q.destroyed)
        if not q.destroyed and game.round >= 1:
            assert 0 <= q.x <= game.width and 0 <= q.y <= game.depth, q.uid


class _Watch:
    """Log listener: no destroyed unit acts, no hull zone attacks twice in one activation."""

    def __init__(self, game):
        self.game, self.fired, self.last, self.targets = game, set(), None, set()

    def __call__(self, event):
        game = self.game
        if event.kind == "activate":
            self.fired = set()
        elif event.kind == "attack":
            # Counter X strikes back even if destroyed (RRG 'Squadron Keywords'); no other attack by a destroyed unit
            assert event.data["counter"] or not game.unit(event.data["attacker"]).destroyed, event.data
            if event.data["zone"] and not event.data["counter"]:
                # one attack per hull zone; one anti-squadron attack may shoot several squadrons, one after another
                key = (event.data["attacker"], event.data["zone"])
                if key in self.fired:
                    assert key == self.last and event.data["tzone"] is None and event.data["target"] not in self.targets, \
                        f"{key} attacks twice in one activation"
                else:
                    self.targets = set()
                self.fired.add(key)
                self.last = key
                self.targets.add(event.data["target"])
        elif event.kind in ("move", "squadron-move"):
            assert not game.unit(event.data.get("ship") or event.data["unit"]).destroyed, event.data


@pytest.mark.parametrize("setup", [{}, SMALL], ids=["standard", "small"])
def test_random_legal_play_of_both_sides_always_ends_with_the_table_intact(setup):
    refused = 0
    for i in range(40 if setup else 25):
        rng = random.Random(i)
        log = EventLog(enabled=False)
        match = paperrobot.new_game("armada", seed=1000 + i, log=log, **setup)
        log.listeners.append(_Watch(match.engine))
        steps = match.play({"rebel": None, "imperial": None})
        try:
            request = next(steps)
            while True:
                assert request.options, request
                assert request.option(request.default) is not None or request.parse(request.default) is not None
                subject = request.subject
                if request.kind in ("maneuver", "ai-command") or (request.kind == "squadron"):
                    unit = subject["squad"] if isinstance(subject, dict) else subject
                    assert not unit.destroyed
                _invariants(match.engine)
                answer = rng.choice(request.options)
                seq = request.seq
                request = steps.send(answer)
                refused += request.seq == seq
        except StopIteration as stop:
            assert stop.value is not None and stop.value.turns <= 6
        _invariants(match.engine)
    assert refused == 0


def test_policy_and_robot_answer_the_imperial_robot_side_the_same_way_as_drive_all():
    match = paperrobot.new_game("armada", seed=5)
    outcome = drive_all(match, {"imperial": "robot", "rebel": "policy"})
    assert outcome == play_battle(5, Setup())
