"""The shape of the Imperial AI's procedure (data/robot_rules.toml) and its values as plain attributes.

``SPECS`` tells core/robot_rules.py what each entry of the file may hold; ``numbers(rules)`` reads a loaded
procedure once into a ``Numbers`` object: a table keyed by the blue die's faces (or by commander style) becomes a
read-only mapping face -> result, a number an int, an order a tuple; ``n_<entry>`` is "" for a published entry and
the variant's citation otherwise.

Left in code, with the reason (docs/robot-rules.md#armada): the blue die's faces (4 hit, 2 crit, 2 accuracy: a
fact of the game), the ties broken by a fair die (ARM.TARGET.DICE, ARM.ACT.ORDER, ARM.SQ.TARGET), the activation
order's four tiers (robot.py measures them lazily in that order), and the comparisons that hold no number
(most dice, fewest shields, ARM.DEF.BRACE's "more dice than the current attack").
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from ..core import robot_rules as rr
from ..core.robot_rules import Spec

BLUE = ("hit", "crit", "acc")  # the blue die's faces (dice.py FACES: 4 hit, 2 crit, 2 acc)
STYLES = ("cautious", "normal", "aggressive")
COMMANDS = ("navigate", "squadron", "concentrate", "repair")
# "Squadron / X": Squadron if there are squadrons in range to command, otherwise X (ARM.CMD.ROLL)
COMMAND_RESULTS = COMMANDS + tuple(f"squadron/{c}" for c in COMMANDS if c != "squadron")
TOKENS = ("scatter", "evade", "brace", "redirect", "contain")


def _blue(rule: str, *results) -> Spec:
    return Spec("table", rule, "blue", results=results, faces=BLUE)


def _command() -> Spec:
    return _blue("ARM.CMD.ROLL", *COMMAND_RESULTS)


SPECS = {
    "commander_style": _blue("ARM.CMDR.STYLE", *STYLES),
    "focal_point_shift": _blue("ARM.DEPLOY.FP", "stay", "west", "east"),
    "focal_point_distance": Spec("number", "ARM.DEPLOY.FP", low=1, high=5),  # the ruler's distances 1-5
    "focal_point_again_distance": Spec("number", "ARM.DEPLOY.FP", low=0, high=5),
    "deployment_zone": _blue("ARM.DEPLOY.ZONE", "centre", "west", "east"),
    "deploy_speed": Spec("table", "ARM.DEPLOY.ZONE", "style", results=int, low=0, high=4, faces=STYLES),
    "squadron_deploy": Spec("table", "ARM.DEPLOY.ZONE", "style", results=("contact", "distance 2"), faces=STYLES),
    **{f"command_{style}_{where}": _command() for style in STYLES for where in ("out", "in")},
    "command_reroll_limit": Spec("number", "ARM.CMD.TOKEN", low=1, high=100),
    "squadron_target_order": Spec("order", "ARM.SQ.TARGET", vocabulary=("escort", "no-counter", "counter")),
    "token_order": Spec("order", "ARM.DEF.USE", vocabulary=TOKENS),
}

PROCEDURE = rr.Procedure("armada", "AI system for Imperials v1.02, seed 003",
                         Path(__file__).parent / "data" / "robot_rules.toml", SPECS)


class Numbers(rr.Numbers):
    """One procedure's values as attributes named as its entries, plus ``n_<entry>`` notes and ``rules``
    (core/robot_rules.py, Numbers)."""

    __slots__ = rr.number_slots(SPECS)
    SPECS = SPECS
    # the entries read by name (set from SPECS by rr.Numbers; declared for the type checker, ai.py compiled)
    commander_style: Mapping[str, str]
    focal_point_shift: Mapping[str, str]
    focal_point_distance: int
    focal_point_again_distance: int
    deployment_zone: Mapping[str, str]
    deploy_speed: Mapping[str, int]
    squadron_deploy: Mapping[str, str]
    command_reroll_limit: int
    squadron_target_order: tuple[str, ...]
    token_order: tuple[str, ...]
    n_commander_style: str
    n_focal_point_shift: str
    n_focal_point_distance: str
    n_focal_point_again_distance: str
    n_deployment_zone: str
    n_deploy_speed: str
    n_squadron_deploy: str
    n_command_reroll_limit: str
    n_squadron_target_order: str
    n_token_order: str

    def command_table(self, style: str, enemy_in_range: bool) -> tuple[Mapping[str, str], str]:
        """ARM.CMD.ROLL: the commander style's IN or OUT table (blue face -> command) and its variant note."""
        name = f"command_{style}_{'in' if enemy_in_range else 'out'}"
        return getattr(self, name), getattr(self, f"n_{name}")


def load(value: str | Path | None = "") -> rr.RobotRules:
    return rr.load(PROCEDURE, value)


@lru_cache(maxsize=32)
def numbers(rules: rr.RobotRules | None = None) -> Numbers:
    """The AI's values of ``rules`` (None: the published procedure), read once per procedure."""
    return Numbers(rules or load(""))


def robot_rules_record(rules: rr.RobotRules) -> dict:
    """The setup event's fields for a variant (its digest, the first line, the entries that differ); none for the
    published procedure, so the published file logs as it always did."""
    names = rules.differs()
    if not names:
        return {}
    return {"robot_rules": {"digest": rules.digest, "summary": rules.summary(),
                            "differs": {name: rules.describe(name) for name in names}}}
