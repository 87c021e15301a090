from functools import partial

from paperrobot.core.dice import Dice
from paperrobot.core.outcome import Outcome
from paperrobot.sim import ResultStore, run_games, wilson_interval


def coin_game(seed: int, bias: int = 3) -> Outcome:
    dice = Dice(seed)
    roll = dice.d6("who wins")
    winner = "robot" if roll <= bias else ("player" if roll < 6 else None)
    return Outcome(winner, "test", turns=roll, metrics={"roll": roll})


def test_parallel_equals_serial(tmp_path):
    play = partial(coin_game, bias=3)
    serial = run_games(play, 300, base_seed=5, jobs=1)
    parallel = run_games(play, 300, base_seed=5, jobs=2)
    assert serial.to_dict() == parallel.to_dict() or (serial.wins == parallel.wins and serial.draws == parallel.draws)
    assert serial.games == 300 and sum(serial.wins.values()) + serial.draws == 300


def test_store_writes_one_row_per_game(tmp_path):
    db = tmp_path / "r.sqlite"
    with ResultStore(db) as store:
        store.start_run("test", {"x": 1}, 5, 120)
        run_games(coin_game, 120, 5, 2, lambda i, s, o: store.add(i, s, o))
    import sqlite3
    rows = sqlite3.connect(db).execute("SELECT COUNT(*), COUNT(DISTINCT idx) FROM games").fetchone()
    assert rows == (120, 120)


def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60
    assert wilson_interval(0, 0) == (0.0, 1.0)
