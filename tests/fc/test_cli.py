"""The FC commands: play to the end, save and resume, battle, simulate, ships, data, bad input."""
import json

from typer.testing import CliRunner

from paperrobot.cli.main import app

runner = CliRunner()


def test_play_to_the_end_with_defaults():
    result = runner.invoke(app, ["play", "fc", "--seed", "3"], input="\n" * 8000)
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output
    assert "[FC.1A]" in result.output and "Baseline speed" in result.output


def test_play_save_and_resume_replays_the_same_game(tmp_path):
    save = tmp_path / "fc.save"
    first = runner.invoke(app, ["play", "fc", "--seed", "5", "--save", str(save)],
                          input="speed=24\n\n" + "\n" * 30 + "quit\n")
    assert first.exit_code == 0, first.output
    data = json.loads(save.read_text())
    assert data["game"] == "fc" and data["answers"][0][1] == "allocate"
    assert data["answers"][0][3]["speed"] == 24
    resumed = runner.invoke(app, ["play", "fc", "--resume", str(save)], input="\n" * 8000)
    assert resumed.exit_code == 0, resumed.output
    assert "Game over:" in resumed.output
    full = runner.invoke(app, ["play", "fc", "--seed", "5"], input="speed=24\n\n" + "\n" * 8000)
    assert full.output.splitlines()[-1] == resumed.output.splitlines()[-1]


def test_play_illegal_answer_is_asked_again():
    result = runner.invoke(app, ["play", "fc", "--seed", "2"], input="regen=1,1,1\n\n" + "\n" * 8000)
    assert result.exit_code == 0
    assert "Not allowed: shield #1 has not that many disabled boxes to regenerate (FC.1B)" in result.output
    assert "Game over:" in result.output


def test_simulate_fc_prints_summary(tmp_path):
    db = tmp_path / "fc.sqlite"
    result = runner.invoke(app, ["simulate", "fc", "--games", "20", "--jobs", "1", "--seed", "3", "--db", str(db),
                                 "--quiet"])
    assert result.exit_code == 0, result.output
    assert db.exists()


def test_simulate_fc_robot_vs_robot_table():
    result = runner.invoke(app, ["simulate", "fc", "--games", "10", "--jobs", "1", "--robot-ship", "kzinti-bc",
                                 "--player-ship", "d7", "--opponent", "robot"])
    assert result.exit_code == 0, result.output
    assert "robot wins" in result.output
    assert result.output.startswith("Provisional data in use")


def test_ships_and_show():
    listing = runner.invoke(app, ["ships", "--game", "fc"])
    assert "d7" in listing.output and "kzinti-bc" in listing.output and "federation-ca" in listing.output
    sheet = runner.invoke(app, ["ships", "d7", "--game", "fc"])
    assert "source:" in sheet.output and "disruptor" in sheet.output


def test_data_provisional_lists_stand_ins():
    result = runner.invoke(app, ["data", "--provisional", "--game", "fc"])
    assert result.exit_code == 0
    for name in ("phasers", "disruptor", "dac", "turn_modes"):
        assert f"{name} [provisional]" in result.output


def test_unknown_names_are_one_line_errors():
    for args in (["battle", "fc", "--robot-ship", "enterprise"], ["battle", "fc", "--player-ship", "nope"],
                 ["battle", "fc", "--opponent", "cat"]):
        result = runner.invoke(app, args)
        assert result.exit_code != 0
        assert "Traceback" not in result.output


def test_tables_override(tmp_path):
    from paperrobot.fc.data import DATA
    text = (DATA / "tables" / "turn_modes.toml").read_text().replace("provisional = true", "provisional = false")
    (tmp_path / "turn_modes.toml").write_text(text.replace('source = "', 'source = "my rulebook; '))
    result = runner.invoke(app, ["battle", "fc", "--seed", "1", "--decisions", "--tables-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    line = [l for l in result.output.splitlines() if l.startswith("Provisional data")][0]
    assert "turn_modes" not in line and "dac" in line


def test_bad_table_file_is_one_line(tmp_path):
    (tmp_path / "dac.toml").write_text('name = "dac"\nsource = "x"\ntables = [[["warp", "nonsense"]]]\n')
    result = runner.invoke(app, ["battle", "fc", "--tables-dir", str(tmp_path)])
    assert result.exit_code != 0 and "dac.toml" in result.output and "Traceback" not in result.output


def test_corrupt_save_is_one_line(tmp_path):
    bad = tmp_path / "bad.save"
    bad.write_text("{not json")
    result = runner.invoke(app, ["play", "fc", "--resume", str(bad)])
    assert result.exit_code != 0
    assert "Traceback" not in result.output


def test_play_asks_about_tractored_drones():
    # the first few seeds include a game where the person's tractor holds a drone into a new turn
    for seed in range(1, 12):
        result = runner.invoke(app, ["play", "fc", "--seed", str(seed)], input="\n" * 8000)
        assert "Game over:" in result.output
        if "Drones held in your tractors" in result.output:
            return
    raise AssertionError("no game held a drone in a tractor")



def test_play_typed_answers_are_used():
    # speed 8, no regeneration, no photons; accelerate on impulse 1; then the defaults to the end
    result = runner.invoke(app, ["play", "fc", "--seed", "4"],
                           input="speed=8 regen=none photons=none\n\naccel\n" + "\n" * 8000)
    assert result.exit_code == 0, result.output
    assert "T1 player: allocates speed 8" in result.output
    assert "T1.01 player: accelerates to 9" in result.output
    assert "Game over:" in result.output


def test_play_het_choice_by_key():
    result = runner.invoke(app, ["play", "fc", "--seed", "4"], input="\n\nhet-B\n" + "\n" * 8000)
    assert result.exit_code == 0, result.output
    assert "T1.01 player: high energy turn to face B" in result.output


def test_play_refuses_to_overwrite_a_save_and_resumes_it(tmp_path):
    save = tmp_path / "fc.save"
    first = runner.invoke(app, ["play", "fc", "--seed", "6", "--save", str(save)], input="\n" * 12 + "quit\n")
    assert first.exit_code == 0 and save.exists()
    again = runner.invoke(app, ["play", "fc", "--seed", "6", "--save", str(save)], input="\n")
    assert again.exit_code != 0 and "already exists" in again.output + str(again.stderr_bytes or b"")
    data = json.loads(save.read_text())
    assert data["version"] == 2 and data["controllers"] == {"robot": "robot", "player": "person"}


def test_play_minor_questions_are_asked_unless_auto():
    asked = runner.invoke(app, ["play", "fc", "--seed", "3"], input="\n" * 8000)
    assert "End of turn: energy into the batteries" in asked.output
    auto = runner.invoke(app, ["play", "fc", "--seed", "3"], input="auto\n" + "\n" * 8000)
    assert auto.exit_code == 0 and "Game over:" in auto.output
    assert "End of turn: energy into the batteries" not in auto.output
    assert asked.output.splitlines()[-1] == auto.output.splitlines()[-1]  # the same answers: the same game
