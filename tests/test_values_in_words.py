"""Values in words (issue 26): no Python spelling (None, True, False, a list, a dict, 12.0) in any text a person
reads. A game of each is played to its end through the terminal and through the web page, taking every
suggestion, and every line shown is scanned."""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

from paperrobot.cli.main import app
from paperrobot.core.words import in_words, plain

PYTHON = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\[\s*-?\d|\[\s*'|\{\s*'|(?<![\d.])\d+\.0(?![\d.])")
# Python's tuple of numbers, "(1, -1)", "(2,)": a leak in a robot's reason (a terminal line with its [RULE] tag, any
# text of a page); the terminal's Armada table prints positions "(1277, 784)" on purpose, as coordinates
TUPLE = re.compile(r"\(-?\d+(?:\.\d+)?(?:, -?\d+(?:\.\d+)?)+\)|\(-?\d+(?:\.\d+)?,\)")
REASON = re.compile(r"\[[A-Z][A-Za-z0-9.]*(?: [A-Za-z0-9.']+)*\] ")
GAMES = [("sfb", ["--scenario", "5"], {"o.scenario": "5", "side.player": "person", "side.robot": "robot"}),
         ("fc", [], {"side.player": "person", "side.robot": "robot"}),
         ("armada", [], {"side.rebel": "person", "side.imperial": "robot"})]


def leaks(lines, reasons_only: bool = False) -> list[str]:
    """Lines with a Python value; with ``reasons_only`` a tuple counts only in a line with a rule tag (a reason)."""
    return [line for line in lines if PYTHON.search(line) or (TUPLE.search(line) and (not reasons_only or
                                                                                        REASON.search(line)))]


def test_the_words():
    assert [in_words(v) for v in (None, True, False, 12.0, 2.5, [30, 24], {"impulses": 16}, [])] == \
        ["none", "yes", "no", "12", "2.5", "30,24", "impulses 16", "none"]
    assert plain("regenerate 2 box(es) on shield(s) [1, 1]; held None; 12.0 energy") == \
        "regenerate 2 box(es) on shield(s) 1, 1; held none; 12 energy"
    assert not leaks(["T1 [SFB.R5] launch", "[d6=3 blue hit]", "1.05 BPV", "version 0.1.0"])
    assert leaks(["evade close: True"]) and leaks(["shields [30, 24]"]) and leaks(["{'impulses': 16}"])
    # a robot's reason with a tuple (Armada's course: "yaw (1, -1)") is read in words; "(d6=3)", "(1)" are not tuples
    assert leaks(["keeps formation: speed 2 yaw (1, -1)"]) and leaks(["yaw (0,)"])
    assert plain("keeps formation: speed 2 yaw (1, -1) (120 mm from its place)") == \
        "keeps formation: speed 2 yaw 1, -1 (120 mm from its place)"
    assert plain("yaw (0,)") == "yaw 0" and not leaks([plain("yaw (0,) (1, 2.5)")])
    assert not leaks(["(d6=3)", "(range 2)", "(1)", "(2 of 3)", "to (21,-1)"])  # FC's floating hex label is no tuple
    assert leaks(["R1 imperial [ARM.CMD.NAV] keeps formation: speed 2 yaw (1, -1)"], reasons_only=True)
    assert not leaks(["  victory-ii-1   imperial (1277, 784) heading -115"], reasons_only=True)


@pytest.mark.parametrize("game,args,_", GAMES)
def test_a_terminal_game_shows_no_python_values(game, args, _, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    typed = "map\n" + "\n" * 3000 if game != "fc" else "map\nstatus\n" + "\n" * 5000
    result = CliRunner().invoke(app, ["play", game, "--seed", "3", "--no-record", *args], input=typed)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Game over" in result.output or "Result:" in result.output
    assert leaks(result.output.splitlines(), reasons_only=True) == []


class _Text(HTMLParser):
    """The text a person reads on a page: text nodes and titles (tooltips), not scripts, styles or attributes."""

    def __init__(self):
        super().__init__()
        self.lines, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in ("title", "aria-label", "placeholder") and value:
                self.lines.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.lines.append(data.strip())


def page_text(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.lines


def reasons(html: str) -> list[str]:
    """The robot's reasons in a page's log (each decision's line, its tags stripped)."""
    return [re.sub(r"<[^>]+>", "", m) for m in re.findall(r'<li class="decision[^"]*">(.*?)</li>', html, re.S)]


WEB = [pytest.param(*GAMES[0], None), pytest.param(*GAMES[1], 150), pytest.param(*GAMES[2], None),
       pytest.param(*GAMES[1], None, marks=pytest.mark.slow)]  # FC's whole web game takes ~5 minutes


@pytest.mark.parametrize("game,_,form,questions", WEB)
def test_a_web_game_shows_no_python_values(game, _, form, questions, tmp_path):
    """To the end (FC in the default run: its first 150 questions, every kind of question of a turn)."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from paperrobot.web.app import create_app

    client = TestClient(create_app(tmp_path / "web.sqlite"))
    response = client.post("/games", data={"game": game, "seed": "3", **form}, follow_redirects=False)
    assert response.status_code == 303, response.text
    url = response.headers["location"]
    found = set()
    for _ in range(questions or 3000):
        page = client.get(url).text
        found.update(leaks(page_text(page), reasons_only=True))
        found.update(r for r in reasons(page) if TUPLE.search(r))
        if 'id="game-over"' in page:
            break
        seq = int(re.search(r'name="seq" value="(\d+)"', page).group(1))
        default = re.search(r'class="option default" data-key="([^"]*)"', page)
        if default is not None:
            data = {"seq": str(seq), "choice": default.group(1)}
        else:  # a form: its preset, else its fields as shown
            data = {"seq": str(seq), "choice": re.search(r'data-key="([^"]*)"', page).group(1)}
        response = client.post(url + "/answer", data=data, follow_redirects=False)
        assert response.status_code == 303, response.text[-500:]
    assert questions or 'id="game-over"' in page
    assert sorted(found) == []
