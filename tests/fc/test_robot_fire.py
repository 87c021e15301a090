"""Robot steps 4A-4D2 (defensive fire), 5A-5F (offensive fire), the general power and arc rules."""
import pytest

from paperrobot.core.hexgrid import Hex

from .helpers import A, C, D, ask, drone, rules, setup


def impacted(game, did, approach, **kw):
    r = game.ships["robot"]
    return drone(game, did, (r.pos.q, r.pos.r), impacting=True, approach=approach, **kw)


# ------------------------------------------------------------------ 4A-4C

def test_4a_largest_potential_damage_first_no_roll():
    game, robot, d = setup(3, 3, 3)
    impacted(game, "p1", A)  # robot faces D: from A = shield #4
    impacted(game, "p2", D)  # shield #1
    impacted(game, "p3", D)
    decision = ask(game, robot, "defend", ["p1", "p2", "p3"])
    assert [did for did, _ in decision.action] == ["p2", "p3", "p1"]
    assert rules(decision)[0] == "FC.4A" and not decision.reasons[0].rolls
    assert d.pending == 0


@pytest.mark.parametrize("roll,first", [(1, "p2"), (4, "p1")])
def test_4a_tie_broken_by_die(roll, first):
    game, robot, _ = setup(roll, 5, 5)
    impacted(game, "p1", A)  # shield #4
    impacted(game, "p2", D)  # shield #1
    decision = ask(game, robot, "defend", ["p1", "p2"])
    assert decision.action[0][0] == first
    assert rules(decision)[0] == "FC.4A" and decision.reasons[0].rolls[0].value == roll


@pytest.mark.parametrize("roll,steps", [
    (1, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]),
    (2, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]),
    (3, ["add", "phaser-3", "phaser-2-as3", "tractor"]),
    (4, ["add", "phaser-3", "phaser-2-as3", "tractor"]),
    (5, ["add", "phaser-3", "tractor"]),
    (6, ["add", "phaser-3"])])
def test_4b_penetrating_drone_table(roll, steps):
    game, robot, _ = setup(roll)
    game.ships["robot"].shields[0] = 8
    impacted(game, "p1", D)
    decision = ask(game, robot, "defend", ["p1"])
    assert decision.action == [["p1", steps]]
    assert rules(decision) == ["FC.4A", "FC.4B"]


