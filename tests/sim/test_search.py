"""The search player (sim/search.py): legal on every game, reproducible, never peeking at the real dice, and
stronger than random play on the toy game where the best play is known."""
import random

import pytest

import paperrobot
from paperrobot.core import players
from paperrobot.core.contract import Decision, Match
from paperrobot.core.errors import PaperRobotError
from paperrobot.core.events import EventLog
from paperrobot.sim import search
from paperrobot.sim.search import SearchPlayer
from tests.toygame import Counting, counting_game  # noqa: F401  (the fixture)


class Random:
    """Picks one of the listed options at random (its own seeded stream)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def decide(self, request):
        return Decision(self.rng.choice(request.options).key)


def toy(seed, target=15):
    match = Match("counting", {"target": target}, seed, Counting, EventLog(enabled=False))
    return match


def play(match, controllers):
    with pytest.raises(StopIteration) as stop:
        next(match.play(controllers))
    return stop.value.value


# ------------------------------------------------------------------------------------------ strength
def test_search_beats_random_play_on_the_toy_game():
    """Adding 1-3 in turns, whoever reaches 15 wins: the best play leaves the total at 3, 7 or 11 (a multiple
    of 4 below the target's); the robot adds a random 1-3. A search should win nearly always, random play about
    half the time."""
    seeds = range(40)
    searched = sum(play(toy(s), {"player": SearchPlayer(40), "robot": "robot"}).winner == "player" for s in seeds)
    randomly = sum(play(toy(s), {"player": Random(s), "robot": "robot"}).winner == "player" for s in seeds)
    assert searched >= 34, (searched, randomly)
    assert randomly <= 28 and searched - randomly >= 10, (searched, randomly)


def test_the_search_finds_the_winning_move_and_says_why():
    """At total 10 of 15 the player wins by adding 1 (leaving 11: whatever the robot adds, 12-14, it reaches
    15 next); its reason is SEARCH with the simulations and win chances."""
    match = toy(5)
    match.checkpoints = True
    steps = match.play({"player": None, "robot": "robot"})
    request = next(steps)
    request = steps.send("even")
    request = steps.send({"@fix": {"total": 10}})  # a correction: the total stands at 10, the player to add
    player = SearchPlayer(60)
    player.bind(match, "player")
    answers = [player.decide(request)]
    decision = answers[0]
    assert decision.action == "1"
    (reason,) = decision.reasons
    assert reason.rule == "SEARCH" and reason.text.startswith("60 simulations: add 1 wins") and "runner-up" in reason.text
    rows = player.last.rows  # (key, label, visits, win chance), best first: the rollouts after it are random play
    assert rows[0][0] == "1" and rows[0][3] > max(r[3] for r in rows[1:])


# ------------------------------------------------------------------------------------------ seeds
def _answers(match):
    return [a[3] for a in match.answers]


def test_the_same_seed_gives_the_same_answers():
    runs = []
    for _ in range(2):
        match = toy(11, target=30)
        player = SearchPlayer(12)
        play(match, {"player": player, "robot": "robot"})
        runs.append((_answers(match), player.last.rows))
    assert runs[0] == runs[1]
    other = toy(12, target=30)
    play(other, {"player": SearchPlayer(12), "robot": "robot"})
    assert _answers(other) != runs[0][0]


def test_the_search_never_reads_the_real_dice_to_come():
    """Matches that differ only in the dice the real game will roll (the random state of the snapshot every copy
    starts from, rigged): a clone rolls the rigged dice, but the search's estimate is the same in all of them (its
    forks roll their own), so knowing the real dice cannot change what it answers."""
    estimates, futures = [], []
    for rig in (None, 1, 2):
        match = toy(7, target=40)
        match.checkpoints = True
        steps = match.play({"player": None, "robot": "robot"})
        request = next(steps)
        for _ in range(6):
            request = steps.send("even" if request.kind == "split" else "2")
        if rig is not None:
            (total, split, side, dice), *where = match._mark  # the toy game's snapshot (tests/toygame.py)
            dice = (dice[0], random.Random(rig).getstate(), *dice[2:])
            match._mark = ((total, split, side, dice), *where)
        clone = match.clone()
        play(clone, {"player": Random(0), "robot": "robot"})
        futures.append([r.value for r in clone.engine.dice.rolls])
        player = SearchPlayer(16)
        player.bind(match, "player")
        estimate = player.estimate(request)
        estimates.append((estimate.chosen, estimate.rows))
    assert futures[0] != futures[1] and futures[0] != futures[2]  # the rig changes the real game's future
    assert estimates[0] == estimates[1] == estimates[2]


def test_fork_seeds_come_from_the_match_seed_question_and_side_only():
    assert search._seed(3, 17, "player", 0) == search._seed(3, 17, "player", 0)
    assert len({search._seed(3, q, s, 0) for q in range(50) for s in ("player", "robot")}) == 100
    assert 0 <= search._seed(2**70, 1, "x", 0) < 2**63


# ------------------------------------------------------------------------------------------ every game
@pytest.mark.parametrize("game,setup,side,robot,seed", [
    ("sfb", {"scenario": "5", "max_turns": 2}, "player", "robot", 4),
    ("fc", {}, "player", "robot", 3),
    ("armada", {"imperial": "gladiator-i,tie-fighter*2", "rebel": "cr90-a,x-wing*2"}, "rebel", "imperial", 4),
])
def test_the_search_plays_legal_answers_to_the_end_of_every_game(game, setup, side, robot, seed):
    match = paperrobot.new_game(game, seed=seed, **setup)
    player = players.make("search:1")
    rules = []

    class Watch:  # the search's decisions as the driver gets them
        def bind(self, match, side):
            player.bind(match, side)

        def decide(self, request):
            decision = player.decide(request)
            rules.extend(decision.rules)
            return decision

    outcome = play(match, {side: Watch(), robot: "robot"})  # the driver refuses an illegal answer
    assert outcome is not None and player.searched > 0 and rules.count("SEARCH") == player.searched


def test_a_question_with_one_answer_or_a_standing_answer_is_not_searched():
    """SFB #5 asks a player flown from outside whether to disengage at every impulse: the search keeps the
    policy's standing "no" (the captain fights on) and answers a question with one answer at once."""
    match = paperrobot.new_game("sfb", seed=2, scenario="5", max_turns=1)
    player = SearchPlayer(2)
    asked = []

    class Watch:
        def decide(self, request):
            decision = player.decide(request)
            asked.append((request.kind, len(request.options), player.last.searched, decision.action))
            return decision

        def bind(self, match, side):
            player.bind(match, side)

    play(match, {"player": Watch(), "robot": "robot"})
    disengage = [a for a in asked if a[0] == "disengage"]
    assert disengage and all(not searched and action == "no" for _, _, searched, action in disengage)
    assert all(not searched for kind, n, searched, _ in asked if n == 1)
    assert any(searched for *_, searched, _ in asked)


