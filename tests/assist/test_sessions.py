"""``paperrobot assist sfb|fc`` run whole scripted games at a table: the robot the assistant tells the table about
is the engine's own robot with the same dice (event for event), and log, undo N, fix, resume and bad input work."""
import pytest
from typer.testing import CliRunner

import paperrobot
from paperrobot.cli.main import app
from paperrobot.core.save import read_match_save
from tests.assist.scripted import reference, table_session

ROBOT_KINDS = ("decision", "moved", "fired", "launched", "plasma-launched", "damage", "internal", "allocated")


def _events(log):
    return [e.to_json() for e in log.events if e.kind != "setup"]


def _robot(log):
    return [e.to_json() for e in log.events if e.side == "robot" and e.kind in ROBOT_KINDS]


@pytest.mark.parametrize("game,setup", [("sfb", {"scenario": "4"}), ("sfb", {"scenario": "6"}), ("fc", {}),
                                        ("fc", {"robot_ship": "kzinti-bc"})])
def test_a_table_session_flies_the_engines_own_robot_with_the_same_dice(game, setup, tmp_path, capsys):
    """A battle as 'battle' plays it (seeded dice) and the same person's answers typed at 'assist' with every die
    typed in: the robot's decisions (rule, dice, action), moves and fire are the same, and so is every event."""
    ref = reference(game, 3, **setup)
    assert len(ref.rolls) > 10 and ref.lines
    session, outcome = table_session(game, ref, tmp_path / "table.save", **setup)
    assert outcome == ref.outcome
    assert _robot(session.match.log) and _robot(session.match.log) == _robot(ref.log)
    assert _events(session.match.log) == _events(ref.log)
    saved = read_match_save(tmp_path / "table.save")
    assert saved.dice == "table" and sum(1 for a in saved.answers if a[1] == "roll") == len(ref.rolls)
    out = capsys.readouterr().out
    assert "ROBOT " in out and "MOVE the " in out and "Result after" in out
    rule = "SFB.R2" if game == "sfb" else "FC.1A"
    assert f"      {rule} " in out  # the rule's summary, printed the first time the rule is cited
    robot_hit = [e for e in ref.log.events if e.kind == "damage" and e.side == "robot"]
    if robot_hit:  # the boxes to mark on the robot's sheet: shield boxes, then the DAC's (or #4's rule's) in order
        d = robot_hit[0].data
        if game == "sfb":
            hits = f"; internal ({d['damage_rule']}): {', '.join(d['hits'])}" if d["hits"] else ""
            assert f"sheet: {d['points']} points, mark {d['absorbed']} box(es) of shield #{d['shield']}{hits}" in out
        else:
            assert f"MARK on the robot's card: {d['damage']} on shield #{d['shield']}" in out


def test_the_sfb_assistant_tells_where_the_robot_goes_and_what_to_mark(tmp_path, capsys):
    ref = reference("sfb", 3, scenario="5")
    table_session("sfb", ref, tmp_path / "s.save", dice="program", scenario="5")
    out = capsys.readouterr().out
    assert "MOVE the klingon counter to 0316 facing B (straight)" in out
    assert "[SFB.R5] first impulse: launch one drone" in out and "PLACE drone KD1" in out
    assert "ROBOT FIRES: the klingon" in out and "MARK on your federation's sheet" in out
    assert "Impulse 2: your federation moves from 2801 facing E: where is it now?" in out
    assert "[hex and facing (straight = 2702 E, left = 2802 D, right = 2701 F); Enter = straight]" in out
    assert "assumed as suggested" in out  # the energy filled in from the speed is said
    assert "T1 ROBOT klingon moves at speed 12 this turn [SFB.R1: 12]" in out
    assert "Bearing: at klingon (range " in out


def _session(game, lines, path, **setup):
    from paperrobot.cli.assist import AssistFront, AssistPlay
    from paperrobot.core import registry
    typed = iter(lines)
    return AssistPlay(game, AssistFront(registry.info(game).assistant()),
                      lambda log: paperrobot.new_game(game, seed=5, log=log, **setup), path,
                      input_fn=lambda prompt: next(typed))


def test_log_lists_the_entries_and_undo_n_goes_back_to_any_of_them(tmp_path, capsys):
    path = tmp_path / "u.save"
    lines = ["12", "2702 E", "left", "log", "undo 2", "log", "2802 D", "undo", "quit"]
    play = _session("sfb", lines, path, scenario="5")
    play.run()
    out = capsys.readouterr().out
    assert "     1. question 1 energy: speed=12" in out
    assert "move: straight" in out and "move: left" in out
    assert "entries the program answered without asking are not shown" in out
    assert "Back to entry 2 of the log" in out
    moves = [a[3] for a in read_match_save(path).answers if a[1] == "move"]
    assert moves == []  # '2802 D' (left) was given at entry 2's question, then 'undo' took it back
    assert "Took back entry " in out


