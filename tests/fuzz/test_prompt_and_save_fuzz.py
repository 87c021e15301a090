"""Any line typed at any prompt of any game, and any tampering with a save, is either accepted as legal or
refused with one clear message: never a traceback, never a lost game. Runs on the game contract, so it
covers every registered game."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import paperrobot
from paperrobot.cli.terminal import Front, TerminalPlay
from paperrobot.core.errors import PaperRobotError
from paperrobot.core.save import load_match, match_save, read_match_save, write_match_save

from .tamper import tamper

GAMES = paperrobot.games()
HOSTILE = ["inf", "nan", "-inf", "1e400", "9" * 5000, "²", "٣", "0", "-1", "99999", "", " ", "undo 0", "undo -1",
           "undo 99999999999", "undo x", "speed=inf", "speed=1e400 recharge=nan", "a=", "=", "==", "none",
           "\x00", "\t", "'", '"', "{}", "[]", "help", "save", "1 2 3", "x" * 3000]


def _person_side(name):
    info = paperrobot.game_info(name)
    return next(s for s in info.sides if s != info.robot_side)


def _play(name, lines, tmp_path):
    """Type ``lines`` into a new game; between them, a legal answer keeps the game moving. Returns the play."""
    feed = iter(lines)
    rng = random.Random(len(lines))
    state = {}

    def answer(prompt):
        try:
            line = next(feed)
        except StopIteration:
            raise EOFError from None
        if line == "<legal>":
            request = state["play"].request
            return rng.choice(request.options).key if request is not None else ""
        return line

    play = TerminalPlay(name, Front(), lambda log: paperrobot.new_game(name, seed=3, log=log),
                        save_path=tmp_path / "game.save", input_fn=answer)
    state["play"] = play
    play.run()  # ends when the lines run out (as end of input: the game is kept) or with the game
    return play


@pytest.mark.parametrize("name", GAMES)
def test_hostile_lines_at_every_prompt_are_refused_or_accepted(name, tmp_path, capsys):
    lines = []
    for word in HOSTILE:
        lines += [word, "<legal>"]
    play = _play(name, lines, tmp_path)
    out = capsys.readouterr().out
    assert "Traceback" not in out
    if play.match.answers:  # every legal answer given is in the save
        assert len(read_match_save(tmp_path / "game.save").answers) == len(play.match.answers)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(st.text(max_size=60), st.sampled_from(HOSTILE + ["<legal>"] * 8)), max_size=40))
def test_any_text_at_any_prompt(name, lines, tmp_path):
    _play(name, lines, tmp_path)


def _save(name, tmp_path):
    match = paperrobot.new_game(name, seed=5)
    steps = match.play()
    request = next(steps)
    rng = random.Random(5)
    for _ in range(10):
        try:
            request = steps.send(rng.choice(request.options).key)
        except StopIteration:
            break
    path = tmp_path / "base.save"
    write_match_save(path, match_save(match, paperrobot.game_info(name).engine_version))
    return json.loads(path.read_text())


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_tampered_save_is_loaded_or_refused_in_one_line(name, tmp_path, data):
    raw = _save(name, tmp_path)
    tamper(raw, data)
    file = tmp_path / "tampered.save"
    file.write_text(json.dumps(raw, allow_nan=True))
    try:
        load_match(file)
    except PaperRobotError as exc:
        assert "\n" not in str(exc) and str(exc)
