"""Tampering with a JSON document the program wrote (a save, a state file): one value replaced or one key dropped,
drawn by hypothesis, for the tests that check such a file is loaded or refused in one line."""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children,
                                                                                        max_size=4), max_leaves=10)


def paths(value: Any, prefix: tuple = ()):
    """Every place in ``value``, as the keys and indexes that lead to it (the document itself first)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, prefix + (index,))


def tamper(raw: Any, data: st.DataObject) -> None:
    """Change ``raw`` in place at one drawn place: drop the key (half the time, in a table) or put any JSON value
    there."""
    where = data.draw(st.sampled_from(list(paths(raw))[1:]))
    target = raw
    for key in where[:-1]:
        target = target[key]
    if data.draw(st.booleans()) and isinstance(target, dict):
        del target[where[-1]]
    else:
        target[where[-1]] = data.draw(JSON)