def test_fix_corrects_the_robot_at_a_question_and_is_kept(tmp_path, capsys):
    path = tmp_path / "f.save"
    lines = ["12", "fix hex=0515 facing=C", "fix hull=99", "fix mark=warp", "", "quit"]
    play = _session("sfb", lines, path, scenario="5")
    play.run()
    out = capsys.readouterr().out
    assert "Corrected: hex=0515, facing=C." in out and "correction to match the table: klingon hex=0515" in out
    assert "Not allowed: hull=99: a whole number from 0 to" in out and "(SFB.FIX)" in out
    kinds = [a[1] for a in read_match_save(path).answers]
    assert kinds.count("@fix") == 2
    from paperrobot.core.save import load_match
    match, _, _ = load_match(path, "sfb")
    klingon = match.engine.by_name["klingon"]
    assert klingon.warp == klingon.spec.warp - 1 and klingon.warp_lost == 1  # SFB.DMG3: speed falls next turn
    assert "MOVE the klingon counter to 0614 facing B (left)" in out  # R2 pursues from the corrected hex
    play = _session("sfb", [""] * 60 + ["quit"], path, scenario="5")  # resumed: turn 2 at speed 11
    play.run()
    assert "T2 ROBOT klingon moves at speed 11 this turn [SFB.R1: 12, 1 warp box(es) lost: SFB.DMG3]" in \
        capsys.readouterr().out


def test_a_state_file_resumes_and_ctrl_c_keeps_it(tmp_path, capsys):
    path = tmp_path / "r.save"

    def interrupted(prompt):
        raise KeyboardInterrupt

    first = _session("fc", ["8", "2130 A"], path)
    with pytest.raises(StopIteration):
        first.run()  # the script ends: StopIteration out of input (a person's Ctrl-C is the next test)
    answers = read_match_save(path).answers
    assert [a[1] for a in answers[:1]] == ["allocate"] and answers[0][3]["speed"] == 8
    from paperrobot.cli.assist import AssistFront, AssistPlay
    from paperrobot.core import registry
    again = AssistPlay("fc", AssistFront(registry.info("fc").assistant()), lambda log: None, path,
                       input_fn=interrupted)
    assert again.resumed and len(again.match.answers) == len(answers)
    with pytest.raises(KeyboardInterrupt):
        again.run()
    assert "resume it with 'paperrobot assist fc --state" in capsys.readouterr().out
    assert len(read_match_save(path).answers) == len(answers)


def test_the_command_refuses_bad_input_in_one_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["assist", "sfb", "--scenario", "9"])
    assert result.exit_code == 2 and "scenario" in result.output and "Traceback" not in result.output
    result = runner.invoke(app, ["assist", "fc", "--dice", "loaded"])
    assert result.exit_code == 2 and "'program'" in result.output
    result = runner.invoke(app, ["assist", "fc", "--speed", "3"])
    assert result.exit_code == 2 and "No such option: --speed" in result.output
    result = runner.invoke(app, ["assist", "sfb", "--scenario"])
    assert result.exit_code == 2 and "'--scenario' requires an argument" in result.output
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes")
    result = runner.invoke(app, ["assist", "sfb", "--state", str(mine)])
    assert result.exit_code == 2 and "not a PaperRobot save" in result.output
    assert mine.read_text() == "my notes"


@pytest.mark.parametrize("game,options,key,value", [("sfb", ["--scenario", "4", "--max-turns", "2"], "max_turns", 2),
                                                    ("fc", ["--robot-ship", "kzinti-bc", "--map=42x30"], "map",
                                                     "42x30")])
def test_the_command_plays_to_the_end_from_typed_lines(tmp_path, game, options, key, value):
    """'paperrobot assist sfb|fc' itself (typer, the registry's set-up options) from input lines to the result."""
    runner = CliRunner()
    state = tmp_path / "cmd.save"
    result = runner.invoke(app, ["assist", game, *options, "--state", str(state)], input="\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output and "MOVE the " in result.output
    assert read_match_save(state).setup[key] == value


def test_undo_after_resuming_takes_back_the_last_answer_the_person_gave(tmp_path, capsys):
    """The entries the program gave (no fire worth asking, no disengagement) are not 'your last answer', also
    when they come from an earlier session's state file."""
    path = tmp_path / "ru.save"
    first = _session("sfb", ["12", "2702 E", "quit"], path, scenario="5")
    first.run()
    before = read_match_save(path).answers
    assert before[-1][1] != "move" and [a[3] for a in before if a[1] == "move"] == ["straight"]
    again = _session("sfb", ["undo", "quit"], path, scenario="5")
    again.run()
    after = read_match_save(path).answers
    assert [a[1] for a in after if a[1] == "move"] == [] and after[0][1] == "energy"
    assert "Took back entry " in capsys.readouterr().out


def test_the_word_fire_asks_about_fire_at_an_impulse_with_no_shot_worth_much(tmp_path, capsys):
    """Far apart, no fire question comes at impulse 2 (no shot worth 1 point); 'fire' at the move question asks it,
    and the long shot is resolved with the chart's die."""
    path = tmp_path / "w.save"
    play = _session("sfb", ["12", "fire", "2702 E", "phaser-1#1", "quit"], path, scenario="5")
    play.run()
    out = capsys.readouterr().out
    assert "You will be asked about your fire" in out and "Impulse 2: did your federation fire?" in out
    assert "YOUR FIRE: your federation phaser-1#1 at klingon, range" in out
    fire = [a[3] for a in read_match_save(path).answers if a[1] == "fire"]
    assert fire[0] == "none" and fire[1] == {"phaser-1#1": "klingon"}  # impulse 1 without asking, then asked
