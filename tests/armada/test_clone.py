"""Armada's side of clone and fork (issue 22, clone protocol): snapshots at the boundaries of the sequence of play,
restored engines that resume there and play on exactly as the original did, forks with fresh dice, and a fork for a
side never showing it the other side's unrevealed command dials."""
import ast
import json
import random
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from paperrobot.armada import IMPERIAL, REBEL, Game, base
from paperrobot.armada.requests import COMMANDS
from paperrobot.armada.snapshot import hidden_dials
from paperrobot.core import registry
from paperrobot.core.contract import Decision, drive_all
from paperrobot.core.dice import derive_seed
from paperrobot.core.events import EventLog

from ..random_answer import random_answer

SETUPS = {
    "standard": {},
    "small": dict(imperial="gladiator-i,tie-fighter*2", rebel="cr90-a,nebulon-b-escort,x-wing,a-wing", table="small"),
    "2015": dict(evade_close=False),
}


class RandomRebel:
    """Random legal answers that depend only on the game's seed and how many requests came before: an engine restored
    at a boundary, told where it is, answers as the original did."""

    def __init__(self, seed: int, count: int = 0):
        self.seed, self.count = seed, count

    def decide(self, request):
        self.count += 1
        return Decision(random_answer(request, random.Random(self.seed * 100003 + self.count)))


class Counter:
    """A controller's answers, counted (the requests answered before a boundary: where a RandomRebel resumes)."""

    def __init__(self, inner, box):
        self.inner, self.box = inner, box

    def decide(self, request):
        self.box[0] += 1
        return self.inner.decide(request)


def engine(seed: int, setup: str, log: bool = True) -> Game:
    return registry.new_match("armada", seed, EventLog(enabled=log), **SETUPS[setup]).engine


def drive(game: Game, rebel=None):
    """Play ``game`` on to its end (robot for the Imperials, the policy or ``rebel`` for the Rebels), as the Match
    does: each answer parsed by its request, the robot's reasons recorded. Returns the outcome."""
    routes = {IMPERIAL: game.controller(IMPERIAL, "robot"), REBEL: rebel or game.controller(REBEL, "policy")}
    steps = game.sequence()
    try:
        request = next(steps)
        while True:
            answer = routes[request.side].decide(request)
            decision = Decision(request.parse(answer.action), answer.reasons)
            game.record(request, decision)
            request = steps.send(decision)
    except StopIteration as stop:
        return stop.value


def events(log: EventLog) -> list[str]:
    return [json.dumps(e.to_dict(), sort_keys=True) for e in log.events]


@lru_cache(maxsize=None)
def recorded(seed: int, setup: str, rebel: str):
    """A whole battle with a snapshot at every boundary: (its events, outcome, [(snapshot, events before it,
    Rebel answers before it)])."""
    game = engine(seed, setup)
    box = [0]
    marks = []
    game.boundary = lambda: marks.append((game.snapshot(), len(game.log.events), box[0]))
    who = RandomRebel(seed) if rebel == "random" else game.controller(REBEL, "policy")
    outcome = drive(game, Counter(who, box))
    return events(game.log), outcome, marks


def resumed(seed: int, setup: str, mark, prefix: list[str] | None = None, log: bool = True) -> Game:
    """An engine restored from ``mark``, its log holding the original's events before the boundary."""
    snap, n, _ = mark
    out = EventLog(enabled=log)
    if log:
        out.events = [_event(e) for e in (prefix if prefix is not None else recorded_prefix(seed, setup, n))]
    return engine(seed, setup, log=False).restore(snap, out)


def recorded_prefix(seed, setup, n):
    return recorded(seed, setup, "policy")[0][:n]


def _event(text: str):
    from paperrobot.core.events import Event
    return Event.from_dict(json.loads(text))


def reseed(game: Game, seed: int) -> None:
    game.dice.reseed(seed)


