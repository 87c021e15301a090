"""Whole battles: invariants over many seeds, determinism (the replay guarantee), the CLI."""
from typer.testing import CliRunner

from paperrobot.armada import Setup, new_game, play_battle
from tests.armada.helpers import run
from paperrobot.cli.main import app
from paperrobot.core.events import EventLog


def test_battles_keep_their_invariants():
    for seed in range(12):
        log = EventLog()
        game = new_game(Setup(), seed, log=log)
        out = run(game)
        assert 1 <= out.turns <= 6
        assert out.winner in ("imperial", "rebel")
        for s in game.ships:
            assert all(0 <= sh <= mx for sh, mx in zip(s.shields, s.spec.shields))
            assert s.destroyed or s.damage < s.spec.hull
        for q in game.squads:
            assert 0 <= q.hull <= q.spec.hull and (q.hull > 0 or q.destroyed)
        lost = {"imperial": 0, "rebel": 0}
        for u in game.ships + game.squads:
            if u.destroyed:
                lost[u.side] += u.spec.points
        assert game.score == {"imperial": lost["rebel"], "rebel": lost["imperial"]}
        decisions = log.of_kind("decision")
        assert decisions and all(d.data["rule"].startswith("ARM.") for d in decisions)


def test_same_seed_same_log():
    a, b = EventLog(), EventLog()
    play_battle(7, log=a)
    play_battle(7, log=b)
    assert a.to_jsonl() == b.to_jsonl()


def test_battle_command_narrates_and_draws(tmp_path):
    result = CliRunner().invoke(app, ["battle", "armada", "--seed", "3", "--svg", str(tmp_path / "pics"),
                                      "--log", str(tmp_path / "log.jsonl")])
    assert result.exit_code == 0, result.output
    assert "RESULT:" in result.output and "ARM.CMDR.STYLE" in result.output and "blue " in result.output
    pics = sorted(p.name for p in (tmp_path / "pics").iterdir())
    assert "round-0.svg" in pics and "round-1.svg" in pics
    import xml.etree.ElementTree as ET
    root = ET.parse(tmp_path / "pics" / "round-1.svg").getroot()  # well-formed XML
    shapes = [el.tag.split("}")[1] for el in root.iter()]
    assert shapes.count("circle") >= 6 and shapes.count("polygon") >= 6 + 2 * 5 and "line" in shapes
    replay = CliRunner().invoke(app, ["replay", str(tmp_path / "log.jsonl"), "--decisions"])
    assert replay.exit_code == 0 and "ARM.DEPLOY.FP" in replay.output


def test_ships_listing():
    result = CliRunner().invoke(app, ["ships", "--game", "armada"])
    assert result.exit_code == 0 and "victory-ii" in result.output and "z-95" in result.output
    card = CliRunner().invoke(app, ["ships", "mc80-command", "--game", "armada"])
    assert "3R3U" in card.output
