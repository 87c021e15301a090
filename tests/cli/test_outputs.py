"""Every command follows one policy for the files it writes: never replace a file that is not this
program's own file of that kind (unless --force), and check output paths before any work."""
import pytest
from typer.testing import CliRunner

from paperrobot.cli.main import app
from paperrobot.core.save import SaveData, write_save

runner = CliRunner()


def invoke(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


@pytest.fixture
def notes(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my notes\n")
    return path


def one_error_line(result, *needles):
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.startswith("error:")]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in lines[0], lines[0]


@pytest.mark.parametrize("args", [
    ("play", "fc", "--save"),
    ("play", "sfb", "--save"),
    ("play", "armada", "--save"),
    ("battle", "sfb", "--no-maps", "--log"),
    ("battle", "fc", "--log"),
    ("battle", "armada", "--quiet", "--log"),
    ("simulate", "sfb", "--games", "3", "--db"),
    ("simulate", "fc", "--games", "3", "--db"),
    ("simulate", "armada", "--games", "1", "--db"),
])
def test_an_unrelated_file_is_never_replaced(args, notes):
    result = invoke(*args, notes, input="quit\n")
    one_error_line(result, str(notes), "already exists and is not", "--force")
    assert notes.read_text() == "my notes\n"


def test_assist_state_over_an_unrelated_file(notes):
    result = invoke("assist", "armada", "--state", notes, "--fleet", "victory-ii", input="quit\n")
    one_error_line(result, "not an Armada assistant state file")
    assert notes.read_text() == "my notes\n"


@pytest.mark.parametrize("game,setup", [("sfb", {"scenario": "5"}), ("fc", {"robot": "d7", "ship": "federation-ca"})])
def test_resume_into_an_existing_file(tmp_path, notes, game, setup):
    a = tmp_path / "a.save"
    write_save(a, SaveData(game, setup, 3, []))
    result = invoke("play", game, "--resume", a, "--save", notes, input="quit\n")
    one_error_line(result, "not a PaperRobot save")
    assert notes.read_text() == "my notes\n"
    b = tmp_path / "b.save"
    write_save(b, SaveData(game, setup, 4, []))
    before = b.read_text()
    result = invoke("play", game, "--resume", a, "--save", b, input="quit\n")
    one_error_line(result, "another saved game")
    assert b.read_text() == before


def test_force_replaces_the_file(tmp_path, notes):
    result = invoke("battle", "fc", "--log", notes, "--force")
    assert result.exit_code == 0, result.output
    assert notes.read_text().startswith('{"')


def test_our_own_log_may_be_replaced(tmp_path):
    log = tmp_path / "b.jsonl"
    assert invoke("battle", "fc", "--log", log).exit_code == 0
    assert invoke("battle", "fc", "--log", log, "--seed", "2").exit_code == 0


def test_svg_pictures_carry_a_marker_and_foreign_pictures_are_kept(tmp_path):
    pics = tmp_path / "pics"
    pics.mkdir()
    (pics / "round-2.svg").write_text("<svg>mine</svg>")
    result = invoke("battle", "armada", "--quiet", "--svg", pics)
    one_error_line(result, "round-2.svg", "not a PaperRobot picture")
    (pics / "round-2.svg").unlink()
    result = invoke("battle", "armada", "--quiet", "--svg", pics)
    assert result.exit_code == 0, result.output
    again = invoke("battle", "armada", "--quiet", "--svg", pics, "--seed", "2")
    assert again.exit_code == 0, again.output
    assert (pics / "round-0.svg").read_text().startswith("<!-- paperrobot picture -->")


@pytest.mark.parametrize("option,kind", [("--log", "battle"), ("--save", "play")])
def test_output_paths_are_checked_before_any_work(tmp_path, option, kind):
    result = invoke(kind, "fc", option, tmp_path / "missing" / "x", input="quit\n")
    one_error_line(result, "does not exist")
    assert "Turn" not in result.output and "Result" not in result.output
    result = invoke(kind, "fc", option, tmp_path, input="quit\n")
    one_error_line(result, "this is a folder")
