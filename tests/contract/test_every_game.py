"""Every registered game honours the game contract: the same checks for each, driven only through the
registry (``paperrobot.new_game``), as the web page, the environments and the sweeps will drive them."""
import json
import random

import pytest

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.save import load_match, match_save, write_match_save
from tests.random_answer import random_answer

GAMES = paperrobot.games()


@pytest.mark.parametrize("name", GAMES)
def test_registry_entry_describes_the_game(name):
    info = paperrobot.game_info(name)
    assert info.name == name and info.title and len(info.sides) >= 2 and info.robot_side in info.sides
    for option in info.options:
        json.dumps(option.to_json())
        assert option.check(None) == option.default  # every option has a default
    match = paperrobot.new_game(name, seed=1)
    assert match.sides == tuple(info.sides)


@pytest.mark.parametrize("name", GAMES)
def test_a_person_side_gets_legal_listed_options_views_and_the_same_request_back_after_an_illegal_answer(name):
    rng = random.Random(5)
    match = paperrobot.new_game(name, seed=5)
    steps = match.play()
    request = next(steps)
    again = steps.send("__not-an-option__")
    assert again is request and again.seq == request.seq and again.error
    seen = 0
    try:
        while seen < 400:
            assert request.options, f"{request.kind} lists no options"
            request.parse(request.default)  # the default is legal: no IllegalAction
            json.dumps(request.view)
            json.dumps(request.to_json())
            before = request.seq
            request = steps.send(random_answer(request, rng))
            assert request.seq > before, "a legal answer was refused"
            assert not request.error, request.error
            seen += 1
    except StopIteration as stop:
        assert stop.value is not None
    assert seen > 0


@pytest.mark.parametrize("name", GAMES)
def test_save_mid_game_resumes_to_the_same_position_and_undo_goes_back(name, tmp_path):
    rng = random.Random(9)
    match = paperrobot.new_game(name, seed=9)
    steps = match.play()
    request = next(steps)
    for _ in range(12):
        try:
            request = steps.send(random_answer(request, rng))
        except StopIteration:
            pytest.skip("the game ended within 12 answers")
    path = tmp_path / "mid.save"
    write_match_save(path, match_save(match, paperrobot.game_info(name).engine_version))
    loaded, _, open_request = load_match(path)
    assert open_request.seq == request.seq and open_request.kind == request.kind
    assert json.dumps(open_request.view, sort_keys=True) == json.dumps(request.view, sort_keys=True)
    back = match.rebuild(keep=len(match.answers) - 3)
    assert len(back.answers) == len(match.answers) - 3 and back.resume[1] is not None


@pytest.mark.parametrize("name", GAMES)
def test_robot_against_policy_and_robot_mirror_end_with_an_outcome(name):
    for seed in range(3):
        match = paperrobot.new_game(name, seed=seed)
        robot = match.engine.robot_side
        for other in ("policy", "robot"):
            outcome = drive_all(paperrobot.new_game(name, seed=seed),
                                {side: ("robot" if side == robot else other) for side in match.sides})
            assert outcome is not None and outcome.turns >= 1


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_and_answers_give_the_same_log(name):
    from paperrobot.core.events import EventLog

    def run():
        log = EventLog()
        match = paperrobot.new_game(name, seed=3, log=log)
        robot = match.engine.robot_side
        drive_all(match, {side: ("robot" if side == robot else "policy") for side in match.sides})
        return log.to_jsonl()
    assert run() == run()
