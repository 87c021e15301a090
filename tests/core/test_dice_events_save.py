import json

import pytest

from paperrobot.core.data import Strict, load, load_dir
from paperrobot.core.dice import Dice, DiceScriptError, derive_seed
from paperrobot.core.errors import DataError, SaveError
from paperrobot.core.events import EventLog, read_jsonl
from paperrobot.core.save import read_match_save


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


def test_a_save_of_the_first_format_is_refused_in_one_line(tmp_path):
    path = tmp_path / "old.save"
    path.write_text(json.dumps({"format": "paperrobot-save", "version": 1, "game": "sfb", "setup": {}, "seed": 1,
                                "answers": [["speed", 12]]}))
    with pytest.raises(SaveError, match="version 1 is not supported"):
        read_match_save(path)
    with pytest.raises(SaveError, match="no such save file"):
        read_match_save(tmp_path / "missing.save")


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


def test_copied_dice_roll_on_by_themselves():
    """A deep copy, a pickle or a restored snapshot of dice rolls what the original would, from its own generator
    (Dice keeps no bound method of it: copy.deepcopy would keep that as it is); a reseed as fresh dice would."""
    import copy
    import pickle

    from paperrobot.core.dice import Dice

    def started() -> Dice:
        dice = Dice(5)
        dice.d6("first")
        return dice

    for copy_of in (copy.deepcopy, lambda d: pickle.loads(pickle.dumps(d)), lambda d: Dice.restore(d.snapshot())):
        dice = started()
        copied = copy_of(dice)
        ahead = [copied.d6("next") for _ in range(5)]
        assert [dice.d6("next") for _ in range(5)] == ahead
    again = Dice(9)
    again.d6("first")
    again.reseed(5)
    fresh = Dice(5)
    assert [again.d6("x") for _ in range(5)] == [fresh.d6("x") for _ in range(5)]


def test_restored_dice_that_have_not_rolled_yet_copy_snapshot_and_reseed_alike():
    """A restore sets the generator's state at the first roll (a fork reseeds first): until then a copy, a pickle
    or a snapshot of the restored dice still rolls what the original would, and a reseed rolls as fresh dice."""
    import copy
    import pickle

    from paperrobot.core.dice import Dice

    original = Dice(5)
    original.d6("first")
    snapshot = original.snapshot()
    ahead = [original.d6("next") for _ in range(5)]
    for copy_of in (copy.deepcopy, lambda d: pickle.loads(pickle.dumps(d)), lambda d: Dice.restore(d.snapshot())):
        copied = copy_of(Dice.restore(snapshot))
        assert [copied.d6("next") for _ in range(5)] == ahead
    assert Dice.restore(snapshot).snapshot()[1] == snapshot[1]
    reseeded = Dice.restore(snapshot)
    reseeded.reseed(7)
    fresh = Dice(7)
    assert [reseeded.d6("x") for _ in range(5)] == [fresh.d6("x") for _ in range(5)]
