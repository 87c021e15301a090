"""Dice rolled at a real table and corrections: table dice ask the person for every die, '@roll' gives the
next dice, '@fix' corrects the state; all of it is recorded, saved and replayed like any answer."""
import pytest

import paperrobot
from paperrobot.core import registry
from paperrobot.core.errors import PaperRobotError, SaveError
from paperrobot.core.events import EventLog
from paperrobot.core.save import load_match, match_save, read_match_save, write_match_save
from tests.toygame import counting_game  # noqa: F401  (the fixture)


def _table_counting(target=10):
    match = registry.new_match("counting", seed=4, dice="table", target=target)
    steps = match.play()
    next(steps)
    steps.send({"a": 2, "b": 2})
    return match, steps


@pytest.mark.usefixtures("counting_game")
def test_a_table_die_is_asked_of_the_person_and_its_value_used():
    match, steps = _table_counting()
    roll = steps.send("1")  # the player adds 1; the robot rolls its d6 to decide how much it adds
    assert (roll.kind, roll.side, roll.seq) == ("roll", "player", 4)
    assert [o.key for o in roll.options] == ["1", "2", "3", "4", "5", "6", "program"]
    assert "d6" in roll.prompt and "how much" in roll.prompt and roll.default == "program"
    again = steps.send("7")
    assert again is roll and "not an answer" in again.error
    add = steps.send("5")  # 1 + 5 % 3 = 3
    assert match.engine.total == 1 + 3 and add.kind == "add" and add.seq == 5
    assert match.engine.dice.rolls[-1].value == 5
    assert [a[1] for a in match.answers] == ["split", "add", "roll"]
    assert match.engine.recorded == [(3, "add", 3, ("TEST.ADD",))]  # the robot's decision, recorded once


@pytest.mark.usefixtures("counting_game")
def test_program_lets_the_seeded_dice_roll_one_die():
    match, steps = _table_counting()
    steps.send("1")
    add = steps.send("program")
    assert add.kind == "add" and match.answers[-1][3] == "program"
    assert match.engine.dice.rolls[-1].value in range(1, 7)


@pytest.mark.usefixtures("counting_game")
def test_table_dice_save_resume_and_undo(tmp_path):
    match, steps = _table_counting(target=20)
    steps.send("1")
    steps.send("6")  # robot adds 1
    steps.send("2")
    steps.send("4")  # robot adds 2
    total = match.engine.total
    assert total == 1 + 1 + 2 + 2
    path = tmp_path / "table.save"
    write_match_save(path, match_save(match, 1))
    assert read_match_save(path).dice == "table"
    loaded, steps2, request = load_match(path)
    assert loaded.engine.total == total and request.kind == "add" and loaded.dice == "table"
    back = match.rebuild(keep=4)  # up to the player's second add: the robot's die is asked again
    assert back.resume[1].kind == "roll" and back.engine.total == 1 + 1 + 2


@pytest.mark.usefixtures("counting_game")
def test_table_dice_need_a_person():
    match = registry.new_match("counting", seed=4, dice="table")
    with pytest.raises(PaperRobotError, match="table dice need a person"):
        match.play({"player": "robot"})
    with pytest.raises(PaperRobotError, match="'program'.*'table'"):
        registry.new_match("counting", seed=4, dice="loaded")


@pytest.mark.usefixtures("counting_game")
def test_roll_aside_gives_the_next_die_and_replays(tmp_path):
    match = registry.new_match("counting", seed=4, target=20)
    steps = match.play()
    next(steps)
    add = steps.send({"a": 2, "b": 2})
    same = steps.send({"@roll": [2]})
    assert same is add and same.seq == add.seq and same.error == ""
    bad = steps.send({"@roll": [0]})
    assert bad is add and "roll 4" in bad.error
    steps.send("1")  # the robot's die is the 2 given above: it adds 1 + 2 % 3 = 3
    assert match.engine.total == 1 + 3
    assert match.answers[1] == [2, "@roll", "player", {"@roll": [2]}]
    path = tmp_path / "roll.save"
    write_match_save(path, match_save(match, 1))
    loaded, _, request = load_match(path)
    assert loaded.engine.total == 4 and request.seq == 4


