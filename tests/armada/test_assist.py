"""The at-the-table assistant, driven through its input like a person would."""
import json

import pytest
from typer.testing import CliRunner

from paperrobot.armada import Assistant
from paperrobot.cli.main import app
from paperrobot.core.errors import PaperRobotError

ROUND = """style
focal 500 900 1300
deploy
round
order victory-ii-1:5 gladiator-i-1:4:double
command victory-ii-1 in squads
attack victory-ii-1 front>cr90-a-1:front=2@medium front>cr90-a-1:left=1@long left>x-wing-1@medium
defend victory-ii-1 front medium RRU hit,hit+hit,hit threat=4
order gladiator-i-1:4
command gladiator-i-1 out
nav gladiator-i-1 double=cr90-a-1
squadmove tie-fighter-1 ordered squad=x-wing-1 reach
squad tie-fighter-2 z-95-1:3 a-wing-1:1:counter
squad tie-fighter-3 x-wing-1:5:escort z-95-1:1
squadmove tie-fighter-4
show
quit
"""


def run(args, text):
    return CliRunner().invoke(app, ["assist", "armada"] + args, input=text)


def test_a_full_round_for_a_victory_ii_a_gladiator_and_ties(tmp_path):
    state = tmp_path / "fleet.json"
    result = run(["--fleet", "victory-ii,gladiator-i,tie-fighter*4", "--state", str(state), "--seed", "5"], ROUND)
    assert result.exit_code == 0, result.output
    out = result.output
    for rule in ("ARM.CMDR.STYLE", "ARM.DEPLOY.FP", "ARM.DEPLOY.ZONE", "ARM.ACT.ORDER", "ARM.CMD.ROLL",
                 "ARM.TARGET.DICE", "ARM.TARGET.WEAKARC", "ARM.DEF.BRACE", "ARM.CMD.NAV", "ARM.SQ.MOVE",
                 "ARM.SQ.TARGET"):
        assert rule in out, rule
    assert "[blue " in out  # the blue dice are shown
    assert "activate victory-ii-1: priority 1" in out
    assert "front zone attacks cr90-a-1 in its front hull zone with 6 dice" in out
    assert "no brace: an unactivated enemy in range could roll 4 dice" in out
    assert "shoot z-95-1" in out and "shoot x-wing-1 (Escort" in out
    assert "Break formation" in out
    saved = json.loads(state.read_text())
    assert saved["round"] == 1 and saved["ships"]["victory-ii-1"]["activated"]
    assert sum(saved["ships"]["victory-ii-1"]["shields"]) == 10 - 4  # 4 damage all on shields (redirect)


def test_state_survives_between_invocations(tmp_path):
    state = tmp_path / "fleet.json"
    run(["--fleet", "victory-ii,tie-fighter", "--state", str(state)], "style\nround\ndamage victory-ii-1 front 5\nquit\n")
    result = run(["--state", str(state)], "show\nquit\n")
    assert "victory-ii-1: shields 0/3/3/1, damage 2/8" in result.output
    assert "Round 1" in result.output


def test_bad_questions_get_one_line_and_the_session_goes_on(tmp_path):
    result = run(["--fleet", "victory-ii"], "attack victory-ii-1 nonsense\ndefend nobody front long R hit\nshow\nquit\n")
    assert result.exit_code == 0
    assert "Not understood: 'nonsense' is not ZONE>TARGET" in result.output
    assert "Not understood: no AI ship 'nobody'" in result.output
    assert "victory-ii-1: shields 3/3/3/1" in result.output


def test_a_damaged_state_file_is_one_clear_error(tmp_path):
    state = tmp_path / "broken.json"
    state.write_text("{not json")
    result = run(["--state", str(state)], "quit\n")
    assert result.exit_code != 0
    assert "not an Armada assistant state file" in str(result.exception) + result.output
    assert state.read_text() == "{not json"  # never overwritten on error


def test_plain_order_question_is_the_4th_tier_roll_among_all_ships(monkeypatch):
    """ARM.ACT.ORDER: 'order' with no arguments (nothing measured to separate the ships): the 4th tier,
    a die among every unactivated AI ship."""
    from paperrobot.armada.assist import Assistant
    from paperrobot.core.dice import Dice
    a = Assistant.open(None, "victory-ii,gladiator-i,tie-fighter", 1)
    monkeypatch.setattr(a, "dice", lambda: Dice.scripted(2))
    out = a.ask("order", [])
    assert out == ["ARM.ACT.ORDER: activate gladiator-i-1: priority 4, all other ships (die among the tied) [d2=2]"]


def test_log_and_undo_go_back_to_any_question_with_the_same_dice(tmp_path):
    from paperrobot.armada.frontend import TableQuestions
    from paperrobot.cli.questions import answer

    def assist_answer(assistant, line):
        return answer(assistant, line, TableQuestions())
    state = tmp_path / "t.json"
    a = Assistant.open(state, "victory-ii,gladiator-i,tie-fighter*2", 7)
    first = [assist_answer(a, q) for q in ("style", "focal 500 900", "deploy", "round", "command victory-ii-1 in")]
    a.save()
    assert assist_answer(a, "log")[1] == "    2. style" and len(a.state.lines) == 6  # the fleet is entry 1
    with pytest.raises(PaperRobotError, match="1 to 6"):
        assist_answer(a, "undo 9")
    with pytest.raises(PaperRobotError):
        assist_answer(a, "attack victory-ii-1 sideways")  # refused: not in the log, the dice not counted
    assert len(a.state.lines) == 6
    again = Assistant.open(state, None, None)  # the log is in the state file
    assist_answer(again, "undo 4")  # back to 'deploy': deploy, round and command are taken back
    assert again.state.lines[-1] == "focal 500 900" and again.state.round == 0
    assert [assist_answer(again, q) for q in ("deploy", "round", "command victory-ii-1 in")] == first[2:]
    assist_answer(again, "undo")
    assert again.state.lines[-1] == "round" and not again.state.ships["victory-ii-1"]["activated"]
