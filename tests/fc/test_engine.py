"""The FC engine's rules: movement chart, acceleration, deceleration, turn and slip modes, HET,
shields and reinforcement, burn-through, the DAC walk, weapons, drones, tractors, transfers."""
import pytest
from hypothesis import given, settings, strategies as st

from paperrobot.core.dice import Dice
from paperrobot.core.errors import DataError, IllegalAction
from paperrobot.core.events import EventLog
from paperrobot.core.hexgrid import Hex, neighbour
from paperrobot.fc import Robot, build, load_ships, play
from paperrobot.fc import requests as opt
from paperrobot.fc.answers import AS_SHOTS
from paperrobot.fc.game import SPEEDS

from .helpers import A, D, drive, drone, run, setup


def allocate(game, ship, action):
    """An allocation through the request's check (where the rules are enforced), then applied."""
    game.apply_allocation(ship, opt.allocate_request(game, ship).parse(opt.encode("allocate", action)))


def move_ship(game, ship, move):
    """A move through the move request's check (FC.3A: the legal moves only), then carried out."""
    game.move_ship(ship, opt.move_request(game, ship, game.legal_moves(ship)).parse(move))


def commit(game, ship, shots):
    """Fire orders through the request's check (FC.GEN.ARC, FC.GEN.POWER), then paid."""
    return game.commit_fire(ship, opt.fire_request(game, ship).parse(opt.encode("fire", shots)))


@pytest.mark.parametrize("base,accel,subs", [(0, False, ()), (0, True, (4,)), (8, False, (4,)), (8, True, (2, 4)),
                                             (16, False, (2, 4)), (16, True, (2, 3, 4)), (24, False, (2, 3, 4)),
                                             (24, True, (1, 2, 3, 4))])
def test_subpulse_chart(base, accel, subs):
    game, _, _ = setup()
    r = game.ships["robot"]
    r.baseline, r.accel = base, accel
    assert game.subpulses(r) == subs


def test_acceleration_is_paid_and_adds_one_move_this_impulse():
    game, _, _ = setup(ppos=(30, 30))
    r, p = game.ships["robot"], game.ships["player"]
    answers = {"accelerate": "accel", "move": "straight", "fire": [], "launch": []}
    controllers = {"robot": Fixed(answers), "player": Fixed({**answers, "accelerate": "none"})}
    energy, start = r.available(), r.pos
    game.impulse = 1
    drive(game.run_impulse(), controllers)
    assert r.available() == energy - 1 and r.pos == Hex(10, 13)  # 16+1: three moves (SP2, SP3, SP4)
    assert p.pos == Hex(30, 28)  # 16: two moves
    controllers["robot"] = Fixed({**answers, "accelerate": "none"})
    drive(game.run_impulse(), controllers)
    assert r.pos == Hex(10, 15)  # back to baseline: the extra hex was for that impulse only


class Fixed:
    """A controller answering every request kind with a fixed action."""

    def __init__(self, answers):
        self.answers = answers

    def decide(self, request):
        from paperrobot.core.controller import Decision
        return Decision(self.answers[request.kind], ())


def test_deceleration_cancels_move_counts_for_turn_mode_not_slip():
    game, _, _ = setup()
    r = game.ships["robot"]
    r.since_turn, r.slip_ok = 0, False
    pos, energy = r.pos, r.available()
    move_ship(game, r, "decel")
    assert r.pos == pos and r.available() == energy - 1 and r.since_turn == 1 and not r.slip_ok


def test_turn_needs_turn_mode():
    game, _, _ = setup()
    r = game.ships["robot"]
    r.since_turn = 0
    with pytest.raises(IllegalAction):
        move_ship(game, r, "turn-left")
    r.since_turn = game.turn_mode(r)
    move_ship(game, r, "turn-left")
    assert r.facing == (D - 1) % 6 and r.since_turn == 1


