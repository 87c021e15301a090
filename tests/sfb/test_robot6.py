"""The robot's scenario #6 rules: SFB.R8, SFB.R.PLASMA, SFB.R.CLOAK1-4 (seeds 000 and 002), each
decision with its rule ID; and the evasion sequence over several impulses."""
from __future__ import annotations

from paperrobot.core.dice import Dice
from paperrobot.core.events import EventLog
from paperrobot.core.hexgrid import distance, facing_index as F, parse
from paperrobot.sfb import plasma as pl

from .helpers import ask_robot, drive, make, place, robot_of, ships, weapon


def ask(game, ship, kind, options=None):
    return ask_robot(game, ship, kind, options)


def kr_game(**options):
    game = make("duel", robot="romulan-kr", player="federation", **options)
    return game, *ships(game)


def test_r8_kr_torpedo_ready_on_turns_1_4_7_only():
    """SFB.R.PLASMA: the robot's torpedo needs no arming energy; SFB.R8: it is there on turns 1, 4, 7, ..."""
    game, fed, kr = kr_game()
    ready = []
    for turn in range(1, 9):
        game.turn = turn
        game.robot_turn_start(kr)
        ready.append(weapon(kr, "plasma-s-A").tube.armed)
    assert ready == [True, False, False, True, False, False, True, False]


def test_r8_launches_on_first_impulse_target_in_arc():
    game, fed, kr = kr_game()
    place(kr, "1010", "A")
    place(fed, "1310", "A")  # abeam: not in the fixed launcher's FA
    game.robot_turn_start(kr)
    assert ask(game, kr, "launch", "plasma").action == ()
    place(fed, "1105", "A")  # now ahead
    decision = ask(game, kr, "launch", "plasma")
    assert decision.action == ("plasma-s-A",)
    assert decision.rules == ("SFB.R8", "SFB.R.PLASMA")


def test_r8_in_play_launches_once_and_narrates():
    game, fed, kr = kr_game()
    game.log, game.rec = EventLog(), True
    game.dice = Dice(5)
    place(kr, "1010", "A")
    place(fed, "1105", "D")
    game.turn = 0
    drive(game, game.play_turn())
    launches = [e for e in game.log.events if e.kind == "plasma-launched"]
    assert len(launches) == 1 and launches[0].impulse == 1 and launches[0].data["ship"] == kr.name
    rules = [e.data["rule"] for e in game.log.events if e.kind == "decision" and e.impulse == 1]
    assert "SFB.R8" in rules and "SFB.R.PLASMA" in rules


def test_gorn_robot_launches_each_swivel_tube_per_its_arc():
    """SFB.R8 adapted by SFB.R9: each plasma-F tube at the first impulse its own arc holds the target."""
    game = make("duel", robot="gorn", player="federation")
    fed, gorn = ships(game)
    place(gorn, "1010", "A")
    place(fed, "1410", "A")  # right side: in the RF+R tube's arc only
    game.robot_turn_start(gorn)
    assert ask(game, gorn, "launch", "plasma").action == ("plasma-f-B",)


def cloak_game():
    """The robot Federation against the player's Romulan Eagle (scenario 6)."""
    game = make("6", robot="federation", player="romulan-eagle")
    rom, fed = ships(game)
    game.dice = Dice(3)
    return game, rom, fed


def test_cloak1_fires_at_the_uncloaking_ship_on_impulse_one():
    game, rom, fed = cloak_game()
    place(fed, "1010", "A")
    place(rom, "1003", "D")  # range 7: no Primary Fire Point by R2
    rom.cloak.was_cloaked, rom.cloak.cloaked = True, False
    game.robot_turn_start(fed)
    game.impulse = 1
    decision = ask(game, fed, "fire")
    assert decision.rules[0] == "SFB.R.CLOAK1" and decision.action
    assert {k for k, _ in decision.action} >= {"photon-A", "phaser-1#1"}
    game.impulse = 2  # not on later impulses of the turn (R2 applies again; PFP already spent)
    rom.cloak.was_cloaked = False


def launch_at(game, rom, fed, where, facing="D"):
    w = weapon(rom, "plasma-s-A")
    w.tube.state = pl.ARMED
    torp = game.launch_plasma(rom, w, fed)
    torp.hex, torp.facing, torp.moves = parse(where), F(facing), 3
    return torp


