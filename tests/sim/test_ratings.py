"""The ladder's fit (sim/ratings.py) on synthetic results with known ratings: recovery, the anchor, draws,
clustering by seed, rungs that lost every game, the choice of pairing, and a person's rating."""
import math
import random

import pytest

pytest.importorskip("statsmodels")

from paperrobot.sim.ratings import (ANCHOR_RATING, SCALE, Result, adjacent, fit_ladder, fit_person,  # noqa: E402
                                    information_gain, worth_at)

TRUE = {"robot": 1000.0, "search": 1150.0, "policy": 880.0, "weak": 700.0}
ROBOT_ONLY = {"robot"}  # flies only the robot side


def logistic(x):
    return 1 / (1 + math.exp(-x))


def simulate(true, seeds, rng, side=0.2, slope=None, handicaps=(0.0,), seed_sd=0.0, draw=0.0):
    """Every pairing in every orientation it can fly, each seed once per orientation; a per-seed effect
    ``seed_sd`` (logit) shared by all games of a seed, as common random numbers give."""
    names = list(true)
    out = []
    for i in range(seeds):
        effect = rng.gauss(0, seed_sd) if seed_sd else 0.0
        h = rng.choice(handicaps)
        for a in names:
            for b in names:
                if a == b or b in ROBOT_ONLY:
                    continue
                eta = (true[b] - true[a]) / SCALE + side + (slope or 0.0) * h + effect
                p = logistic(eta)
                u = rng.random()
                if u < draw:
                    score = 0.5
                else:
                    score = 1.0 if rng.random() < p else 0.0
                out.append(Result(a, b, h, i, score))
    return out


def test_recovers_known_ratings_side_and_handicap():
    rng = random.Random(11)
    results = simulate(TRUE, 600, rng, side=0.3, slope=-0.02, handicaps=(-20.0, 0.0, 20.0))
    fit = fit_ladder(results, list(TRUE))
    for name, value in TRUE.items():
        r = fit.ratings[name]
        assert abs(r.rating - value) < 4 * max(r.se, 1e-9) + 1e-6, (name, r)
    assert fit.side == pytest.approx(0.3, abs=0.1)
    assert fit.handicap_slope == pytest.approx(-0.02, abs=0.005)
    assert [a for a, _ in adjacent(fit)] == ["search", "robot", "policy"]


def test_anchor_is_the_robot_at_1000_and_differences_do_not_depend_on_it():
    results = simulate(TRUE, 300, random.Random(3))
    fit = fit_ladder(results, list(TRUE))
    robot = fit.ratings["robot"]
    assert (robot.rating, robot.low, robot.high) == (ANCHOR_RATING, ANCHOR_RATING, ANCHOR_RATING)
    other = fit_ladder(results, list(TRUE), anchor="policy")  # same data, another anchor
    d1 = fit.ratings["search"].rating - fit.ratings["weak"].rating
    d2 = other.ratings["search"].rating - other.ratings["weak"].rating
    assert d1 == pytest.approx(d2, abs=1e-6)
    assert other.ratings["policy"].rating == ANCHOR_RATING


def test_draws_count_half():
    # one pairing both ways: logit(m1) = d + s, logit(m2) = -d + s, so d = (logit m1 - logit m2) / 2
    results = []
    for i in range(40):
        results.append(Result("a", "b", 0.0, i, [1.0, 1.0, 0.5, 0.0][i % 4]))  # b on the player side: 2.5/4
        results.append(Result("b", "a", 0.0, i, [1.0, 0.5, 0.5, 0.0][i % 4]))  # a on the player side: 2/4
    fit = fit_ladder(results, ["a", "b"], anchor="a")
    m1, m2 = 2.5 / 4, 2 / 4
    expected = (math.log(m1 / (1 - m1)) - math.log(m2 / (1 - m2))) / 2 * SCALE
    assert fit.ratings["b"].rating - ANCHOR_RATING == pytest.approx(expected, abs=1e-4)


def test_clustered_covariance_follows_the_seeds():
    rng = random.Random(5)
    results = simulate(TRUE, 300, rng, seed_sd=1.5)
    clustered = fit_ladder(results, list(TRUE))
    plain = fit_ladder(results, list(TRUE), cluster=False)
    assert clustered.clustered and not plain.clustered
    # a seed effect shared by every game of a seed moves the side term: clustering widens its interval
    assert clustered.var("side") > 2 * plain.var("side")
    assert clustered.ratings["policy"].rating == pytest.approx(plain.ratings["policy"].rating)