def test_turn_mode_table_by_speed():
    game, _, _ = setup()
    r = game.ships["robot"]  # D7: turn mode B = [1, 2, 2, 3]
    r.baseline = 8
    assert game.turn_mode(r) == 1
    r.baseline = 24
    assert game.turn_mode(r) == 2
    r.accel = True
    assert game.turn_mode(r) == 3


def test_sideslip_mode():
    game, _, _ = setup()
    r = game.ships["robot"]
    start = r.pos
    move_ship(game, r, "slip-left")
    assert r.pos == neighbour(start, D - 1) and r.facing == D and not r.slip_ok
    with pytest.raises(IllegalAction):
        move_ship(game, r, "slip-right")
    move_ship(game, r, "straight")
    assert r.slip_ok


def test_het_faces_anywhere_and_moves_straight():
    game, _, _ = setup()
    r = game.ships["robot"]
    energy = r.available()
    start = r.pos
    move_ship(game, r, "het-A")
    assert r.facing == A and r.pos == neighbour(start, A) and r.available() == energy - r.spec.het_cost
    assert "turn-left" not in game.legal_moves(r)


def test_allocation_validation():
    game, _, _ = setup()
    r = game.ships["robot"]
    with pytest.raises(IllegalAction):
        allocate(game, r, {"speed": 12})
    with pytest.raises(IllegalAction):
        allocate(game, r, {"speed": 8, "regen": [1]})  # shield #1 is full
    r.shields[0] = 20
    r.energy, r.battery = 10.0, 0.0
    with pytest.raises(IllegalAction):
        allocate(game, r, {"speed": 8, "regen": [1, 1]})  # 8 + 4 > 10
    allocate(game, r, {"speed": 8, "regen": [1]})
    assert r.shields[0] == 21 and r.energy == 0.0 and SPEEDS == (0, 8, 16, 24)


def test_volley_reinforcement_shield_and_internal():
    game, _, _ = setup(1, 1, 1, 1)  # 5F roll (2d6=2: all), then a DAC table roll
    r = game.ships["robot"]  # 3 batteries: cap 3
    r.shields[0] = 5
    drive(game.apply_volley(r, 9, 1, "direct"), {"robot": Robot(game.dice)})
    assert r.shields[0] == 0 and r.internals == 1  # 9 - 3 reinforcement - 5 shield = 1


def test_burn_through_ten_point_rule():
    game, _, _ = setup(6, 6, 1)  # 5F 2d6=12: no reinforcement; DAC table 1
    r = game.ships["robot"]
    drive(game.apply_volley(r, 10, 1, "direct"), {"robot": Robot(game.dice)})
    assert r.shields[0] == 20 and r.internals == 1


def test_down_shield_cannot_be_reinforced():
    game, _, _ = setup(1)  # only the DAC roll: no reinforcement question is asked
    r = game.ships["robot"]
    r.shields[0] = 0
    drive(game.apply_volley(r, 3, 1, "direct"), {})
    assert r.internals == 3


def test_dac_walks_table_one():
    game, _, _ = setup(1)
    r = game.ships["robot"]
    warp, impulse = r.boxes["warp"], r.boxes["impulse"]
    drive(game.allocate_internal(r, 3), {"robot": Robot(game.dice)})  # R-warp, impulse, L-warp
    assert r.boxes["warp"] == warp - 2 and r.boxes["impulse"] == impulse - 1


def test_dac_alternate_and_new_table_after_ten():
    game, _, _ = setup(1, 1)
    r = game.ships["robot"]
    r.boxes["impulse"] = 0
    reactor = r.boxes["reactor"]
    drive(game.allocate_internal(r, 11), {"robot": Robot(game.dice)})  # entry 2: impulse gone -> reactor; point 11 rolls table 1 again
    assert r.boxes["reactor"] <= reactor - 1 and r.internals == 11


