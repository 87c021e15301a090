"""Energy allocation (seed 002 lines 1-21): SFB.EA, SFB.MOVE.COST, SFB.PHASER.ENERGY, SFB.DISRUPTOR, SFB.PHOTON."""
import pytest

from paperrobot.core.errors import IllegalAction
from paperrobot.sfb.frontend import describe_energy
from paperrobot.cli.terminal import edit_values
from paperrobot.core.errors import PaperRobotError
from paperrobot.sfb import EnergyAllocation
from paperrobot.sfb.energy import energy_values

from .helpers import drive, make, ships, weapon


def alloc(speed=0, phasers=0.0, recharge=0, **arm):
    return EnergyAllocation(speed, float(phasers), tuple((k.replace("_", "-"), v) for k, v in arm.items()), recharge)


def rejects(game, ship, allocation, rule):
    before = (ship.speed, ship.charged, ship.capacitor, [w.arm for w in ship.weapons])
    with pytest.raises(IllegalAction) as err:
        game.apply_energy(ship, allocation)
    assert err.value.rule == rule
    assert before == (ship.speed, ship.charged, ship.capacitor, [w.arm for w in ship.weapons])  # nothing changed


def test_total_power_and_batteries():
    """SFB.EA: used <= power + charged batteries; batteries discharge for the excess and can be recharged."""
    game = make(player="klingon", robot="federation")
    kl, _ = ships(game)
    assert kl.power == 20 and kl.charged == 2
    arm = (("disruptor-A", 2), ("disruptor-B", 2))
    rejects(game, kl, EnergyAllocation(15, 4.0, arm, 0), "SFB.EA")  # 23 > 20 + 2
    game.apply_energy(kl, EnergyAllocation(14, 4.0, arm, 0))  # 22: both batteries discharged
    assert kl.charged == 0
    game.apply_energy(kl, EnergyAllocation(10, 0.0, arm, 2))  # 16 with 2 recharged
    assert kl.charged == 2


def test_recharge_only_empty_batteries():
    """SFB.EA line 16: only discharged batteries can be recharged."""
    game = make()
    fed, _ = ships(game)
    rejects(game, fed, EnergyAllocation(10, 0.0, (), 1), "SFB.EA")


def test_speed_change_and_movement_sources():
    """SFB.MOVE.COST: +8 at most a turn; at most 1 point from impulse; APR cannot move the ship."""
    game = make()
    fed, _ = ships(game)
    fed.speed = 4
    rejects(game, fed, EnergyAllocation(13, 0.0, (), 0), "SFB.MOVE.COST")
    game.apply_energy(fed, EnergyAllocation(12, 0.0, (), 0))
    assert fed.speed == 12
    fed.warp = 9  # power 9 + 2 + 2 = 13, but only 9 warp + 1 impulse can move the ship
    rejects(game, fed, EnergyAllocation(11, 0.0, (), 0), "SFB.MOVE.COST")
    game.apply_energy(fed, EnergyAllocation(10, 0.0, (), 0))


def test_photon_arming_needs_warp_and_two_turns():
    """SFB.PHOTON / E4.21 / E4.23: 2 warp on two consecutive turns; Fed arming both tubes tops out at speed 13."""
    game = make()
    fed, _ = ships(game)
    rejects(game, fed, EnergyAllocation(14, 0.0, (("photon-A", 2), ("photon-B", 2)), 0), "SFB.MOVE.COST")
    game.apply_energy(fed, EnergyAllocation(13, 0.0, (("photon-A", 2), ("photon-B", 2)), 0))
    a = weapon(fed, "photon-A")
    assert a.arm == 1 and not a.ready
    game.apply_energy(fed, EnergyAllocation(13, 0.0, (("photon-A", 2), ("photon-B", 0)), 0))
    assert a.arm == 2 and a.ready  # may fire on the second turn
    assert weapon(fed, "photon-B").arm == 0  # missed second payment: the first is wasted
    rejects(game, fed, EnergyAllocation(10, 0.0, (("photon-A", 2),), 0), "SFB.PHOTON")  # armed: hold or eject
    rejects(game, fed, EnergyAllocation(10, 0.0, (("photon-B", 1),), 0), "SFB.PHOTON")  # cannot hold unarmed
    game.apply_energy(fed, EnergyAllocation(10, 0.0, (("photon-A", 1),), 0))
    assert a.arm == 2 and a.ready  # E4.22: held for 1
    game.apply_energy(fed, EnergyAllocation(10, 0.0, (("photon-A", 0),), 0))
    assert a.arm == 0 and not a.ready  # not paid: ejected


