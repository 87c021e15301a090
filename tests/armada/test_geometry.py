"""Table geometry against hand-computed cases (medium base 63x102, token 58.5x101.5, arc centre 47 mm)."""
import math

import pytest

from paperrobot.armada import Setup, new_game
from tests.armada.helpers import run
from paperrobot.armada.data import geometry
from paperrobot.armada.geometry import clip_to_arc, footprint, point_in_arc
from paperrobot.armada.maneuver_tool import maneuver
from paperrobot.armada.polygons import poly_distance
from paperrobot.armada.ranges import distance_band, range_band
from paperrobot.armada.state import Obstacle
from paperrobot.armada.polygons import circle

MED = geometry().sizes["medium"]


def test_hull_zones_and_arc_lines_of_a_medium_ship():
    fp = footprint(MED, 0.0, 0.0, 0.0)  # heading east
    # token front edge at u = 50.75; arc lines meet the centreline 47 mm behind it, at u = 3.75
    assert fp.arcs["front"][0] == pytest.approx((3.75, 0.0))
    assert fp.zones["left"] == [pytest.approx((30.5, 29.25)), pytest.approx((-27.25, 29.25)), pytest.approx((3.75, 0.0))]
    # the front-left arc line rises at atan(29.25 / 26.75) = 47.55 degrees
    assert point_in_arc((103.75, 100.0), fp.arcs["front"])  # 45.0 deg: front arc
    assert not point_in_arc((103.75, 115.0), fp.arcs["front"])  # 48.0 deg: outside
    assert point_in_arc((103.75, 115.0), fp.arcs["left"])
    assert point_in_arc((0.0, 200.0), fp.arcs["left"]) and point_in_arc((0.0, -200.0), fp.arcs["right"])
    assert point_in_arc((-200.0, 0.0), fp.arcs["rear"]) and not point_in_arc((-200.0, 0.0), fp.arcs["front"])


def test_arc_lines_belong_to_both_arcs():
    fp = footprint(MED, 0.0, 0.0, 0.0)
    on_line = (3.75 + 26.75 * 4, 29.25 * 4)
    assert point_in_arc(on_line, fp.arcs["front"]) and point_in_arc(on_line, fp.arcs["left"])


def test_range_and_distance_bands_at_their_edges():
    assert range_band(123.3) == "close" and range_band(123.4) == "medium"
    assert range_band(186.5) == "medium" and range_band(186.6) == "long"
    assert range_band(304.8) == "long" and range_band(305.0) is None
    assert distance_band(76.5) == 1 and distance_band(76.6) == 2 and distance_band(304.8) == 5
    assert distance_band(305.0) is None


def test_range_ignores_the_part_of_the_target_outside_the_arc():
    fp = footprint(MED, 0.0, 0.0, 0.0)
    wall = [(40.0, 60.0), (240.0, 60.0), (240.0, 70.0), (40.0, 70.0)]
    part = clip_to_arc(wall, fp.arcs["front"])
    # at y = 60 the front arc starts at x = 3.75 + 60 / tan(47.55 deg) = 58.6
    assert min(x for x, _ in part) == pytest.approx(3.75 + 60 * 26.75 / 29.25, abs=0.01)
    assert poly_distance(fp.zones["front"], part) > poly_distance(fp.zones["front"], wall)


def _duel(defender_heading: float):
    game = new_game(Setup(["victory-ii"], ["victory-ii"]), 1)
    a, d = game.ships
    a.x, a.y, a.a = 400.0, 400.0, 0.0
    d.x, d.y, d.a = 700.0, 400.0, defender_heading
    return game, a, d


def test_line_of_sight_through_another_hull_zone_is_blocked():
    game, a, d = _duel(0.0)  # the defender shows its rear to the attacker's front
    shots = [o for o in game.ship_shots(a) if o.target is d and o.zone == "front"]
    assert {o.tzone for o in shots} == {"rear"}
    # 249.25 - 50.75 = 198.5 mm zone to zone: long range, only the 3 red dice of 3R3U
    (shot,) = shots
    assert shot.band == "long" and shot.colours == ["R", "R", "R"]


def test_obstruction_removes_one_die():
    game, a, d = _duel(math.pi)  # nose to nose
    game.obstacles = [Obstacle("debris", 550.0, 400.0, circle(550.0, 400.0, 20.0, 6))]
    (shot,) = [o for o in game.ship_shots(a) if o.target is d and o.zone == "front"]
    assert shot.obstructed and shot.tzone == "front" and len(shot.colours) == 2


def test_maneuver_tool_straight_and_with_yaw():
    assert maneuver(0.0, 0.0, 0.0, 102.0, 1, (0,)) == pytest.approx((68.4, 0.0, 0.0))
    x, y, a = maneuver(0.0, 0.0, 0.0, 102.0, 2, (0, 1))
    assert a == pytest.approx(math.radians(22.5))
    # the front of the base ends on the last joint: 2 long + 1 short segments straight, then 22.27 mm yawed
    front = (x + 51.0 * math.cos(a), y + 51.0 * math.sin(a))
    assert front == pytest.approx((51.0 + 2 * 46.13 + 22.27 + 22.27 * math.cos(a), 22.27 * math.sin(a)))


def test_overlapping_ship_reduces_speed_and_both_take_a_facedown_card():
    game = new_game(Setup(["victory-ii"], ["victory-ii"]), 1)
    a, d = game.ships
    a.x, a.y, a.a, a.speed = 400.0, 400.0, 0.0, 2
    d.x, d.y, d.a = 560.0, 400.0, 0.0
    game.active = a

    class Straight:
        def decide(self, request):
            from paperrobot.core.contract import Decision
            return Decision("2:0,0")

    run(game, game.move(a), {"imperial": Straight()})
    assert a.facedown == 1 and d.facedown == 1
    assert a.x == pytest.approx(400.0 + 68.4)  # speed 2 overlapped, speed 1 fits
