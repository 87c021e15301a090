"""Issue 26, "ask only what a person decides": the web page asks a person the same questions as the terminal
(core/asking.py): no disengage question at every impulse (a word said beside any question, after a confirmation),
no fire question where no shot is worth a thought, no question with a single legal answer."""
from __future__ import annotations

import re

import pytest

import paperrobot
from paperrobot.cli.front import HookFront
from paperrobot.cli.terminal import TerminalPlay
from paperrobot.core.contract import Request, Option
from paperrobot.core.asking import Asking
from paperrobot.web.app import create_app

SEED = 3


def terminal_questions(tmp_path, seed: int) -> tuple[int, object]:
    """The questions an SFB #5 game asks at the terminal, answered with Enter (the suggestion) to its end."""
    asked = []

    def enter(prompt: str) -> str:
        asked.append(prompt)
        return ""

    play = TerminalPlay("sfb", HookFront(paperrobot.game_info("sfb")), lambda log: paperrobot.new_game("sfb", seed=seed, log=log, scenario="5"),
                        save_path=tmp_path / "t.save", input_fn=enter)
    outcome = play.run()
    return len(asked), outcome


def seq_of(html: str) -> int:
    return int(re.search(r'name="seq" value="(\d+)"', html).group(1))


def web_game(client, seed: int) -> str:
    response = client.post("/games", data={"game": "sfb", "o.scenario": "5", "seed": str(seed),
                                           "side.player": "person", "side.robot": "robot"}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"]


def test_a_web_sfb_game_asks_no_more_questions_than_the_terminal_and_never_disengage(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    from fastapi.testclient import TestClient
    terminal_count, terminal_outcome = terminal_questions(tmp_path, SEED)
    client = TestClient(create_app(tmp_path / "web.sqlite"))
    url = web_game(client, SEED)
    kinds, shown = [], 0
    for _ in range(2000):
        page = client.get(url).text
        if 'id="game-over"' in page:
            break
        kind = re.search(r"Question \d+: (\w+)", page).group(1)
        kinds.append(kind)
        assert 'id="word-disengage"' in page  # the word beside every question
        default = re.search(r'class="option default" data-key="([^"]*)"', page)
        key = default.group(1) if default else re.search(r'data-key="([^"]*)"', page).group(1)
        response = client.post(url + "/answer", data={"seq": str(seq_of(page)), "choice": key}, follow_redirects=False)
        assert response.status_code == 303, response.text
    assert 'id="game-over"' in page
    assert "disengage" not in kinds
    assert len(kinds) == terminal_count, (len(kinds), terminal_count)
    game = client.app.state.games.live(int(url.rsplit("/", 1)[1]))
    assert game.match.outcome.to_dict() == terminal_outcome.to_dict()
    # the answers given for the person are stored (a save replays them) but are not listed for undo
    assert len(game.person_answers()) == len(kinds) < len(game.match.answers)


def test_disengage_is_a_word_said_after_a_confirmation_and_ends_scenario_5(tmp_path):
    from fastapi.testclient import TestClient
    client = TestClient(create_app(tmp_path / "web.sqlite"))
    url = web_game(client, SEED)
    page = client.get(url).text
    assert "<details class=\"word\" id=\"word-disengage\">" in page and "Yes, disengage" in page
    seq = seq_of(page)
    response = client.post(url + "/word", data={"seq": str(seq), "word": "disengage"}, follow_redirects=False)
    assert response.status_code == 303
    page = client.get(url).text
    assert 'id="notice"' in page and "You will disengage at the end of this impulse" in page
    assert seq_of(page) == seq  # the open question is still to be answered
    assert client.post(url + "/word", data={"seq": str(seq), "word": "surrender"}).status_code == 400
    for _ in range(50):  # answer with the suggestions until the impulse ends
        page = client.get(url).text
        if 'id="game-over"' in page:
            break
        key = re.search(r'class="option default" data-key="([^"]*)"', page) or re.search(r'data-key="([^"]*)"', page)
        client.post(url + "/answer", data={"seq": str(seq_of(page)), "choice": key.group(1)})
    assert 'id="game-over"' in page and "disengag" in page.lower()
    game = client.app.state.games.live(int(url.rsplit("/", 1)[1]))
    assert game.match.answers[-1][1] == "disengage" and game.match.answers[-1][3] == "yes"


def test_undo_takes_back_the_persons_answer_not_the_ones_given_for_them(tmp_path):
    from fastapi.testclient import TestClient
    client = TestClient(create_app(tmp_path / "web.sqlite"))
    url = web_game(client, SEED)
    seqs = []
    for _ in range(6):
        page = client.get(url).text
        seqs.append(seq_of(page))
        key = re.search(r'class="option default" data-key="([^"]*)"', page) or re.search(r'data-key="([^"]*)"', page)
        client.post(url + "/answer", data={"seq": str(seqs[-1]), "choice": key.group(1)})
    game_id = int(url.rsplit("/", 1)[1])
    before = client.app.state.games.live(game_id)
    assert len(before.match.answers) > len(before.person_answers())  # some were given for the person
    page = client.get(url).text
    assert client.post(url + "/undo", data={"seq": str(seq_of(page)), "keep": "last"}).status_code == 200
    assert seq_of(client.get(url).text) == seqs[-1]
    stored = client.app.state.store.answers(game_id)
    assert len(stored) == len(client.app.state.games.live(game_id).match.answers)


def test_a_question_with_one_legal_answer_is_not_asked():
    one = Request("pick", "player", options=(Option("only", "the only answer"),))
    two = Request("pick", "player", options=(Option("a", "a"), Option("b", "b")))
    assert Asking().auto(one) == "only" and Asking().auto(two) is None