def test_cloak2_phasers_at_torpedo_within_two_hexes_only():
    game, rom, fed = cloak_game()
    place(fed, "1010", "A")
    place(rom, "1020", "A")
    game.robot_turn_start(fed)
    torp = launch_at(game, rom, fed, "1013", "A")  # 3 hexes astern
    decision = ask(game, fed, "fire")
    assert decision.action == () and decision.rules == ("SFB.R.CLOAK4",)  # focus announced, nothing fired
    torp.hex = parse("1012")  # 2 hexes astern: only the phasers with it in arc (LS, RS; not the FA one)
    decision = ask(game, fed, "fire")
    assert set(decision.action) == {("phaser-1#2", torp.label), ("phaser-1#3", torp.label)}
    assert decision.rules == ("SFB.R.CLOAK2",)


def test_cloak4_ignores_the_ship_while_a_torpedo_hunts_it_then_resumes():
    game, rom, fed = cloak_game()
    place(fed, "1010", "A")
    place(rom, "1007", "D")  # range 3: normally a Primary Fire Point
    game.robot_turn_start(fed)
    torp = launch_at(game, rom, fed, "1016", "A")
    decision = ask(game, fed, "fire")
    assert decision.action == () and "SFB.R.CLOAK4" in decision.rules
    assert ask(game, fed, "launch").action == ()  # nothing launched either
    torp.alive = False
    game.plasmas.clear()  # the torpedo struck or fizzled
    decision = ask(game, fed, "fire")
    assert decision.rules[0] == "SFB.R.CLOAK4" and "SFB.R2" in decision.rules and decision.action


def test_cloak3_best_speed_while_hunted():
    game, rom, fed = cloak_game()
    launch_at(game, rom, fed, "1016", "A")
    game.turn = 2
    fed.speed = 12
    game.robot_turn_start(fed)
    assert fed.speed == 16  # scenario top speed, no warp damage
    fed.warp_lost = 3
    fed.speed = 9  # what the engine sets first: 12 less the warp damage (SFB.DMG3)
    game.robot_turn_start(fed)
    assert fed.speed == 13


def test_cloak3_evasion_sequence_over_several_impulses():
    """The robot turns away and runs; phasers at the torpedo once it is within 2; then it resumes."""
    game, rom, fed = cloak_game()
    game.log, game.rec = EventLog(), True
    place(fed, "1410", "A", speed=16)
    place(rom, "1420", "A", speed=0)
    game.robot_turn_start(fed)
    fed.speed = 16
    game.order_turn = -1
    torp = launch_at(game, rom, fed, "1414", "A")  # 4 hexes astern, coming up behind
    ranges = []
    for impulse in range(2, 7):
        game.impulse = impulse
        drive(game, game.move_ships())
        game.move_seekers()
        drive(game, game.fire_direct())
        ranges.append(distance(fed.hex, torp.hex) if torp.alive else None)
    rules = [e.data["rule"] for e in game.log.events if e.kind == "decision" and e.data["ship"] == fed.name]
    assert rules.count("SFB.R.CLOAK3") == 5  # it ran on every impulse it moved
    assert "SFB.R2" not in rules  # no pursuit while hunted
    assert ranges[0] == 4  # equal speeds: the gap holds while it runs straight away
    assert all(r is None or r >= 3 for r in ranges)


def test_cloak3_best_speed_never_forces_it_off_the_map():
    """SFB.R3.MAP over SFB.R.CLOAK3: speeding up must not raise the turn mode into a forced exit."""
    game, rom, fed = cloak_game()
    launch_at(game, rom, fed, "1016", "A")
    fed.warp_lost = 6  # ordinary speed 6 (turn mode 1); best speed 10 would be turn mode 2
    place(fed, "2701", "F", straight=1)  # at the top edge heading off it: at TM 2 it could not turn
    game.turn = 5
    fed.speed = 6
    game.robot_turn_start(fed)
    assert fed.speed == 6
    place(fed, "1410", "A", straight=1)
    fed.speed = 6
    game.robot_turn_start(fed)
    assert fed.speed == 10


def test_cloak3_best_speed_is_narrated_as_a_decision():
    game, rom, fed = cloak_game()
    game.log, game.rec = EventLog(), True
    launch_at(game, rom, fed, "1016", "A")
    place(fed, "1410", "A")
    fed.speed = 12
    game.robot_turn_start(fed)
    speed = [e for e in game.log.events if e.kind == "decision" and e.data["request"] == "speed"]
    assert len(speed) == 1 and speed[0].data["rule"] == "SFB.R.CLOAK3" and speed[0].data["action"] == 16
