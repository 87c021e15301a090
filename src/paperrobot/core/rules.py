"""Short summaries of the robots' rules, in the project's own words, keyed by catalogue rule ID.

Shipped as package data (``data/rule_summaries.toml``): the web page shows one when a decision's rule is
clicked, and the table assistants (sfb/assist.py, fc/assist.py) print one with each robot action. The
program never reads ../shared at run time; a test checks every catalogue ID has a summary here.
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def summaries() -> dict[str, dict]:
    text = resources.files(__package__).joinpath("data/rule_summaries.toml").read_text(encoding="utf-8")
    return {rule_id: dict(entry) for rule_id, entry in tomllib.loads(text).items()}


def summary(rule_id: str) -> dict | None:
    """``{"title", "summary", "game"}`` of a rule, or None. Sub-rules fall back to their parent (SFB.R3.MAP -> SFB.R3)."""
    table = summaries()
    rule = str(rule_id)
    while rule:
        if rule in table:
            return {"id": rule, **table[rule]}
        if "." not in rule:
            return None
        rule = rule.rsplit(".", 1)[0]
    return None
