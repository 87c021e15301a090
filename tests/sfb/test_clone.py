"""Clone and fork of SFB matches (core Match.clone/fork on sfb/cloning.py's snapshots at the boundaries of the
sequence of play): a copy played on with the same controllers gives the same events and outcome as the game it
came from; a restored engine shares nothing that changes with its origin; forks with fresh dice roll differently;
a fork for a side shows it nothing its view did not (docs/sfb-plasma-cloak.md "Cloak and forks")."""
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.controller import Decision
from paperrobot.core.dice import derive_seed
from paperrobot.core.events import EventLog
from paperrobot.sfb.cloning import OWN

SETUPS = [  # (set-up, the player side's controller)
    ({"scenario": "5"}, "policy"),
    ({"scenario": "5"}, "robot"),
    ({"scenario": "4"}, "policy"),
    ({"scenario": "4", "impulses": 8}, "policy"),
    ({"scenario": "6"}, "policy"),
    ({"scenario": "6k-kr", "plasma_f": "cth", "evade": "plasma"}, "policy"),
    ({"scenario": "6kr"}, "robot"),
    ({"scenario": "duel", "robot_ship": "romulan-eagle", "player_ship": "kzinti"}, "policy"),
    ({"scenario": "duel", "robot_ship": "gorn", "player_ship": "klingon"}, "robot"),
]


def events(log: EventLog) -> list[str]:
    return [json.dumps(e.to_dict(), sort_keys=True) for e in log.events]


def played(setup: dict, seed: int, player: str, marks: bool = True):
    """A whole battle with the event log on; every boundary's snapshot with the number of events before it."""
    log = EventLog(enabled=True)
    match = paperrobot.new_game("sfb", seed=seed, log=log, **setup)
    engine = match.engine
    taken: list[tuple] = []
    if marks:
        engine.boundary = lambda: taken.append((engine.snapshot(), len(log.events)))
    outcome = drive_all(match, {"robot": "robot", "player": player})
    return engine, log, taken, outcome


class Via:
    """An outside controller that answers as the robot or the policy of the engine it is asked by, and copies the
    match (clone, or fork with ``fork_seed``) just before answering its requests number ``at``. It answers as a
    person does: the answer alone. (A copy replays an outside side's recorded answers, which hold neither the
    reasons nor the robot's memory of a Decision: core's Match keeps only the answer.)"""

    def __init__(self, kind: str, at=(), fork_seed=None):
        self.kind, self.at, self.fork_seed, self.copies, self.seen = kind, set(at), fork_seed, [], []

    def bind(self, match, side):
        self.match = match

    def decide(self, request):
        self.seen.append(request.seq)
        if request.seq in self.at:
            copy = self.match.clone() if self.fork_seed is None else self.match.fork(self.fork_seed, request.side)
            assert (copy.open.seq, copy.open.kind, copy.open.side) == (request.seq, request.kind, request.side)
            self.copies.append(copy)
        game = request.state
        if self.kind == "robot":
            return Decision(game.robot_for(request.subject).decide(request).action)
        return Decision(game.policy.decide(request).action)


def match_of(setup: dict, seed: int):
    match = paperrobot.new_game("sfb", seed=seed, log=EventLog(enabled=True), **setup)
    match.checkpoints = True
    return match


