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


def test_armada_bases_are_labelled_with_their_class_in_words_and_the_whole_id_as_title():
    view, side = recorded("armada")
    ship = dict(view["ships"][0], id="nebulon-b-escort-1", x=500.0, y=500.0, destroyed=False)
    picture = maps.picture("armada", dict(view, ships=[ship], squadrons=[], obstacles=[]), side)
    label = re.search(r'<g id="base-nebulon-b-escort-1".*?<text class="counterlabel"[^>]*>(.*?)</text>', picture.map)
    assert re.findall(r"<tspan[^>]*>([^<]*)</tspan>", label.group(1)) == ["Nebulon-B Escort", "1"]
    assert "<title>nebulon-b-escort-1 " in picture.map  # the whole id on hover
    assert maps.armada_label("victory-ii-2") == "Victory-II\n2" and maps.armada_label("cr90-a-1") == "CR90-A\n1"


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


def test_fire_targets_are_ringed_with_what_a_click_fills_and_arcs_wait_to_be_asked():
    view = {"map": "28x17", "ships": [{"name": "fed", "side": "player", "hex": "1010", "facing": "A"},
                                      {"name": "klingon", "side": "robot", "hex": "1005", "facing": "D"}],
            "seekers": [{"label": "KD1", "kind": "drone", "side": "robot", "target": "fed", "hex": "1008"}],
            "targets": [{"target": "klingon", "hex": "1005", "fill": {"phaser-1#1": "klingon", "photon-A": "klingon"}},
                        {"target": "KD1", "hex": "1008", "fill": {"phaser-1#1": "KD1"}}],
            "arcs": [{"weapon": "phaser-1#1", "hex": "1010", "sectors": [[300, 420]], "min": 0, "max": 25,
                      "bands": [0, 1, 2, 3, 8, 15, 25]}]}
    picture = maps.picture("sfb", view, "player")
    assert picture.note == ""
    ship = re.search(r'<g id="unit-klingon" class="([^"]*)"([^>]*)>', picture.map)
    assert "target" in ship.group(1) and 'data-target="klingon"' in ship.group(2)
    assert json.loads(re.search(r'data-fill="([^"]*)"', ship.group(2)).group(1).replace("&quot;", '"')) == \
        {"phaser-1#1": "klingon", "photon-A": "klingon"}
    assert 'id="unit-drone-KD1" class="counter drone side-robot target"' in picture.map
    assert 'id="unit-fed" class="counter ship side-player"' in picture.map  # the firing ship is no target
    shade = re.search(r'<g class="arcshade" id="arc-phaser-1-1" data-arc="phaser-1#1">', picture.map)
    assert shade and picture.map.count('class="band band-') == 7 and picture.arcs == [("phaser-1#1", "phaser-1#1")]
    assert any(swatch == "target" for swatch, _ in picture.legend)


def test_armada_attack_targets_grouped_by_attacking_zone_with_rulers():
    view, side = recorded("armada")
    ships = [dict(s, destroyed=False) for s in view["ships"][:2]]
    square = lambda x, y: [[x, y], [x + 20, y], [x + 20, y + 20], [x, y + 20]]  # noqa: E731
    attacker, target = ships[0]["id"], ships[1]["id"]
    attack = dict(view, ships=ships, squadrons=[], attacker=attacker,
                  zones={attacker: {"front": square(100, 100), "left": square(80, 100)},
                         target: {"front": square(300, 300), "rear": square(300, 280)}},
                  arcs={"front": [[110, 100], [90, 130], [130, 130]], "left": [[110, 100], [80, 90], [80, 130]]},
                  ranges={"close": 123.3, "medium": 186.7, "long": 304.8},
                  targets=[{"key": f"front>{target}:front", "zone": "front", "target": target, "tzone": "front"},
                           {"key": f"left>{target}:front", "zone": "left", "target": target, "tzone": "front"},
                           {"key": f"left>{target}:rear", "zone": "left", "target": target, "tzone": "rear"}])
    picture = maps.picture("armada", attack, side)
    assert picture.note == ""
    groups = re.findall(r'<g class="(attack-from[^"]*)" data-zone="(\w+)">(.*?)</g>', picture.map)
    assert [(c, z) for c, z, _ in groups] == [("attack-from shown", "front"), ("attack-from", "left")]
    assert re.findall(r'data-key="([^"]*)"', groups[1][2]) == [f"left&gt;{target}:front", f"left&gt;{target}:rear"]
    assert picture.map.count('class="ruler"') == 2 and 'stroke-width="609.6"' in picture.map  # long: 2 x 304.8
    assert picture.map.count('class="zone-pick"') == 2
    assert [z for z, _ in picture.arcs] == ["front", "left"]
