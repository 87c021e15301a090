"""The Imperial AI flies a variant of its procedure (armada/data/robot_rules.toml, edited): a changed entry changes
the AI's decisions where its rule applies, and only there; the exported file unchanged changes nothing (same log,
same outcomes); a broken variant is refused with one line naming the entry.

Blue die as d8: 1-4 hit, 5-6 crit, 7-8 accuracy (armada/dice.py)."""
import pytest

import paperrobot
from paperrobot.armada import Robot, ai, procedure
from paperrobot.core.contract import Request, drive_all
from paperrobot.core.dice import Dice
from paperrobot.core.events import EventLog
from paperrobot.core.robot_rules import RulesError

HIT, CRIT, ACC = 1, 5, 7
RULER = (76.5, 124.5, 185.5, 245.5, 304.8)
PUBLISHED = procedure.PROCEDURE.export()
USABLE = {"navigate": True, "squadron": True, "repair": True, "concentrate": True}


def variant(*changes):
    text = PUBLISHED
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return procedure.load(text)


NORMAL_IN_HIT = ('{ rolls = "hit", result = "squadron/concentrate" },\n  { rolls = "crit", result = "navigate" }',
                 '{ rolls = "hit", result = "concentrate" },\n  { rolls = "crit", result = "navigate" }')


def rules(decision):
    return [r.rule for r in decision.reasons]


# ------------------------------------------------------------------ ARM.CMD.ROLL: a command table entry
@pytest.mark.parametrize("face,enemy_in,published,changed", [
    (HIT, True, "squadron", "concentrate"),  # the changed line: normal IN, hit
    (CRIT, True, "navigate", "navigate"), (ACC, True, "repair", "repair"),  # the same table's other faces
    (HIT, False, "navigate", "navigate"),  # the OUT table is another entry
])
def test_the_normal_in_table_hit_becomes_concentrate_only_there(face, enemy_in, published, changed):
    assert ai.command("normal", enemy_in, USABLE, set(), Dice.scripted(face)).action == ("dial", published)
    n = procedure.numbers(variant(NORMAL_IN_HIT))
    dice = Dice.scripted(face)
    decision = ai.command("normal", enemy_in, USABLE, set(), dice, n)
    assert decision.action == ("dial", changed) and rules(decision) == ["ARM.CMD.ROLL"] and dice.pending == 0
    note = " [variant command_normal_in: hit concentrate, crit navigate, acc repair]"
    assert decision.reasons[0].text.endswith(note) == enemy_in
    for style in ("cautious", "aggressive"):  # the other styles' tables are untouched
        assert ai.command(style, enemy_in, USABLE, set(), Dice.scripted(face), n).action == \
            ai.command(style, enemy_in, USABLE, set(), Dice.scripted(face)).action


def test_a_squadron_or_x_result_takes_x_without_squadrons_in_range():
    n = procedure.numbers(variant(('{ rolls = "hit", result = "navigate" },\n  { rolls = "crit", result = "squadron" },'
                                   '\n  { rolls = "acc", result = "concentrate" },\n]\n\n[command_normal_in]',
                                   '{ rolls = "hit", result = "squadron/repair" },\n  { rolls = "crit", result = '
                                   '"squadron" },\n  { rolls = "acc", result = "concentrate" },\n]\n\n'
                                   '[command_normal_in]')))
    usable = dict(USABLE, squadron=False)
    decision = ai.command("normal", False, usable, set(), Dice.scripted(HIT), n)
    assert decision.action == ("dial", "repair") and rules(decision) == ["ARM.CMD.ROLL"]
    assert ai.command("normal", False, usable, set(), Dice.scripted(HIT)).action == ("dial", "navigate")


