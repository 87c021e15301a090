"""The Cadet robot: SFB.R1-R7, R9, R3.MAP (seeds 002 and 000), each decision with its rule ID."""
from pathlib import Path

from paperrobot.sfb.movement import LEFT, RIGHT, STRAIGHT

from .helpers import ask_robot, drive, make, place, robot_of, ships, weapon


def ask(game, ship, kind):
    return ask_robot(game, ship, kind)


def fired_keys(decision):
    return {key for key, _ in decision.action}


def test_r1_speed_twelve_or_eight():
    """SFB.R1: the robot moves at 12 every turn (8 on the 8-impulse variant of seed 002)."""
    game = make()
    _, kl = ships(game)
    game.turn = 0
    drive(game, game.start_turn())
    assert kl.speed == 12
    game8 = make(impulses=8)
    drive(game8, game8.start_turn())
    assert ships(game8)[1].speed == 8


def test_r1_rate_rule_holds_fire_across_turn_boundary():
    """SFB.R1: a weapon fired on impulse 16 cannot fire before impulse 4 of the next turn."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    game.robot_turn_start(kl)
    for w in kl.weapons:
        w.last_fired, w.fired_turn = 16, 1
    game.turn, game.impulse = 2, 1
    game.robot_turn_start(kl)
    decision = ask(game, kl, "fire")
    assert decision.action == () and decision.rules == ("SFB.R2",)  # PFP reached but nothing may fire yet
    game.impulse = 4
    decision = ask(game, kl, "fire")
    assert fired_keys(decision) == {"phaser-2#1", "phaser-2#2", "disruptor-A", "disruptor-B"}
    assert "SFB.R3" in decision.rules and "SFB.R1" in decision.rules


def test_r2_pursues_as_seeking_weapon_then_primary_fire_point():
    """SFB.R2: follow as a seeker until within 4 hexes, then fire every weapon that bears."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "0810", "D")
    game.robot_turn_start(kl)
    move = ask(game, kl, "move")
    assert move.action == LEFT and move.rules[0] == "SFB.R2"  # 1310 is closer to 0810 than 1409
    game.impulse = 5
    assert ask(game, kl, "fire").action == ()  # range 6: keep pursuing, no fire
    place(fed, "1406", "D")
    decision = ask(game, kl, "fire")
    assert decision.rules[0] == "SFB.R2"
    assert fired_keys(decision) == {"phaser-2#1", "phaser-2#2", "disruptor-A", "disruptor-B"}


def test_r2_last_impulse_fires_if_no_primary_fire_point():
    """SFB.R2: no PFP in the turn -> fire all weapons that bear on the last impulse."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1416", "A")
    place(fed, "1406", "D")  # range 10
    game.robot_turn_start(kl)
    game.impulse = 15
    assert ask(game, kl, "fire").action == ()
    game.impulse = 16
    decision = ask(game, kl, "fire")
    assert decision.rules[0] == "SFB.R2" and fired_keys(decision) == {"phaser-2#1", "phaser-2#2", "disruptor-A",
                                                                    "disruptor-B"}


def after_primary(game, kl, *unfired):
    robot = robot_of(game, kl)
    game.robot_turn_start(robot.ship)
    robot.ship.primary_done = True
    for w in kl.weapons:
        if w.key not in unfired and w.kind != "drone":
            w.fired_turn, w.last_fired = game.turn, game.now
    return robot


def test_r3_turns_toward_more_unfired_weapons():
    """SFB.R3: turn 60 degrees toward the side that brings more unfired weapons to bear."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    after_primary(game, kl, "phaser-2#3")  # LR+L: two right turns bring the target into L
    move = ask(game, kl, "move")
    assert move.action == RIGHT and move.rules == ("SFB.R3",)


