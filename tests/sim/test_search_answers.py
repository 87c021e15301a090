"""The search decides exactly as it did when these answers were recorded (main at 1776b2f, before the play-outs
were made cheaper): the same answer and the same outcome on every fork seed for every candidate, at fixed
positions of each game. A change to the search, the contract's forks or the engines' play-outs that changes
a single simulation changes a digest here. Recorded with benchmarks/search_answers.py (search:12, seed 3, the
1st, 10th and 30th question worth searching); the outcome digests of benchmarks/game_outcomes.py and
armada_outcomes.py guard the engines, this guards the search on top of them."""
import importlib.util
from pathlib import Path

import pytest

RECORDED = {  # game: [(question number, kind, answer, simulations played, digest of every simulation)]
    "sfb": [(1, "energy", "suggested", 12, "d85cb6ecdf85f01a"), (18, "fire", "suggested", 12, "5d60480c2101bd8a"),
            (60, "energy", "suggested", 12, "ed208e25631f7e41")],
    "fc": [(1, "allocate", "speed-0", 12, "b059911608efa802"), (22, "move", "pivot-left", 12, "2d68b3b91c125f7c"),
           (65, "dac_phaser", "ph3-1", 10, "2a00700bfa6c65a9")],
    "armada": [(5, "command", "concentrate", 10, "b98af6c23bbde682"),
               (26, "squadron", "move:tie-fighter-4", 12, "7032fb41babb5129"),
               (65, "command", "squadron", 12, "5026474a2657916d")],
}


def _script():
    path = Path(__file__).parents[2] / "benchmarks" / "search_answers.py"
    spec = importlib.util.spec_from_file_location("search_answers", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", sorted(RECORDED))
def test_the_search_answers_fixed_positions_as_recorded(game):
    assert _script().answers(game, [1, 10, 30], 12) == RECORDED[game]