# ------------------------------------------------------------------------------------------ names
def test_search_names_make_players():
    assert players.make("search:20").simulations == 20
    assert players.make("search").simulations == search.DEFAULT_SIMULATIONS == 50
    assert players.known("search:7") and players.known("robot") and not players.known("nobody")
    with pytest.raises(PaperRobotError, match="whole number"):
        players.make("search:lots")
    with pytest.raises(PaperRobotError, match="choose one of: robot, policy, search"):
        players.make("nobody")
    resolved = players.resolve({"player": "search:3", "robot": "robot", "x": None})
    assert isinstance(resolved["player"], SearchPlayer) and resolved["robot"] == "robot" and resolved["x"] is None


def test_a_search_outside_a_match_says_so():
    with pytest.raises(PaperRobotError, match="inside a match"):
        SearchPlayer(3).decide(object())


# ------------------------------------------------------------------------------------------ front ends
def test_named_players_in_simulate_give_the_same_games_with_one_or_two_jobs(tmp_path):
    """``simulate --opponent search:1`` makes the player from its name in each worker: one job or two, the same
    seeds give the same outcomes."""
    from typer.testing import CliRunner
    import sqlite3
    from paperrobot.cli.main import app

    rows = []
    for jobs in ("1", "2"):
        db = tmp_path / f"runs{jobs}.sqlite"
        result = CliRunner().invoke(app, ["simulate", "fc", "--games", "2", "--jobs", jobs, "--seed", "3",
                                          "--opponent", "search:1", "--db", str(db), "--quiet"])
        assert result.exit_code == 0, result.output
        with sqlite3.connect(db) as con:
            rows.append(con.execute("SELECT idx, seed, winner, result, turns, metrics FROM games ORDER BY idx").fetchall())
    assert len(rows[0]) == 2 and rows[0] == rows[1]


@pytest.mark.parametrize("args,needle", [
    (("battle", "sfb", "--opponent", "search:many"), "the number after 'search:' is the simulations"),
    (("simulate", "armada", "--opponent", "nobody"), "unknown opponent 'nobody'; choose one of: policy, robot, "
                                                      "search[:N]"),
    (("battle", "fc", "--opponent", "search:0"), "a whole number from 1"),
])
def test_a_bad_player_name_is_one_line(args, needle):
    from typer.testing import CliRunner
    from paperrobot.cli.main import app

    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 2 and needle in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1


