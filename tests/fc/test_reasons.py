"""The robot's reasons built when read (fc/reasons.py) read exactly as the eager core Reason would have."""
from paperrobot.core.controller import Reason
from paperrobot.core.dice import Dice
from paperrobot.fc.reasons import Why

from .helpers import ask, setup


def test_why_reads_as_the_eager_reason_with_the_dice_of_its_decision_only():
    dice = Dice(5)
    dice.d6("before", "robot")
    mark = dice.mark()
    total = dice.d6("acceleration (1 of 2)", "robot") + dice.d6("acceleration (2 of 2)", "robot")
    eager = Reason("FC.2", f"2d6={total}: continue at baseline speed", dice.since(mark))
    lazy = Why("FC.2", "2d6={}: continue at baseline speed", (total,), dice, mark)
    dice.d6("a later roll", "player")  # rolled after the decision: not one of its dice
    assert lazy == eager and hash(lazy) == hash(eager)
    assert lazy.to_dict() == eager.to_dict() and repr(lazy) == repr(eager)
    assert [r.purpose for r in lazy.rolls] == ["acceleration (1 of 2)", "acceleration (2 of 2)"]


def test_why_without_dice_and_format_specs():
    assert Why("FC.7A", "put {:g} into the batteries", (2.0,)) == Reason("FC.7A", "put 2 into the batteries")
    assert Why("FC.7A", "put {:g} into the batteries", (2.0,)).rolls == ()


def test_robot_reason_in_a_silent_game_names_its_rule_text_and_dice():
    """FC.2: the acceleration roll's reason, read after the fact, still holds the two dice and the total."""
    game, robot, dice = setup(3, 4)
    decision = ask(game, robot, "accelerate")
    (reason,) = decision.reasons
    assert reason.rule == "FC.2" and reason.text == "2d6=7: continue at baseline speed"
    assert [r.value for r in reason.rolls] == [3, 4]
