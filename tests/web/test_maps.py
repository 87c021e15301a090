"""The games' map renderers on views recorded from the games' request.view (tests/web/views/*.json, taken
from the fc and armada contract branches): stable ids for every hex and unit, status of every ship."""
from __future__ import annotations

import json
import re
from pathlib import Path

from paperrobot.web import maps

VIEWS = Path(__file__).parent / "views"


def recorded(game: str) -> tuple[dict, str]:
    data = json.loads((VIEWS / f"{game}.json").read_text())
    return data["view"], data["side"]


def test_fc_ships_and_drones_on_labelled_hexes():
    view, side = recorded("fc")
    picture = maps.picture("fc", view, side)
    assert picture.note == "" and picture.map.startswith("<svg")
    for ship in view["ships"].values():
        assert f'id="hex-{ship["hex"]}"' in picture.map
        assert f'id="unit-{ship["side"]}"' in picture.map
    for drone in view["drones"]:
        assert f'id="unit-drone-{drone["id"]}"' in picture.map
    assert len(re.findall(r'<g id="hex-\d{4}"', picture.map)) >= 80
    titles = [s.title for s in picture.status]
    assert titles[0] == "situation" and any("Federation" in t for t in titles)
    shields = dict(picture.status[1].rows)["shields"]
    assert shields.startswith("1:")


def test_fc_fixed_map_window_stays_inside_the_edges():
    view, side = recorded("fc")
    view = dict(view, map="42x30")
    picture = maps.picture("fc", view, side)
    labels = re.findall(r'<g id="hex-(\d\d)(\d\d)"', picture.map)
    assert labels and all(1 <= int(c) <= 42 and 1 <= int(r) <= 30 for c, r in labels)


def test_a_window_near_a_map_edge_slides_inside_it_and_keeps_its_width():
    view = {"map": "28x17", "ships": [{"name": "a", "side": "player", "hex": "2707", "facing": "B"},
                                      {"name": "b", "side": "robot", "hex": "2612", "facing": "A"}]}
    picture = maps.picture("sfb", view, "player")
    cols = sorted({int(c) for c, r in re.findall(r'<g id="hex-(\d\d)(\d\d)"', picture.map)})
    assert cols[-1] == 28 and len(cols) >= 10  # not clipped to the seven columns 22..28
    whole = dict(view, ships=[dict(view["ships"][0], hex="0101"), dict(view["ships"][1], hex="2817")])
    labels = re.findall(r'<g id="hex-(\d\d)(\d\d)"', maps.picture("sfb", whole, "player").map)
    assert len(labels) == 28 * 17  # a window larger than the map: the whole map, no more


def test_armada_table_bases_squadrons_obstacles():
    view, side = recorded("armada")
    picture = maps.picture("armada", view, side)
    assert picture.note == "" and 'class="map table"' in picture.map
    for ship in view["ships"]:
        if not ship["destroyed"]:
            assert f'id="base-{ship["id"]}"' in picture.map
    for squadron in view["squadrons"]:
        if not squadron["destroyed"]:
            assert f'id="squadron-{squadron["id"]}"' in picture.map
    assert picture.map.count('class="arc"') == 4 * sum(not s["destroyed"] for s in view["ships"])
    assert 'class="mark obstacle' in picture.map and 'id="mark-focal-point"' in picture.map
    assert any(s.title == "squadrons" for s in picture.status)


def test_the_robots_ships_are_drawn_north_up():
    view, side = recorded("armada")
    ship = dict(view["ships"][0], x=100.0, y=800.0, heading=90.0, destroyed=False)  # heading 90: north
    picture = maps.picture("armada", dict(view, ships=[ship], squadrons=[], obstacles=[]), side)
    assert f'translate(100.0,{view["table"][1] - 800:.1f}) rotate(0.0)' in picture.map


def test_sfb_ships_by_name_and_seeking_weapons():
    view, side = recorded("sfb")
    picture = maps.picture("sfb", view, side)
    assert picture.note == "" and picture.map.startswith("<svg")
    for ship in view["ships"]:
        if not ship["destroyed"]:
            assert f'id="hex-{ship["hex"]}"' in picture.map and f'id="unit-{ship["name"]}"' in picture.map
    for weapon in view["seekers"]:
        assert f'id="unit-{weapon["kind"]}-{weapon["label"]}"' in picture.map
    assert any(s.title == "seeking weapons" for s in picture.status)


def test_a_question_without_a_view_shows_the_last_view_shown():
    from paperrobot.web.live import Live

    class Asked:
        def __init__(self, view):
            self.view = view
    live = Live(None, None, None, Asked({"turn": 1}), None)
    assert live.view == {"turn": 1}
    live.request = Asked(None)
    assert live.view == {"turn": 1}
