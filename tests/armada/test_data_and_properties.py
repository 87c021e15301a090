"""Data files (validation, user ship files, fleet files) and a property run of seeded battles."""
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from paperrobot.armada import Setup, catalogue, new_game
from tests.armada.helpers import run
from paperrobot.armada.data import parse_dice
from paperrobot.cli.main import app
from paperrobot.core.events import EventLog

IMPERIAL_SHIPS = ["victory-ii", "victory-i", "gladiator-i", "gladiator-ii"]
REBEL_SHIPS = ["cr90-a", "cr90-b", "nebulon-b-escort", "nebulon-b-support", "mc80-assault", "mc80-command",
               "assault-frigate-a", "assault-frigate-b"]
IMPERIAL_SQUADS = ["tie-fighter", "tie-advanced", "tie-interceptor", "tie-bomber"]
REBEL_SQUADS = ["x-wing", "y-wing", "a-wing", "b-wing", "z-95"]


def test_requested_cards_are_all_there_with_reference_stats():
    ships, squads = catalogue()
    assert set(IMPERIAL_SHIPS + REBEL_SHIPS) <= set(ships)
    assert set(IMPERIAL_SQUADS + REBEL_SQUADS) <= set(squads)
    vsd = ships["victory-ii"]
    assert (vsd.hull, vsd.front, vsd.shields, vsd.points, vsd.points_printed) == (8, "3R3U", [3, 3, 3, 1], 80, 85)
    assert parse_dice(ships["mc80-assault"].left) == (4, 2, 0) and parse_dice(squads["z-95"].anti_squadron) == (3, 0, 0)
    assert squads["a-wing"].keywords == ["counter 2"] and ships["mc80-command"].speed_chart == [[1], [1, 1]]


def test_a_malformed_user_ship_file_is_one_line_naming_file_and_field(tmp_path):
    (tmp_path / "bad.toml").write_text('source = "mine"\n[[ship]]\nname = "x"\n')
    result = CliRunner().invoke(app, ["ships", "--game", "armada", "--ships-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert "bad.toml: ship.0.title: Field required" in str(result.exception) + result.output


def test_a_user_ship_file_adds_a_ship(tmp_path):
    text = (catalogue()[0]["victory-ii"].model_dump())
    text.update(name="my-victory", title="My Victory", points=90)
    lines = ['source = "house rules"', "[[ship]]"]
    for k, v in text.items():
        lines.append(f"{k} = {v!r}".replace("'", '"'))
    (tmp_path / "mine.toml").write_text("\n".join(lines) + "\n")
    result = CliRunner().invoke(app, ["ships", "my-victory", "--game", "armada", "--ships-dir", str(tmp_path)])
    assert result.exit_code == 0 and "My Victory" in result.output
    fleet = tmp_path / "fleets" / "f.toml"
    fleet.parent.mkdir()
    fleet.write_text('imperial = ["my-victory"]\nrebel = ["cr90-a"]\n')
    result = CliRunner().invoke(app, ["battle", "armada", "--quiet", "--fleet-file", str(fleet), "--ships-dir",
                                      str(tmp_path), "--svg", str(tmp_path / "pics")])
    assert result.exit_code == 0, result.output
    assert "my-victory-1" in (tmp_path / "pics" / "round-0.svg").read_text()


def test_fleet_files(tmp_path):
    good = tmp_path / "fleet.toml"
    good.write_text('imperial = ["gladiator-ii*2", "tie-interceptor*2"]\nrebel = ["cr90-b", "z-95"]\ntable = "small"\n')
    result = CliRunner().invoke(app, ["battle", "armada", "--seed", "2", "--quiet", "--fleet-file", str(good)])
    assert result.exit_code == 0 and "Result: " in result.output
    bad = tmp_path / "bad.toml"
    bad.write_text('imperial = ["star-dreadnought"]\nrebel = ["cr90-b"]\n')
    result = CliRunner().invoke(app, ["battle", "armada", "--fleet-file", str(bad)])
    assert result.exit_code == 2 and "unknown ship or squadron 'star-dreadnought'" in str(result.exception) + result.output


def test_data_listing_marks_provisional_tables():
    result = CliRunner().invoke(app, ["data", "--game", "armada", "--provisional"])
    assert result.exit_code == 0 and "range ruler (PROVISIONAL)" in result.output and "ships.toml" not in result.output


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), imp=st.lists(st.sampled_from(IMPERIAL_SHIPS), min_size=1, max_size=3),
       reb=st.lists(st.sampled_from(REBEL_SHIPS), min_size=1, max_size=3),
       isq=st.lists(st.sampled_from(IMPERIAL_SQUADS), max_size=4), rsq=st.lists(st.sampled_from(REBEL_SQUADS), max_size=4),
       small=st.booleans())
def test_any_fleets_play_out_with_invariants(seed, imp, reb, isq, rsq, small):
    log = EventLog()
    game = new_game(Setup(imp + isq, reb + rsq, "small" if small else "standard"), seed, log=log)
    out = run(game)
    assert 1 <= out.turns <= 6
    for s in game.ships:
        assert all(0 <= a <= b for a, b in zip(s.shields, s.spec.shields))
        assert len(s.cmd_tokens) <= s.spec.command
        if not s.destroyed:
            assert s.damage < s.spec.hull
            assert 0 <= s.x <= game.width and 0 <= s.y <= game.depth
    alive = {side: any(not s.destroyed for s in game.ships if s.side == side) for side in ("imperial", "rebel")}
    if all(alive.values()):
        assert out.turns == 6
    for e in log.of_kind("decision"):
        assert e.data["rule"].startswith("ARM.") and e.side == "imperial"
    for e in log.of_kind("attack"):
        assert e.data["dice"] and len(e.data["faces"]) <= len(e.data["dice"])


def test_measurements_are_overridable(tmp_path):
    from paperrobot.armada.data import DATA, use_geometry
    from paperrobot.armada.ranges import range_band
    text = (DATA / "geometry.toml").read_text().replace("close = 123.3", "close = 130.0")
    mine = tmp_path / "geometry.toml"
    mine.write_text(text)
    try:
        use_geometry(mine)
        assert range_band(125.0) == "close"
        result = CliRunner().invoke(app, ["battle", "armada", "--quiet", "--geometry", str(mine)])
        assert result.exit_code == 0 and "Result: " in result.output
    finally:
        use_geometry(None)
    assert range_band(125.0) == "medium"
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("long = 304.8", 'long = "far"'))
    result = CliRunner().invoke(app, ["battle", "armada", "--geometry", str(bad)])
    assert result.exit_code == 2 and "bad.toml: ruler.long" in str(result.exception) + result.output
    use_geometry(None)