@pytest.mark.usefixtures("counting_game")
def test_fix_corrects_the_state_and_is_replayed(tmp_path):
    log = EventLog()
    match = registry.new_match("counting", seed=4, log=log, target=20)
    steps = match.play()
    next(steps)
    add = steps.send({"a": 2, "b": 2})
    assert add.view["total"] == 0
    fixed = steps.send({"@fix": {"total": 9}})
    assert fixed is add and fixed.error == "" and fixed.view["total"] == 9  # the view is built again
    refused = steps.send({"@fix": {"total": 99}})
    assert refused is add and "TEST.FIX" in refused.error
    steps.send("1")
    assert match.engine.total >= 10 and log.of_kind("correction")[0].data == {"total": 9}
    path = tmp_path / "fix.save"
    write_match_save(path, match_save(match, 1))
    loaded, _, _ = load_match(path)
    assert loaded.engine.total == match.engine.total
    text = path.read_text().replace('"total": 9', '"total": 99')
    path.write_text(text)
    with pytest.raises(SaveError, match="refused by this engine.*TEST.FIX"):
        load_match(path)


def test_sfb_with_table_dice_plays_the_same_battle_as_the_seeded_dice():
    """Typing, at each roll question, the value the seeded dice rolled gives the same battle, event for event:
    the engine rebuilt after each typed die neither repeats nor loses an event."""
    reference_log = EventLog()
    reference = paperrobot.new_game("sfb", seed=21, log=reference_log, scenario="4")
    steps = reference.play()
    answers = []
    try:
        request = next(steps)
        while True:
            # the engine's captain, not engine.controller(): that would make the side one the policy flies
            answer = reference.engine.policy.decide(request).action
            answers.append(answer)
            request = steps.send(request.encode(answer) if not isinstance(answer, (str, dict)) else answer)
    except StopIteration as stop:
        expected = stop.value
    rolls = [r.value for r in reference.engine.dice.rolls]

    log = EventLog()
    match = paperrobot.new_game("sfb", seed=999, log=log, dice="table", scenario="4")  # the seed is never used
    steps = match.play()
    asked = 0
    try:
        request = next(steps)
        given = iter(answers)
        while True:
            if request.kind == "roll":
                request = steps.send(str(rolls[asked]))
                asked += 1
            else:
                request = steps.send(next(given))
    except StopIteration as stop:
        outcome = stop.value
    assert asked == len(rolls) > 10
    assert outcome == expected
    strip = [e for e in log.events if e.kind != "setup"]
    assert [e.to_json() for e in strip] == [e.to_json() for e in reference_log.events if e.kind != "setup"]


@pytest.mark.usefixtures("counting_game")
def test_terminal_roll_fix_and_table_dice_words(tmp_path, capsys):
    from paperrobot.cli.terminal import Front, TerminalPlay
    path = tmp_path / "t.save"
    lines = iter(["", "roll", "roll 2", "fix total=99", "fix total", "fix total=5", "1", "2", "4", "quit"])
    play = TerminalPlay("counting", Front(), lambda log: registry.new_match("counting", seed=4, log=log, dice="table",
                                                                             target=40),
                        save_path=path, input_fn=lambda prompt: next(lines))
    assert play.run() is None
    out = capsys.readouterr().out
    assert "Type 'roll N'" in out and "Next dice: 2." in out
    assert "Not allowed" in out and "TEST.FIX" in out and "Not understood" in out and "Corrected: total=5." in out
    assert "Roll a d6 for robot's how much" in out
    saved = read_match_save(path)
    assert [a[1] for a in saved.answers] == ["split", "@roll", "@fix", "add", "add", "roll"]
    assert saved.dice == "table"
    loaded, _, request = load_match(path)
    # the '@roll' 2 is the robot's first die, so no roll is asked there; the typed 4 is its second
    assert loaded.engine.total == 5 + 1 + (1 + 2 % 3) + 2 + (1 + 4 % 3) and request.kind == "add"
