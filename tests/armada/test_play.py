"""play armada: a person commands the Rebels to the end; save and resume replay the same game."""
import json

from typer.testing import CliRunner

from paperrobot.cli.main import app


def test_play_to_the_end_with_default_answers():
    result = CliRunner().invoke(app, ["play", "armada", "--seed", "2"], input="\n" * 600)
    assert result.exit_code == 0, result.output
    assert "Game over:" in result.output and "ARM.CMD.ROLL" in result.output


def test_save_and_resume(tmp_path):
    save = tmp_path / "game.json"
    first = CliRunner().invoke(app, ["play", "armada", "--seed", "4", "--save", str(save)],
                               input="2\n3\n\n1\nsave\nquit\n")
    assert first.exit_code == 0, first.output
    data = json.loads(save.read_text())
    assert data["game"] == "armada" and [a[1:] for a in data["answers"][:2]] == [["command", "rebel", "squadron"],
                                                                                  ["command", "rebel", "concentrate"]]
    resumed = CliRunner().invoke(app, ["play", "armada", "--resume", str(save)], input="\n" * 600)
    assert resumed.exit_code == 0, resumed.output
    assert f"replaying {len(data['answers'])} answers" in resumed.output and "Game over:" in resumed.output


def test_a_bad_answer_is_asked_again():
    result = CliRunner().invoke(app, ["play", "armada", "--seed", "2"], input="warp\n" + "\n" * 600)
    assert "Not allowed: 'warp' is not a command" in result.output and "Game over:" in result.output


def test_resume_of_a_missing_or_foreign_save_is_one_line(tmp_path):
    result = CliRunner().invoke(app, ["play", "armada", "--resume", str(tmp_path / "none.json")])
    assert result.exit_code != 0 and "no such save file" in str(result.exception) + result.output


def test_resumed_game_ends_exactly_like_the_uninterrupted_one(tmp_path):
    whole = CliRunner().invoke(app, ["play", "armada", "--seed", "6"], input="\n" * 600)
    save = tmp_path / "g.json"
    CliRunner().invoke(app, ["play", "armada", "--seed", "6", "--save", str(save)], input="\n" * 25 + "quit\n")
    resumed = CliRunner().invoke(app, ["play", "armada", "--resume", str(save)], input="\n" * 600)
    last = [line for line in whole.output.splitlines() if line.startswith("RESULT:")]
    again = [line for line in resumed.output.splitlines() if line.startswith("RESULT:")]
    assert last and last == again


def test_terminal_words_map_undo_and_a_token_answer(tmp_path, monkeypatch, capsys):
    import paperrobot
    from paperrobot.cli import play
    save = tmp_path / "t.save"
    lines = iter(["map", "help", "1", "undo", "2", "3"] + ["evade+brace" if i % 7 == 0 else "" for i in range(40)]
                 + ["quit"])
    play.run(paperrobot.game_info("armada"), {}, 5, save, None, None, False, False, input_fn=lambda prompt: next(lines))
    out = capsys.readouterr().out
    assert "victory-ii-1" in out and "'map' draws the table" in out and "+- Imperial edge" in out and "Took back 1 answer" in out
    data = json.loads(save.read_text())
    assert [a[3] for a in data["answers"][:2]] == ["squadron", "concentrate"]  # '1' (navigate) was taken back
    assert data["controllers"] == {"rebel": "person", "imperial": "robot"}