def test_disruptor_energy():
    """SFB.DISRUPTOR: exactly 2 per bolt, any source, lost at the end of the turn."""
    game = make(player="klingon", robot="federation")
    kl, _ = ships(game)
    rejects(game, kl, EnergyAllocation(10, 0.0, (("disruptor-A", 1),), 0), "SFB.DISRUPTOR")
    game.apply_energy(kl, EnergyAllocation(10, 0.0, (("disruptor-A", 2), ("disruptor-B", 0)), 0))
    assert weapon(kl, "disruptor-A").ready and not weapon(kl, "disruptor-B").ready
    game.end_turn()
    assert not weapon(kl, "disruptor-A").ready


def test_phaser_capacitor():
    """SFB.PHASER.ENERGY / H6: capacity = cost of firing every phaser once; carries over; shrinks with losses."""
    game = make()
    fed, _ = ships(game)
    assert fed.capacity == 3
    game.apply_energy(fed, EnergyAllocation(10, 2.0, (), 0))
    assert fed.capacitor == 2
    rejects(game, fed, EnergyAllocation(10, 2.0, (), 0), "SFB.PHASER.ENERGY")  # holds only 3
    game.apply_energy(fed, EnergyAllocation(10, 1.0, (), 0))
    assert fed.capacitor == 3
    from paperrobot.sfb.damage import destroy_weapon
    destroy_weapon(fed, weapon(fed, "phaser-1#1"))
    assert fed.capacity == 2 and fed.capacitor == 2
    kz = ships(make(player="kzinti"))[0]
    assert kz.capacity == 3  # one phaser-1 and four phaser-3 at 1/2 each
    rejects(make(player="kzinti"), kz, EnergyAllocation(8, 0.25, (), 0), "SFB.PHASER.ENERGY")


def test_edit_and_describe_energy():
    """The energy request's form: the suggestion is legal, 'name=value' edits parse through its check."""
    game = make()
    fed, _ = ships(game)
    default = game.policy.energy_allocation(fed)
    game.check_energy(fed, default)
    request = game.energy_request(fed)
    values = edit_values(request, energy_values(default, False), "speed=10 photon-A=0 recharge=0 phasers=1.5")
    edited = request.parse(values)
    assert edited.speed == 10 and edited.armed("photon-A") == 0 and edited.phasers == 1.5
    with pytest.raises(PaperRobotError, match="tractor=2"):
        edit_values(request, values, "tractor=2")
    with pytest.raises(IllegalAction, match="must be a number"):
        request.parse(edit_values(request, values, "speed=fast"))
    assert request.parse(request.default) == default  # the suggested allocation, as the policy gives it
    lines = describe_energy(values, game.energy_view(fed))
    assert any("photon-A=0" in line for line in lines) and any("speed=10" in line for line in lines)


def test_eight_impulse_variant_caps_speed():
    """SFB.IMPULSES: on the 8-impulse variant the top speed is 8."""
    game = make(impulses=8)
    fed, _ = ships(game)
    assert fed.speed == 8
    rejects(game, fed, EnergyAllocation(9, 0.0, (), 0), "SFB.IMPULSES")
    assert game.policy.energy_allocation(fed).speed <= 8


class Person:
    """A scripted person: answers in order, remembers what was asked."""

    def __init__(self, *answers):
        self.answers, self.asked = list(answers), []

    def decide(self, request):
        from paperrobot.core.controller import Decision
        self.asked.append(request)
        return Decision(self.answers.pop(0))


