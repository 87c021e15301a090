"""The speed paths of the contract (docs/speed.md): requests kept and asked again for a side flown in process
(Request.reissue), never for a person's side; and standing answers (a question the side's policy always answers
the same way is not asked of it, while a person is still asked)."""
import pytest

import paperrobot
from paperrobot.sfb import game as sfb_game
from paperrobot.core.contract import Option, Request, drive_all
from paperrobot.core.controller import Decision


class Recorder:
    """An in-process controller wrapped round the engine's own one: notes every request object it is asked."""

    def __init__(self, inner):
        self.inner, self.seen = inner, []

    def decide(self, request):
        self.seen.append((request, request.kind, request.seq, request.error, callable(request._options)))
        return self.inner.decide(request)


def test_reissue_makes_a_read_request_new_again():
    request = Request("move", "player", options=lambda: (Option("straight"), Option("left")), view=lambda: {"a": 1})
    assert request.options[0].key == "straight" and request.view == {"a": 1}
    request.seq, request.error = 7, "refused"
    assert request.reissue(lambda: (Option("right"),), lambda: {"b": 2}, data="d") is request
    assert (request.seq, request.error, request.data) == (0, "", "d")
    assert request.options[0].key == "right" and request.view == {"b": 2}


def test_the_robot_side_gets_its_hot_requests_again_made_new_and_a_person_gets_fresh_ones():
    match = paperrobot.new_game("sfb", seed=3, scenario="5")
    robot = Recorder(match.engine.controller("robot", "robot"))
    steps = match.play({"robot": robot, "player": None})
    people, request = [], next(steps)
    while len(people) < 60:
        people.append(request)
        request = steps.send(request.default)
    moves = [r for r, kind, *_ in robot.seen if kind == "move"]
    assert len(moves) > 3 and len({id(r) for r in moves}) == 1  # one kept move request for the robot ship
    assert all(seq > 0 and error == "" and fresh for _, _, seq, error, fresh in robot.seen)  # each made new
    assert len({seq for _, _, seq, _, _ in robot.seen}) == len(robot.seen)  # numbered anew each time
    hot = [r for r in people if r.kind in ("move", "fire", "disengage")]
    assert len({id(r) for r in hot}) == len(hot)  # a person never gets a request object twice


def test_the_sfb_policy_is_not_asked_to_disengage_but_a_person_is():
    match = paperrobot.new_game("sfb", seed=4, scenario="5")
    policy = Recorder(match.engine.controller("player", "policy"))
    drive_all(match, {"robot": "robot", "player": policy})
    policy_kinds = {kind for _, kind, *_ in policy.seen}
    assert "fire" in policy_kinds and "disengage" not in policy_kinds  # the captain always fights on
    steps = paperrobot.new_game("sfb", seed=4, scenario="5").play({"robot": "robot", "player": None})
    request, kinds = next(steps), set()
    while len(kinds) < 4 and request is not None:
        kinds.add(request.kind)
        request = steps.send(request.default)
    assert "disengage" in kinds  # SFB #5: a person's ship is offered disengagement at every impulse's end


def test_the_fc_policy_is_not_asked_to_accelerate_but_the_robot_is():
    match = paperrobot.new_game("fc", seed=2, robot_ship="d7", player_ship="federation-ca")
    policy = Recorder(match.engine.controller("player", "policy"))
    robot = Recorder(match.engine.controller("robot", "robot"))
    outcome = drive_all(match, {"robot": robot, "player": policy})
    assert outcome is not None
    assert "accelerate" not in {kind for _, kind, *_ in policy.seen}  # its standing answer: "none"
    assert "accelerate" in {kind for _, kind, *_ in robot.seen}  # FC.2: the robot rolls for it


@pytest.mark.skipif(str(sfb_game.__file__).endswith(".so"),
                    reason="a compiled engine's methods cannot be replaced on the instance; the driver (core/contract.py) "
                           "is the same both ways, and CI's pure-Python run checks it")
def test_a_controllers_decision_is_passed_on_when_its_answer_is_the_action():
    """A move key parses to itself: the engine gets the robot's own Decision (no copy built per answer)."""
    match = paperrobot.new_game("sfb", seed=5, scenario="5")
    engine = match.engine
    robot = Recorder(engine.controller("robot", "robot"))
    given, received = [], []
    decide = robot.decide

    def keep(request):
        decision = decide(request)
        given.append(decision)
        return decision

    robot.decide = keep
    plain = engine.move_ships

    def watched(movers=None):  # the move step as it is, noting each Decision the engine receives
        steps = plain(movers)
        try:
            request = next(steps)
            while True:
                decision = yield request
                received.append(decision)
                request = steps.send(decision)
        except StopIteration as stop:
            return stop.value

    engine.move_ships = watched
    drive_all(match, {"robot": robot, "player": "policy"})
    robot_moves = [d for d in received if any(d is g for g in given)]
    assert robot_moves and all(isinstance(d, Decision) and d.action in ("straight", "left", "right")
                               for d in robot_moves)