# ------------------------------------------------------------------ the robot: set-up tables and numbers
def test_the_robot_reads_the_commander_style_table_of_its_variant():
    swapped = variant(('{ rolls = "crit", result = "aggressive" },\n  { rolls = "acc", result = "cautious" }',
                       '{ rolls = "crit", result = "cautious" },\n  { rolls = "acc", result = "aggressive" }'))
    style = Request("style", "imperial")
    for face, published, changed in ((CRIT, "aggressive", "cautious"), (ACC, "cautious", "aggressive"),
                                     (HIT, "normal", "normal")):
        assert Robot(Dice.scripted(face)).decide(style).action == published
        decision = Robot(Dice.scripted(face), swapped).decide(style)
        assert decision.action == changed and rules(decision) == ["ARM.CMDR.STYLE"]
        assert decision.reasons[0].text.endswith("[variant commander_style: hit normal, crit cautious, "
                                                 "acc aggressive]")


def test_the_focal_point_moves_the_variant_distance_and_only_after_a_shift():
    far = procedure.numbers(variant(('move FP distance 3 to East"\nvalue = 3', 'move FP distance 3 to East"\nvalue = 5')))
    decision = ai.focal_point([900.0], Dice.scripted(CRIT, HIT), 1828.8, RULER, far)
    assert decision.action == pytest.approx(900.0 - 304.8) and rules(decision) == ["ARM.DEPLOY.FP"]
    assert "(distance 5) [variant focal_point_distance: 5]" in decision.reasons[0].text
    twice = ai.focal_point([900.0], Dice.scripted(ACC, ACC), 1828.8, RULER, far)
    assert twice.action == pytest.approx(900.0 + 304.8 + 185.5) and "(distance 8)" in twice.reasons[0].text
    assert ai.focal_point([900.0], Dice.scripted(HIT), 1828.8, RULER, far).action == pytest.approx(900.0)


def test_deployment_speeds_and_squadrons_follow_the_style_tables():
    n = procedure.numbers(variant(('{ rolls = "cautious", result = 1 }', '{ rolls = "cautious", result = 2 }'),
                                  ('{ rolls = "normal", result = "distance 2" }', '{ rolls = "normal", result = "contact" }')))
    assert [ai.deploy_speed(s, 3, n) for s in ("cautious", "normal", "aggressive")] == [2, 2, 3]
    assert ai.deploy_speed("cautious", 1, n) == 1  # "if possible"
    decision = ai.squadron_deployment("normal", n)
    assert decision.action == "contact" and rules(decision) == ["ARM.DEPLOY.ZONE"]
    assert ai.squadron_deployment("normal").action == "distance 2"
    assert ai.squadron_deployment("aggressive", n).action == "distance 2"


# ------------------------------------------------------------------ priorities
def test_a_squadron_target_order_with_counter_first():
    targets = [ai.SquadTarget("x-wing-1", 3, escort=True), ai.SquadTarget("z-95-1", 4),
               ai.SquadTarget("a-wing-1", 1, counter=True)]
    assert ai.squadron_target(targets, Dice.scripted()).action == "x-wing-1"
    n = procedure.numbers(variant(('value = ["escort", "no-counter", "counter"]',
                                   'value = ["counter", "escort", "no-counter"]')))
    decision = ai.squadron_target(targets, Dice.scripted(), n)
    assert decision.action == "a-wing-1" and rules(decision) == ["ARM.SQ.TARGET"]
    assert decision.reasons[0].text.endswith("[variant squadron_target_order: counter, escort, no-counter]")
    assert ai.squadron_target(targets[:2], Dice.scripted(), n).action == "x-wing-1"  # no Counter: Escort next


def test_a_token_order_with_brace_before_evade():
    view = ai.DefenceView(["hit", "hit", "crit"], ["R", "R", "R"], "long", [("evade", False), ("brace", False)],
                          zone_shields=0, adjacent_shields=0, hull_left=8)
    assert [k for k, _ in ai.defence(view).action] == ["evade", "brace"]
    n = procedure.numbers(variant(('value = ["scatter", "evade", "brace", "redirect", "contain"]',
                                   'value = ["scatter", "brace", "evade", "redirect", "contain"]')))
    decision = ai.defence(view, n)  # brace first halves 3 to 2; evade then cancels a die of the attack
    assert [k for k, _ in decision.action] == ["brace", "evade"] and set(rules(decision)) == {"ARM.DEF.USE"}