def test_destroyed_when_no_internal_box_left():
    game, _, _ = setup(*([1] * 60))
    r = game.ships["robot"]
    for k in r.boxes:
        r.boxes[k] = 0
    for w in r.weapons[1:]:
        w.alive = False
    for rack in r.racks:
        rack.alive = False
    drive(game.allocate_internal(r, 1), {"robot": Robot(game.dice)})
    assert r.destroyed and game.over


def test_disruptor_overload_range_limit_and_phaser_as_3():
    game, _, _ = setup()
    r = game.ships["robot"]
    disr = game._weapon(r, "disr-1")
    assert game.weapon_cost(disr, "overload", 8) == 4.0 and game.weapon_cost(disr, "overload", 9) is None
    assert game.weapon_cost(disr, "", 0) is None  # standard disruptors cannot fire at range 0
    ph1 = game._weapon(r, "ph1-1")
    assert game.weapon_cost(ph1, "as3", 2) == 0.5 and game.weapon_cost(ph1, "", 2) == 1.0


def test_each_weapon_once_per_turn():
    game, _, _ = setup(1, 1)
    r = game.ships["robot"]
    paid = commit(game, r, [["ph1-1", "ship", "", False]])
    with pytest.raises(IllegalAction):
        commit(game, r, [["ph1-1", "ship", "", False]])
    assert paid[0][4] == 1.0


def test_out_of_arc_fire_is_illegal():
    game, _, _ = setup(ppos=(10, 6))  # enemy astern
    with pytest.raises(IllegalAction):
        commit(game, game.ships["robot"], [["disr-1", "ship", "", False]])


def test_photon_arming_cycle():
    game, _, _ = setup()
    p = game.ships["player"]
    w = game._weapon(p, "phot-1")
    allocate(game, p, {"speed": 0, "photons": ["phot-1"]})
    assert w.arm == 1 and game.weapon_cost(w, "", 3) is None
    p.energy = 20.0
    allocate(game, p, {"speed": 0, "photons": ["phot-1"]})
    assert w.arm == 2 and game.weapon_cost(w, "", 3) == 0.0 and game.weapon_cost(w, "overload", 9) is None
    allocate(game, p, {"speed": 0, "photons": []})
    assert w.arm == 0  # not held: lost


def test_drone_moves_seeks_and_impacts_on_facing_shield():
    game, _, _ = setup(ppos=(10, 30))
    r = game.ships["robot"]  # at (10,10) facing D
    d = drone(game, "p1", (10, 13), facing=A)  # dead ahead, flying toward the robot
    for _ in range(3):
        game.move_drones()
    assert d.impacting and game.drone_shield(r, d) == 1


def test_drone_endurance():
    game, _, _ = setup()
    d = drone(game, "p1", (30, 30))
    game.turn = 4
    drive(game.end_of_turn(), {s: Fixed({"batteries": 0.0, "repair": [], "transfer": []}) for s in game.order})
    assert not game.drones and not d.alive


def test_add_then_phasers_then_tractor():
    game, _, _ = setup(6, 6)  # ADD misses (6 > 4); then the phaser... scripted below
    r = game.ships["robot"]
    r.add_shots = 1
    d = drone(game, "p1", (10, 10), impacting=True, approach=D)
    game.defend_step(r, d, "add")
    assert d.alive and r.add_shots == 0
    game.defend_step(r, d, "tractor")
    assert d.held_by == "robot" and not d.impacting


def test_tractored_drone_released_when_not_paid_hits_next_impulse():
    game, _, _ = setup()
    r = game.ships["robot"]
    d = drone(game, "p1", (10, 10), held_by="robot", approach=D)
    allocate(game, r, {"speed": 8, "hold": []})
    assert d.impacting and d.released and not d.held_by