def test_a_rung_that_lost_every_game_gets_a_one_sided_bound():
    rng = random.Random(8)
    results = [r for r in simulate({k: TRUE[k] for k in ("robot", "policy", "search")}, 200, rng)]
    results += [Result("robot", "hopeless", 0.0, i, 0.0) for i in range(20)]
    fit = fit_ladder(results, ["robot", "policy", "search", "hopeless"])
    hopeless = fit.ratings["hopeless"]
    assert hopeless.rating is None and hopeless.bound == "upper" and hopeless.low == -math.inf
    # the rating at which losing 20 of 20 to the robot has a likelihood of 5 %: (1 - p)^20 = 0.05
    p = 1 - 0.05 ** (1 / 20)
    assert hopeless.high == pytest.approx(ANCHOR_RATING + SCALE * (math.log(p / (1 - p)) - fit.side), abs=0.01)
    assert hopeless.games == 20 and fit.ratings["policy"].rating is not None


def test_the_pairing_chosen_is_the_one_that_narrows_the_loose_interval():
    results = simulate(TRUE, 60, random.Random(2))
    fit = fit_ladder(results, list(TRUE))
    target = [("robot", "policy")]
    gain = {pair: information_gain(fit, ways, 100, target) for pair, ways in {
        ("robot", "policy"): [("robot", "policy")],
        ("search", "weak"): [("search", "weak"), ("weak", "search")],
        ("policy", "weak"): [("policy", "weak"), ("weak", "policy")]}.items()}
    assert min(gain, key=gain.get) == ("robot", "policy")


MODEL = {"params": ["side", "handicap"], "coef": [0.0, -0.03], "cov": [[0.0, 0.0], [0.0, 0.0]]}


def person_games(true_rating, n, rng, model=MODEL):
    side, slope = model["coef"]
    out = []
    for _ in range(n):
        h = rng.choice((-10.0, 0.0, 10.0))
        p = logistic((true_rating - ANCHOR_RATING) / SCALE + side + slope * h)
        out.append((h, 1.0 if rng.random() < p else 0.0))
    return out


def test_a_person_rating_and_even_handicap():
    rng = random.Random(4)
    person = fit_person(person_games(900.0, 2000, rng), MODEL)
    assert person.rating.low < 900 < person.rating.high
    # even where (900 - 1000)/SCALE - 0.03 h = 0: h = -4.79 points (the robot must give points)
    assert person.even == pytest.approx(-(100 / SCALE) / 0.03, abs=2.0)
    assert person.even_interval.bounded and person.even_interval.low < person.even < person.even_interval.high
    lost = fit_person([(0.0, 0.0)] * 10, MODEL)
    assert lost.rating.rating is None and lost.rating.bound == "upper" and lost.even is None


def test_a_person_handicap_is_priced_at_their_rating_from_the_rungs_own_sweeps():
    # The joint fit prices a point at 0.03; the sweeps say 0.06 at a rung rated 850 and 0.02 at one rated 1300.
    worths = [(850.0, 0.06, 1e-6), (1300.0, 0.02, 1e-6)]
    assert worth_at(1075.0, worths)[:2] == pytest.approx((0.04, 0.5e-6))  # halfway: the mean, each half weighed
    assert worth_at(700.0, worths)[0] == 0.06 and worth_at(1500.0, worths)[0] == 0.02  # the nearer end outside
    rng = random.Random(4)
    games = person_games(900.0, 2000, rng, {"coef": [0.0, -0.0556]})  # a person at 900 for whom a point is worth 0.0556
    joint, local = fit_person(games, MODEL), fit_person(games, MODEL, worths)
    assert local.rating.low < 900 < local.rating.high
    # at 900 the sweeps read 0.06 - 50/450 * 0.04 = 0.0556; even where (900 - 1000)/SCALE - 0.0556 h = 0
    assert local.even == pytest.approx(-(100 / SCALE) / 0.0556, abs=1.0)
    assert joint.even == pytest.approx(-(100 / SCALE) / 0.03, abs=2.5)  # the joint worth: nearly twice too far
    assert local.even_interval.low < local.even < local.even_interval.high
    assert any("between the sweeps of the rungs rated 850 (0.0600) and 1300 (0.0200)" in n for n in local.notes)




def test_a_side_term_that_runs_off_to_infinity_is_left_out():
    # as in SFB #5: random loses every game on the player side and wins 1 of 300 on the robot side
    results = [Result("robot", "policy", 0.0, i, float(i % 9 < 4)) for i in range(100)]
    results += [Result("robot", "random", 0.0, i, 0.0) for i in range(300)]
    results += [Result("policy", "random", 0.0, i, 0.0) for i in range(300)]
    results += [Result("random", "policy", 0.0, i, float(i != 7)) for i in range(300)]
    fit = fit_ladder(results, ["random", "policy", "robot"])
    assert "side" not in fit.params and any("runs off to infinity" in n for n in fit.notes)
    assert all(abs(c) < 12 for c in fit.coef)
    assert fit.ratings["random"].rating < fit.ratings["policy"].rating < 1000


# ------------------------------------------------------------- the ladder's choices with searching rungs (costly)
SEARCHING = {"robot": 1000.0, "search:10": 1100.0, "search:50": 1200.0, "policy": 900.0}