@pytest.mark.parametrize("setup,player", SETUPS, ids=lambda v: "-".join(map(str, v.values())) if isinstance(v, dict) else v)
@pytest.mark.parametrize("outside", ["robot", "player"])
def test_a_clone_plays_on_exactly_as_the_match_it_came_from(setup, player, outside):
    """Clones at many points of whole games (one side flown from outside, so the match waits at its requests; the
    other in process, with its standing answers): both played on the same way give the same events and outcome."""
    if outside == "player" and player == "robot":
        pytest.skip("a robot-flown player ship is made one by the engine's controller(): in process only")
    for index in range(2):
        seed = derive_seed(22, index)
        kinds = {"robot": "robot", "player": player}
        probe = Via(kinds[outside])
        controllers = {**kinds, outside: probe}
        whole = match_of(setup, seed)
        drive_all(whole, controllers)
        asked = probe.seen
        via = Via(kinds[outside], at=asked[::max(1, len(asked) // 12)] + asked[-1:])
        match = match_of(setup, seed)
        outcome = drive_all(match, {**kinds, outside: via})
        assert outcome == whole.outcome and events(match.log) == events(whole.log)
        assert len(via.copies) >= min(len(asked), 10)
        for copy in via.copies:
            assert drive_all(copy, {**kinds, outside: Via(kinds[outside])}) == outcome
            assert events(copy.log) == events(match.log)


def test_boundaries_fall_at_turn_start_every_impulse_and_end_of_turn():
    engine, log, marks, _ = played({"scenario": "5"}, 5, "policy")
    positions = [m[0][0][:3] for m in marks]
    turns = {t for t, _, _ in positions}
    for turn in sorted(turns)[:-1]:  # every turn but the last, which ends mid-turn
        assert [p for p in positions if p[0] == turn] == (
            [(turn, 0, "energy")] + [(turn, i, "impulse") for i in range(1, 17)] + [(turn, 16, "end")])


def test_without_boundaries_the_game_is_the_same():
    _, with_marks, _, first = played({"scenario": "6"}, 9, "policy")
    _, without, _, second = played({"scenario": "6"}, 9, "policy", marks=False)
    assert first == second and events(with_marks) == events(without)


def test_restoring_a_snapshot_twice_gives_independent_engines():
    engine, log, marks, _ = played({"scenario": "6kr"}, 4, "robot")
    snapshot, count = marks[len(marks) // 2]
    a = engine.restore(snapshot, EventLog(enabled=False))
    b = engine.restore(snapshot, EventLog(enabled=False))
    again = engine.restore(snapshot, EventLog(enabled=False))
    for ship in a.ships:  # change everything that changes in play
        ship.hex, ship.speed, ship.primary_done, ship.focus = (0, 0), 31, not ship.primary_done, "X"
        ship.shields[0] = 99
        for w in ship.weapons:
            w.ready, w.arm, w.ammo = not w.ready, 9, 9
            if w.tube is not None:
                w.tube.state, w.tube.lost_at = 4, 77
        if ship.cloak is not None:
            ship.cloak.cloaked = not ship.cloak.cloaked
    for seeker in a.drones + a.plasmas:
        seeker.hex, seeker.alive = (0, 0), False
    a.drones.clear()
    a.plasmas.clear()
    a.order.reverse()
    a.cloak_paid["x"] = 1
    a.standing["robot"] = {"x": 1}
    a.forced_unasked.add("robot")
    a.in_process.clear()
    a.dice.d6("a roll only a rolls")
    assert b.snapshot() == snapshot == again.snapshot()
    assert engine.snapshot() != b.snapshot()  # the original finished the battle: unchanged by the restores
    assert a.snapshot() != snapshot


def test_a_restored_engine_shares_no_changing_object_with_its_origin():
    engine, _, marks, _ = played({"scenario": "6"}, 12, "policy")
    restored = engine.restore(marks[len(marks) // 3][0], EventLog(enabled=False))
    for name in OWN:  # what changes in a battle (a compiled engine has no __dict__: its fields by name)
        value = getattr(restored, name)
        if isinstance(value, (int, float, str, bool, tuple, frozenset, type(None))):
            continue
        assert value is not getattr(engine, name), name
    assert restored.board is engine.board and restored._viable is engine._viable  # the unchanging: shared
    mine = {id(o) for s in engine.ships for o in (s, s.shields, s.weapons, s.cloak, *s.weapons,
                                                   *(w.tube for w in s.weapons)) if o is not None}
    for ship in restored.ships:
        for o in (ship, ship.shields, ship.weapons, ship.cloak, *ship.weapons, *(w.tube for w in ship.weapons)):
            assert o is None or id(o) not in mine
        assert ship.spec is engine.by_name[ship.name].spec  # the sheet is shared


def test_forks_with_different_seeds_roll_differently_and_the_same_seed_the_same():
    probe = Via("robot")
    drive_all(match_of({"scenario": "5"}, 6), {"robot": probe, "player": "policy"})
    at = probe.seen[len(probe.seen) // 3]

    def fork_and_play(fork_seed):
        via = Via("robot", at=(at,), fork_seed=fork_seed)
        match = match_of({"scenario": "5"}, 6)
        drive_all(match, {"robot": via, "player": "policy"})
        fork = via.copies[0]
        told = len(fork.log.events)
        rolled = len(fork.engine.dice.rolls)
        drive_all(fork, {"robot": Via("robot"), "player": "policy"})
        return [r.value for r in fork.engine.dice.rolls[rolled:]], events(fork.log)[told:], events(match.log)[told:]

    rolls_a, log_a, real = fork_and_play(1)
    rolls_b, log_b, _ = fork_and_play(2)
    assert rolls_a != rolls_b and log_a != log_b and log_a != real
    assert fork_and_play(1)[:2] == (rolls_a, log_a)


def test_unroute_asks_a_side_every_question_again():
    engine, log, marks, _ = played({"scenario": "5"}, 8, "policy")
    snapshot, count = next(m for m in marks if m[0][0][2] == "impulse")
    restored = engine.restore(snapshot, EventLog(enabled=False))
    assert not restored.disengage_step and "player" in restored.forced_unasked
    restored.unroute("player")
    assert restored.disengage_step and not restored.standing and not restored.forced_unasked
    assert "player" not in restored.in_process  # an outside controller may keep its requests: built new
    again = engine.restore(snapshot, EventLog(enabled=False))
    again.controller("player", "policy")
    again.unroute("player")  # asked of this engine: the caller flies the side with the engine's own policy
    assert not again.disengage_step and "player" in again.forced_unasked and "player" in again.in_process
    kinds = set()
    steps = restored.sequence()
    robot = restored.controller("robot", "robot")
    request = next(steps)
    while "disengage" not in kinds and restored.impulse <= 3:
        controller = robot if request.side == "robot" else restored.policy
        if request.side == "player":
            kinds.add(request.kind)
        decision = controller.decide(request)
        request = steps.send(Decision(request.parse(decision.action), decision.reasons, decision.memory))
    assert "disengage" in kinds  # the policy's standing "no" is forgotten: the question is asked


def test_a_fork_redraws_nothing_the_rules_hide_nothing_here():
    """Seed 004 G13.1: a cloaked ship stays on the map where everyone sees it, so the engine has no ``redraw`` and
    a fork of a position with a cloaked ship keeps that position; only the dice to come differ."""
    engine, _, marks, _ = played({"scenario": "6"}, 3, "policy")
    assert getattr(engine, "redraw", None) is None
    cloaked = [m for m in marks if any(s[3] is not None and s[3][1] for s in m[0][1])]
    assert cloaked, "the policy cloaks in some turn of this battle"
    restored = engine.restore(cloaked[0][0], EventLog(enabled=False))
    assert restored.snapshot() == cloaked[0][0]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), fork_seed=st.integers(0, 2**32), at=st.floats(0, 1))
def test_a_fork_for_the_side_facing_a_cloak_shows_it_exactly_what_its_view_showed(seed, fork_seed, at):
    """Property (scenario #6, the robot against a cloaking Romulan): a fork for the robot side, made at any of its
    requests, shows that side the same view as the game it was forked from (the cloaked ship where it was, nothing
    its view did not show); only the dice to come differ."""
    probe = Via("robot")
    drive_all(match_of({"scenario": "6"}, seed), {"robot": probe, "player": "policy"})
    chosen = probe.seen[min(len(probe.seen) - 1, int(at * len(probe.seen)))]

    class Watch(Via):
        def decide(self, request):
            if request.seq == chosen:
                self.seen_view = json.dumps(request.view, sort_keys=True)
            return super().decide(request)

    watch = Watch("robot", at=(chosen,), fork_seed=fork_seed)
    drive_all(match_of({"scenario": "6"}, seed), {"robot": watch, "player": "policy"})
    fork = watch.copies[0]
    assert json.dumps(fork.open.view, sort_keys=True) == watch.seen_view
