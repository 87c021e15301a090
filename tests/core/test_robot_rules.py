"""core/robot_rules.py: a robot's procedure as data, checked for shape; the commands and stores that carry it."""
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import paperrobot
from paperrobot.cli.main import app
from paperrobot.core import robot_rules as rr
from paperrobot.core.robot_rules import Procedure, RulesError, Spec

runner = CliRunner()
FC = paperrobot.game_info("fc").robot_rules
PUBLISHED = FC.export()
ACCEL_25 = PUBLISHED.replace('rolls = "2-4", result = "accelerate"', 'rolls = "2-5", result = "accelerate"').replace(
    'rolls = "5-10", result = "accelerate-if', 'rolls = "6-10", result = "accelerate-if')

TOY = """game = "toy"
[speed]
rule = "T.1"
seed = "2-4: speed 8; 5-12: speed 16"
die = "2d6"
table = [ { rolls = "2-4", result = 8 }, { rolls = "5-12", result = 16 } ]
[hit]
rule = "T.2"
seed = "hits on 1-4"
die = "d6"
value = 4
[range]
rule = "T.3"
seed = "within four hexes"
value = 4
[repairs]
rule = "T.4"
seed = "control, then tractor"
value = ["control", "tractor"]
"""


@pytest.fixture
def toy(tmp_path):
    path = tmp_path / "toy.toml"
    path.write_text(TOY)
    return Procedure("toy", "a toy robot", path, {
        "speed": Spec("table", "T.1", "2d6", results=(8, 16, 24)),
        "hit": Spec("threshold", "T.2", "d6"),
        "range": Spec("number", "T.3", high=30),
        "repairs": Spec("order", "T.4", vocabulary=("control", "tractor")),
    })


def test_the_published_toy_loads_and_reads_as_plain_values(toy):
    rules = rr.load(toy, "")
    assert rules.table("speed") == (None, None, 8, 8, 8) + (16,) * 8
    assert rules.threshold("hit") == 4 and rules.value("range") == 4
    assert rules.value("repairs") == ("control", "tractor")
    assert rules.differs() == [] and rules.is_published()
    with pytest.raises(AttributeError):
        rules.text = "x"
    with pytest.raises(TypeError):
        rules.entries["hit"] = None


@pytest.mark.parametrize("old,new,message", [
    ('{ rolls = "5-12", result = 16 }', '{ rolls = "6-12", result = 16 }', "entry 'speed' (T.1): no result for roll 5 of 2d6"),
    ('{ rolls = "5-12", result = 16 }', '{ rolls = "4-12", result = 16 }', "entry 'speed' (T.1): rolls '4-12' and '2-4' overlap"),
    ('{ rolls = "5-12", result = 16 }', '{ rolls = "5-13", result = 16 }', "entry 'speed' (T.1): rolls '5-13' are outside 2d6"),
    ('{ rolls = "5-12", result = 16 }', '{ rolls = "5-12", result = 17 }', "entry 'speed' (T.1): rolls '5-12': result must be one of 8, 16, 24"),
    ('{ rolls = "5-12", result = 16 }', '{ rolls = "12-5", result = 16 }', "rolls '12-5' run backwards"),
    ("value = 4\n[range]", "value = 7\n[range]", "entry 'hit' (T.2): value must be a roll of d6 from 0 (never) to 6, not 7"),
    ('within four hexes"\nvalue = 4', 'within four hexes"\nvalue = -1', "entry 'range' (T.3): value must be from 0 to 30, not -1"),
    ('["control", "tractor"]', '["control", "control"]', "entry 'repairs' (T.4): value must list each of control, tractor exactly once"),
    ('rule = "T.3"', 'rule = "T.9"', "entry 'range' (T.3): rule must be T.3"),
    ('[hit]', '[hut]', "entry 'hit' (T.2) is missing"),
    ('game = "toy"', 'game = "fc"', 'game = "toy" is missing or wrong'),
    ('value = 4\n[range]', 'value = 4\nextra = 1\n[range]', "entry 'hit' (T.2): extra: Extra inputs are not permitted"),
    ('table = [', 'table = [[', "not valid TOML"),
])
def test_a_broken_variant_is_refused_with_one_line_naming_the_file_and_entry(toy, tmp_path, old, new, message):
    assert old in TOY
    path = tmp_path / "mine.toml"
    path.write_text(TOY.replace(old, new, 1))
    with pytest.raises(RulesError) as err:
        rr.load(toy, str(path))
    text = str(err.value)
    assert "\n" not in text and text.startswith(str(path)) and message in text, text


