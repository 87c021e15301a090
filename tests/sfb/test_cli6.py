"""Scenario #6 through the command line: play with plasma and cloak, battle any pairing, all pairings."""
from __future__ import annotations

from typer.testing import CliRunner

from paperrobot.cli.main import app

runner = CliRunner()


def invoke(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_play_scenario_6_to_the_end_with_plasma_cloak_and_robot_reasons(tmp_path):
    log = tmp_path / "six.jsonl"
    result = invoke("play", "sfb", "--scenario", "6", "--seed", "3", "--log", str(log), input="\n" * 4000)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Game over" in out
    assert "cloak for this turn" in out and "CLOAKED" in out  # the person is asked, the narration shows it
    assert "launch plasma torpedoes?" in out and "launches plasma" in out
    assert "[SFB.R.CLOAK1]" in out or "[SFB.R.CLOAK3]" in out  # the robot's cloak rules, with their IDs
    assert "cloak=" in out  # the energy line


def test_play_refuses_an_unpaid_cloak_energy_line():
    result = invoke("play", "sfb", "--scenario", "6", "--seed", "3", input="cloak=5\n" + "\n" * 4000)
    assert result.exit_code == 0, result.output
    assert "Not allowed" in result.output and "SFB.CLOAK" in result.output


def test_battle_any_pairing_with_robot_plasma():
    result = invoke("battle", "sfb", "--scenario", "duel", "--robot-ship", "romulan-kr", "--player-ship", "gorn",
                    "--seed", "4", "--no-maps", "--decisions")
    assert result.exit_code == 0, result.output
    assert "[SFB.R8]" in result.output and "[SFB.R.PLASMA]" in result.output


def test_simulate_all_pairings_prints_both_tables():
    result = invoke("simulate", "sfb", "--all-pairings", "--games", "1", "--jobs", "1")
    assert result.exit_code == 0, result.output
    assert "flown by the robot" in result.output and "flown by the policy" in result.output
    for short in ("Fed", "Kli", "Eagle", "KR", "Kzi", "Gorn", "Ori"):
        assert short in result.output


def test_bad_game_count_is_one_line():
    result = invoke("simulate", "sfb", "--all-pairings", "--games", "0")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1


def test_scenario_options_from_the_command_line():
    result = invoke("battle", "sfb", "--scenario", "6", "--plasma-f", "cth", "--evade", "plasma", "--seed", "2",
                    "--no-maps")
    assert result.exit_code == 0, result.output
    bad = invoke("battle", "sfb", "--scenario", "6", "--plasma-f", "vassal", "--no-maps")
    assert bad.exit_code == 2 and "plasma-f" in bad.output and len(bad.output.strip().splitlines()) == 1


def test_all_pairings_cell_has_interval_elo_and_los():
    from paperrobot.cli.simulate import pairing_cell
    from paperrobot.sim.stats import Summary

    summary = Summary()
    summary.games, summary.wins, summary.draws = 100, {"robot": 60, "player": 30}, 10
    cell = pairing_cell(summary)
    # Wilson 50.2%-69.1%; score 0.65 -> Elo -400 log10(1/0.65 - 1) = +108, se 0.045 -> s 0.562..0.738;
    # LOS Phi(30/sqrt(90)) = 99.9%
    assert cell.splitlines() == ["60% (50%-69%)", "Elo +108 (+43..+180)", "LOS 100%"]
