"""The robot's reasons built when read (fc/reasons.py) read exactly as the eager core Reason would have."""
from paperrobot.core.controller import Reason
from paperrobot.core.dice import Dice
from paperrobot.fc.reasons import why

from .helpers import ask, setup


def test_why_reads_as_the_eager_reason_with_the_dice_of_its_decision_only():
    dice = Dice(5)
    dice.d6("before", "robot")
    mark = dice.mark()
    total = dice.d6("acceleration (1 of 2)", "robot") + dice.d6("acceleration (2 of 2)", "robot")
    eager = Reason("FC.2", f"2d6={total}: continue at baseline speed", dice.since(mark))
    lazy = why("FC.2", "2d6={}: continue at baseline speed", (total,), dice, mark)
    dice.d6("a later roll", "player")  # rolled after the decision: not one of its dice
    assert lazy == eager and hash(lazy) == hash(eager)
    assert lazy.to_dict() == eager.to_dict() and repr(lazy) == repr(eager)
    assert [r.purpose for r in lazy.rolls] == ["acceleration (1 of 2)", "acceleration (2 of 2)"]


def test_why_without_dice_and_format_specs():
    assert why("FC.7A", "put {:g} into the batteries", (2.0,)) == Reason("FC.7A", "put 2 into the batteries")
    assert why("FC.7A", "put {:g} into the batteries", (2.0,)).rolls == ()


def test_robot_reason_in_a_silent_game_names_its_rule_text_and_dice():
    """FC.2: the acceleration roll's reason, read after the fact, still holds the two dice and the total."""
    game, robot, dice = setup(3, 4)
    decision = ask(game, robot, "accelerate")
    (reason,) = decision.reasons
    assert reason.rule == "FC.2" and reason.text == "2d6=7: continue at baseline speed"
    assert [r.value for r in reason.rolls] == [3, 4]


def test_reasons_and_decisions_survive_pickle_and_deepcopy_unbuilt_or_built():
    """Clones and forks copy state that may hold decisions: compiled (native classes) as interpreted."""
    import copy
    import pickle

    from paperrobot.core.controller import Decision

    dice = Dice(7)
    mark = dice.mark()
    roll = dice.d6("fire step", "robot")
    for built in (False, True):
        lazy = why("FC.5C", "d6={}: fire everything", (roll,), dice, mark)
        if built:
            assert lazy.text == f"d6={roll}: fire everything"
        decision = Decision({"ph-1": "fire"}, (lazy,), {"pfp": 3})
        for copied in (pickle.loads(pickle.dumps(decision)), copy.deepcopy(decision)):
            assert copied == decision and copied.memory == {"pfp": 3}
            (reason,) = copied.reasons
            assert reason.text == f"d6={roll}: fire everything" and [r.value for r in reason.rolls] == [roll]
