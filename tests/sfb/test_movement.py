"""Movement: impulse chart (SFB.IMPULSES, reference §A3), turn modes, seeking weapons (F2, §A7), map edges."""
import pytest

from paperrobot.core.hexgrid import Hex, facing_index, label, neighbour, parse
from paperrobot.sfb.movement import (LEFT, STRAIGHT, board_cells, move_chart, seek_choice, state_index, step,
                                     viable_bits, viable_states)

from .helpers import make, place, ships


def moves(speed, impulses):
    return [i for i in range(1, impulses + 1) if move_chart(impulses)[speed][i]]


@pytest.mark.parametrize("speed,expected", [
    (1, [16]), (3, [6, 11, 16]), (5, [4, 7, 10, 13, 16]), (6, [3, 6, 8, 11, 14, 16]),
    (9, [2, 4, 6, 8, 9, 11, 13, 15, 16]), (12, [2, 3, 4, 6, 7, 8, 10, 11, 12, 14, 15, 16]),
    (15, list(range(2, 17))), (16, list(range(1, 17))),
])
def test_sixteen_impulse_chart_cells(speed, expected):
    """SFB.IMPULSES: cells of the printed 16-impulse chart (CTH p.51)."""
    assert moves(speed, 16) == expected


def test_eight_impulse_worked_example():
    """SFB.IMPULSES: CTH p.13 example, speeds 8, 5, 4, 3 on the 8-impulse chart."""
    movers = {i: [s for s in (8, 5, 4, 3) if move_chart(8)[s][i]] for i in range(1, 9)}
    assert movers == {1: [8], 2: [8, 5, 4], 3: [8, 3], 4: [8, 5, 4], 5: [8, 5], 6: [8, 4, 3], 7: [8, 5],
                      8: [8, 5, 4, 3]}
    assert moves(2, 8) == [4, 8]


def test_seeking_vectors_special_rule():
    """F2 special rule (reference §A7): target just entered 0808."""
    target = parse("0808")
    steer, facing, dest = seek_choice(parse("1109"), facing_index("E"), True, target)
    assert (steer, label(dest)) == (STRAIGHT, "1009")  # 1008 is as close: ties go straight
    steer, facing, dest = seek_choice(parse("1206"), facing_index("F"), True, target)
    assert (steer, label(dest)) == (LEFT, "1107")


def test_seeking_turn_tie_never_arises_and_straight_wins_ties():
    """docs/sfb.md 'Seeking tie-break': the two turns are never both strictly closer and equal (hex geometry),
    so the documented turn-vs-turn tie-break never decides; straight wins every tie with a turn."""
    from paperrobot.core.hexgrid import distance
    from paperrobot.sfb.movement import candidates
    origin = parse("1410")
    for facing in range(6):
        for col in range(6, 23):
            for row in range(2, 17):
                target = parse(f"{col:02d}{row:02d}")
                d = [distance(dest, target) for _, _, dest in candidates(origin, facing, True)]
                assert not (d[1] == d[2] < d[0])
                steer = seek_choice(origin, facing, True, target)[0]
                if d[0] <= min(d[1], d[2]):
                    assert steer == STRAIGHT


def test_turn_mode_blocks_turns_and_carries_over():
    """C3.2/C3.41: a TM2 ship moves 2 hexes straight between turns; the count carries across turns."""
    game = make()
    fed, kl = ships(game)
    place(fed, "1410", "A", straight=1, speed=12)
    assert fed.turn_mode() == 2
    game.execute_move(fed, LEFT)
    assert fed.straight == 1 and label(fed.hex) == "1310"
    game.execute_move(fed, STRAIGHT)
    assert fed.straight == 2
    game.end_turn()
    assert fed.straight == 2  # nothing resets the count at the end of the turn


def test_viable_states_keep_robot_on_map():
    """SFB.R3.MAP: heading off the top edge with turn mode 2, row 1 is a trap; row 3 is not."""
    states = viable_states(28, 17, 2)
    top = parse("1401")
    assert (top.q, top.r, facing_index("A"), 2) not in states
    safe = parse("1403")
    assert (safe.q, safe.r, facing_index("A"), 2) in states


