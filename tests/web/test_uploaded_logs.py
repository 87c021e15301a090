"""An uploaded 'battle --log' file is played again from its set-up event (game, set-up, seed) so the Watch page
draws the map at every step; where that does not give exactly the logged events, one line says why."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from paperrobot.cli.main import app as cli
from paperrobot.web.watch import log_battle

BATTLES = [  # (arguments of 'paperrobot battle', the side the log's robot does not fly)
    (["sfb", "--scenario", "5", "--seed", "2"], "policy"),
    (["sfb", "--scenario", "duel", "--robot-ship", "kzinti", "--player-ship", "gorn", "--opponent", "robot",
      "--seed", "4"], "robot"),
    (["fc", "--map", "42x30", "--seed", "3"], "policy"),
    (["armada", "--seed", "5"], "policy"),
]


def battle_log(tmp_path, arguments) -> str:
    path = tmp_path / "b.jsonl"
    result = CliRunner().invoke(cli, ["battle", *arguments, "--log", str(path)])
    assert result.exit_code == 0, result.output
    return path.read_text()


@pytest.mark.parametrize("arguments, other", BATTLES, ids=[" ".join(b[0][:3]) for b in BATTLES])
def test_a_battle_log_is_replayed_from_its_setup_and_seed_with_a_map_at_every_step(tmp_path, arguments, other):
    text = battle_log(tmp_path, arguments)
    battle = log_battle(text, "b.jsonl")
    assert battle.has_views and not battle.note, battle.note
    assert [json.loads(e.to_json()) for e in battle.events] == [json.loads(line) for line in text.splitlines()]
    assert "replayed" in battle.title and f"{other}" in battle.title
    assert all(f.view is not None for f in battle.frames) and battle.frames[-1].kind == "end"


def test_a_log_that_its_setup_and_seed_do_not_replay_says_so_in_one_line(tmp_path):
    lines = battle_log(tmp_path, BATTLES[0][0]).splitlines()
    first_roll = next(n for n, line in enumerate(lines) if '"kind":"fired"' in line and '"roll":' in line)
    event = json.loads(lines[first_roll])
    event["roll"] = 7 - event["roll"]  # another die: not what this seed rolls
    lines[first_roll] = json.dumps(event)
    battle = log_battle("\n".join(lines) + "\n", "b.jsonl")
    assert not battle.has_views and len(battle.events) == len(lines)
    assert battle.note.startswith("No map: playing seed 2 again") and f"event {first_roll + 1}" in battle.note
    assert "\n" not in battle.note
    head = json.loads(lines[0])
    head["game"] = "chess"
    assert "does not know the game 'chess'" in log_battle(json.dumps(head) + "\n", "c.jsonl").note


def test_the_watch_page_draws_an_uploaded_log_on_its_map(client, tmp_path):
    text = battle_log(tmp_path, BATTLES[2][0])
    url = client.post("/watch/upload", files={"log": ("fc.jsonl", text.encode())},
                      follow_redirects=False).headers["location"]
    page = client.get(url + "?step=30")
    assert 'id="map"' in page.text and 'id="unit-' in page.text and 'id="no-map"' not in page.text
    client.app_state.battles.cache.clear()  # rebuilt from the stored log: the same battle
    assert client.get(url + "?step=30").text == page.text
