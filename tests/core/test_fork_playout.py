"""What a search's play-out uses of the contract: quiet forks (no log, the same game) and ``play(first=...)`` (the
open request of a copy answered by the caller, its side flown in process after it)."""
import pytest

import paperrobot
from paperrobot.core.contract import Decision, Match, drive_all
from paperrobot.core.errors import PaperRobotError
from paperrobot.core.events import EventLog
from tests.toygame import Counting


def toy_at(stop=4):
    """The toy game with the player answering '2' from outside, stopped at its ``stop``-th request."""
    match = Match("counting", {"target": 40}, 3, Counting, EventLog())
    match.checkpoints = True
    steps = match.play()
    request = next(steps)
    for _ in range(stop):
        request = steps.send("even" if request.kind == "split" else "2")
    return match, request


class First:
    """Answers the first question with ``answer``, then as the engine's robot would."""

    def __init__(self, match, answer):
        self.match, self.answer, self.robot = match, answer, None

    def decide(self, request):
        if self.answer is not None:
            answer, self.answer = self.answer, None
            return Decision(answer)
        return self.robot.decide(request)


def test_a_quiet_fork_logs_nothing_and_plays_the_same_game():
    match, request = toy_at()
    loud, quiet = match.fork(11, "player"), match.fork(11, "player", quiet=True)
    assert loud.log.enabled and not quiet.log.enabled
    outcomes = [drive_all(copy, {"player": "robot", "robot": "robot"}) for copy in (loud, quiet)]
    assert outcomes[0].to_dict() == outcomes[1].to_dict()
    assert quiet.seq == loud.seq and quiet.answers == loud.answers and not quiet.log.events


@pytest.mark.parametrize("answer", ["1", "2", "3"])
def test_first_answers_the_open_request_then_the_in_process_controller_flies_the_side(answer):
    match, request = toy_at()
    played = match.fork(5, "player", quiet=True)
    outcome = drive_all_first(played, Decision(answer))
    asked = match.fork(5, "player", quiet=True)
    first = First(asked, answer)
    steps = asked.play({"player": first, "robot": "robot"})
    first.robot = asked.engine.controller("player", "robot")
    with pytest.raises(StopIteration) as stop:
        next(steps)
    assert stop.value.value.to_dict() == outcome.to_dict()
    assert played.answers[-1][0] < request.seq  # the answer given is in no record of answers
    with pytest.raises(PaperRobotError, match="cannot be copied"):
        played.fork(1)


def drive_all_first(match, first):
    steps = match.play({"player": "robot", "robot": "robot"}, first)
    with pytest.raises(StopIteration) as stop:
        next(steps)
    return stop.value.value


def test_first_is_refused_where_there_is_no_open_request_of_a_copy_or_no_controller():
    match, request = toy_at()
    with pytest.raises(PaperRobotError, match="open request of a copy"):
        Match("counting", {"target": 40}, 3, Counting, EventLog()).play(first=Decision("1"))
    with pytest.raises(PaperRobotError, match="sending the answer"):
        match.fork(2, "player").play({"player": None}, Decision("1"))
    outside = match.fork(2, "player")  # an outside controller's side: the answer given is recorded, copies work
    first = First(outside, None)
    steps = outside.play({"player": first, "robot": "robot"}, Decision("3"))
    first.robot = outside.engine.controller("player", "robot")
    with pytest.raises(StopIteration):
        next(steps)
    assert [request.seq, "add", "player", "3"] in outside.answers


def test_a_quiet_fork_of_a_real_game_plays_as_a_loud_one():
    """SFB #5 with its log on (as a battle in the terminal): a quiet fork and a loud one of the same seed end alike."""
    match = paperrobot.new_game("sfb", seed=4, log=EventLog(), scenario="5")
    match.checkpoints = True
    steps = match.play({"player": None, "robot": "robot"})
    request = next(steps)
    for _ in range(30):
        request = steps.send(request.default)
    for seed in (1, 2, 3):
        loud, quiet = match.fork(seed, "player"), match.fork(seed, "player", quiet=True)
        ends = [drive_all(copy, {"player": "policy", "robot": "robot"}).to_dict() for copy in (loud, quiet)]
        assert ends[0] == ends[1] and not quiet.log.events and loud.log.events


def test_a_finished_game_keeps_none_of_the_drivers_hooks():
    """The driver's hooks on the engine (its dice' ``unfit``, the checkpoint ``boundary``) close over the driver and
    so over the match: left on a finished engine, every play-out's whole game is a reference cycle for the collector."""
    match, request = toy_at()
    fork = match.fork(7, "player", quiet=True)
    fork.checkpoints = True
    steps = fork.play({"player": "robot", "robot": "robot"})
    assert fork.engine.dice.unfit is None  # not driving yet
    with pytest.raises(StopIteration):
        next(steps)
    assert fork.outcome is not None
    assert fork.engine.dice.unfit is None and fork.engine.dice.asker is None
    assert getattr(fork.engine, "boundary", None) is None


def test_a_forks_answers_are_the_originals_and_stay_apart_from_them():
    match, request = toy_at()
    fork = match.fork(7, "player")
    assert fork.answers == match.answers and fork.answers is not match.answers
    before = [list(a) for a in match.answers]
    drive_all(fork, {"player": "robot", "robot": "robot"})
    assert match.answers == before
