"""``--robot-rules FILE`` on the sfb commands: the variant is flown and said first, a broken file is one line, a
save or a results database refuses a file changed underneath it, naming the entry."""
from typer.testing import CliRunner

from paperrobot.cli.main import app
from paperrobot.sfb import procedure

runner = CliRunner()
PUBLISHED = procedure.PROCEDURE.export()


def write(path, old="value = 4\n", new="value = 5\n"):
    assert PUBLISHED.count(old) == 1  # the one entry with value 4: primary_fire_range (SFB.R2)
    path.write_text(PUBLISHED.replace(old, new))
    return str(path)


def invoke(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_battle_flies_the_variant_and_says_so_first(tmp_path):
    result = invoke("battle", "sfb", "--seed", "2", "--no-maps", "--robot-rules", write(tmp_path / "v.toml"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Scenario 5 (seed 2)")
    assert lines[1].startswith("Robot rules: a variant") and "primary_fire_range (SFB.R2) 5, published 4" in lines[1]
    assert "within 5 hexes (range 5): Primary Fire Point" in result.output
    assert "[variant primary_fire_range: 5]" in result.output
    plain = invoke("battle", "sfb", "--seed", "2", "--no-maps", "--robot-rules", write(tmp_path / "p.toml", new="value = 4\n"))
    assert plain.exit_code == 0 and "Robot rules" not in plain.output and "[variant" not in plain.output


def test_a_broken_file_is_one_line_and_exit_2(tmp_path):
    result = invoke("battle", "sfb", "--robot-rules", write(tmp_path / "bad.toml", new="value = -4\n"))
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0
    assert "entry 'primary_fire_range' (SFB.R2): value must be from 0 to 30, not -4" in result.output


def test_simulate_db_refuses_a_file_changed_underneath_it(tmp_path):
    rules, db = tmp_path / "v.toml", str(tmp_path / "r.sqlite")
    write(rules)
    first = invoke("simulate", "sfb", "--games", "4", "--jobs", "1", "--quiet", "--db", db, "--robot-rules", str(rules))
    assert first.exit_code == 0, first.output
    write(rules, new="value = 6\n")
    again = invoke("simulate", "sfb", "--games", "4", "--jobs", "1", "--quiet", "--db", db, "--robot-rules", str(rules))
    assert again.exit_code == 2 and "primary_fire_range: recorded 5, file 6" in again.output


def test_play_resume_refuses_other_rules(tmp_path):
    rules, save = tmp_path / "v.toml", tmp_path / "g.save"
    first = invoke("play", "sfb", "--seed", "4", "--save", str(save), "--robot-rules", write(rules),
                   input="\n\nquit\n")
    assert first.exit_code == 0, first.output[-2000:]
    write(rules, new="value = 3\n")
    again = invoke("play", "sfb", "--resume", str(save), "--robot-rules", str(rules), input="quit\n")
    assert again.exit_code == 2 and "primary_fire_range: recorded 5, file 3" in again.output


def test_the_status_shows_the_robots_speed_in_force_under_a_variant(tmp_path):
    """Issue 27 leftover: the status said the published speed (12) although the variant's robot flies at 10."""
    import paperrobot
    from paperrobot.sfb.frontend import status_lines

    path = tmp_path / "slow.toml"
    old = "every turn.\"\nvalue = 12\n"
    assert PUBLISHED.count(old) == 1
    path.write_text(PUBLISHED.replace(old, "every turn.\"\nvalue = 10\n"))
    assert path.read_text() != PUBLISHED
    match = paperrobot.new_game("sfb", seed=1, robot_rules=str(path))
    robot = [line for line in status_lines(match.engine, "robot") if "warp boxes lost" in line]
    assert robot and "(speed 10 from next turn)" in robot[0]
    published = paperrobot.new_game("sfb", seed=1)
    assert "(speed 12 from next turn)" in " ".join(status_lines(published.engine, "robot"))
