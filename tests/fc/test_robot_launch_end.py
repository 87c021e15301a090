"""Robot steps 6A-6E (launch), 7A-7C (end of turn), the DAC choices and the general drone/order rules."""
import pytest

from paperrobot.core.controller import Decision, Request
from paperrobot.core.dice import Dice
from paperrobot.core.hexgrid import Hex, distance, neighbour
from paperrobot.fc import Robot, build
from paperrobot.fc.game import seek_facing
from paperrobot.fc.robot import repair_order

from .helpers import A, B, C, D, ask, drive, drone, rules, run, setup


def launch(game, robot):
    return ask(game, robot, "launch")


@pytest.mark.parametrize("roll,n", [(1, 2), (2, 2), (3, 1), (4, 1), (5, 0), (6, 0)])
def test_6a_enemy_within_8_closing(roll, n):
    game, robot, _ = setup(roll, ppos=(10, 14), pface=A)
    decision = launch(game, robot)
    assert decision.action == ["ship"] * n and rules(decision) == ["FC.6A"]


def test_6a_impulse_8_launches_two_on_5_6():
    game, robot, _ = setup(6, ppos=(10, 14), pface=A)
    game.impulse = 8
    assert launch(game, robot).action == ["ship", "ship"]


@pytest.mark.parametrize("again,n", [(1, 4), (3, 3), (5, 2)])
def test_6a_more_than_two_racks_roll_again(again, n):
    game, robot, _ = setup(2, again, robot="kzinti-bc", ppos=(10, 14), pface=A)
    decision = launch(game, robot)
    assert decision.action == ["ship"] * n and rules(decision) == ["FC.6A"]
    assert len(decision.reasons[0].rolls) == 2


def test_6a_only_one_ready():
    game, robot, _ = setup(1, ppos=(10, 14), pface=A)
    game.ships["robot"].racks[1].ammo = 0
    decision = launch(game, robot)
    assert decision.action == ["ship"] and "only 1" in decision.reasons[0].text


@pytest.mark.parametrize("roll,n", [(1, 1), (2, 2), (3, 0), (6, 0)])
def test_6b_enemy_within_8_moving_away(roll, n):
    game, robot, _ = setup(roll, ppos=(10, 14), pface=D)
    decision = launch(game, robot)
    assert decision.action == ["ship"] * n and rules(decision) == ["FC.6B"]


def test_6b_not_when_enemy_faster_than_16():
    game, robot, _ = setup(2, ppos=(10, 14), pface=D)
    game.ships["player"].baseline = 24
    assert rules(launch(game, robot)) == ["FC.6E"]


@pytest.mark.parametrize("roll,n,imp", [(1, 1, 3), (2, 2, 3), (3, 0, 3), (6, 0, 3), (4, 2, 8)])
def test_6c_enemy_9_12_closing(roll, n, imp):
    game, robot, _ = setup(roll, ppos=(10, 20), pface=A)
    game.impulse = imp
    decision = launch(game, robot)
    assert decision.action == ["ship"] * n and rules(decision) == ["FC.6C"]


@pytest.mark.parametrize("roll,n", [(1, 2), (2, 1), (4, 1), (5, 0), (6, 0)])
def test_6d_counter_drones(roll, n):
    game, robot, _ = setup(roll, ppos=(10, 40), pface=D)
    for i, q in enumerate((12, 13, 14)):
        drone(game, f"p{i}", (q, 10))
    decision = launch(game, robot)
    assert len(decision.action) == n and all(t.startswith("p") for t in decision.action)
    assert len(set(decision.action)) == n and rules(decision) == ["FC.6D"]


@pytest.mark.parametrize("roll,action", [(1, ["ship"]), (2, []), (6, [])])
def test_6e_other_cases(roll, action):
    game, robot, _ = setup(roll, ppos=(10, 40), pface=D)
    decision = launch(game, robot)
    assert decision.action == action and rules(decision) == ["FC.6E"]


def test_6e_nearest_target_may_be_a_drone():
    game, robot, _ = setup(1, ppos=(10, 40), pface=D)
    drone(game, "p9", (13, 10))
    assert launch(game, robot).action == ["p9"]


