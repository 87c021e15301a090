"""The measured even points (sim/even_points.toml) as the suggested difficulty: matched on the whole set-up."""
from paperrobot.sim import even_points

RECORD = '''
[[even]]
game = "fc"
opponent = "policy"
h50 = -44.7
low = -49.0
high = -40.8
unit = "points"
command = "paperrobot balance fc --set robot_ship=d7 --fresh-seeds --out reports/x"
setup = {robot_ship = "d7", player_ship = "federation-ca"}
'''


def test_the_even_point_of_the_same_set_up_is_suggested(tmp_path, monkeypatch):
    path = tmp_path / "even_points.toml"
    path.write_text(RECORD)
    monkeypatch.setattr(even_points, "FILE", path)
    even_points.load.cache_clear()
    try:
        point = even_points.suggestion("fc", {"robot_ship": "d7", "map": "floating", "handicap": 0})
        assert point is not None and point.h50 == -44.7 and point.text() == "-45 points (95% -49 to -41) against the policy"
        assert even_points.suggestion("fc", {"robot_ship": "kzinti-bc"}) is None
        assert even_points.suggestion("fc", {"robot_ship": "d7"}, opponent="robot") is None
        assert even_points.suggestion("sfb", {}) is None
        assert "default set-up" not in even_points.listing("fc") and "-45 points" in even_points.listing("fc")
        assert even_points.listing("armada") == "none measured yet"
    finally:
        even_points.load.cache_clear()


def test_the_shipped_file_reads():
    even_points.load.cache_clear()
    for point in even_points.load():
        assert point.game in ("fc", "sfb", "armada") and point.low <= point.h50 <= point.high and point.command
