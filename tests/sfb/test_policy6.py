"""The heuristic captain with plasma and cloak (player_cloak.py) and its map-safe speed."""
from __future__ import annotations

from paperrobot.core.hexgrid import parse
from paperrobot.sfb import plasma as pl

from .helpers import make, place, ships, weapon


def eagle_game():
    game = make("6", robot="federation", player="romulan-eagle")
    rom, fed = ships(game)
    return game, rom, fed, game.policy


def test_policy_arms_plasma_on_schedule_and_cloaks_while_nothing_is_ready():
    game, rom, fed, policy = eagle_game()
    alloc = policy.energy_allocation(rom)
    assert alloc.armed("plasma-s-A") == 2 and alloc.cloak == 6  # first arming turn: cloak (SFB.CLOAK)
    game.check_energy(rom, alloc)
    weapon(rom, "plasma-s-A").tube.state = pl.SECOND
    alloc = policy.energy_allocation(rom)
    assert alloc.armed("plasma-s-A") == 4 and alloc.cloak == 0  # armed this turn: stay visible to launch
    game.check_energy(rom, alloc)


def test_policy_launches_when_the_torpedo_would_arrive_strong():
    game, rom, fed, policy = eagle_game()
    w = weapon(rom, "plasma-s-A")
    w.tube.state = pl.ARMED
    place(rom, "1020", "A")
    place(fed, "1010", "D")  # range 10: beyond a third of 25
    game.impulse = 5
    assert policy.launch_plasma(rom, [w], fed) == ()
    place(fed, "1013", "D")  # range 7
    assert policy.launch_plasma(rom, [w], fed) == ("plasma-s-A",)


def test_policy_shoots_phasers_at_an_incoming_torpedo_first():
    game = make("duel", robot="romulan-kr", player="federation")
    fed, kr = ships(game)
    place(fed, "1010", "A")
    place(kr, "1013", "A")  # the KR itself in range 3 too
    fed.capacitor = 3.0
    wk = weapon(kr, "plasma-s-A")
    wk.tube.state = pl.ARMED
    torp = game.launch_plasma(kr, wk, fed)
    torp.hex = parse("1008")  # 2 hexes ahead of the Federation ship
    orders = game.policy.fast_orders(fed)
    phasers = [target for _, w, target in orders if w.kind == "phaser"]
    assert phasers and phasers[0] is torp


def test_policy_speed_never_forces_it_off_the_map():
    game, rom, fed, policy = eagle_game()
    place(rom, "2701", "F", straight=1, speed=8)  # TM 1 at 8; TM 2 from 7 up for the Eagle (1-6: 1)
    alloc = policy.energy_allocation(rom)
    assert rom.tm_table[alloc.speed] == 1  # a speed whose turn mode still lets it turn away from the edge
