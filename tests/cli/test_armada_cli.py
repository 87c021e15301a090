"""The armada commands, driven as a person would: arguments and typed input."""
from typer.testing import CliRunner

from paperrobot.armada.assist import Assistant
from paperrobot.cli.main import app
from paperrobot.core.dice import Dice


def test_assist_plain_order_answers_with_the_4th_tier_roll(monkeypatch):
    """ARM.ACT.ORDER: 'order' alone rolls among all unactivated ships (priority 4), it does not crash."""
    monkeypatch.setattr(Assistant, "dice", lambda self: Dice.scripted(1))
    result = CliRunner().invoke(app, ["assist", "armada", "--fleet", "victory-ii,gladiator-i"], input="order\nquit\n")
    assert result.exit_code == 0, result.output
    assert "ARM.ACT.ORDER: activate victory-ii-1: priority 4, all other ships (die among the tied) [d2=1]" \
        in result.output
