"""Terminal hex maps fit 80x24 (issue 26): a window around the counters, stacks listed, every symbol named."""
import pytest

import paperrobot
from paperrobot.fc import frontend as cli_fc
from paperrobot.sfb import frontend as cli_sfb
from paperrobot.core.textmap import Counter, draw
from paperrobot.core.contract import drive_all
from paperrobot.core.events import EventLog
from paperrobot.core.hexgrid import distance, parse


def test_a_ship_sharing_a_hex_with_a_drone_stays_on_the_map():
    lines = draw([Counter(parse("0813"), "d", 2, "drone KD1 at 0813", 2),
                  Counter(parse("0813"), "K", 1, "klingon (robot) at 0813 facing B", 0),
                  Counter(parse("1010"), "F", 4, "federation (player) at 1010 facing E", 0)], (28, 17))
    text = "\n".join(lines)
    assert "**" not in text
    assert "KB+" in text  # the ship on top, + for what shares its hex
    assert "0813 holds: KB klingon (robot), dC drone KD1" in text
    # the legend names every symbol on the map, the stack marker and the empty hex included
    for words in ("KB klingon", "dC drone KD1", "FE federation", ". empty hex", "+ several counters"):
        assert words in text


def test_the_window_follows_the_ships_and_map_shows_the_whole_board():
    near = [Counter(parse("1808"), "F", 0, "federation", 0), Counter(parse("2010"), "K", 3, "klingon", 0)]
    window = draw(near, (28, 17))
    assert "  columns 14 to 24, rows 05 to 13 of 28x17" in window  # around the ships, two lines a row
    picture = window[:window.index("  columns 14 to 24, rows 05 to 13 of 28x17")]
    assert len(picture) == 1 + 2 * 9  # the detailed map: two lines a row
    assert sum("FA" in line for line in picture) == 1 and sum("KD" in line for line in picture) == 1
    whole = draw(near, (28, 17), whole=True)
    assert any("columns 01 to 28, rows 01 to 17" in line for line in whole)
    assert max(map(len, whole)) <= 80 and len(whole) <= 24


def test_a_floating_map_far_apart_is_scaled_and_labels_stay_the_games():
    far = [Counter(parse("0101"), "P", 0, "player", 0), Counter(parse("0101")._replace(q=80, r=-70), "R", 3,
                                                                   "robot", 0)]
    lines = draw(far, None)
    assert max(map(len, lines)) <= 80 and len(lines) <= 24
    assert "a cell:" in "\n".join(lines) and "RD" in "\n".join(lines) and "PA" in "\n".join(lines)


def _moments(game: str, setup: dict, other: str, seed: int, lines_of):
    """Every map drawn after each move of a whole game: (range, counters, window lines, whole-board lines)."""
    seen = []
    log = EventLog()
    match = paperrobot.new_game(game, seed=seed, log=log, **setup)

    def look(event):
        if event.kind in ("moved", "move", "launched", "launch"):
            engine = match.engine
            ships = [s for s in (engine.ships if game == "sfb" else engine.ships.values())
                     if getattr(s, "active", True)]
            where = [s.hex if game == "sfb" else s.pos for s in ships]
            spread = max((distance(a, b) for a in where for b in where), default=0)
            items = len(engine.map_items()) if game == "sfb" else len(ships) + sum(d.alive for d in engine.drones)
            seen.append((spread, items, lines_of(engine, False), lines_of(engine, True)))
    log.listeners.append(look)
    robot = match.engine.robot_side
    drive_all(match, {side: ("robot" if side == robot else other) for side in match.sides})
    return seen


@pytest.mark.parametrize("game,setup,lines_of", [
    ("sfb", {"scenario": "5"}, cli_sfb.map_lines),
    ("sfb", {"scenario": "6"}, cli_sfb.map_lines),
    ("fc", {}, cli_fc.map_lines),
    ("fc", {"map": "42x30"}, cli_fc.map_lines),
])
def test_maps_fit_80x24_at_the_most_distant_and_most_crowded_moments(game, setup, lines_of):
    moments = _moments(game, setup, "policy", 3, lines_of)
    assert moments
    distant = max(moments, key=lambda m: m[0])
    crowded = max(moments, key=lambda m: m[1])
    for spread, items, window, whole in (distant, crowded):
        for lines in (window, whole):
            assert max(map(len, lines)) <= 80, "\n".join(lines)
            assert len(lines) <= 24, "\n".join(lines)
    assert crowded[1] >= 3  # a seeking weapon (drone or plasma) was on the map with the ships
    for spread, items, window, whole in moments:  # and at every other moment
        assert max(map(len, window)) <= 80 and len(window) <= 24