def test_shield_transfer_rules():
    game, _, _ = setup()
    r = game.ships["robot"]
    r.shields = [30, 3, 22, 22, 22, 22]
    with pytest.raises(IllegalAction):
        drive(game.transfer(r), {"robot": Fixed({"transfer": [[1, 3, 4]]})})  # not adjacent
    with pytest.raises(IllegalAction):
        drive(game.transfer(r), {"robot": Fixed({"transfer": [[1, 2, 6]]})})  # more than 5
    drive(game.transfer(r), {"robot": Fixed({"transfer": [[1, 2, 5]]})})
    assert r.shields[:2] == [25, 8]


def test_bad_ship_file(tmp_path):
    (tmp_path / "x.toml").write_text('name = "x"\ntitle = "X"\nempire = "X"\nsource = "me"\npoints = 1\n'
                                     'turn_mode = "Q"\ndamage_control = 1\nshields = [1,1,1,1,1,1]\n[systems]\n')
    with pytest.raises(DataError) as err:
        load_ships(tmp_path)
    assert "x.toml" in str(err.value) and "turn_mode" in str(err.value)


@settings(max_examples=30, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10 ** 6), robot_vs_robot=st.booleans())
def test_property_battles_keep_invariants(seed, robot_vs_robot):
    log = EventLog()
    game = build(seed, log, "d7", "kzinti-bc" if robot_vs_robot else "federation-ca")
    outcome = run(game, {"robot": "robot", "player": "robot" if robot_vs_robot else "policy"})
    assert outcome.winner in ("robot", "player", None)
    assert 1 <= outcome.turns <= game.max_turns
    for s in game.ships.values():
        assert all(0 <= b <= m for b, m in zip(s.shields, s.shield_max))
        assert all(0 <= s.boxes[k] <= s.box_max(k) for k in s.boxes)
        assert s.energy >= -1e-9 and -1e-9 <= s.battery <= s.battery_cap() + 1e-9
        assert s.destroyed == (s.internal_boxes() == 0)
    assert log.events[0].kind == "setup" and log.events[-1].kind == "result"
    for e in log.of_kind("decision"):
        assert e.data["rule"].startswith("FC.") or e.data["rule"] == "POLICY"
    again = EventLog()
    run(build(seed, again, "d7", "kzinti-bc" if robot_vs_robot else "federation-ca"),
        {"robot": "robot", "player": "robot" if robot_vs_robot else "policy"})
    assert again.to_jsonl() == log.to_jsonl()  # the replay guarantee


def test_fixed_map_leaving_disengages_and_loses():
    from paperrobot.fc import parse_board
    game = build(1, map="42x30")
    r = game.ships["robot"]
    from paperrobot.core.hexgrid import from_offset
    r.pos, r.facing = from_offset(21, 1), A
    move_ship(game, r, "straight")
    assert r.disengaged and game.over
    game.start_internal = {s.side: s.internal_boxes() for s in game.ships.values()}
    outcome = game.outcome("disengaged")
    assert outcome.winner == "player" and outcome.result == "disengaged"
    with pytest.raises(Exception) as err:
        parse_board("10")
    assert "COLSxROWS" in str(err.value)
    assert parse_board("floating") is None


@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 10 ** 6))
def test_policy_never_leaves_a_fixed_map(seed):
    game = build(seed, map="42x30")
    run(game, {"robot": "robot", "player": "policy"})
    assert not game.ships["player"].disengaged


def test_simultaneous_fire_both_volleys_land():
    game, _, _ = setup(*([1] * 200), ppos=(10, 12))
    r, p = game.ships["robot"], game.ships["player"]
    shots = {"robot": [["disr-1", "ship", "overload", False]], "player": [["ph1-5", "ship", "", False]]}
    controllers = {s: Fixed({"fire": shots[s], "reinforce": 0}) for s in game.order}
    r.shields[0] = 0
    for k in r.boxes:  # the robot is one hit from destruction: a frame box and its disruptor
        r.boxes[k] = 1 if k == "frame" else 0
    for w in r.weapons:
        w.alive = w.id == "disr-1"
    for rack in r.racks:
        rack.alive = False
    shield = p.shields[0]
    drive(game.offensive_fire(), controllers)
    assert r.destroyed and game.over
    assert p.shields[0] == shield - 8  # range 2 overload: 8. The destroyed robot's overloaded disruptor still hit (simultaneous fire)


