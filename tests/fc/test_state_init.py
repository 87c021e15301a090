"""fc/state.py writes each class's __init__ out (compiled, the dataclass-generated one stays interpreted): each must
take the dataclass's init fields in order (by position and by name), with their defaults, and set every field.
(Compiled, an __init__ has no signature to inspect: these build objects.)"""
from __future__ import annotations

import dataclasses

import pytest

from paperrobot.core.hexgrid import Hex
from paperrobot.fc import state
from paperrobot.fc.data import ship


REQUIRED = {"id": "str", "kind": "str", "owner": "str", "target": "str", "side": "str", "pos": "Hex", "facing": "int",
            "launched_turn": "int", "reloads": "int", "add_shots": "int", "spec": "spec", "shields": "shields",
            "boxes": "boxes", "weapons": "none", "racks": "none"}


def _value(f: dataclasses.Field, i: int):
    """A value for field ``f``, distinct per field where its type allows (the type told by its default or its name:
    compiled, a field's annotation is not kept in full)."""
    if f.name == "arc":
        return "FA+R"  # a real arc (a weapon works out its masks)
    kind = REQUIRED[f.name] if f.default is dataclasses.MISSING else (
        "Hex" if f.default is None else type(f.default).__name__)
    return {"str": f"v{i}", "int": 1000 + i, "bool": bool(i % 2), "float": i + 0.25, "Hex": Hex(i, -i),
            "spec": ship("d7"), "shields": [i], "boxes": {"k": i}, "none": []}[kind]


@pytest.mark.parametrize("cls", [state.Weapon, state.Rack, state.Drone, state.Ship])
def test_init_takes_the_fields_in_order_with_their_defaults(cls):
    fields = [f for f in dataclasses.fields(cls) if f.init]
    values = [_value(f, i) for i, f in enumerate(fields)]
    by_position = cls(*values)
    by_name = cls(**{f.name: v for f, v in zip(fields, values)})
    for f, v in zip(fields, values):
        assert getattr(by_position, f.name) == v, f.name
        assert getattr(by_name, f.name) == v, f.name
    required = [v for f, v in zip(fields, values) if f.default is dataclasses.MISSING]
    defaults = cls(*required)
    for f in fields:
        if f.default is not dataclasses.MISSING:
            assert getattr(defaults, f.name) == f.default, f.name
    for f in dataclasses.fields(cls):
        getattr(by_position, f.name)  # every field is set (an unset slot raises AttributeError)


def test_a_weapon_works_out_what_it_stores():
    s = state.new_ship("robot", ship("d7"), Hex(1, 2), 3)
    for w in s.weapons:
        assert w.phaser == (w.kind in state.PHASERS)
    assert dataclasses.replace(s.weapons[0], fired=True).fired
    assert state.Rack(ammo=2) == state.Rack(True, 2, False)
