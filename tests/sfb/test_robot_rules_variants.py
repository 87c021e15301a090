"""The Cadet robot flies a variant of its procedure (sfb/data/robot_rules.toml, edited): a changed entry changes the
robot's decisions where its rule applies, and only there; the exported file unchanged changes nothing; a broken
variant is refused with one line naming the entry."""
import pytest

import paperrobot
from paperrobot.core.contract import drive_all
from paperrobot.core.dice import Dice
from paperrobot.core.events import EventLog
from paperrobot.core.robot_rules import RulesError
from paperrobot.sfb import procedure

from .helpers import ask_robot, drive, make, place, ships, weapon
from .test_robot6 import cloak_game, kr_game, launch_at

PUBLISHED = procedure.PROCEDURE.export()


def text_of(*changes):
    text = PUBLISHED
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def variant(*changes):
    return procedure.load(text_of(*changes))


def value(name, old, new):
    """A change of entry ``name``'s value from ``old`` to ``new``."""
    start = PUBLISHED.index(f"[{name}]")
    end = PUBLISHED.index("value = ", start)
    line = PUBLISHED[end:PUBLISHED.index("\n", end)]
    assert line == f"value = {old}", line
    return PUBLISHED[start:end] + line, PUBLISHED[start:end] + f"value = {new}"


PFP_5 = value("primary_fire_range", 4, 5)


def fly(game, rules):
    """``game`` flown by the robot of ``rules`` (as the engine factory hands it over)."""
    game.robot_rules, game.robot_numbers = rules, procedure.numbers(rules)
    game.robots.clear()
    return game


# ------------------------------------------------------------------ SFB.R2: the Primary Fire Point at 5 hexes
@pytest.mark.parametrize("where,published,changed", [("1405", False, True), ("1406", True, True),
                                                     ("1404", False, False)])
def test_primary_fire_point_at_5_hexes_changes_only_range_5(where, published, changed):
    for rules, fires in ((None, published), (variant(PFP_5), changed)):
        game = make(dice=())  # scripted, nothing pending: the rule rolls no die
        fed, kl = ships(game)
        if rules is not None:
            fly(game, rules)
        place(kl, "1410", "A")
        place(fed, where, "D")  # 1406: range 4, 1405: range 5, 1404: range 6
        game.robot_turn_start(kl)
        game.impulse = 5
        decision = ask_robot(game, kl, "fire")
        if fires:
            assert decision.action and decision.rules[0] == "SFB.R2" and kl.primary_done
            assert ({k for k, _ in decision.action} == {"phaser-2#1", "phaser-2#2", "disruptor-A", "disruptor-B"})
            note = "" if rules is None else " [variant primary_fire_range: 5]"
            assert decision.reasons[0].text.endswith("Primary Fire Point, fire every weapon that bears" + note)
            assert f"within {rules.value('primary_fire_range') if rules else 4} hexes" in decision.reasons[0].text
        else:
            assert decision.action == () and not decision.rules and not kl.primary_done
        assert game.dice.pending == 0


def test_primary_fire_point_at_5_hexes_ends_the_pursuit_there():
    """After the variant's PFP at range 5 the robot stops pursuing (R3), where the published one still pursues (R2)."""
    for rules, rule in ((None, "SFB.R2"), (variant(PFP_5), "SFB.R4")):
        game = make(dice=())
        fed, kl = ships(game)
        if rules is not None:
            fly(game, rules)
        place(kl, "1410", "A")
        place(fed, "1405", "D")
        game.robot_turn_start(kl)
        ask_robot(game, kl, "fire")
        for w in kl.weapons:  # everything fired: R4 A, straight on
            w.fired_turn = game.turn
        assert ask_robot(game, kl, "move").rules[0] == rule


def decisions(rules_text, seed=2, **setup):
    log = EventLog()
    match = paperrobot.new_game("sfb", seed=seed, log=log, robot_rules=rules_text, **setup)
    drive_all(match, {"robot": "robot", "player": "policy"})
    return log, [(e.turn, e.impulse, e.data["rule"], e.data["text"].split(" [variant")[0], str(e.data["action"]))
                 for e in log.events if e.kind == "decision" and e.side == "robot"]


def test_a_whole_game_differs_first_at_a_primary_fire_point_at_range_5():
    """Same seed, published vs the PFP-at-5 variant: every robot decision is the same up to the first R2 at range 5."""
    _, a = decisions("")
    log, b = decisions(text_of(PFP_5))
    first = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y)
    assert a[:first] == b[:first] and first > 3
    turn, impulse, rule, text, _ = b[first]
    assert rule == "SFB.R2" and "within 5 hexes (range 5): Primary Fire Point" in text
    setup = next(e for e in log.events if e.kind == "setup")
    assert setup.data["robot_rules"]["differs"] == {"primary_fire_range": "5"}
    first_lines = paperrobot.sfb.narrator().line(setup).split("\n")
    assert first_lines[0].startswith("Scenario 5 (seed 2)") and len(first_lines) == 2
    assert first_lines[1].startswith("Robot rules: a variant") and "primary_fire_range (SFB.R2) 5, published 4" in \
        first_lines[1]