@pytest.mark.parametrize("setup", list(SETUPS))
@pytest.mark.parametrize("rebel", ["policy", "random"])
def test_a_restored_engine_plays_on_exactly_as_the_original(setup, rebel):
    for index in range(3):
        seed = derive_seed(1, index) if setup == "standard" else index
        log, outcome, marks = recorded(seed, setup, rebel)
        assert len(marks) > 20  # every phase and every activation is a boundary
        for k in sorted({0, 1, len(marks) // 3, len(marks) // 2, len(marks) - 2, len(marks) - 1, *range(2, len(marks), 7)}):
            snap, n, answered = marks[k]
            game = resumed(seed, setup, marks[k], prefix=log[:n])
            who = RandomRebel(seed, answered) if rebel == "random" else None
            assert drive(game, who) == outcome, (seed, k)
            assert events(game.log) == log, (seed, k)


def test_the_games_are_the_same_with_the_boundary_hook_set():
    """Taking snapshots changes nothing: the same events and outcome as a battle run without the hook."""
    for seed in range(3):
        game = engine(seed, "standard")
        outcome = drive(game)
        log, with_marks, _ = recorded(seed, "standard", "policy")
        assert outcome == with_marks and events(game.log) == log


def test_the_boundaries_are_each_phase_and_each_activation():
    _, _, marks = recorded(4, "standard", "policy")
    phases = [m[0].position[1] for m in marks]
    assert phases[0] == "command" and {"command", "ship", "squadron", "status"} == set(phases)
    rounds = max(m[0].position[0] for m in marks)
    assert phases.count("command") == rounds
    # before each ship activation: as many ship-phase boundaries as activate events
    log = recorded(4, "standard", "policy")[0]
    assert phases.count("ship") == sum('"kind": "activate"' in e for e in log)


def test_a_restored_engine_resumes_at_its_boundary():
    """Its first request is the original's first after that boundary (whose hook it calls again at once, with the
    same position); the boundaries after it are the original's."""
    _, _, marks = recorded(5, "standard", "policy")
    original = engine(5, "standard", log=False)
    after: list = []
    original.boundary = lambda: after.append(None)
    routes = {IMPERIAL: original.controller(IMPERIAL, "robot"), REBEL: original.controller(REBEL, "policy")}
    steps = original.sequence()
    request = next(steps)
    while len(after) < 11:
        request = steps.send(Decision(request.parse(routes[request.side].decide(request).action)))
    game = resumed(5, "standard", marks[10], log=False)
    seen: list = []
    game.boundary = lambda: seen.append(game.snapshot())
    steps = game.sequence()
    first = next(steps)
    assert (first.kind, first.side, first.prompt) == (request.kind, request.side, request.prompt)
    assert len(seen) == 1 and seen[0][:5] == marks[10][0][:5]
    routes = {IMPERIAL: game.controller(IMPERIAL, "robot"), REBEL: game.controller(REBEL, "policy")}
    while len(seen) < 3:
        first = steps.send(Decision(first.parse(routes[first.side].decide(first).action)))
    assert [m[:5] for m in seen[1:]] == [m[0][:5] for m in marks[11:13]]


def test_restoring_twice_gives_independent_engines_sharing_nothing_mutable():
    _, _, marks = recorded(6, "standard", "policy")
    snap = marks[len(marks) // 2][0]
    a = resumed(6, "standard", marks[len(marks) // 2], log=False)
    b = resumed(6, "standard", marks[len(marks) // 2], log=False)
    fresh = engine(6, "standard", log=False)
    source = (Path(base.__file__).parent / "base.py").read_text()  # base.py's source, compiled or not
    declared = {node.target.id for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}  # GameBase's fields
    for game in (a, fresh, b):
        if hasattr(game, "__dict__"):  # pure Python: every field Game.__init__ sets is declared in base.py
            assert set(vars(game)) <= declared, set(vars(game)) - declared
        for name in sorted(declared):  # compiled, reading a field never set raises AttributeError
            getattr(game, name)
    for name in ("ships", "squads", "score", "deck", "obstacles", "_shots", "_memo", "_controllers", "dice"):
        assert getattr(a, name) is not getattr(b, name), name
    for s, t in zip(a.ships, b.ships):
        assert s is not t and s.spec is t.spec
        for field in ("shields", "tokens", "faceup", "cmd_tokens", "used"):
            assert getattr(s, field) is not getattr(t, field), field
        assert all(x is not y for x, y in zip(s.tokens, t.tokens))
    for q, r in zip(a.squads, b.squads):
        assert q is not r
    # mutate one: the other, and the snapshot, are untouched
    before = (b.snapshot().ships, b.snapshot().squads, b.snapshot().score, b.dice._rng.getstate())
    s = a.ships[0]
    s.x += 50
    s.shields[0] = 0
    s.tokens[0][1] = True
    s.faceup.append("Comm Noise")
    s.cmd_tokens.add("repair")
    s.used.add("navigate")
    a.squads[0].hull = 0
    a.score[IMPERIAL] += 99
    a.deck.pop()
    a.obstacles.pop()
    a.dice.roll(8, "test")
    assert (b.snapshot().ships, b.snapshot().squads, b.snapshot().score, b.dice._rng.getstate()) == before
    assert resumed(6, "standard", (snap, 0, 0), log=False).snapshot().ships == before[0]


def test_forks_with_different_seeds_roll_differently_and_the_same_seed_alike():
    log, _, marks = recorded(7, "standard", "policy")
    mark = marks[len(marks) // 3]
    rolls = {}
    for name, seed in (("a", 11), ("b", 12), ("a2", 11)):
        game = resumed(7, "standard", mark, prefix=log[:mark[1]])
        reseed(game, seed)
        outcome = drive(game)
        rolls[name] = ([tuple(r)[:2] for r in game.dice.rolls], events(game.log), outcome)
    assert rolls["a"] == rolls["a2"]
    assert rolls["a"][0] != rolls["b"][0]


def _ship_phase_marks(seed):
    _, _, marks = recorded(seed, "standard", "policy")
    return [m for m in marks if m[0].position[1] == "ship"]


def _with_hidden(seed):
    """Ship-phase boundaries where the Imperial side has Rebel dials it cannot see."""
    out = []
    for m in _ship_phase_marks(seed):
        game = resumed(seed, "standard", m, log=False)
        if hidden_dials(game, IMPERIAL):
            out.append(m)
    return out


def test_hidden_dials_are_the_rebels_unrevealed_ones_and_nothing_is_hidden_from_the_rebels():
    marks = _with_hidden(8)
    assert marks
    game = resumed(8, "standard", marks[0], log=False)
    hidden = hidden_dials(game, IMPERIAL)
    assert all(s.side == REBEL and not s.activated and s.dial in COMMANDS for s in hidden)
    assert hidden_dials(game, REBEL) == []
    dials = [s.dial for s in game.ships]
    game.redraw(REBEL, random.Random(1))
    assert [s.dial for s in game.ships] == dials  # the Rebels know their own dials; the AI sets none ahead
    draws = set()
    for k in range(40):
        g = resumed(8, "standard", marks[0], log=False)
        g.redraw(IMPERIAL, random.Random(k))
        draws.add(tuple(s.dial for s in hidden_dials(g, IMPERIAL)))
        assert all(s.dial in COMMANDS for s in hidden_dials(g, IMPERIAL))
        assert [s.dial for s in g.ships if s not in hidden_dials(g, IMPERIAL)] == \
            [s.dial for s in game.ships if s not in hidden]  # revealed and Imperial ones stay
    assert len(draws) > 5


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 5), pick=st.integers(0, 10 ** 6), other=st.lists(st.sampled_from(COMMANDS), min_size=4,
                                                                             max_size=4), fork=st.integers(0, 2 ** 32))
def test_a_fork_for_the_imperials_never_reveals_the_rebel_dials(seed, pick, other, fork):
    """Two games differing only in the Rebel dials the Imperial side cannot see give forks for the Imperials
    whose whole record and future depend only on the fork's seed."""
    marks = _with_hidden(seed)
    if not marks:
        return
    mark = marks[pick % len(marks)]
    prefix = recorded(seed, "standard", "policy")[0][:mark[1]]
    variant = resumed(seed, "standard", mark, prefix=prefix)
    hidden = {s.uid for s in hidden_dials(variant, IMPERIAL)}
    for s, dial in zip(hidden_dials(variant, IMPERIAL), other):
        s.dial = dial
    for i, e in enumerate(variant.log.events):  # the variant's record says what its dials were
        if e.kind == "dial" and e.turn == variant.round and e.data["ship"] in hidden:
            e.data["command"] = next(s.dial for s in variant.ships if s.uid == e.data["ship"])
    variant_mark = (variant.snapshot(), mark[1], mark[2])
    variant_prefix = events(variant.log)
    games = []
    for m, p in ((mark, prefix), (variant_mark, variant_prefix)):
        game = resumed(seed, "standard", m, prefix=p)
        reseed(game, fork)
        game.redraw(IMPERIAL, random.Random(fork))
        games.append((game, drive(game)))
    (a, oa), (b, ob) = games
    assert oa == ob and events(a.log) == events(b.log)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 5), pick=st.integers(0, 10 ** 6), stream=st.integers(0, 2 ** 32), fork=st.integers(0, 2 ** 32))
def test_a_fork_for_the_rebels_never_reveals_the_dice_to_come(seed, pick, stream, fork):
    """The Rebels see every Imperial dial when it is set (the AI rolls it as the ship activates): what they cannot
    see is the dice to come, the AI's commands among them. Two games differing only in their dice streams give
    forks for the Rebels with the same future."""
    marks = _ship_phase_marks(seed)
    mark = marks[pick % len(marks)]
    prefix = recorded(seed, "standard", "policy")[0][:mark[1]]
    other = resumed(seed, "standard", mark, prefix=prefix)
    reseed(other, stream)
    variant = (other.snapshot(), mark[1], mark[2])
    logs = []
    for m in (mark, variant):
        game = resumed(seed, "standard", m, prefix=prefix)
        reseed(game, fork)
        game.redraw(REBEL, random.Random(fork))
        outcome = drive(game)
        logs.append((events(game.log), outcome))
    assert logs[0] == logs[1]


def test_unroute_is_a_no_op_armada_keeps_no_standing_answers():
    game = engine(1, "standard", log=False)
    before = game.snapshot()
    game.unroute(REBEL)
    game.unroute(IMPERIAL)
    assert game.snapshot() == before


# ------------------------------------------------------------------ through the Match (core's clone and fork)
class Rebels:
    """The Rebel side as an outside controller (its answers recorded, as a search player's are): the policy, or
    random legal answers keyed by the request's number; it clones the match at every ``every``-th question."""

    def __init__(self, kind: str, seed: int, every: int = 0):
        self.kind, self.seed, self.every, self.copies, self.match, self.asked = kind, seed, every, [], None, 0

    def bind(self, match, side):
        self.match = match

    def decide(self, request):
        self.asked += 1
        if self.every and self.asked % self.every == 0:
            self.copies.append((request.seq, request.kind, self.match.clone()))
        if self.kind == "policy":
            return request.state.controller(REBEL, "policy").decide(request)
        return Decision(random_answer(request, random.Random(self.seed * 100003 + request.seq)))


def _match(seed: int, setup: str = "standard"):
    match = registry.new_match("armada", seed, EventLog(enabled=True), **SETUPS[setup])
    match.checkpoints = True
    return match


@pytest.mark.parametrize("setup", list(SETUPS))
@pytest.mark.parametrize("kind", ["policy", "random"])
def test_match_clones_at_many_requests_play_on_as_the_original(setup, kind):
    for seed in (1, 2):
        match = _match(seed, setup)
        rebels = Rebels(kind, seed, every=4)
        outcome = drive_all(match, {IMPERIAL: "robot", REBEL: rebels})
        log = events(match.log)
        assert len(rebels.copies) > 5
        for seq, kind_asked, copy in rebels.copies:
            opened = copy.open
            assert (opened.seq, opened.kind, opened.side) == (seq, kind_asked, REBEL)
            assert drive_all(copy, {IMPERIAL: "robot", REBEL: Rebels(kind, seed)}) == outcome
            assert events(copy.log) == log


def test_match_forks_roll_fresh_dice_from_their_seed():
    match = _match(3)
    rebels = Rebels("policy", 3)
    steps = match.play({REBEL: None})
    request = next(steps)
    while request.seq < 60:
        request = steps.send(request.state.controller(REBEL, "policy").decide(request).action)
    results = {}
    for name, seed in (("a", 5), ("b", 6), ("a2", 5)):
        fork = match.fork(seed, REBEL)
        assert fork.open.seq == request.seq and fork.open.kind == request.kind
        outcome = drive_all(fork, {IMPERIAL: "robot", REBEL: rebels})
        results[name] = ([tuple(r)[:2] for r in fork.engine.dice.rolls], events(fork.log), outcome)
    assert results["a"] == results["a2"] and results["a"][0] != results["b"][0]


def test_a_match_fork_for_the_imperials_redraws_the_rebel_dials_it_cannot_see():
    match = _match(4)
    steps = match.play({REBEL: None, IMPERIAL: None})
    robot = match.engine.controller(IMPERIAL, "robot")
    request = next(steps)
    found = None
    while found is None:
        if request.kind == "activate" and request.side == IMPERIAL and hidden_dials(request.state, IMPERIAL):
            found = request
            break
        who = robot if request.side == IMPERIAL else request.state.controller(REBEL, "policy")
        request = steps.send(who.decide(request).action)
    real = {s.uid: s.dial for s in hidden_dials(match.engine, IMPERIAL)}
    draws = []
    for seed in range(30):
        fork = match.fork(seed, IMPERIAL)
        mine = {s.uid: s.dial for s in hidden_dials(fork.engine, IMPERIAL)}
        assert set(mine) == set(real)
        told = {e.data["ship"]: e.data["command"] for e in fork.log.events
                if e.kind == "dial" and e.turn == fork.engine.round}
        assert {k: told[k] for k in mine} == mine  # the fork's record agrees with its re-drawn dials
        draws.append(tuple(sorted(mine.items())))
    assert len(set(draws)) > 5
    assert {s.uid: s.dial for s in hidden_dials(match.engine, IMPERIAL)} == real  # the original is untouched
    told = {e.data["ship"]: e.data["command"] for e in match.log.events
            if e.kind == "dial" and e.turn == match.engine.round}
    assert {k: told[k] for k in real} == real


def test_the_dial_of_the_rebel_ship_activating_now_is_revealed_and_kept_by_an_imperial_fork():
    match = _match(2)
    steps = match.play({REBEL: None})
    request = next(steps)
    while not (request.kind in ("attack", "maneuver") and request.side == REBEL and request.state.active is not None
               and hidden_dials(request.state, IMPERIAL)):
        request = steps.send(request.state.controller(REBEL, "policy").decide(request).action)
    active = match.engine.active
    assert active.side == REBEL and active.dial is not None and active not in hidden_dials(match.engine, IMPERIAL)
    for seed in range(10):
        fork = match.fork(seed, IMPERIAL)
        assert fork.engine.active.uid == active.uid and fork.engine.active.dial == active.dial
