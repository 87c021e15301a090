"""sim.collect: a game played with the automatic collector paused, its cyclic garbage freed at its end."""
import gc
import weakref

import pytest

from paperrobot.sim.collect import collected


class Node:
    pass


def _cycle_game(kept: list):
    assert not gc.isenabled()  # paused for the game's length
    a, b = Node(), Node()
    a.other, b.other = b, a  # a reference cycle: only the cyclic collector frees it
    kept.append(weakref.ref(a))
    return "outcome"


def test_a_game_runs_paused_and_its_cycles_are_freed_after_it():
    assert gc.isenabled()
    kept: list = []
    assert collected(lambda: _cycle_game(kept)) == "outcome"
    assert gc.isenabled()
    assert kept[0]() is None


def test_nested_games_keep_the_outer_pause_and_an_error_restores_the_state():
    kept: list = []

    def outer():
        collected(lambda: _cycle_game(kept))
        assert not gc.isenabled()  # the inner game does not end the outer one's pause
        assert kept[0]() is None  # but its garbage is gone
        return 1

    assert collected(outer) == 1 and gc.isenabled()

    def fails():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        collected(fails)
    assert gc.isenabled()


def test_a_collector_switched_off_by_the_caller_stays_off():
    gc.disable()
    try:
        collected(lambda: None)
        assert not gc.isenabled()
    finally:
        gc.enable()
