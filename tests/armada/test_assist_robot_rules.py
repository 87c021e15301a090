"""Issue 27: the Armada table assistant flies a --robot-rules variant like every other verb: its answers follow the
variant's tables, its state file keeps the variant, and a continued session refuses a file whose entries differ."""
import json

from typer.testing import CliRunner

from paperrobot.armada import procedure
from paperrobot.armada.assist import Assistant
from paperrobot.cli.main import app

PUBLISHED = procedure.PROCEDURE.export()
# ARM.CMDR.STYLE: every blue face makes the commander cautious (published: hit normal, crit aggressive)
ALL_CAUTIOUS = PUBLISHED.replace('{ rolls = "hit", result = "normal" },\n  { rolls = "crit", result = "aggressive" },',
                                 '{ rolls = "hit", result = "cautious" },\n  { rolls = "crit", result = "cautious" },', 1)
runner = CliRunner()


def test_the_variant_decides_the_commander_style_where_the_published_table_does_not():
    assert ALL_CAUTIOUS != PUBLISHED
    differed = 0
    for seed in range(1, 7):
        published = Assistant.open(None, "victory-ii", seed).ask_line("style")[0]
        variant = Assistant.open(None, "victory-ii", seed, ALL_CAUTIOUS).ask_line("style")[0]
        assert variant.startswith("ARM.CMDR.STYLE:") and "the Imperial commander is cautious" in variant
        assert "[variant commander_style: hit cautious, crit cautious, acc cautious]" in variant
        differed += "cautious" not in published
    assert differed  # some seed's roll gives another style under the published table


def test_a_variant_kept_in_the_state_file_and_through_undo(tmp_path):
    path = tmp_path / "s.json"
    a = Assistant.open(path, "victory-ii", 2, ALL_CAUTIOUS)
    a.ask_line("style")
    a.save()
    assert json.loads(path.read_text())["robot_rules"] == ALL_CAUTIOUS
    b = Assistant.open(path, None, None)  # continued without the flag: the session's own rules
    b.undo()
    assert "cautious" in b.ask_line("style")[0] and b.state.robot_rules == ALL_CAUTIOUS


def test_assist_armada_robot_rules_flag_and_a_changed_file_refused(tmp_path):
    rules, state = tmp_path / "v.toml", tmp_path / "s.json"
    rules.write_text(ALL_CAUTIOUS)
    first = runner.invoke(app, ["assist", "armada", "--fleet", "victory-ii", "--seed", "2", "--state", str(state),
                                "--robot-rules", str(rules)], input="style\nquit\n")
    assert first.exit_code == 0, first.output
    assert "Robot rules: a variant" in first.output and "commander_style (ARM.CMDR.STYLE)" in first.output
    assert "the Imperial commander is cautious" in first.output
    rules.write_text(PUBLISHED)
    again = runner.invoke(app, ["assist", "armada", "--state", str(state), "--robot-rules", str(rules)],
                          input="quit\n")
    assert again.exit_code == 2
    line = again.output.strip()
    assert len(line.splitlines()) == 1 and "commander_style" in line and "other robot rules" in line
    assert json.loads(state.read_text())["robot_rules"] == ALL_CAUTIOUS  # nothing replaced


def test_a_broken_variant_is_one_line(tmp_path):
    rules = tmp_path / "v.toml"
    rules.write_text(ALL_CAUTIOUS.replace('{ rolls = "acc", result = "cautious" },', "", 1))
    result = runner.invoke(app, ["assist", "armada", "--fleet", "victory-ii", "--robot-rules", str(rules)],
                           input="quit\n")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    assert result.output.startswith("error: --robot-rules:") and "commander_style" in result.output
