"""The heuristic player policy: legal energy, sensible fire, stays on the map."""
from paperrobot import sfb

from .helpers import make, place, ships, weapon


def test_policy_energy_is_always_legal():
    for player in ("federation", "klingon", "kzinti", "orion"):
        game = make(player=player, robot="klingon" if player != "klingon" else "federation")
        ship = ships(game)[0]
        policy = game.policy
        for turn in range(6):
            alloc = policy.energy_allocation(ship)
            game.apply_energy(ship, alloc)  # raises if illegal
            if turn == 2:
                ship.warp -= 6
                ship.charged = 0
        assert ship.speed >= 1


def test_policy_arms_and_holds_photons():
    game = make()
    fed, _ = ships(game)
    policy = game.policy
    first = policy.energy_allocation(fed)
    assert first.armed("photon-A") == 2 and first.phasers == 3
    game.apply_energy(fed, first)
    game.apply_energy(fed, policy.energy_allocation(fed))
    assert weapon(fed, "photon-A").ready
    assert policy.energy_allocation(fed).armed("photon-A") == 1  # hold, do not eject


def test_policy_fires_at_good_odds_only():
    game = make()
    fed, kl = ships(game)
    policy = game.policy
    place(fed, "1410", "A")
    fed.capacitor = 3
    for w in fed.weapons:
        if w.kind == "photon":
            w.arm, w.ready = 2, True
    place(kl, "1404", "D")  # range 6: photons yes, phasers no
    chosen = policy.fire(fed, game.fire_options(fed))
    assert chosen and all(k.startswith("photon") for k in chosen)
    place(kl, "1407", "D")  # range 3: everything
    chosen = policy.fire(fed, game.fire_options(fed))
    assert {k.split(">")[0] for k in chosen} >= {"photon-A", "photon-B", "phaser-1#1"}


def test_policy_steers_away_from_the_edge():
    game = make()
    fed, kl = ships(game)
    place(fed, "1402", "A", speed=12)
    place(kl, "1420", "A")
    assert game.policy.move(fed, True) != "straight"


def test_policy_beats_a_sitting_duck():
    """The policy closes and destroys a robot that has been disarmed and stopped."""
    game = sfb.new_game("5", seed=4)
    fed, kl = ships(game)
    for w in kl.weapons:
        w.alive = False
    kl.warp_lost = 12
    outcome = game.run()
    assert outcome.winner == "player" and outcome.result == "destroyed"


def test_fast_orders_match_the_offered_default():
    """The simulation shortcut chooses exactly what a person is offered as the default."""
    import random
    for seed in range(40):
        rnd = random.Random(seed)
        game = make()
        fed, kl = ships(game)
        place(fed, f"{rnd.randint(3, 25):02d}{rnd.randint(3, 14):02d}", "ABCDEF"[rnd.randint(0, 5)])
        place(kl, f"{rnd.randint(3, 25):02d}{rnd.randint(3, 14):02d}", "ABCDEF"[rnd.randint(0, 5)])
        fed.capacitor = rnd.choice([0, 1, 3])
        for w in fed.weapons:
            if w.kind == "photon":
                w.arm, w.ready = 2, rnd.random() < 0.7
        game.impulse = rnd.choice([3, 16])
        policy = game.policy
        slow = policy.fire(fed, game.fire_options(fed))
        fast = tuple(f"{w.key}>{t.name}" for _, w, t in policy.fast_orders(fed))
        assert sorted(slow) == sorted(fast)