def test_a_search_game_is_costed_by_its_simulations():
    from paperrobot.sim import rungs
    from paperrobot.sim.search import DEFAULT_SIMULATIONS

    assert rungs.cost("robot", "policy") == 1 and rungs.cost("random", "mix:policy=0.9,random=0.1") == 1
    assert rungs.cost("robot", "search:10") == 1 + 10 * rungs.SEARCH_GAMES_PER_SIMULATION
    assert rungs.cost("search:20", "search:5") == 1 + 25 * rungs.SEARCH_GAMES_PER_SIMULATION
    assert rungs.simulations("search") == DEFAULT_SIMULATIONS and rungs.simulations("policy") == 0


def test_the_first_round_leaves_pairings_of_searching_rungs_out():
    from paperrobot.sim.ladder import first_round

    assert first_round(("robot", "search:50"), [("robot", "search:50")])
    assert first_round(("random", "policy"), [("random", "policy"), ("policy", "random")])
    assert not first_round(("search:10", "search:50"), [("search:10", "search:50"), ("search:50", "search:10")])
    assert not first_round(("policy", "search:10"), [("policy", "search:10"), ("search:10", "policy")])


def both_ways(a, b):
    return [(a, b), (b, a)] if "robot" not in (a, b) else [("robot", b if a == "robot" else a)]


def test_the_next_pairing_weighs_what_its_games_cost(monkeypatch):
    from paperrobot.sim import ladder, rungs

    fit = fit_ladder(simulate(SEARCHING, 40, random.Random(5)), list(SEARCHING))
    pairs = {(a, b): both_ways(a, b) for a, b in [("robot", "search:10"), ("robot", "search:50"),
                                                   ("search:10", "search:50"), ("robot", "policy")]}
    loose = [("search:50", "search:10")]
    monkeypatch.setattr(rungs, "cost", lambda robot, player: 1.0)
    assert ladder._best_pairing(fit, pairs, 10, loose) == ("search:10", "search:50")  # the direct pairing tells most
    # at what its games really cost (two searching sides, both ways), the two pairings with the robot are cheaper
    # per unit of information
    monkeypatch.setattr(rungs, "cost", lambda robot, player: 1.0 + 50 * (rungs.simulations(robot) +
                                                                           rungs.simulations(player)))
    assert ladder._best_pairing(fit, pairs, 10, loose) in {("robot", "search:10"), ("robot", "search:50")}


def test_a_rung_that_won_every_game_gets_more_games_against_the_nearest_rung():
    from paperrobot.sim.ladder import BOUND_ROUNDS, _bound_step

    rng = random.Random(3)
    results = simulate({"robot": 1000.0, "policy": 900.0}, 40, rng)
    results += [Result("robot", "search:50", 0.0, i, 1.0) for i in range(4)]  # won all four
    fit = fit_ladder(results, ["robot", "policy", "search:50"])
    assert fit.ratings["search:50"].bound == "lower"
    pairs = {("robot", "policy"): [("robot", "policy")], ("robot", "search:50"): [("robot", "search:50")],
             ("policy", "search:50"): both_ways("policy", "search:50")}
    games = {("robot", "policy"): 40, ("robot", "search:50"): 4, ("policy", "search:50"): 0}
    assert _bound_step(fit, pairs, 4, games.get) == (("robot", "search:50"), 8)  # the robot is the highest rated
    games[("robot", "search:50")] = BOUND_ROUNDS * 4
    assert _bound_step(fit, pairs, 4, games.get) is None  # enough: the bound stands


def test_the_even_handicap_of_a_rung_from_the_joint_fit():
    results = simulate(TRUE, 400, random.Random(9), slope=-0.03, handicaps=(-20.0, 0.0, 20.0))
    fit = fit_ladder(results, list(TRUE))
    for name in ("policy", "search", "weak"):
        true = -((TRUE[name] - ANCHOR_RATING) / SCALE + 0.2) / -0.03
        h, interval = fit.even(name)
        assert interval.low < true < interval.high and interval.low < h < interval.high, (name, true, h, interval)
    assert fit.even("robot") == (None, None)  # the anchor has no column: it never flies the player side
    assert fit_ladder(simulate(TRUE, 40, random.Random(8)), list(TRUE)).even("policy") == (None, None)


def test_the_rating_from_the_players_seat_adds_the_side_term():
    """Issue 23: a rung that flew both sides has a side-free rating; its score against the robot reads as the
    rating from the player's seat, rating + side term, which Elo's formula against 1000 turns into that score."""
    fit = fit_ladder(simulate(TRUE, 300, random.Random(5), side=-0.6), list(TRUE))
    value, low, high = fit.seat("policy")
    assert fit.side < 0 and value == pytest.approx(fit.ratings["policy"].rating + fit.side * SCALE)
    assert low < value < high and value < fit.ratings["policy"].rating
    assert 1 / (1 + 10 ** ((1000 - value) / 400)) == pytest.approx(fit.expected("policy", "robot"))
    assert fit.seat("no-such-rung") is None