# ------------------------------------------------------------------ 7A-7C

def test_7a_batteries_take_as_much_as_possible():
    game, robot, _ = setup()
    r = game.ships["robot"]
    r.energy, r.battery = 5.0, 1.0
    decision = ask(game, robot, "batteries")
    assert decision.action == 2.0 and rules(decision) == ["FC.7A"]


def test_7b_repair_priorities_in_order():
    game, robot, _ = setup()
    r, p = game.ships["robot"], game.ships["player"]
    r.boxes["control"] = 0
    r.boxes["tractor"] = 0
    for w in r.weapons:  # every phaser lost: the arcs are uncovered
        if w.phaser:
            w.alive = False
    r.boxes["battery"] = 0
    for rack in r.racks:
        rack.ammo = 0
    r.boxes["transporter"] = 0
    game._weapon(r, "disr-1").alive = False
    r.boxes["warp"] -= 2
    r.boxes["lab"] -= 1
    r.boxes["probe"] = 0
    order = repair_order(game, r, p)
    assert order[:3] == ["control", "tractor", "ph1-1"]
    i = order.index("battery")
    assert order[i:i + 2] == ["battery", "battery"]
    assert order.index("reload-1") > i and order.index("transporter") > order.index("reload-1")
    seven = order[order.index("transporter") + 1:]
    assert seven[:3] == ["ph1-2", "warp", "ph1-3"] or seven[0].startswith("ph1")
    assert order.index("lab") > order.index("disr-1") and order.index("probe") > order.index("lab")
    decision = ask(game, robot, "repair", {"points": 4})
    assert decision.action == order and rules(decision) == ["FC.7B"]


def test_7b_one_battery_when_all_but_one_gone():
    game, robot, _ = setup()
    r = game.ships["robot"]
    r.boxes["battery"] = 1
    order = repair_order(game, r, game.ships["player"])
    assert order[0] == "battery" and order.count("battery") == 3  # step 4 once; the rest after step 9


def test_7b_engine_spends_points_in_order_and_finishes_started_box():
    game, robot, _ = setup()
    r = game.ships["robot"]
    r.boxes["control"] = 0
    game._weapon(r, "disr-1").alive = False
    drive(game.repair(r), {"robot": robot})  # 4 points: control (2) then 2 of the disruptor's 4
    assert r.boxes["control"] == 1 and r.repair_target == "disr-1" and r.repair_done == 2
    drive(game.repair(r), {"robot": robot})
    assert game._weapon(r, "disr-1").alive


@pytest.mark.parametrize("roll,moved", [(1, True), (4, True), (5, False), (6, False)])
def test_7c_shield_transfer(roll, moved):
    game, robot, _ = setup(roll)
    r = game.ships["robot"]
    r.shields = [30, 3, 10, 10, 10, 10]
    decision = ask(game, robot, "transfer")
    assert decision.action == ([[1, 2, 4]] if moved else []) and rules(decision) == ["FC.7C"]


@pytest.mark.parametrize("roll,pair", [(2, [2, 1, 4]), (5, [6, 1, 4])])
def test_7c_two_way_choice_lower_or_higher(roll, pair):
    game, robot, _ = setup(roll, 1)
    r = game.ships["robot"]
    r.shields = [2, 20, 10, 10, 10, 20]
    decision = ask(game, robot, "transfer")
    assert decision.action == [pair] and rules(decision) == ["FC.7C", "FC.7C"]


def test_7c_pairs_for_most_transfers():
    game, robot, _ = setup(1, 1)
    r = game.ships["robot"]
    r.shields = [20, 2, 10, 10, 10, 3]  # #1 could feed #2 or #6; #2 and #6 both weak: #1 feeds one of them
    decision = ask(game, robot, "transfer")
    assert len(decision.action) == 1


# ------------------------------------------------------------------ damage choices

