"""balance's plain answer first, in each game's own things at the table, and readable report names (issue 25)."""
from types import SimpleNamespace

from paperrobot.sim.balance import Matchup, registry_matchup, report_dict, report_lines, slug
from paperrobot.sim.balance_words import plain_answer, report_name
from paperrobot.sim.fit import BalanceFit, Fieller


def _sweep(matchup, h50, low, high, positive=True):
    b1 = 0.05 if positive else -0.0001
    fit = BalanceFit(-h50 * b1, b1, ((0.0, 0.0), (0.0, 0.0)), Fieller(low, high, 1.0 if positive else -1.0), (),
                     0.0, 0, 0)
    return SimpleNamespace(fit=fit, matchup=matchup)


def test_sfb_answer_is_shield_boxes_for_the_player_with_the_interval_in_words():
    # docs/balance.md's sfb scenario=5 against the policy: -6.1 BPV (95% -8.5 to -3.3), "5 shield boxes to the player"
    sweep = _sweep(registry_matchup("sfb", {"scenario": "5"}, "policy"), -6.1, -8.5, -3.3)
    assert plain_answer(sweep) == ("At the table: for an even fight give the player 5 extra shield boxes (-6.1 BPV); "
                                   "95% sure it lies between 3 and 7 shield boxes to the player.")


def test_fc_answer_is_shield_boxes_for_the_robot():
    sweep = _sweep(registry_matchup("fc", {"player_ship": "kzinti-bc"}, "policy"), 13.5, 10.6, 16.6)
    assert plain_answer(sweep).startswith("At the table: for an even fight give the robot 23 extra shield boxes "
                                          "(+13.5 points); 95% sure it lies between 18 and 28 shield boxes to the robot")


def test_armada_answer_is_squadrons_and_an_interval_across_zero_names_both_sides():
    sweep = _sweep(registry_matchup("armada", {}, "policy"), 12.0, -14.0, 30.0)
    text = plain_answer(sweep)
    assert "give the robot 2 extra tie-fighter squadrons (+12.0 fleet points)" in text
    assert "between 2 z-95 squadrons to the player and 4 tie-fighter squadrons to the robot" in text


def test_no_plain_answer_without_a_rising_score_and_a_game_without_things_answers_in_points():
    assert "no plain answer" in plain_answer(_sweep(registry_matchup("sfb", {}, "policy"), 3, None, None, False))
    hand_made = Matchup("synthetic/test", "synthetic", None, unit="points")
    assert "give the player 4.0 extra points (-4.0 points)" in plain_answer(_sweep(hand_made, -4.0, -6.0, -2.0))


def test_the_report_starts_with_the_plain_answer_then_the_statistics():
    sweep = _sweep(registry_matchup("sfb", {"scenario": "5"}, "policy"), -6.1, -8.5, -3.3)
    sweep.levels, sweep.per_level, sweep.played, sweep.reused, sweep.probes = [-10.0, 0.0], 10, 0, 0, []
    sweep.bracket, sweep.notes, sweep.precision_met, sweep.seconds = (-10, 0), [], None, 0.0
    sweep.plan = SimpleNamespace(fresh_seeds=True, base_seed=1, probe_games=10, precision=None)
    lines = report_lines(sweep)
    assert lines[0].startswith("Even-fight handicap, sfb") and lines[1].startswith("At the table: for an even fight")
    assert lines[2].startswith("h50")


def test_report_names_are_readable_and_never_name_two_set_ups():
    assert slug(registry_matchup("sfb", {"scenario": "5"}, "policy")) == "sfb-scenario5-policy"
    assert (report_name(registry_matchup("fc", {"player_ship": "kzinti-bc"}, "robot"))
            == "fc-robotshipd7-playershipkzinti-bc-robot")
    assert report_name(registry_matchup("armada", {"table": "small"}, "policy")) == "armada-tablesmall-policy"
    searched = report_name(registry_matchup("sfb", {"scenario": "5"}, "search:50"))
    other = report_name(registry_matchup("sfb", {"scenario": "5"}, "search:60"))
    assert searched.startswith("sfb-scenario5-search-50-") and searched != other  # cleaned: a short hash added
    fleets = [report_name(registry_matchup("armada", {"rebel": r}, "policy")) for r in ("cr90-a,x-wing", "cr90-a-x-wing")]
    assert fleets[0] != fleets[1]