def test_eight_impulse_game_asks_a_speed_and_the_chief_engineer_allocates():
    """SFB.EA / SFB.R1, seed 002's 8-impulse game is the game without energy allocation ("your Chief Engineer
    has done this for you"): the person is asked only a speed; the engineer arms the weapons as in scenarios
    #1-#3 (photons ready two turns on, disruptors and phasers every turn); the robot moves at 8."""
    from paperrobot import sfb
    from paperrobot.core.dice import Dice
    from paperrobot.core.events import EventLog
    person = Person("5", "8")
    log = EventLog()
    game = sfb.new_game("4", seed=0, player=person, log=log, options={"impulses": 8})
    game.dice = Dice.scripted()
    fed, kl = ships(game)
    game.turn = 1
    drive(game, game.start_turn(), player=person)
    (asked,) = person.asked
    assert asked.kind == "speed" and tuple(o.key for o in asked.options) == tuple("123456780") \
        and asked.default == "8"
    assert fed.speed == 5 and kl.speed == 8
    assert weapon(fed, "photon-A").arm == 1 and not weapon(fed, "photon-A").ready  # not fireable on turn 1
    assert fed.capacitor == fed.capacity
    (engineer,) = [e.data for e in log.of_kind("decision") if e.data["ship"] == fed.name]
    assert engineer["rule"] == "SFB.EA" and engineer["action"] == 5 and "Chief Engineer" in engineer["text"]
    game.turn = 2
    drive(game, game.start_turn(), player=person)
    assert [r.kind for r in person.asked] == ["speed", "speed"] and fed.speed == 8
    assert weapon(fed, "photon-A").ready and weapon(fed, "photon-B").ready


def test_eight_impulse_game_refuses_a_speed_above_the_top():
    """SFB.EA: the speed question's answer must be one of its speeds (0-8)."""
    from paperrobot import sfb
    person = Person("9")
    game = sfb.new_game("4", seed=0, player=person, options={"impulses": 8})
    game.turn = 1
    with pytest.raises(IllegalAction) as err:
        drive(game, game.start_turn(), player=person)  # the request refuses it before the engine resumes
    assert person.asked[0].kind == "speed" and err.value.rule == "SFB.EA"


def test_bad_options_are_one_clear_error():
    from paperrobot import sfb
    from paperrobot.core.errors import PaperRobotError
    for options in ({"tiebreak": "dice"}, {"impulses": 32}, {"robots": 4}, {"max_turns": 0}):
        with pytest.raises(PaperRobotError):
            sfb.new_game("4", seed=1, options=options)
    with pytest.raises(PaperRobotError, match="at most 1 robot"):
        sfb.new_game("5", seed=1, options={"robots": 2})



def test_policy_flown_in_process_answers_with_its_allocation():
    """SFB.EA: a side flown in process by the engine's policy answers the energy question with the allocation
    itself, and the engine's check_energy still refuses an illegal one with its rule; the form's values and a
    preset's key are read as before, and an allocation is recorded as the form's values."""
    game = make()  # the player side flown by the policy (make's opponent)
    fed, _ = ships(game)
    request = game.energy_request(fed)
    decision = game.policy.decide(request)
    assert isinstance(decision.action, EnergyAllocation)
    assert request.parse(decision.action) is decision.action
    values = energy_values(decision.action, False)
    assert request.encode(decision.action) == values
    assert request.parse(values) == decision.action
    assert request.parse("suggested") == decision.action
    assert [f.name for f in request.form.fields][:2] == ["speed", "phasers"]
    fed.speed = 4
    with pytest.raises(IllegalAction) as refused:
        request.parse(EnergyAllocation(13, 0.0, (), 0))
    assert refused.value.rule == "SFB.MOVE.COST"


def test_wrapped_policy_answers_are_recorded_as_values():
    """SFB.EA: a caller that wraps the engine's own policy (a watched game, a mixed ladder rung) and answers from
    outside records the form's values, not the allocation object: the answers stay JSON (saves, copies)."""
    import json

    import paperrobot

    class Wrapped:
        def bind(self, match, side):
            self.policy = match.engine.controller(side, "policy")

        def decide(self, request):
            return self.policy.decide(request)

    match = paperrobot.new_game("sfb", seed=4, scenario="5")
    steps = match.play({"player": Wrapped()})
    with pytest.raises(StopIteration):
        next(steps)
    energy = [a for a in match.answers if a[1] == "energy"]
    assert energy and all(isinstance(a[3], dict) and "speed" in a[3] for a in energy)
    assert json.loads(json.dumps(match.answers)) == match.answers