def test_the_gym_environment_takes_a_named_opponent():
    pytest.importorskip("gymnasium")
    from paperrobot.envs.gym_env import VsRobot

    env = VsRobot("sfb", opponent="search:1", scenario="5", max_turns=1)
    obs, info = env.reset(seed=3)
    assert env.match.controllers["robot"] == "person"  # an outside player, its answers recorded
    done, steps = False, 0
    while not done and steps < 2000:  # the robot's ship, flown by the search (rollouts: the robot), to the end
        mask = env.action_masks()
        obs, reward, done, _, info = env.step(int(mask.argmax()))
        steps += 1
    assert done
    assert any(d["rule"] == "SEARCH" for d in info["robot_decisions"]) or any(
        e.data.get("rule") == "SEARCH" for e in env.log.events if e.kind == "decision")
    with pytest.raises(PaperRobotError, match="whole number"):
        VsRobot("sfb", opponent="search:x")


def test_hint_at_the_terminal_prompt_shows_the_search_answer_and_win_chances(tmp_path, capsys, counting_game):
    """At total 10 of 15 (a correction), 'hint 60' names 'add 1' first with its win chance; the game goes on."""
    from paperrobot.core import registry
    from paperrobot.cli.terminal import Front, TerminalPlay

    lines = iter(["", "fix total=10", "hint 60", "hint many", "quit"])
    play = TerminalPlay("counting", Front(), lambda log: registry.new_match("counting", seed=4, log=log, target=15),
                        save_path=tmp_path / "t.save", input_fn=lambda prompt: next(lines))
    assert play.run() is None
    out = capsys.readouterr().out
    hint = out[out.index("Hint (60 simulations"):]
    assert hint.splitlines()[0].endswith("add 1")
    assert "* add 1: wins" in hint and "add 2: wins" in hint and "add 3: wins" in hint
    assert "Type 'hint' or 'hint N'" in out


def test_hint_with_table_dice_says_why_not(tmp_path, capsys, counting_game):
    from paperrobot.core import registry
    from paperrobot.cli.terminal import Front, TerminalPlay

    lines = iter(["", "hint", "quit"])
    play = TerminalPlay("counting", Front(), lambda log: registry.new_match("counting", seed=4, log=log, target=15,
                                                                          dice="table"),
                        save_path=tmp_path / "t.save", input_fn=lambda prompt: next(lines))
    assert play.run() is None
    out = capsys.readouterr().out
    assert "Hints need the program's dice" in out and len([l for l in out.splitlines() if "Hints need" in l]) == 1


def test_candidates_put_the_policy_first_weigh_each_action_once_and_spread_over_a_long_list():
    from paperrobot.core.contract import Option, Request

    many = Request("maneuver", "player", options=tuple(Option(str(i)) for i in range(20)))
    keys = [key for key, _, _ in search._candidates(many, "7", 5)]
    assert keys[0] == "7" and len(keys) == 5 and len(set(keys)) == 5
    assert max(int(k) for k in keys[1:]) >= 10  # not just the first few of the list
    same = Request("fire", "player", options=(Option("suggested", "", {"a": 1}), Option("none", "", {}),
                                                Option("hold", "", {}), Option("a", "", {"a": 1})),
                   check=lambda answer: answer if isinstance(answer, dict) else
                   {"suggested": {"a": 1}, "none": {}, "hold": {}, "a": {"a": 1}}[answer])
    assert [key for key, _, _ in search._candidates(same, {"a": 1}, 10)] == ["suggested", "none"]
    other = search._candidates(same, {"b": 2}, 10)  # the policy's own answer, listed nowhere
    assert other[0][0] == search.POLICY and other[0][2] == {"b": 2}


def test_a_question_whose_answers_are_all_the_same_action_is_not_searched(counting_game):
    from paperrobot.core.contract import Option, Request

    hold = Request("fire", "player", options=(Option("suggested", "", {}), Option("none", "", {})),
                   check=lambda answer: {} if answer in ("suggested", "none") else answer)
    assert search._one_action(hold)
    player = SearchPlayer(5)
    match = toy(3)
    player.bind(match, "player")
    estimate = player.estimate(hold, "player", match)
    assert not estimate.searched and estimate.chosen == "suggested"
    shoot = Request("fire", "player", options=(Option("suggested", "", {}), Option("a", "", {"a": 1})),
                    check=lambda answer: {"suggested": {}, "a": {"a": 1}}.get(answer, answer))
    assert not search._one_action(shoot)