# ------------------------------------------------------------------ whole games
def decisions(rules_text, seed=3):
    log = EventLog()
    drive_all(paperrobot.new_game("armada", seed=seed, log=log, robot_rules=rules_text),
              {"imperial": "robot", "rebel": "policy"})
    return log, [(e.data["rule"], e.data["text"].split(" [variant")[0], e.data["action"]) for e in log.events
                 if e.kind == "decision" and e.side == "imperial"]


def test_a_whole_game_differs_first_at_the_changed_command_table_line():
    """Seed 3 (a normal commander): every decision is the same up to the first hit on the IN table with
    squadrons in range."""
    _, a = decisions("")
    log, b = decisions(variant(NORMAL_IN_HIT).text)
    first = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y)
    assert a[:first] == b[:first] and first > 10
    assert a[first][0] == b[first][0] == "ARM.CMD.ROLL"
    assert a[first][1] == "IN table (normal), blue hit: squadron" and b[first][1] == "IN table (normal), blue hit: concentrate"
    setup = next(e for e in log.events if e.kind == "setup")
    assert setup.data["robot_rules"]["differs"] == {"command_normal_in": "hit concentrate, crit navigate, acc repair"}


def test_the_exported_file_flies_the_published_ai_with_the_same_log():
    def log_of(text, seed):
        log = EventLog()
        drive_all(paperrobot.new_game("armada", seed=seed, log=log, robot_rules=text),
                  {"imperial": "robot", "rebel": "policy"})
        return [e.to_json() for e in log.events]
    for seed in (1, 2):
        assert log_of(PUBLISHED, seed) == log_of("", seed)


def test_a_restored_engine_flies_the_same_variant():
    rules_ = variant(NORMAL_IN_HIT)
    game = paperrobot.new_game("armada", seed=3, robot_rules=rules_.text).engine
    copy = game.restore(game.snapshot(), EventLog())
    assert copy.robot_rules is game.robot_rules and copy.controller("imperial", "robot").n.rules is rules_


# ------------------------------------------------------------------ broken variants
@pytest.mark.parametrize("old,new,message", [
    ('{ rolls = "acc", result = "repair" },\n]\n\n[command_aggressive_out]', ']\n\n[command_aggressive_out]',
     "entry 'command_normal_in' (ARM.CMD.ROLL): no result for acc of the blue die"),
    ('{ rolls = "crit", result = "aggressive" }', '{ rolls = "hit", result = "aggressive" }',
     "entry 'commander_style' (ARM.CMDR.STYLE): rolls 'hit' has two lines"),
    ('{ rolls = "hit", result = "concentrate" }', '{ rolls = "hit", result = "attack" }',
     "entry 'command_aggressive_in' (ARM.CMD.ROLL): rolls 'hit': result must be one of navigate"),
    ('move FP distance 3 to East"\nvalue = 3', 'move FP distance 3 to East"\nvalue = -3',
     "entry 'focal_point_distance' (ARM.DEPLOY.FP): value must be from 1 to 5, not -3"),
    ('{ rolls = "aggressive", result = 3 }', '{ rolls = "aggressive", result = -1 }',
     "entry 'deploy_speed' (ARM.DEPLOY.ZONE): rolls 'aggressive': result must be a whole number from 0 to 4"),
    ('value = ["escort", "no-counter", "counter"]', 'value = ["escort", "counter"]',
     "entry 'squadron_target_order' (ARM.SQ.TARGET): value must list each of escort, no-counter, counter"),
])
def test_a_broken_variant_is_refused_with_one_line(tmp_path, old, new, message):
    path = tmp_path / "mine.toml"
    assert PUBLISHED.count(old) == 1, old
    path.write_text(PUBLISHED.replace(old, new))
    with pytest.raises(RulesError) as err:
        paperrobot.new_game("armada", seed=1, robot_rules=str(path))
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value) and "\n" not in str(err.value)
