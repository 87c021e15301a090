"""The energy and fire forms' alternatives for a search (docs/search.md "Candidates"): the suggestion stays
first and the default, every alternative is legal, and the alternatives are the choices they say they are."""
from paperrobot.sfb.energy import energy_values

from .helpers import make, place, ships, weapon


def test_energy_offers_the_suggested_weapons_at_each_speed_band():
    game = make()
    fed, kl = ships(game)
    place(kl, "1410", "A")
    place(fed, "1402", "D")
    request = game.energy_request(fed)
    keys = [o.key for o in request.options]
    suggested = game.policy.energy_allocation(fed)
    assert keys[:3] == ["suggested", "still", "nothing"] and request.default == "suggested"
    assert request.parse(request.default) == suggested
    top = game.policy.energy_allocation(fed, 10 ** 6).speed
    bands = {o.key: o for o in request.options if o.key.startswith("speed-")}
    wanted = {s for s in (top, round(top * 0.75), round(top * 0.5), round(top * 0.25)) if s not in (0, suggested.speed)}
    assert {int(k.split("-")[1]) for k in bands} == wanted and wanted
    for key, option in bands.items():
        speed = int(key.split("-")[1])
        allocation = request.parse(key)  # legal
        assert allocation.speed == speed and allocation.arm == suggested.arm  # the same weapons, another speed
        assert option.value == energy_values(game.policy.energy_allocation(fed, speed), False)


def test_fire_offers_each_weapon_group_alone():
    """Photons and phasers ready at a target in range: "heavy" fires the photons and holds the phasers,
    "phasers" the reverse; "all" fires both; the suggestion stays first."""
    game = make()
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1406", "D")
    fed.capacitor = 3
    for key in ("photon-A", "photon-B"):
        w = weapon(fed, key)
        w.arm, w.ready = 2, True
    request = game.fire_request(fed)
    options = {o.key: o.value for o in request.options}
    assert request.options[0].key == "suggested"
    heavy, phasers, every = options["heavy"], options["phasers"], options["all"]
    assert set(heavy) == {"photon-A", "photon-B"}
    assert phasers and all(weapon(fed, k).kind == "phaser" for k in phasers)
    assert {**heavy, **phasers} == every
    for key in ("heavy", "phasers"):
        orders = request.parse(key)
        assert [w.key for _, w, _ in orders] == list(options[key])


def test_fire_groups_are_not_offered_when_one_group_is_all_there_is():
    game = make()
    fed, kl = ships(game)
    place(fed, "1410", "A")
    place(kl, "1406", "D")
    fed.capacitor = 3
    keys = [o.key for o in game.fire_request(fed).options]
    assert "all" in keys and "heavy" not in keys and "phasers" not in keys