def test_a_balance_sweep_takes_a_search_opponent_made_in_each_game():
    """The sweep's play makes the search player from its name for each game: one SFB game at a handicap, the
    search on the player side (its reasons in the log are not kept here: the outcome is what a sweep stores)."""
    from paperrobot.sim.balance import caveat, registry_matchup

    matchup = registry_matchup("sfb", {"scenario": "5", "max_turns": 1}, "search:1")
    assert "vs search:1" in matchup.label and matchup.spec["opponent"] == "search:1"
    assert "search player" in caveat("search:1")
    outcome = matchup.play(5, 0)
    assert outcome.turns == 1
    with pytest.raises(PaperRobotError, match="unknown rung 'search:x'"):
        registry_matchup("sfb", {}, "search:x")
    with pytest.raises(PaperRobotError, match="--opponent: .*a whole number from 1 to 100000"):
        registry_matchup("sfb", {}, "search:200000")


def _at_total(total, n, seed=9, target=15):
    """A search of ``n`` simulations for the player at ``total`` of ``target`` (a correction sets it)."""
    match = toy(seed, target=target)
    match.checkpoints = True
    steps = match.play({"player": None, "robot": "robot"})
    next(steps)
    request = steps.send("even")
    request = steps.send({"@fix": {"total": total}})
    player = SearchPlayer(n)
    player.bind(match, "player")
    return player, player.estimate(request)


def test_the_answer_is_the_candidate_that_scored_best_on_the_same_dice():
    """At 10 of 15 the search weighs add 1, 2, 3 (the policy's answer first), halves them on common fork seeds
    and answers the best: every candidate kept to the end played the same seeds, the chosen one scored most on
    them, and the whole budget was played."""
    player, estimate = _at_total(10, 48)
    arms = player.arms
    assert [a.key for a in arms][0] == estimate.rows[1][0] or arms[0].key == estimate.chosen  # the policy's first
    final = [a for a in arms if a.visits == max(b.visits for b in arms)]
    seeds = set(final[0].results)
    assert all(set(a.results) == seeds for a in final) and len(seeds) >= 16
    best = max(final, key=lambda a: (a.on(sorted(seeds)), a is arms[0]))
    assert estimate.chosen == best.key == "1"
    assert estimate.simulations == player.played == 48 and sum(a.visits for a in arms) == 48
    dropped = [a for a in arms if a not in final]
    assert dropped and all(a.visits < best.visits for a in dropped)


def test_the_policys_answer_is_never_dropped_and_wins_ties():
    """The prior: the policy's answer stays through every halving and a tie on the same seeds keeps it."""
    policy, good, bad, worse = (search.Arm(k, k, k) for k in ("p", "g", "b", "w"))
    for i in range(4):
        policy.results[i], good.results[i], bad.results[i], worse.results[i] = 0.0, 1.0, 0.5, 0.5
    kept = search._halve([policy, good, bad, worse], policy, [0, 1, 2, 3])
    assert kept == [policy, good]
    assert search._best(kept, policy) is good
    good.results = dict(policy.results)
    assert search._best(kept, policy) is policy  # the same score on the same seeds: the policy's answer stands
    good.results[3] = 1.0
    assert search._best(kept, policy) is good


def test_a_decided_position_is_not_searched_to_the_end_of_its_budget():
    """At 14 of 15 every answer wins at once: after a few seeds that all candidates scored alike the search ends
    with the policy's answer, most of its budget unspent."""
    player, estimate = _at_total(14, 200)
    assert estimate.searched and player.played < 200 // 4
    assert estimate.chosen == player.arms[0].key and all(a.mean == 1.0 for a in player.arms if a.visits)


def test_core_never_names_a_layer_above_it_and_named_players_still_resolve_in_a_fresh_process():
    """The search player is registered from above: core/ holds no import of, nor module name in, sim, the front
    ends or a game (the package root lists the player modules); a fresh interpreter that only builds a match
    still plays "search:1" through Match.play."""
    import pathlib
    import re
    import subprocess
    import sys

    core = pathlib.Path(paperrobot.__file__).parent / "core"
    above = re.compile(r"paperrobot\.(sim|cli|web|envs|sfb|fc|armada)\b|from \.\.(sim|cli|web|envs|sfb|fc|armada)\b")
    named = [(p.name, m.group(0)) for p in sorted(core.glob("*.py")) for m in above.finditer(p.read_text())]
    assert named == []
    code = ("import paperrobot; m = paperrobot.new_game('sfb', seed=2, scenario='5', max_turns=1); "
            "steps = m.play({'player': 'search:1', 'robot': 'robot'})\n"
            "try:\n    next(steps)\nexcept StopIteration as s:\n    print(s.value.turns, m.controllers['player'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.split() == ["1", "person"], out.stderr
