"""The terminal's questions as a person meets them (issue 26): a refusal after the question asked again,
never above a reprint; amounts typed as themselves; moves with where they lead."""
import paperrobot
from paperrobot.cli import choices
from paperrobot.cli.main import app
from paperrobot.fc.requests import reinforce_request
from typer.testing import CliRunner


def _play_fc(typed: str, tmp_path, monkeypatch) -> list[str]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    result = CliRunner().invoke(app, ["play", "fc", "--seed", "2", "--no-record"], input=typed)
    assert result.exit_code == 0, result.output[-2000:]
    return result.output.splitlines()


def test_a_refused_allocation_is_said_after_the_form_is_shown_again(tmp_path, monkeypatch):
    lines = _play_fc("speed=99\n\nquit\n", tmp_path, monkeypatch)
    refusal = next(i for i, line in enumerate(lines) if line.startswith("Not allowed: baseline speed 99"))
    again = max(i for i, line in enumerate(lines[:refusal]) if "energy allocation, again" in line)
    between = lines[again:refusal]
    assert any("speed = 16" in line for line in between) and any("presets:" in line for line in between)
    assert not any(line.startswith("  columns ") for line in between)  # no map reprinted over it
    assert lines[refusal + 1].startswith("[Enter accepts")  # the prompt comes straight after it


def test_a_mistyped_form_edit_is_said_after_the_fields(tmp_path, monkeypatch):
    lines = _play_fc("bogus\nquit\n", tmp_path, monkeypatch)
    refusal = next(i for i, line in enumerate(lines) if line.startswith("Not allowed: 'bogus'"))
    assert "presets:" in lines[refusal - 1]


def test_fc_moves_show_their_destination(tmp_path, monkeypatch):
    lines = _play_fc("\n\nquit\n", tmp_path, monkeypatch)
    shown = [line for line in lines if ". het-B" in line or ". straight" in line]
    assert shown and all(" to " in line and " facing " in line for line in shown), shown


def test_reinforcement_is_typed_as_an_amount_not_a_position():
    game = paperrobot.new_game("fc", seed=2).engine
    request = reinforce_request(game, game.ships["player"], {"damage": 6, "shield": 1, "cap": 4, "kind": "fire",
                                                              "penetrates": 2})
    assert [o.key for o in request.options][:3] == ["4", "0", "1"]  # the suggestion first: positions differ
    assert choices.choice(request, "3") == "3"  # "3" is 3 energy, not the third option (1)
    assert choices.option_lines(request) == ["  a number from 0 to 4 (suggested: 4)"]
