"""The games' procedure numbers share core's reading (core/robot_rules.Numbers; issue 25's duplicates): every entry
an attribute with its value or table, and its note, for FC and Armada alike."""
import pytest

from paperrobot.core import robot_rules as rr


@pytest.mark.parametrize("game", ["fc", "armada"])
def test_numbers_read_every_entry_through_core(game):
    procedure = __import__(f"paperrobot.{game}.procedure", fromlist=["numbers"])
    assert issubclass(procedure.Numbers, rr.Numbers)
    rules = procedure.load("")
    n = procedure.numbers(rules)
    assert n.rules is rules
    for name, spec in procedure.SPECS.items():
        assert getattr(n, name) == (rules.table(name) if spec.kind == "table" else rules.value(name))
        assert getattr(n, f"n_{name}") == ""
    with pytest.raises(AttributeError):  # slotted: a misspelt entry fails, it is not quietly added
        n.not_an_entry = 1
