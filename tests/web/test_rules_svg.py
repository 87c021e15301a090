"""Rule summaries (package data, one per catalogue rule) and the SVG helpers' ids and geometry."""
from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from paperrobot.web import maps, rules, svg


def catalogue() -> Path | None:
    for folder in Path(__file__).resolve().parents:
        candidate = folder / "shared" / "rules" / "catalogue.toml"
        if candidate.exists():
            return candidate
    return None


def test_every_catalogue_rule_has_a_summary_in_our_own_words():
    path = catalogue()
    if path is None:
        pytest.skip("the rule catalogue (../shared/rules/catalogue.toml) is not beside this checkout")
    entries = tomllib.loads(path.read_text(encoding="utf-8"))["rule"]
    shipped = rules.summaries()
    assert {e["id"] for e in entries} == set(shipped)
    for entry in entries:  # paraphrases, not copies
        assert shipped[entry["id"]]["summary"] != entry["summary"], entry["id"]
        assert shipped[entry["id"]]["game"] == entry["game"]


def test_a_sub_rule_falls_back_to_its_parent():
    assert rules.summary("SFB.R3.MAP")["id"] == "SFB.R3.MAP"
    assert rules.summary("FC.5C.EXTRA")["id"] == "FC.5C"
    assert rules.summary("NOPE") is None


def test_hex_maps_follow_the_printed_conventions():
    # even columns sit half a hex lower; labels CCRR from 01
    x1, y1 = svg._centre(0, 0, 1, 10)
    x2, y2 = svg._centre(1, 0, 2, 10)
    assert x2 > x1 and y2 > y1
    picture = svg.HexMap(3, 2, [svg.Counter("Fed CA", "0202", "CA", "B", "player"),
                                svg.Counter("far", "0909", "X")]).svg()
    assert picture.count('class="hex ') == 6 and 'id="hex-0302"' in picture
    assert 'id="unit-Fed-CA"' in picture and "rotate(60)" in picture and 'id="unit-far"' not in picture
    assert svg.facing_angle("A") == 0 and svg.facing_angle("F") == 300


def test_everything_drawn_is_escaped():
    picture = svg.HexMap(1, 1, [svg.Counter("<x>", "0101", "<b>", title="a<script>")]).svg()
    assert "<script>" not in picture and "<b>" not in picture
    table = svg.Table(900, 900, [svg.Base("isd", 100, 100, 61, 102, 90, "<v>", "imperial", arcs=[45, 135])],
                      [svg.Token("tie 1", 300, 300, label="<T>")]).svg()
    assert 'id="base-isd"' in table and 'id="squadron-tie-1"' in table and "<v>" not in table
    assert table.count('class="arc"') == 2


def test_a_failing_renderer_falls_back_to_the_data():
    maps.register("broken-game", lambda view, side: 1 / 0)
    try:
        picture = maps.picture("broken-game", {"turn": 3, "ships": [{"name": "CA", "speed": 12}]}, "player")
    finally:
        maps.RENDERERS.pop("broken-game")
    assert picture.map is None and "ZeroDivisionError" in picture.note
    assert [s.title for s in picture.status] == ["situation", "CA"]
