from paperrobot.cli.render import Mark, hex_map, window_around
from paperrobot.core.hexgrid import parse


def test_map_places_units_by_label():
    lines = hex_map(4, 3, [Mark(parse("0101"), "F", 2, "Fed"), Mark(parse("0202"), "K", 1, "Klingon")])
    assert lines[0].split() == ["01", "02", "03", "04"]
    # row 1: odd columns on the first line, even columns half a hex lower on the next
    assert "FC" in lines[1] and "KB" not in lines[1]
    assert "KB" in lines[4]  # row 2, even-column line
    assert lines[4].index("KB") > lines[1].index("FC")


def test_two_units_in_one_hex():
    lines = hex_map(2, 2, [Mark(parse("0101"), "F", 0, ""), Mark(parse("0101"), "d", 3, "")])
    assert "**" in lines[1]


def test_window_is_clipped():
    assert window_around([parse("0101"), parse("0303")], 28, 17) == (1, 6, 1, 6)