@pytest.mark.parametrize("roll,steps", [
    (1, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]),
    (2, ["add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "tractor"]),
    (3, ["add", "phaser-3", "tractor"]), (4, ["add", "phaser-3", "tractor"]),
    (5, ["add", "phaser-3"]), (6, ["add", "phaser-3"])])
def test_4c_non_penetrating_drone_table(roll, steps):
    game, robot, _ = setup(roll)
    impacted(game, "p1", D)  # one drone, 12 points, against shield #1 of 30
    decision = ask(game, robot, "defend", ["p1"])
    assert decision.action == [["p1", steps]]
    assert rules(decision) == ["FC.4A", "FC.4C"]


def test_4b_two_drones_together_penetrate():
    game, robot, _ = setup(6, 6)
    game.ships["robot"].shields[0] = 20  # 24 points on a 20-box shield
    impacted(game, "p1", D)
    impacted(game, "p2", D)
    assert rules(ask(game, robot, "defend", ["p1", "p2"])) == ["FC.4A", "FC.4B", "FC.4B"]


# ------------------------------------------------------------------ 4D, 5F

def reinforce(game, robot, **o):
    options = {"damage": 12, "shield": 1, "cap": 3, "kind": "drone", "penetrates": True, **o}
    return ask(game, robot, "reinforce", options)


@pytest.mark.parametrize("roll,facing,amount", [(1, False, 3), (3, False, 3), (4, True, 3), (5, True, 3),
                                                (4, False, 0), (5, False, 0), (6, True, 0)])
def test_4d1_reinforce_penetrating(roll, facing, amount):
    game, robot, _ = setup(roll, ppos=(10, 14) if facing else (10, 6))
    decision = reinforce(game, robot)
    assert decision.action == amount and rules(decision) == ["FC.4D1"]


@pytest.mark.parametrize("roll,facing,amount", [(1, False, 3), (2, False, 3), (3, True, 3), (4, True, 3),
                                                (3, False, 0), (5, True, 0), (6, True, 0)])
def test_4d2_reinforce_not_penetrating(roll, facing, amount):
    game, robot, _ = setup(roll, ppos=(10, 14) if facing else (10, 6))
    decision = reinforce(game, robot, penetrates=False)
    assert decision.action == amount and rules(decision) == ["FC.4D2"]


@pytest.mark.parametrize("dice,amount", [((1, 1), 3), ((2, 3), 3), ((3, 3), 2), ((4, 6), 2), ((5, 6), 0),
                                         ((6, 6), 0)])
def test_5f_reinforce_after_direct_fire(dice, amount):
    game, robot, _ = setup(*dice)
    r = game.ships["robot"]
    r.energy, r.battery = 2.0, 3.0  # half of 5 available = 2
    decision = reinforce(game, robot, kind="direct", damage=10, cap=3)
    assert decision.action == amount and rules(decision) == ["FC.5F"]


# ------------------------------------------------------------------ 5B-5E

def fire(game, robot):
    return ask(game, robot, "fire")


def kinds(game, decision):
    ship = game.ships["robot"]
    out = []
    for wid, target, mode, _ in decision.action:
        w = game._weapon(ship, wid)
        out.append((w.kind, mode, target))
    return out


def test_5b_last_impulse_fires_everything_overloaded_in_range():
    game, robot, d = setup(ppos=(10, 16))  # range 6
    game.impulse = 8
    decision = fire(game, robot)
    got = kinds(game, decision)
    assert ("disruptor", "overload", "ship") in got and ("phaser-1", "", "ship") in got
    assert sum(1 for k in got if k[0] == "disruptor") == 4
    assert rules(decision)[0] == "FC.5B" and d.pending == 0


def test_5b_range_0_fires_the_disruptors_overloaded():
    """FC.5B at range 0: a standard disruptor cannot fire there but an overload can, and the step says
    "overloaded if energy is available and the target is in overload range": all four fire overloaded."""
    game, robot, d = setup(ppos=(10, 10))  # the enemy in the robot's hex
    game.impulse = 8
    decision = fire(game, robot)
    got = kinds(game, decision)
    assert [m for k, m, _ in got if k == "disruptor"] == ["overload"] * 4
    assert ("phaser-1", "", "ship") in got
    assert rules(decision) == ["FC.5B"] and d.pending == 0


@pytest.mark.parametrize("energy,fired", [(3.0 + 4.0, 1), (3.0 + 8.0, 2)])
def test_5b_range_0_overloads_as_power_allows(energy, fired):
    """FC.GEN.POWER at range 0: only overloads can fire, as many as the power pays for (after the phaser-1s)."""
    game, robot, _ = setup(ppos=(10, 10))
    game.impulse = 8
    r = game.ships["robot"]
    r.energy, r.battery = energy, 0.0
    decision = ask(game, robot, "fire", None)
    got = [(w, m) for w, _, m, _ in decision.action if w.startswith("disr")]
    assert len(got) == fired and all(m == "overload" for _, m in got)
    assert "FC.GEN.POWER" in rules(decision)


def test_5b_beyond_overload_range_fires_standard():
    game, robot, _ = setup(ppos=(10, 22))  # range 12
    game.impulse = 8
    got = kinds(game, fire(game, robot))
    assert ("disruptor", "", "ship") in got and ("disruptor", "overload", "ship") not in got


@pytest.mark.parametrize("roll,want,not_want", [
    (1, {"phaser-1", "disruptor"}, set()), (2, {"phaser-1", "disruptor"}, set()),
    (3, {"phaser-1", "disruptor"}, set()), (5, {"phaser-1", "disruptor"}, set()),
    (6, {"phaser-1"}, {"disruptor"})])
def test_5c_range_0_4_table(roll, want, not_want):
    game, robot, _ = setup(roll, robot="kzinti-bc", ppos=(10, 13), pface=D)  # range 3, dead ahead
    game.ships["robot"].facing = D
    decision = fire(game, robot)
    got = {k for k, _, _ in kinds(game, decision)}
    assert want <= got and not (not_want & got)
    assert rules(decision)[0] == "FC.5C"


@pytest.mark.parametrize("roll,ph3", [(1, True), (2, True), (3, False), (5, False), (6, False)])
def test_5c_phaser_3s_only_on_1_2(roll, ph3):
    game, robot, _ = setup(roll, robot="kzinti-bc", ppos=(7, 12))  # range 3 abeam: the R+RR phaser-3s bear
    got = {k for k, _, _ in kinds(game, fire(game, robot))}
    assert ("phaser-3" in got) is ph3 and "disruptor" not in got


def test_5c_overloads_when_power_allows():
    game, robot, _ = setup(3, ppos=(10, 13))
    assert ("disruptor", "overload", "ship") in kinds(game, fire(game, robot))


def test_5c_range_one_note_two_phasers_as_phaser_3():
    game, robot, _ = setup(3, ppos=(10, 11))
    r = game.ships["robot"]
    r.energy, r.battery = 1.0, 0.0
    decision = fire(game, robot)
    assert [m for _, m, _ in kinds(game, decision)] == ["as3", "as3"]
    assert "FC.5C" in rules(decision)


def test_gen_power_standard_before_overload():
    game, robot, _ = setup(1, ppos=(10, 13))
    r = game.ships["robot"]
    r.energy, r.battery = 3.0 + 8.0 + 2.0, 0.0  # ph-1s, four standard disruptors, one overload upgrade
    got = kinds(game, fire(game, robot))
    disr = [m for k, m, _ in got if k == "disruptor"]
    assert len(disr) == 4 and disr.count("overload") == 1
    assert "FC.GEN.POWER" in rules(fire_again(game, robot, 1))


def fire_again(game, robot, roll):
    for w in game.ships["robot"].weapons:
        w.fired = False
    game.dice.script(roll)
    return fire(game, robot)


def test_gen_power_fewer_phasers():
    game, robot, _ = setup(6, ppos=(10, 13))
    r = game.ships["robot"]
    r.energy, r.battery = 2.0, 0.0
    decision = fire(game, robot)
    assert len(decision.action) == 2 and "FC.GEN.POWER" in rules(decision)


def test_gen_arc_out_of_arc_weapons_ignored():
    game, robot, _ = setup(1, ppos=(4, 13))  # abeam right at range 6? no: use range 4 abeam
    game.ships["player"].pos = Hex(7, 12)  # range 3, R arc
    decision = fire(game, robot)
    got = kinds(game, decision)
    assert all(k != "disruptor" for k, _, _ in got)
    assert "FC.GEN.ARC" in rules(decision)
    for wid, *_ in decision.action:
        w = game._weapon(game.ships["robot"], wid)
        assert game.in_arc(game.ships["robot"], w.arc, game.ships["player"].pos)


def test_5d_special_hold_fire_on_closing_course_at_16():
    game, robot, d = setup(ppos=(10, 16), pface=A)  # closing, both baseline 16
    decision = fire(game, robot)
    assert decision.action == [] and rules(decision) == ["FC.5D"] and d.pending == 0


def test_5d_special_ignored_when_facing_a_down_shield():
    game, robot, _ = setup(6, ppos=(10, 16), pface=A)
    game.ships["player"].shields[0] = 0
    decision = fire(game, robot)
    assert rules(decision) == ["FC.5D"] and decision.reasons[0].rolls[0].value == 6


def test_5d_special_faster_but_behind():
    game, robot, d = setup(ppos=(10, 16), pface=D)  # enemy running away ahead of the robot
    game.ships["robot"].baseline = 24
    decision = fire(game, robot)
    assert decision.action == [] and d.pending == 0


@pytest.mark.parametrize("roll,want,not_want", [
    (1, {"phaser-1", "disruptor"}, set()), (2, {"phaser-1"}, {"disruptor"}), (3, {"phaser-1"}, {"disruptor"}),
    (4, {"phaser-1"}, {"disruptor", "phaser-2"}), (5, {"phaser-1"}, {"disruptor", "phaser-2"}),
    (6, set(), {"phaser-1", "disruptor", "phaser-2"})])
def test_5d_range_5_8_table(roll, want, not_want):
    game, robot, _ = setup(roll, ppos=(10, 16), pface=D)  # moving away at the same speed: no special
    decision = fire(game, robot)
    got = {k for k, _, _ in kinds(game, decision)}
    assert want <= got and not (not_want & got)
    assert rules(decision)[0] == "FC.5D"


def test_5d_ph3_only_with_enemy_in_fa():
    game, robot, _ = setup(1, robot="kzinti-bc", ppos=(4, 13), pface=D)  # range 6, abeam
    got = {k for k, _, _ in kinds(game, fire(game, robot))}
    assert "phaser-3" not in got


def test_5d_faster_with_enemy_in_fa_no_phaser_1_on_4():
    game, robot, _ = setup(4, ppos=(10, 16), pface=C)  # enemy heading sideways, robot faster
    game.ships["robot"].baseline = 24
    decision = fire(game, robot)
    assert decision.action == [] and rules(decision)[0] == "FC.5D"


def test_5d_faster_with_enemy_in_fa_only_waist_phasers_on_2():
    game, robot, _ = setup(2, ppos=(10, 16), pface=C)
    game.ships["robot"].baseline = 24
    decision = fire(game, robot)
    from paperrobot.fc import geometry as geo
    for wid, *_ in decision.action:
        assert geo.is_waist_or_rear(game._weapon(game.ships["robot"], wid).arc)


def test_5e_special_closing_course_holds_fire():
    game, robot, d = setup(ppos=(10, 22), pface=A)
    decision = fire(game, robot)
    assert decision.action == [] and rules(decision) == ["FC.5E"] and d.pending == 0


@pytest.mark.parametrize("roll,want,not_want", [
    (1, {"phaser-1", "disruptor"}, set()), (2, {"phaser-1", "disruptor"}, set()),
    (3, {"phaser-1"}, {"disruptor"}), (4, set(), {"phaser-1", "disruptor"}), (6, set(), {"phaser-1"})])
def test_5e_range_9_15_table(roll, want, not_want):
    game, robot, _ = setup(roll, ppos=(10, 22), pface=D)
    decision = fire(game, robot)
    got = kinds(game, decision)
    assert want <= {k for k, _, _ in got} and not (not_want & {k for k, _, _ in got})
    assert all(m != "overload" for _, m, _ in got)
    assert rules(decision)[0] == "FC.5E"


def test_5e_faster_with_enemy_in_fa_no_fire():
    game, robot, _ = setup(1, ppos=(10, 22), pface=C)
    game.ships["robot"].baseline = 24
    assert fire(game, robot).action == []


def test_beyond_15_no_fire_no_roll():
    game, robot, d = setup(ppos=(10, 28), pface=D)
    decision = fire(game, robot)
    assert decision.action == [] and d.pending == 0


# ------------------------------------------------------------------ 5A, 5A1

def near_drone(game, dist=1, did="p1", abeam=False):
    r = game.ships["robot"]
    if abeam:  # direction E of a robot facing D: its R arc, where the Kzinti phaser-3s bear
        return drone(game, did, (r.pos.q - dist, r.pos.r + dist))
    return drone(game, did, (r.pos.q, r.pos.r + dist))  # dead ahead of a robot facing D


@pytest.mark.parametrize("roll", [1, 2, 3, 4, 5])
def test_5a_phaser_3_at_adjacent_drone(roll):
    game, robot, _ = setup(roll, 6, robot="kzinti-bc", ppos=(10, 30))  # 6: the 5A1 roll (enemy far): no fire
    near_drone(game, abeam=True)
    decision = fire(game, robot)
    first = decision.action[0]
    assert first[1] == "p1" and game._weapon(game.ships["robot"], first[0]).kind == "phaser-3"
    assert rules(decision)[0] == "FC.5A"


def test_5a_roll_1_without_phaser_3_fires_phaser_2_or_1_as_phaser_3():
    game, robot, _ = setup(1, 6, ppos=(10, 30))  # D7 has no phaser-3
    near_drone(game)
    decision = fire(game, robot)
    wid, target, mode, _ = decision.action[0]
    assert target == "p1" and mode == "as3" and rules(decision)[0] == "FC.5A"


def test_5a_roll_2_4_only_a_phaser_that_cannot_fire_at_the_ship():
    game, robot, _ = setup(3, 6, ppos=(10, 16), pface=D)  # enemy ahead in every forward arc
    near_drone(game)
    r, p = game.ships["robot"], game.ships["player"]
    decision = fire(game, robot)
    drone_shots = [s for s in decision.action if s[1] == "p1"]
    for wid, *_ in drone_shots:
        assert not game.in_arc(r, game._weapon(r, wid).arc, p.pos)
    assert rules(decision)[0] == "FC.5A"


def test_5a_roll_5_no_phaser_3_no_fire():
    game, robot, _ = setup(5, 6, ppos=(10, 30))
    near_drone(game)
    decision = fire(game, robot)
    assert not [s for s in decision.action if s[1] == "p1"] and rules(decision)[0] == "FC.5A"


@pytest.mark.parametrize("weak,shots", [(True, 1), (False, 0)])
def test_5a_roll_6_fires_only_at_weak_shield_when_tractors_short(weak, shots):
    game, robot, _ = setup(6, 6, ppos=(10, 30))
    near_drone(game, did="p1")
    near_drone(game, 2, "p2")
    near_drone(game, 3, "p3")
    r = game.ships["robot"]
    r.shields[0] = 6 if weak else 30
    decision = fire(game, robot)
    assert len([s for s in decision.action if s[1] == "p1"]) == shots
    assert rules(decision)[0] == "FC.5A"


@pytest.mark.parametrize("roll,kind", [(1, "phaser-1"), (2, "phaser-1"), (3, "phaser-1"), (4, None), (6, None)])
def test_5a1_drone_within_two_enemy_far(roll, kind):
    game, robot, _ = setup(roll, ppos=(10, 30))  # enemy 20 hexes away: beyond 15, no 5B-5E roll
    near_drone(game, 2)
    decision = fire(game, robot)
    shots = [s for s in decision.action if s[1] == "p1"]
    assert "FC.5A1" in rules(decision)
    if kind:
        assert game._weapon(game.ships["robot"], shots[0][0]).kind == kind and shots[0][3] is True
    else:
        assert not shots


def test_5a1_phaser_2_when_no_phaser_1():
    game, robot, _ = setup(2, ppos=(10, 30))
    for w in game.ships["robot"].live_weapons("phaser-1"):
        w.alive = False
    game.ships["robot"].facing = D
    near_drone(game, 2)
    r = game.ships["robot"]
    decision = fire(game, robot)
    shots = [s for s in decision.action if s[1] == "p1"]
    bearing = [w for w in r.live_weapons("phaser-2") if game.in_arc(r, w.arc, game.drones[0].pos)]
    assert bool(shots) == bool(bearing)