def test_dac_phaser_prefers_fired():
    game, robot, _ = setup()
    r = game.ships["robot"]
    game._weapon(r, "ph1-2").fired = True
    decision = ask(game, robot, "dac_phaser", ["ph1-1", "ph1-2", "ph1-3"])
    assert decision.action == "ph1-2" and rules(decision) == ["FC.DAC.PHASER"]


def test_dac_phaser_lighter_phaser_first():
    game, robot, _ = setup()
    assert ask(game, robot, "dac_phaser", ["ph1-1", "ph2-3"]).action == "ph2-3"


def test_dac_phaser_one_with_no_target():
    game, robot, _ = setup(ppos=(10, 14))  # enemy ahead: ph2-3 (L+LR) and ph2-4 have no target; ph2-1 does
    r = game.ships["robot"]
    cands = ["ph2-1", "ph2-3"]
    assert game.in_arc(r, game._weapon(r, "ph2-1").arc, game.ships["player"].pos)
    assert ask(game, robot, "dac_phaser", cands).action == "ph2-3"


def test_dac_phaser_narrower_arc_then_die():
    game, robot, _ = setup(2, ppos=(10, 40), pface=D)
    decision = ask(game, robot, "dac_phaser", ["ph2-1", "ph2-3", "ph2-4"])  # 3-part arc vs two 2-part arcs
    assert decision.action == "ph2-4" and decision.reasons[0].rolls[0].value == 2


def test_dac_tractor():
    game, robot, _ = setup()
    d = ask(game, robot, "dac_tractor", {"free": True, "holding": True})
    assert d.action == "free" and rules(d) == ["FC.DAC.TRACTOR"]
    assert ask(game, robot, "dac_tractor", {"free": False, "holding": True}).action == "holding"


def test_dac_tractor_engine_keeps_the_held_drone():
    game, robot, _ = setup()
    r = game.ships["robot"]
    d = drone(game, "p1", (10, 10), held_by="robot")
    drive(game._take(r, "tractor"), {"robot": robot})
    assert d.held_by == "robot" and r.boxes["tractor"] == 1


# ------------------------------------------------------------------ general rules

def test_gen_drones_go_straight_when_that_closes():
    assert seek_facing(Hex(0, 0), D, Hex(0, 5)) == D  # FC.GEN.DRONES


def test_gen_drones_turn_only_when_needed():
    f = seek_facing(Hex(0, 0), A, Hex(4, 0))
    assert f == B  # one hexside toward the target (FC.GEN.DRONES)
    assert distance(neighbour(Hex(0, 0), f), Hex(4, 0)) < distance(neighbour(Hex(0, 0), A), Hex(4, 0))


class Log:
    def __init__(self, inner, name, seen):
        self.inner, self.name, self.seen = inner, name, seen

    def decide(self, request):
        g = request.state
        self.seen.append((request.kind, self.name, (g.turn, g.impulse, g.subpulse)))
        return self.inner.decide(request)


def test_gen_order_human_allocates_first_and_robot_moves_last():
    seen = []
    game = build(4)
    game.max_turns = 1
    run(game, {side: Log(Robot(game.dice), side, seen) for side in game.sides})
    allocs = [who for kind, who, _ in seen if kind == "allocate"]
    assert allocs == ["player", "robot"]  # FC.GEN.ORDER
    moves = [(sp, who) for kind, who, sp in seen if kind == "move"]
    for i in range(len(moves) - 1):
        if moves[i][0] == moves[i + 1][0] and moves[i][1] != moves[i + 1][1]:
            assert moves[i][1] == "player" and moves[i + 1][1] == "robot"


def test_7b_reload_add_unless_opponent_has_no_drones():
    import dataclasses
    game, robot, _ = setup()
    r, p = game.ships["robot"], game.ships["player"]
    r.spec = dataclasses.replace(r.spec, add_shots=4)
    r.add_shots = 0
    assert "reload-add" in repair_order(game, r, p)
    for rack in p.racks:
        rack.ammo = 0
    assert "reload-add" not in repair_order(game, r, p)
    r.boxes["lab"] -= 1  # something to repair, so the engine asks
    p.racks[0].ammo = 1
    drive(game.repair(r), {"robot": robot})
    assert r.add_shots == 4