def test_the_exported_file_flies_the_published_robot_log_for_log():
    for setup in ({"scenario": "5"}, {"scenario": "6k"}, {"scenario": "4", "impulses": 8}):
        a, _ = decisions("", seed=5, **setup)
        b, _ = decisions(PUBLISHED, seed=5, **setup)
        assert [e.to_json() for e in a.events] == [e.to_json() for e in b.events]
        assert "robot_rules" not in next(e for e in b.events if e.kind == "setup").data


# ------------------------------------------------------------------ the other entries, each where its rule applies
def test_speed_10_on_16_impulses_leaves_the_8_impulse_game_at_8():
    rules = variant(value("speed", 12, 10))
    game = fly(make(dice=()), rules)
    _, kl = ships(game)
    game.turn = 0
    drive(game, game.start_turn())
    assert kl.speed == 10
    kl.warp_lost = 3
    assert game.robot_numbers.robot_speed(16, kl.warp_lost) == 7  # SFB.DMG3 still slows it
    game8 = fly(make(impulses=8, dice=()), rules)
    drive(game8, game8.start_turn())
    assert ships(game8)[1].speed == 8


def test_plasma_every_second_turn():
    game, fed, kr = kr_game()
    fly(game, variant(value("plasma_every", 3, 2)))
    ready = []
    for turn in range(1, 8):
        game.turn = turn
        game.robot_turn_start(kr)
        ready.append(weapon(kr, "plasma-s-A").tube.armed)
    assert ready == [True, False, True, False, True, False, True]


def test_phasers_at_a_torpedo_3_hexes_away_when_torpedo_range_is_3():
    for rules, fired in ((None, False), (variant(value("torpedo_range", 2, 3)), True)):
        game, rom, fed = cloak_game()
        if rules is not None:
            fly(game, rules)
        place(fed, "1010", "A")
        place(rom, "1020", "A")
        game.robot_turn_start(fed)
        torp = launch_at(game, rom, fed, "1013", "A")  # 3 hexes astern
        decision = ask_robot(game, fed, "fire")
        if fired:
            assert set(decision.action) == {("phaser-1#2", torp.label), ("phaser-1#3", torp.label)}
            assert decision.rules == ("SFB.R.CLOAK4", "SFB.R.CLOAK2")
            assert decision.reasons[1].text.endswith("[variant torpedo_range: 3]")
        else:
            assert decision.action == () and decision.rules == ("SFB.R.CLOAK4",)


def test_a_restored_copy_flies_the_variant():
    engine = paperrobot.new_game("sfb", seed=3, robot_rules=text_of(PFP_5)).engine
    copy = engine.restore(engine.snapshot(), EventLog(enabled=False))  # sfb/cloning.py: clone and fork
    assert copy.robot_rules is engine.robot_rules and copy.robot_numbers.primary_fire_range == 5
    assert copy.robot_for(copy.side_ships("robot")[0]).n.primary_fire_range == 5


# ------------------------------------------------------------------ broken variants: one line naming the entry
@pytest.mark.parametrize("change,words", [
    (value("primary_fire_range", 4, -1), "entry 'primary_fire_range' (SFB.R2): value must be from 0 to 30, not -1"),
    (value("plasma_every", 3, 0), "entry 'plasma_every' (SFB.R8): value must be from 1 to 100"),
    (value("speed", 12, 17), "entry 'speed' (SFB.R1): value must be from 0 to 16"),
    (value("torpedo_range", 2, "2.5"), "entry 'torpedo_range' (SFB.R.CLOAK2): value must be a whole number"),
    (('[evade_speed]\nrule = "SFB.R.CLOAK3"', '[evade_speeds]\nrule = "SFB.R.CLOAK3"'),
     "entry 'evade_speed' (SFB.R.CLOAK3) is missing"),
])
def test_a_broken_variant_is_refused_with_one_line(change, words):
    with pytest.raises(RulesError) as err:
        variant(change)
    message = str(err.value)
    assert "\n" not in message and words in message, message


def test_the_registry_offers_the_option_and_the_procedure():
    info = paperrobot.game_info("sfb")
    assert info.robot_rules is procedure.PROCEDURE and info.option("robot_rules").default == ""
