"""Match.clone() and Match.fork() on the toy game: the same open request, the same future for a clone, fresh
dice for a fork, and copies that never disturb the original."""
import pytest

from paperrobot.core.contract import Decision, Match
from paperrobot.core.errors import PaperRobotError
from paperrobot.core.events import EventLog
from tests.toygame import Counting


def new_match(seed=3, target=60, checkpoints=True):
    match = Match("counting", {"target": target}, seed, Counting, EventLog())
    match.checkpoints = checkpoints
    return match


class Script:
    """An outside controller answering from a list, then always 1."""

    def __init__(self, answers=()):
        self.answers = list(answers)

    def decide(self, request):
        if request.kind == "split":
            return Decision("even")
        return Decision(self.answers.pop(0) if self.answers else "1")


def finish(steps, request, answer="2"):
    """Answer every yielded request with ``answer`` (the split with its preset)."""
    try:
        while True:
            request = steps.send("even" if request.kind == "split" else answer)
    except StopIteration as stop:
        return stop.value


def events(match):
    return [e.to_json() for e in match.log.events]


@pytest.mark.parametrize("checkpoints", [True, False])
@pytest.mark.parametrize("stop", [1, 2, 5, 9])
def test_a_clone_resumes_at_the_same_request_and_plays_the_same_game(stop, checkpoints):
    match = new_match(checkpoints=checkpoints)
    steps = match.play()  # the robot side adds by a die roll, the player is yielded
    request = next(steps)
    for _ in range(stop):
        request = steps.send("even" if request.kind == "split" else "3")
    copy = match.clone()
    assert copy.open.seq == request.seq == match.seq
    assert (copy.open.kind, copy.open.side) == (request.kind, request.side)
    copy_steps = copy.play()
    copy_request = next(copy_steps)
    assert copy_request.seq == request.seq
    outcome = finish(steps, request)
    copy_outcome = finish(copy_steps, copy_request)
    assert outcome.to_dict() == copy_outcome.to_dict()
    assert events(copy) == events(match)
    assert copy.answers == match.answers


def test_a_clone_uses_the_snapshot_not_a_replay_from_the_start():
    match = new_match()
    steps = match.play()
    request = next(steps)
    for _ in range(8):
        request = steps.send("even" if request.kind == "split" else "1")
    snapshot, seq, answered, told = match._mark
    assert seq == request.seq - 1 and answered == len(match.answers)  # the boundary just before this request
    calls = []
    build = match._build
    match._build = lambda **kw: calls.append(kw) or build(**kw)
    match.clone()
    assert calls == []  # restored from the snapshot, not built anew


def test_copies_are_independent_of_the_original_and_of_each_other():
    match = new_match()
    steps = match.play()
    request = next(steps)
    request = steps.send("even")
    first, second = match.clone(), match.clone()
    a = first.play({"player": Script()})
    with pytest.raises(StopIteration):
        next(a)
    assert first.outcome is not None
    assert second.engine.total == match.engine.total == 0
    assert second.open.seq == request.seq
    assert match.engine.dice is not first.engine.dice is not second.engine.dice


def test_a_fork_keeps_the_past_and_rolls_fresh_dice():
    match = new_match(target=200)
    steps = match.play()
    request = next(steps)
    for _ in range(4):
        request = steps.send("even" if request.kind == "split" else "1")
    past = list(match.engine.dice.rolls)
    rolls = {}
    for seed in (1, 2, 1):
        copy = match.fork(seed, "player")
        assert copy.open.seq == request.seq
        assert copy.engine.dice.rolls == past
        with pytest.raises(StopIteration):
            next(copy.play({"player": Script()}))
        rolls.setdefault(seed, []).append([r.value for r in copy.engine.dice.rolls[len(past):]])
    assert rolls[1][0] == rolls[1][1]  # the same fork seed: the same dice
    assert rolls[1][0] != rolls[2][0]  # another seed: other dice


def test_a_clone_keeps_the_dice_stream_and_a_fork_does_not():
    match = new_match(target=400)
    steps = match.play()
    request = next(steps)
    request = steps.send("even")
    clones = [match.clone() for _ in range(2)]
    forks = [match.fork(seed, "player") for seed in (11, 12)]
    rolls = []
    for copy in clones + forks:
        with pytest.raises(StopIteration):
            next(copy.play({"player": Script()}))
        rolls.append([r.value for r in copy.engine.dice.rolls])
    assert rolls[0] == rolls[1]
    assert rolls[2] != rolls[0] and rolls[3] != rolls[0] and rolls[2] != rolls[3]


def test_an_outside_controller_is_recorded_so_its_match_can_be_copied():
    seen = []

    class Peek(Script):
        def decide(self, request):
            if request.kind == "add" and request.seq > 6 and not seen:
                copy = self.match.clone()
                seen.append((copy.open.seq, request.seq, copy.engine.total, self.match.engine.total))
            return super().decide(request)

        def bind(self, match, side):
            self.match = match

    match = new_match()
    steps = match.play({"player": Peek(["2"] * 20), "robot": "robot"})
    with pytest.raises(StopIteration):
        next(steps)
    (copy_seq, seq, copy_total, total), = seen
    assert copy_seq == seq and copy_total == total


def test_a_parked_copy_is_not_copied_and_table_dice_are_refused():
    match = new_match()
    steps = match.play()
    next(steps)
    copy = match.clone()
    with pytest.raises(PaperRobotError):
        copy.clone()
    with pytest.raises(PaperRobotError):
        match.fork(1, "nobody")
    table = Match("counting", {"target": 30}, 3, Counting, EventLog(), dice="table")
    with pytest.raises(PaperRobotError, match="table dice"):
        table.clone()


def test_a_finished_match_clones_to_its_outcome():
    match = new_match(target=9)
    with pytest.raises(StopIteration):
        next(match.play({"player": Script()}))
    copy = match.clone()
    assert copy.open is None and copy.outcome.winner == match.outcome.winner


def test_a_copy_replays_an_outside_controllers_reasons_and_memory():
    from paperrobot.core.contract import Reason

    class Explained(Script):
        def decide(self, request):
            decision = super().decide(request)
            return Decision(decision.action, (Reason("TEST.WHY", f"at {request.seq}"),), {"seen": request.seq})

    match = new_match(checkpoints=False)  # the copy replays every answer from the start
    steps = match.play({"player": Explained(), "robot": None})
    request = next(steps)
    for _ in range(3):
        request = steps.send("1")
    copy = match.clone()
    assert copy.engine.recorded == match.engine.recorded  # the decisions told again, in order
    assert len(copy.engine.recorded) == len(match._told) >= 4
    assert all(r[3] == ("TEST.WHY",) for r in copy.engine.recorded)
    assert copy._told == match._told and copy._told is not match._told
    assert [memory["seen"] for _, memory in copy._told.values()] == [r[0] for r in match.engine.recorded]