def test_r3_tie_goes_to_stronger_shields_then_coin():
    """SFB.R3 tie (seed 000): side with more undamaged shield boxes; equal -> coin. Option "coin": coin only."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    after_primary(game, kl, "phaser-2#3", "phaser-2#4")
    kl.shields[1] = 2  # right front shield damaged: the left side is stronger
    move = ask(game, kl, "move")
    assert move.action == LEFT and move.rules == ("SFB.R3",) and "shield" in move.reasons[0].text
    kl.shields[1] = 12
    kl.tie_side = None  # as after a firing
    game.dice.script(2)  # tails -> right
    move = ask(game, kl, "move")
    assert move.action == RIGHT and move.reasons[0].rolls[0].sides == 2
    again = ask(game, kl, "move")  # no new toss until the robot fires again
    assert again.action == RIGHT and not again.reasons[0].rolls
    coin = make(tiebreak="coin", dice=(1,))
    fed, kl = ships(coin)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    after_primary(coin, kl, "phaser-2#3", "phaser-2#4")
    kl.shields[1] = 2
    move = ask(coin, kl, "move")
    assert move.action == LEFT and move.reasons[0].rolls  # the coin decided, shields ignored


def test_r3_secondary_fire_point():
    """SFB.R3: after the PFP every unfired weapon fires as soon as it bears."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "C")
    place(fed, "1407", "D")  # now on the robot's left
    after_primary(game, kl, "phaser-2#3")
    decision = ask(game, kl, "fire")
    assert fired_keys(decision) == {"phaser-2#3"} and decision.rules[0] == "SFB.R3"


def test_r4_no_unfired_weapons_keep_straight_and_r6_reload():
    """SFB.R4 (A): nothing left to fire -> straight to the end of the turn; SFB.R6: reload next turn."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    robot = after_primary(game, kl)
    move = ask(game, kl, "move")
    assert move.action == STRAIGHT and move.rules == ("SFB.R4",)
    ammo = weapon(kl, "drone-1").ammo
    game.turn += 1
    game.robot_turn_start(robot.ship)
    assert not robot.ship.primary_done and weapon(kl, "drone-1").ammo == ammo
    assert all(w.ready for w in kl.weapons if w.kind != "drone")


def test_r4b_unfired_weapons_lapse_at_end_of_turn():
    """SFB.R4 (B): unfired weapons that never bear do not fire; the next turn starts fresh (SFB.R6)."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    robot = after_primary(game, kl, "phaser-2#3")
    game.impulse = 16
    assert ask(game, kl, "fire").action == ()
    game.turn += 1
    game.impulse = 1
    game.robot_turn_start(robot.ship)
    assert robot.unfired()  # all reloaded


def test_r3_map_never_leaves_the_map():
    """SFB.R3.MAP: heading for the top edge with turn mode 2, the robot turns before it is trapped."""
    game = make()
    fed, kl = ships(game)
    place(kl, "1402", "A")
    place(fed, "1410", "D")
    after_primary(game, kl)
    move = ask(game, kl, "move")
    assert move.action in (LEFT, RIGHT) and move.rules == ("SFB.R4", "SFB.R3.MAP")


def test_r3_map_fires_at_a_ship_that_must_leave():
    """SFB.R3.MAP: the target in an edge hex that must leave next impulse draws all fire, even before the PFP."""
    game = make()
    fed, kl = ships(game)
    place(kl, "2807", "A")
    place(fed, "2801", "A", straight=1, speed=16)  # cannot turn yet: its next move leaves the map
    game.robot_turn_start(kl)
    game.impulse = 5
    decision = ask(game, kl, "fire")
    assert decision.rules[0] == "SFB.R3.MAP" and "phaser-2#1" in fired_keys(decision)


def test_r5_drone_on_first_impulse():
    """SFB.R5: one drone at the enemy on the first impulse of every turn."""
    game = make()
    fed, kl = ships(game)
    decision = ask(game, kl, "launch")
    assert decision.action == ("drone-1",) and decision.rules == ("SFB.R5",)
    game.impulse = 2
    assert ask(game, kl, "launch").action == ()


