"""The terms the seed leaves undefined (docs/fc.md "Definitions"), pinned down."""
from paperrobot.core.hexgrid import Hex
from paperrobot.fc import geometry as geo

from .helpers import A, B, C, D, F, setup


def ships(**kw):
    game, _, _ = setup(**kw)
    return game.ships["robot"], game.ships["player"]


def test_centerline_is_the_bow_stern_row_both_ways():
    _, p = ships(ppos=(10, 10), pface=A)
    assert geo.on_centerline(p, Hex(10, 3)) and geo.on_centerline(p, Hex(10, 17))
    assert not geo.on_centerline(p, Hex(11, 3))
    assert geo.axis_offset(p.pos, p.facing, Hex(13, 5)) == 3
    _, p = ships(ppos=(10, 10), pface=B)  # facing B: the row keeps q + r constant
    assert geo.on_centerline(p, Hex(12, 8)) and geo.on_centerline(p, Hex(8, 12))


def test_heading_for_centerline():
    r, p = ships(rpos=(13, 5), rface=F, ppos=(10, 10), pface=A)
    assert geo.heading_for_centerline(r, p)  # F moves toward column 10
    r.facing = C
    assert not geo.heading_for_centerline(r, p)


def test_closing_course_approaching_moving_away():
    r, p = ships(ppos=(10, 16), pface=A)  # robot faces D toward the enemy, which faces A toward it
    assert geo.closing_course(r, p) and geo.approaching(r, p) and not geo.moving_away(r, p)
    p.facing = D  # the enemy flies away from the robot
    assert not geo.closing_course(r, p) and geo.moving_away(r, p) and not geo.approaching(r, p)
    r, p = ships(rpos=(7, 11), ppos=(10, 10), pface=A)  # the robot lies in the enemy's L arc
    assert not geo.approaching(r, p) and not geo.moving_away(r, p)


def test_faster_but_behind():
    r, p = ships(ppos=(10, 16), pface=D)
    r.baseline, p.baseline = 24, 16
    assert geo.faster_but_behind(r, p)
    r.baseline = 16
    r.accel = True  # current speed counts acceleration
    assert geo.faster_but_behind(r, p)
    p.facing = A
    assert not geo.faster_but_behind(r, p)


def test_down_shield_and_facing_that_shield():
    r, p = ships(ppos=(10, 16))
    assert geo.shields_toward(r, p.pos) == (1,)
    assert not geo.down_shield_toward(r, p.pos)
    r.shields[0] = 0
    assert geo.down_shield_toward(r, p.pos)
    assert geo.enemy_facing_shield(r, p, 1) and not geo.enemy_facing_shield(r, p, 4)


def test_fa_and_waist_phasers():
    assert geo.is_fa_weapon("FX") and geo.is_fa_weapon("FA") and not geo.is_fa_weapon("LF+L+RR")
    assert geo.is_waist_or_rear("L+LR") and geo.is_waist_or_rear("RA") and not geo.is_waist_or_rear("RF+R")


def test_impacted_weapons_are_drones_in_the_hex():
    game, _, _ = setup(ppos=(10, 30))
    from .helpers import drone
    d = drone(game, "p1", (10, 12), facing=A)
    game.move_drones()
    assert not d.impacting
    game.move_drones()
    assert d.impacting and d.pos == game.ships["robot"].pos
    assert geo.approaching_drone(game.ships["robot"], d) is False  # impacting, no longer in flight


def test_overload_range_is_the_table():
    game, _, _ = setup()
    w = game._weapon(game.ships["robot"], "disr-1")
    assert [game.weapon_cost(w, "overload", r) is not None for r in (0, 8, 9)] == [True, True, False]


def test_half_arcs_fh_rh():
    from paperrobot.fc.arcs import arc_parts, in_arc
    o = Hex(0, 0)
    assert in_arc(o, A, "FH", Hex(0, -3)) and not in_arc(o, A, "RH", Hex(0, -3))
    assert in_arc(o, A, "FH", Hex(2, -1)) and in_arc(o, A, "RH", Hex(2, -1))  # the beam row: both halves
    assert not in_arc(o, A, "FH", Hex(3, -1)) and in_arc(o, A, "RH", Hex(3, -1))  # just aft of the beam
    assert in_arc(o, D, "FH", Hex(0, 3)) and not in_arc(o, D, "FH", Hex(0, -3))
    assert arc_parts("FH") == ("LF", "RF", "L", "R") and geo.arc_width("FH") == 4


def test_after_move_of_every_manoeuvre_and_facing():
    """Where each manoeuvre leaves a ship (FC.3A): forward through the hexside it steps across, facing kept
    (straight, sideslip) or turned one hexside first (turn); pivots turn in place, decel stays, an HET faces
    its letter and moves straight ahead."""
    from paperrobot.core.hexgrid import neighbour
    r, _ = ships(rpos=(10, 10))
    for facing in range(6):
        r.facing = facing
        left, right = (facing - 1) % 6, (facing + 1) % 6
        expected = {"straight": (neighbour(r.pos, facing), facing),
                    "turn-left": (neighbour(r.pos, left), left), "turn-right": (neighbour(r.pos, right), right),
                    "slip-left": (neighbour(r.pos, left), facing), "slip-right": (neighbour(r.pos, right), facing),
                    "pivot-left": (r.pos, left), "pivot-right": (r.pos, right), "decel": (r.pos, facing),
                    **{f"het-{'ABCDEF'[f]}": (neighbour(r.pos, f), f) for f in range(6)}}
        for move, where in expected.items():
            assert geo.after_move(r, move) == where, (facing, move)


def test_arc_masks_agree_with_the_hex_grid_arc_test():
    """FC.GEN.ARC: the fire plans' wedge masks (fc/arcs.py) hold a target exactly when hexgrid.in_arc does, for
    every vector within 10 hexes, every facing and every arc name the cards and the grid use (the half arcs
    FH/RH have no mask: they are asked of in_arc)."""
    import itertools
    from paperrobot.core import hexgrid
    from paperrobot.fc.arcs import arc_masks, wedges
    names = [*hexgrid.BASIC_ARCS, *hexgrid.COMBINED_ARCS, "L+LR", "LF+L+RR", "RF+R+LR", "R+RR", "LF+L", "RF+R"]
    assert arc_masks("FH") is None and arc_masks("RH+L") is None
    for dq, dr in itertools.product(range(-10, 11), repeat=2):
        holds = wedges(dq, dr)
        for facing, name in itertools.product(range(6), names):
            assert bool(arc_masks(name)[facing] & holds) == hexgrid.in_arc(Hex(4, -1), facing, name,
                                                                           Hex(4 + dq, -1 + dr)), (dq, dr, facing, name)
