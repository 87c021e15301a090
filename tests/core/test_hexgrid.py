"""Hex conventions against the worked examples of reference sfb-cadet §A1 and §A5."""
import pytest

from paperrobot.core.hexgrid import (BASIC_ARCS, COMBINED_ARCS, DIRECTIONS, Board, Hex, _in_arc, arc_shape,
                                     arcs_containing, distance, first_shield, from_offset, in_arc, in_shape, label,
                                     neighbour, parse, shields_facing, sight, to_offset)

p = parse


def test_facing_examples_c12():
    assert label(neighbour(p("0608"), 0)) == "0607"  # facing A
    assert label(neighbour(p("2210"), 2)) == "2311"  # facing C, even column


def test_shield_directions_d311():
    ship = p("0202")
    assert label(neighbour(ship, 0)) == "0201"  # shield 1
    assert label(neighbour(ship, 1)) == "0302"  # shield 2
    assert label(neighbour(ship, 4)) == "0103"  # shield 5


def test_straight_path_direction_f():
    h, seen = p("0517"), []
    for _ in range(3):
        h = neighbour(h, 5)
        seen.append(label(h))
    assert seen == ["0416", "0316", "0215"]


def test_true_range_examples():
    assert distance(p("0409"), p("0509")) == 1
    assert distance(p("0310"), p("0609")) == 3
    assert distance(p("0101"), p("0101")) == 0


def test_offset_round_trip():
    for col in range(1, 30):
        for row in range(1, 18):
            assert to_offset(from_offset(col, row)) == (col, row)


@pytest.mark.parametrize("target", ["1114", "1315", "1612", "2017", "2817", "1417", "1910"])
def test_lf_arc_contains_d21(target):
    assert in_arc(p("0915"), 2, "LF", p(target))


@pytest.mark.parametrize("target", ["0701", "2604", "0301"])
def test_lf_arc_excludes_d21(target):
    assert not in_arc(p("0915"), 2, "LF", p(target))


def test_boundary_row_is_in_both_arcs():
    ship = p("0915")
    ahead = neighbour(neighbour(ship, 2), 2)  # straight ahead: LF/RF boundary
    assert set(arcs_containing(ship, 2, ahead)) == {"LF", "RF"}
    for arc in ("FA", "LS", "RS", "FX"):
        assert in_arc(ship, 2, arc, ahead)
    assert not in_arc(ship, 2, "RA", ahead)


def test_combined_arc_unions():
    ship = p("1010")
    behind = neighbour(neighbour(ship, 3), 3)
    assert in_arc(ship, 0, "LR+L", behind) and in_arc(ship, 0, "RR+R", behind)
    assert not in_arc(ship, 0, "L+FA", behind)
    with pytest.raises(ValueError, match="unknown firing arc"):
        in_arc(ship, 0, "XX", behind)


@pytest.mark.parametrize("target,facing,source,shields", [
    ("0202", 0, "0305", (4,)),     # D3.4 direct-fire example
    ("0202", 0, "0304", (3, 4)),   # D3.41 boundary: a die decides
    ("0707", 0, "0806", (2,)),     # seeking weapon from 0806
    ("0807", 1, "0806", (6,)),     # the same after the target turned right
])
def test_shield_hit_examples(target, facing, source, shields):
    assert shields_facing(p(target), facing, p(source)) == shields


def test_board_edges():
    board = Board(28, 17)
    assert board.contains(p("0101")) and board.contains(p("2817"))
    assert not board.contains(from_offset(29, 5))
    assert board.is_edge(p("0105")) and not board.is_edge(p("1010"))
    assert board.edges_crossed(from_offset(0, 5)) == {"left"}


def test_bad_labels():
    for bad in ("12", "abcd", "0012"):
        with pytest.raises(ValueError):
            parse(bad)


def test_sight_is_range_arc_and_shields_in_one_lookup():
    """sight() answers what distance, in_arc and shields_facing answer, from any hex, for every vector within
    6 hexes, every facing and the arcs the games ask (it is their memo, read by the SFB policy's move score)."""
    for origin in (Hex(0, 0), Hex(7, -3)):
        for dq in range(-6, 7):
            for dr in range(-6, 7):
                target = Hex(origin.q + dq, origin.r + dr)
                for facing in range(6):
                    for arc in ("FA", "RA", "L", "FH"):
                        assert sight(origin, facing, arc, target) == (
                            distance(origin, target), in_arc(origin, facing, arc, target),
                            shields_facing(origin, facing, target))


def test_first_shield_is_the_first_of_shields_facing():
    """first_shield (no memo, no tuple: the SFB policy's move score) answers shields_facing(...)[0], 0 in the same
    hex, for every vector within 12 hexes and every facing."""
    for origin in (Hex(0, 0), Hex(7, -3)):
        for dq in range(-12, 13):
            for dr in range(-12, 13):
                source = Hex(origin.q + dq, origin.r + dr)
                for facing in range(6):
                    shields = shields_facing(origin, facing, source)
                    assert first_shield(origin, facing, source) == (shields[0] if shields else 0)


def test_in_arc_answers_as_the_arc_tests_for_every_vector():
    """in_arc (an arc's shape and the vector's wedge bits, no memo) answers what the arc's pieces tested one by one
    (_in_arc: D2.1's wedges, FC's half arcs) answer: every vector within 12 hexes, every facing, every arc name."""
    arcs = [*BASIC_ARCS, *COMBINED_ARCS, "FH", "RH", "LR+L", "L+FA", "FH+RR", "RH+LF", "FH+RH"]
    for dq in range(-12, 13):
        for dr in range(-12, 13):
            for facing in range(-1, 7):
                for arc in arcs:
                    assert in_arc((5, -3), facing, arc, (5 + dq, -3 + dr)) == _in_arc(dq, dr, facing % 6, arc)
                    # the same test with the arc's shape looked up beforehand (SFB's hot paths)
                    assert in_shape((5, -3), facing, arc_shape(arc), (5 + dq, -3 + dr)) == _in_arc(dq, dr, facing % 6,
                                                                                                   arc)


def test_neighbour_is_a_hex_one_step_away():
    for h in (Hex(0, 0), Hex(-7, 40), Hex(1 << 21, -(1 << 21))):
        for facing in range(-6, 13):
            n = neighbour(h, facing)
            d = DIRECTIONS[facing % 6]
            assert type(n) is Hex and n == Hex(h.q + d.q, h.r + d.r) and distance(h, n) == 1