def test_r7_federation_robot_fires_one_photon_a_turn():
    """SFB.R7: a Federation robot fires one (and only one) photon each turn."""
    game = make(robot="federation", player="klingon")
    kl, fed = ships(game)
    place(fed, "1410", "A")
    place(kl, "1406", "D")
    game.robot_turn_start(fed)
    decision = ask(game, fed, "fire")
    photons = [k for k in fired_keys(decision) if k.startswith("photon")]
    assert len(photons) == 1 and "SFB.R7" in decision.rules
    for key, _ in decision.action:  # the engine fires them (what the robot counts is the weapons' state)
        weapon(fed, key).fired_turn, weapon(fed, key).last_fired = game.turn, game.now
    assert all(not k.startswith("photon") for k, _ in ask(game, fed, "fire").action)


def test_r9_four_photon_ship_fires_two(tmp_path: Path):
    """SFB.R9: adapted to a ship with four photons, two fire each turn (user ship file via ships_dir)."""
    text = (Path(__file__).parents[2] / "src/paperrobot/sfb/data/ships/federation.toml").read_text()
    text = text.replace('name = "federation"', 'name = "fed-heavy"')
    text += '[[weapons]]\nid = "C"\ntype = "photon"\narc = "FA"\n[[weapons]]\nid = "D"\ntype = "photon"\narc = "FA"\n'
    (tmp_path / "fed-heavy.toml").write_text(text)
    game = make(robot="fed-heavy", player="klingon", ships_dir=tmp_path)
    kl, fed = ships(game)
    place(fed, "1410", "A")
    place(kl, "1406", "D")
    robot = robot_of(game, fed)
    game.robot_turn_start(robot.ship)
    assert robot.photon_limit == 2
    photons = [k for k in fired_keys(ask(game, fed, "fire")) if k.startswith("photon")]
    assert len(photons) == 2


def test_r3_map_overrides_pursuit_near_the_edge():
    """SFB.R3.MAP: where the seeking course would trap the robot against the edge, it takes a safe move."""
    from paperrobot.core.hexgrid import label
    from paperrobot.sfb.movement import candidates, seek_choice, viable_states
    game = make()
    fed, kl = ships(game)
    found = 0
    for col in range(1, 29):
        for facing in "ABCDEF":
            place(kl, f"{col:02d}02", facing, straight=2, speed=12)
            place(fed, f"{(col + 3) % 28 + 1:02d}01", "A")
            if (kl.hex[0], kl.hex[1], kl.facing, 2) not in viable_states(28, 17, 2):
                continue  # a state the robot can never be in (already trapped)
            steer, f, dest = seek_choice(kl.hex, kl.facing, True, fed.hex)
            if game.viable(kl, steer, f, dest):
                continue
            kl.primary_done = False
            move = ask(game, kl, "move")
            assert move.rules == ("SFB.R2", "SFB.R3.MAP"), (label(kl.hex), facing)
            chosen = next(c for c in candidates(kl.hex, kl.facing, True) if c[0] == move.action)
            assert game.viable(kl, *chosen)
            found += 1
    assert found


def test_the_robot_never_writes_game_state_it_hands_its_memory_to_the_engine():
    """SFB.R2 Primary Fire Point: the robot notes that it has been taken in Decision.memory; only the engine stores
    it on the ship (so a save, a copy or a look-ahead never sees a half-made decision)."""
    from paperrobot.core.contract import Request
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1407", "D")
    game.robot_turn_start(kl)
    decision = game.robot_for(kl).decide(Request("fire", "robot", state=game, subject=kl))
    assert decision.rules[0] == "SFB.R2" and decision.memory == {"primary_done": True, "tie_side": None}
    assert kl.primary_done is False  # untouched by the robot
    game.remember(kl, decision.memory)
    assert kl.primary_done is True
    again = game.robot_for(kl).decide(Request("fire", "robot", state=game, subject=kl))
    assert again.memory is None or "primary_done" not in again.memory