def test_scenario5_leaving_map_is_disengagement():
    game = make("5")
    fed, kl = ships(game)
    place(fed, "2801", "A")
    game.execute_move(fed, STRAIGHT)
    assert fed.gone == "disengaged"
    assert game.outcome.winner == "robot" and game.outcome.result == "disengaged"


def test_scenario4_exit_after_dakota_wins_and_other_exits_destroy():
    game = make("4")
    fed, kl = ships(game)
    place(fed, "1306", "A")
    game.execute_move(fed, STRAIGHT)
    assert fed.objective  # passed a hex next to the Dakota (1405)
    place(fed, "2810", "C")
    game.execute_move(fed, STRAIGHT)
    assert game.outcome.winner == "player" and game.outcome.result == "objective"
    game = make("4")
    fed, kl = ships(game)
    place(fed, "2810", "C")
    game.execute_move(fed, STRAIGHT)  # off the 28xx edge without visiting the Dakota
    assert fed.destroyed and game.outcome.winner == "robot"


def test_step_is_neighbour_and_the_byte_table_is_viable_states():
    """movement.step (hexes kept in a table) gives hexgrid.neighbour's hex, inside its table's span and beyond it;
    viable_bits / state_index hold exactly viable_states (SFB.R3.MAP), every other index -1 or 0."""
    for q in (-130, -128, -1, 0, 5, 127, 128, 300):
        for r in (-129, -128, -3, 0, 9, 127, 200):
            for facing in range(-1, 8):
                assert step(Hex(q, r), facing) == neighbour(Hex(q, r), facing)
                assert type(step((q, r), facing)) is Hex
    for cols, rows, tm in ((28, 17, 1), (28, 17, 2), (6, 5, 3)):
        states, table = viable_states(cols, rows, tm), viable_bits(cols, rows, tm)
        seen = 0
        for q, r in board_cells(cols, rows) | {Hex(0, 0), Hex(cols + 1, 0), Hex(3, -9), Hex(3, rows + 9)}:
            for facing in range(6):
                for straight in range(0, tm + 2):
                    at = state_index(cols, rows, tm, q, r, facing, straight)
                    assert (at >= 0 and table[at] == 1) == ((q, r, facing, straight) in states)
                    seen += at >= 0 and table[at] == 1
        assert seen == len(states) == sum(table)


def test_bearing_score_is_the_cube_dot_product():
    """bearing_score (written out per facing: no product with a negative factor, see its comment) is the cube dot
    product of the vector with the facing's direction, for every vector within 9 hexes and facings -6..5."""
    from paperrobot.core.hexgrid import DIRECTIONS
    from paperrobot.sfb.movement import bearing_score
    for dq in range(-9, 10):
        for dr in range(-9, 10):
            for facing in range(-6, 6):
                fq, fr = DIRECTIONS[facing]
                assert bearing_score(Hex(2, 3), facing, Hex(2 + dq, 3 + dr)) == dq * fq + dr * fr + (dq + dr) * (fq + fr)


def test_seek_choice_is_the_f2_rule_over_the_candidates():
    """seek_choice (the candidates' moves worked out in their order, no tuples built) chooses as the F2 rule stated
    over movement.candidates: the nearest hex, straight before a turn, then the turn pointing more directly at
    the target, then the right turn; with a veto, among the moves allowed (None when none is)."""
    from paperrobot.sfb.movement import RIGHT, bearing_score, candidates
    from paperrobot.core.hexgrid import distance

    def reference(h, facing, can_turn, target, allowed=None):
        moves = [m for m in candidates(h, facing, can_turn) if allowed is None or allowed(*m)]
        if not moves:
            return None
        return min(moves, key=lambda m: (distance(m[2], target), 0 if m[0] == STRAIGHT else 1,
                                         -bearing_score(m[2], m[1], target), 0 if m[0] == RIGHT else 1))

    def no_left(steer, facing, dest):
        return steer != LEFT

    def nothing(steer, facing, dest):
        return False

    here = (5, 5)
    for dq in range(-4, 5):
        for dr in range(-4, 5):
            target = (5 + dq, 5 + dr)
            for facing in range(6):
                for can_turn in (True, False):
                    for allowed in (None, no_left, nothing):
                        assert seek_choice(here, facing, can_turn, target, allowed) == \
                            reference(here, facing, can_turn, target, allowed)
