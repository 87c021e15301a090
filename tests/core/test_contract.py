"""The driver of the game contract, on a small counting game: requests, options, forms, illegal answers,
recorded answers, replay, undo and saves."""
import pytest

from paperrobot.core import registry
from paperrobot.core.errors import PaperRobotError, SaveError
from paperrobot.core.save import load_match, match_save, read_match_save, write_match_save
from tests.toygame import counting_game  # noqa: F401  (the fixture)

pytestmark = pytest.mark.usefixtures("counting_game")


def test_requests_are_numbered_and_illegal_answers_come_back_with_the_rule():
    match = registry.new_match("counting", seed=3)
    steps = match.play()
    split = next(steps)
    assert (split.seq, split.kind, split.form.choices("b", {"a": 3})) == (1, "split", (1,))
    again = steps.send({"a": 1, "b": 3})
    assert again is split and again.seq == 1 and "TEST.SPLIT" in again.error
    again = steps.send("no-such-option")
    assert again.seq == 1 and "not an answer" in again.error
    add = steps.send(split.options[0])  # a preset of the form
    assert match.engine.split == (2, 2) and add.seq == 2 and add.error == ""
    assert [o.key for o in add.options] == ["1", "2", "3"] and add.default == "1"


def test_robot_answers_take_the_same_path_and_carry_their_reasons():
    match = registry.new_match("counting", seed=3, target=5)
    steps = match.play()
    next(steps)
    request = steps.send({"a": 4, "b": 0})
    robot_turns = []
    with pytest.raises(StopIteration) as stop:
        while True:
            request = steps.send("1")
    outcome = stop.value.value
    robot_turns = [r for r in match.engine.recorded if r[3] == ("TEST.ADD",)]
    assert robot_turns and outcome.turns >= 5
    assert [a[1] for a in match.answers] == ["split"] + ["add"] * (len(match.answers) - 1)
    assert all(a[2] == "player" for a in match.answers)


def test_replay_and_undo_rebuild_the_same_match():
    match = registry.new_match("counting", seed=11, target=30)
    steps = match.play()
    next(steps)
    steps.send({"a": 3, "b": 1})
    for _ in range(4):
        request = steps.send("2")
    total = match.engine.total
    again = match.rebuild()
    assert again.engine.total == total and again.resume[1].seq == request.seq
    back = match.rebuild(keep=2)  # the split and one addition
    assert len(back.answers) == 2 and back.resume[1].kind == "add"
    assert back.engine.total < total


def test_save_round_trip_and_refusals(tmp_path):
    match = registry.new_match("counting", seed=5, target=30)
    steps = match.play()
    next(steps)
    steps.send({"a": 2, "b": 2})
    steps.send("3")
    path = tmp_path / "game.save"
    write_match_save(path, match_save(match, 1))
    loaded, _, request = load_match(path)
    assert loaded.engine.total == match.engine.total and request.kind == "add"
    assert read_match_save(path).answers[0][3] == {"a": 2, "b": 2}
    text = path.read_text().replace('"3"', '"9"')
    path.write_text(text)
    with pytest.raises(SaveError, match="refused by this engine.*engine version 1"):
        load_match(path)
    path.write_text('{"format": "paperrobot-save", "version": 2, "seed": 1e400}')
    with pytest.raises(SaveError, match="damaged"):
        load_match(path)


def test_setup_options_are_checked_in_one_line():
    with pytest.raises(PaperRobotError, match="target must be from 2 to 50"):
        registry.new_match("counting", seed=1, target=99)
    with pytest.raises(PaperRobotError, match="unknown set-up option"):
        registry.new_match("counting", seed=1, colour="red")
    with pytest.raises(PaperRobotError, match="whole number"):
        registry.new_match("counting", seed=1, target="1e400")
    with pytest.raises(PaperRobotError, match="seed"):
        registry.new_match("counting", seed=-1)


def test_terminal_loop_saves_every_answer_undoes_and_resumes(tmp_path, capsys):
    from paperrobot.cli.terminal import Front, TerminalPlay
    path = tmp_path / "t.save"
    lines = iter(["a=3 b=1", "", "2", "inf", "undo", "3", "quit"])
    play = TerminalPlay("counting", Front(), lambda log: registry.new_match("counting", seed=4, log=log, target=40),
                        save_path=path, input_fn=lambda prompt: next(lines))
    assert play.run() is None
    out = capsys.readouterr().out
    assert "Not allowed" in out and "Took back 1" in out
    saved = read_match_save(path)
    assert [a[3] for a in saved.answers][:2] == [{"a": 3, "b": 1}, "3"]
    lines = iter(["1"] * 200)
    again = TerminalPlay("counting", Front(), None, resume=path, input_fn=lambda prompt: next(lines))
    outcome = again.run()
    assert outcome is not None and outcome.turns >= 40