def test_an_unknown_entry_and_an_empty_or_missing_file_are_refused(toy, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(TOY + '[bogus]\nrule = "T.1"\nseed = ""\nvalue = 1\n')
    with pytest.raises(RulesError, match="unknown entry 'bogus'"):
        rr.load(toy, str(path))
    path.write_text("")
    with pytest.raises(RulesError, match="the file is empty"):
        rr.load(toy, str(path))
    with pytest.raises(RulesError, match="no such robot rules file"):
        rr.load(toy, str(tmp_path / "nope.toml"))


def test_a_variant_names_the_entries_that_differ_and_cites_its_values(toy):
    rules = rr.load(toy, TOY.replace("value = 4\n[range]", "value = 5\n[range]"))
    assert rules.differs() == ["hit"]
    assert rules.note("hit") == " [variant hit: 1-5]" and rules.note("speed") == ""
    assert "differs from the published procedure in 1 entry: hit (T.2) 1-5, published 1-4" in rules.summary()


def test_check_same_names_the_entries_that_changed(toy):
    rr.check_same(TOY, TOY.replace("seed = \"hits on 1-4\"", "seed = \"other words\""), "x", toy)  # words only
    with pytest.raises(RulesError, match=r"--resume s.json was made with other robot rules .* hit: recorded 1-4, "
                                         r"file 1-5"):
        rr.check_same(TOY, TOY.replace("value = 4\n[range]", "value = 5\n[range]"), "--resume s.json", toy)


# ---------------------------------------------------------------------------------------- the registry, the commands
def test_the_setup_option_holds_the_file_contents(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(ACCEL_25)
    match = paperrobot.new_game("fc", seed=1, robot_rules=str(path))
    assert match.setup["robot_rules"] == ACCEL_25  # a save and a store record the contents, not the path
    assert match.engine.robot_rules.differs() == ["acceleration"]
    assert paperrobot.new_game("fc", seed=1).setup["robot_rules"] == ""


def test_rules_export_writes_the_published_procedure():
    result = runner.invoke(app, ["rules", "export", "fc"])
    assert result.exit_code == 0 and result.stdout == PUBLISHED
    assert rr.load(FC, PUBLISHED).is_published()


def test_rules_check_and_a_broken_variant_on_a_verb(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(ACCEL_25)
    result = runner.invoke(app, ["rules", "check", "fc", str(path)])
    assert result.exit_code == 0 and "acceleration (FC.2) 2-5 accelerate" in result.output
    path.write_text(ACCEL_25.replace('rolls = "6-10"', 'rolls = "7-10"'))
    result = runner.invoke(app, ["battle", "fc", "--robot-rules", str(path)])
    assert result.exit_code == 2
    assert result.output.strip() == (f"error: --robot-rules: {path}: entry 'acceleration' (FC.2): no result for roll 6 of 2d6: "
                                     "every roll needs one line")


def test_battle_says_first_which_entries_differ_and_cites_the_variant(tmp_path):
    path = tmp_path / "v.toml"
    path.write_text(ACCEL_25)
    result = runner.invoke(app, ["battle", "fc", "--seed", "3", "--robot-rules", str(path)])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.startswith(("Federation Commander", "Robot rules"))]
    assert lines[1].startswith("Robot rules: a variant") and "acceleration (FC.2) 2-5 accelerate" in lines[1]
    assert "[FC.2] 2d6=" in result.output and "[variant acceleration: 2-5 accelerate" in result.output
    plain = runner.invoke(app, ["battle", "fc", "--seed", "3", "--robot-rules", str(tmp_path / "p.toml")])
    assert plain.exit_code == 2  # no such file
    (tmp_path / "p.toml").write_text(PUBLISHED)
    same = runner.invoke(app, ["battle", "fc", "--seed", "3", "--robot-rules", str(tmp_path / "p.toml")])
    assert same.output == runner.invoke(app, ["battle", "fc", "--seed", "3"]).output  # the exported file: as ever


def test_a_resume_refuses_a_rules_file_changed_since(tmp_path):
    path, save = tmp_path / "v.toml", tmp_path / "g.save"
    path.write_text(ACCEL_25)
    first = runner.invoke(app, ["play", "fc", "--seed", "5", "--save", str(save), "--robot-rules", str(path)],
                          input="\n" * 5 + "quit\n")
    assert first.exit_code == 0, first.output
    assert json.loads(save.read_text())["setup"]["robot_rules"] == ACCEL_25
    same = runner.invoke(app, ["play", "fc", "--resume", str(save), "--robot-rules", str(path)], input="quit\n")
    assert same.exit_code == 0, same.output
    path.write_text(PUBLISHED)
    changed = runner.invoke(app, ["play", "fc", "--resume", str(save), "--robot-rules", str(path)], input="quit\n")
    assert changed.exit_code == 2
    assert "was made with other robot rules" in changed.output and "acceleration: recorded 2-5 accelerate" in \
        changed.output


def test_a_simulation_database_refuses_a_rules_file_changed_since(tmp_path):
    path, db = tmp_path / "v.toml", tmp_path / "r.sqlite"
    path.write_text(ACCEL_25)
    args = ["simulate", "fc", "--games", "4", "--jobs", "1", "--db", str(db), "--quiet", "--robot-rules", str(path)]
    assert runner.invoke(app, args).exit_code == 0
    assert runner.invoke(app, args + ["--games", "6"]).exit_code == 0  # the same file: extends the run
    path.write_text(ACCEL_25.replace('rolls = "11-12", result = "continue"', 'rolls = "11-12", result = "accelerate"'))
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert "was made with other robot rules" in result.output and "acceleration: recorded" in result.output


def test_the_web_start_form_takes_the_rules_as_an_upload():
    from paperrobot.web import setup_files
    assert setup_files.kind("robot_rules") == "file"


def test_assist_flies_the_variant_and_refuses_it_changed_on_resume(tmp_path):
    path, state = tmp_path / "v.toml", tmp_path / "a.json"
    path.write_text(ACCEL_25)
    first = runner.invoke(app, ["assist", "fc", "--state", str(state), "--robot-rules", str(path)],
                          input="\n" * 3 + "quit\n")
    assert first.exit_code == 0, first.output
    assert json.loads(state.read_text())["setup"]["robot_rules"] == ACCEL_25
    path.write_text(PUBLISHED)
    again = runner.invoke(app, ["assist", "fc", "--state", str(state), "--robot-rules", str(path)], input="quit\n")
    assert again.exit_code == 2 and "acceleration: recorded 2-5 accelerate" in again.output


# ------------------------------------------------------------------ a table keyed by named faces (a custom die)
FACED = """game = "faced"
[command]
rule = "F.1"
seed = "Roll a blue – hit = repair, crit = squadron, accuracy = navigate"
die = "blue"
table = [ { rolls = "hit", result = "repair" }, { rolls = "crit", result = "squadron" }, { rolls = "acc", result = "navigate" } ]
"""


@pytest.fixture
def faced(tmp_path):
    path = tmp_path / "faced.toml"
    path.write_text(FACED)
    return Procedure("faced", "a robot rolling a blue die", path, {
        "command": Spec("table", "F.1", "blue", results=("repair", "squadron", "navigate"),
                        faces=("hit", "crit", "acc"))})


def test_a_table_keyed_by_named_faces_reads_as_a_mapping_and_names_what_differs(faced):
    rules = rr.load(faced, "")
    assert dict(rules.table("command")) == {"hit": "repair", "crit": "squadron", "acc": "navigate"}
    assert rules.differs() == [] and rules.note("command") == ""
    swapped = rr.load(faced, FACED.replace('"hit", result = "repair"', '"hit", result = "navigate"'))
    assert swapped.differs() == ["command"] and swapped.table("command")["hit"] == "navigate"
    assert swapped.note("command") == " [variant command: hit navigate, crit squadron, acc navigate]"
    reordered = FACED.replace('{ rolls = "hit", result = "repair" }, { rolls = "crit", result = "squadron" }',
                              '{ rolls = "crit", result = "squadron" }, { rolls = "hit", result = "repair" }')
    assert rr.load(faced, reordered).differs() == []  # the order of the lines is not content


@pytest.mark.parametrize("old,new,message", [
    ('{ rolls = "acc", result = "navigate" } ]', ']', "entry 'command' (F.1): no result for acc of the blue die"),
    ('{ rolls = "acc", result = "navigate" } ]', '{ rolls = "acc", result = "navigate" }, '
     '{ rolls = "hit", result = "squadron" } ]', "entry 'command' (F.1): rolls 'hit' has two lines"),
    ('rolls = "acc"', 'rolls = "blank"', "entry 'command' (F.1): rolls 'blank' is not a face of the blue die (hit, crit, acc)"),
    ('rolls = "acc"', 'rolls = 3', "rolls 3 is not a face of the blue die"),
    ('result = "navigate"', 'result = "manoeuvre"', "rolls 'acc': result must be one of repair, squadron, navigate"),
    ('die = "blue"', 'die = "d6"', "entry 'command' (F.1): die must be \"blue\""),
])
def test_a_broken_faced_table_is_refused_with_one_line(faced, tmp_path, old, new, message):
    path = tmp_path / "mine.toml"
    assert FACED.count(old) == 1, old
    path.write_text(FACED.replace(old, new))
    with pytest.raises(RulesError) as err:
        rr.load(faced, str(path))
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value) and "\n" not in str(err.value)
