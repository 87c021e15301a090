import json

import pytest

from paperrobot.core.controller import Decision, Reason, Recorder, Replayer, Request
from paperrobot.core.data import Strict, load, load_dir
from paperrobot.core.dice import Dice, DiceScriptError, derive_seed
from paperrobot.core.errors import DataError, SaveError
from paperrobot.core.events import EventLog, read_jsonl
from paperrobot.core.save import SaveData, read_save, write_save


def test_seeded_dice_repeat_and_record():
    a, b = Dice(7), Dice(7)
    assert [a.d6("x", "robot") for _ in range(20)] == [b.d6("x", "robot") for _ in range(20)]
    assert a.rolls[0].purpose == "x" and a.rolls[0].side == "robot" and a.rolls[0].sides == 6
    assert all(1 <= r.value <= 6 for r in a.rolls)


def test_scripted_dice_are_strict():
    dice = Dice.scripted(4, 1)
    assert dice.d6("first") == 4
    assert dice.coin("toss") is True
    with pytest.raises(DiceScriptError, match="unscripted"):
        dice.d6("one too many")
    with pytest.raises(DiceScriptError, match="does not fit"):
        Dice.scripted(7).d6("bad")


def test_derive_seed_distinct():
    assert len({derive_seed(1, i) for i in range(1000)} | {derive_seed(2, i) for i in range(1000)}) == 2000


def test_event_log_round_trip(tmp_path):
    log = EventLog()
    log.emit("setup", game="sfb")
    log.emit("fired", 1, 5, "robot", weapon="ph-1", damage=4)
    path = tmp_path / "log.jsonl"
    log.write(path)
    again = read_jsonl(path)
    assert [e.to_json() for e in again] == [e.to_json() for e in log.events]


def test_corrupt_log_is_one_clear_error(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"kind": "setup"}\nnot json\n')
    with pytest.raises(SaveError, match="line 2"):
        read_jsonl(path)


def test_disabled_log_keeps_nothing():
    log = EventLog(enabled=False)
    log.emit("x")
    assert log.events == []


class Fixed:
    def __init__(self, answers):
        self.answers = list(answers)

    def decide(self, request):
        return Decision(self.answers.pop(0))


def test_record_then_replay_then_live():
    rec = Recorder(Fixed([3, 5]), lambda kind, a: a)
    rec.decide(Request("speed", "player"))
    rec.decide(Request("speed", "player"))
    rep = Replayer(rec.answers, Fixed([9]), lambda kind, raw: raw)
    assert [rep.decide(Request("speed", "player")).action for _ in range(3)] == [3, 5, 9]
    bad = Replayer([["fire", 1]], Fixed([]), lambda kind, raw: raw)
    with pytest.raises(SaveError, match="does not match"):
        bad.decide(Request("speed", "player"))


def test_save_round_trip_and_corruption(tmp_path):
    path = tmp_path / "game.save"
    write_save(path, SaveData("sfb", {"scenario": "5"}, 42, [["speed", 12]]))
    data = read_save(path, "sfb")
    assert data.seed == 42 and data.answers == [["speed", 12]]
    with pytest.raises(SaveError, match="not 'fc'"):
        read_save(path, "fc")
    path.write_text(path.read_text()[:20])
    with pytest.raises(SaveError, match="not valid JSON"):
        read_save(path)
    with pytest.raises(SaveError, match="no such save"):
        read_save(tmp_path / "missing.save")


class Ship(Strict):
    name: str
    speed: int


def test_data_errors_name_file_and_field(tmp_path):
    good = tmp_path / "a.toml"
    good.write_text('name = "a"\nspeed = 3\n')
    assert load(good, Ship).speed == 3
    bad = tmp_path / "b.toml"
    bad.write_text('name = "b"\nspeed = "fast"\n')
    with pytest.raises(DataError, match=r"b\.toml: speed: "):
        load(bad, Ship)
    broken = tmp_path / "c.toml"
    broken.write_text('name = \n')
    with pytest.raises(DataError, match="not valid TOML"):
        load(broken, Ship)
    extra = tmp_path / "d.toml"
    extra.write_text('name = "d"\nspeed = 1\nsped = 2\n')
    with pytest.raises(DataError, match="sped"):
        load(extra, Ship)


def test_load_dir_rejects_duplicates(tmp_path):
    (tmp_path / "a.toml").write_text('name = "x"\nspeed = 1\n')
    (tmp_path / "b.toml").write_text('name = "x"\nspeed = 2\n')
    with pytest.raises(DataError, match="already defined"):
        load_dir(tmp_path, Ship, key=lambda s: s.name)