@pytest.mark.parametrize("name,old,new,field", [
    ("turn_modes", 'B = [1, 2, 2, 3]', 'B = [1, 2]', "one number per speed"),
    ("rules", '"phaser-3" = 0.5', '"phaser-4" = 0.5', "phaser-3"),
    ("phasers", "[4, 3, 2, 0, 0, 0]", "[4, 3, 2]", "one number per band")])
def test_user_tables_are_validated(tmp_path, name, old, new, field):
    from paperrobot.fc.data import DATA, load_tables
    text = (DATA / "tables" / f"{name}.toml").read_text()
    assert old in text
    (tmp_path / f"{name}.toml").write_text(text.replace(old, new))
    with pytest.raises(DataError) as err:
        load_tables(tmp_path)
    assert f"{name}.toml" in str(err.value) and field in str(err.value)


def test_pivot_is_a_turn_then_deceleration():
    game, _, _ = setup()
    r = game.ships["robot"]
    r.since_turn = 0
    assert "pivot-left" not in game.legal_moves(r)
    r.since_turn = 5
    pos, energy = r.pos, r.available()
    move_ship(game, r, "pivot-right")
    assert r.pos == pos and r.facing == (D + 1) % 6 and r.available() == energy - 1 and r.since_turn == 1


def test_kept_fire_request_takes_the_robots_shots_checked_as_the_forms_values():
    """FC.GEN.ARC, FC.GEN.POWER: a side flown in process answers the kept fire request (data AS_SHOTS) with its
    shots; they are checked by the same rules, give the action the form's values give, and are recorded as those."""
    game, _, _ = setup(1, 1)
    r = game.ships["robot"]
    game.in_process.add("robot")
    request = opt.fire_request(game, r)
    assert request.data == AS_SHOTS
    shots = [["ph1-1", "ship", "", True], ["disr-1", "ship", "overload", False]]
    values = opt.encode("fire", shots)
    assert request.parse(shots) == request.parse(values) == [["ph1-1", "ship", "", False],
                                                             ["disr-1", "ship", "overload", False]]
    assert request.encode(shots) == values and request.encode([]) == {} and request.parse([]) == []
    for bad in ([["ph1-1", "ship", "", False], ["ph1-1", "ship", "", False]], [["nope", "ship", "", False]],
                [["ph1-1", "ship", "bogus", False]], [["ph1-1", "ship", ""]], [[1, "ship", "", False]]):
        with pytest.raises(IllegalAction):
            request.parse(bad)
    r.energy, r.battery = 0.0, 0.0
    with pytest.raises(IllegalAction, match="no power"):
        opt.fire_request(game, r).parse(shots)


def test_policy_answers_the_kept_fire_request_with_its_shots_as_its_form_values_give():
    """FC.GEN.ARC, FC.GEN.POWER: the player policy flown in process answers the kept fire request (data AS_SHOTS)
    with its shots, the action its form's values give on a request that is not kept (a search's root question)."""
    game, _, _ = setup(robot="d7", other="federation-ca", rpos=(10, 10), ppos=(10, 12))
    game.impulse = 8  # the policy fires everything in arc on the last impulse
    p = game.ships["player"]
    plain = opt.fire_request(game, p)
    policy = game.controller("player", "policy")  # the engine's own policy: the side is flown in process
    kept = opt.fire_request(game, p)
    assert plain.data != AS_SHOTS and kept.data == AS_SHOTS
    as_values, as_shots = policy.decide(plain).action, policy.decide(kept).action
    assert isinstance(as_values, dict) and isinstance(as_shots, list) and as_shots
    assert kept.parse(as_shots) == plain.parse(as_values) and kept.encode(as_shots) == as_values
