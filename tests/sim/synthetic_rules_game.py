"""A synthetic game whose robot procedure is data (core/robot_rules.py): the robot's true even point is the
``even_point`` entry of its rules file, so ``balance --robot-rules A --robot-rules B`` has a known difference.
Registered like tests/sim/synthetic_game.py (a sweep's worker imports this module and registers it)."""
import multiprocessing
import sys
from pathlib import Path

from paperrobot.core import registry, robot_rules
from paperrobot.sim import synthetic

from tests.sim.synthetic_game import SyntheticEngine

NAME = "synthetic-rules"
PROCEDURE = robot_rules.Procedure(NAME, "synthetic robot", Path(__file__).with_name("synthetic_rules.toml"),
                                  {"even_point": robot_rules.Spec("number", "TEST.H50", high=300)})


class RulesEngine(SyntheticEngine):
    def __init__(self, seed, log, handicap=0, robot_rules=""):
        super().__init__(seed, log, handicap, robot_rules_h50(robot_rules))

    def sequence(self):
        yield from ()
        return synthetic.play(self.seed, self.handicap, h50=self.h50, draw=0.0, shared=0.8)


def robot_rules_h50(value) -> int:
    return int(robot_rules.load(PROCEDURE, value).value("even_point"))


INFO = registry.GameInfo(
    NAME, "Synthetic game with its robot rules as data", SyntheticEngine.sides, "robot",
    (registry.SetupOption("handicap", "points given to the robot", 0, "int", low=-200, high=400),
     robot_rules.setup_option(PROCEDURE)),
    RulesEngine, lambda: None, robot_rules=PROCEDURE)


def register():
    registry.register(INFO)


def unregister():
    registry.registered().pop(NAME, None)


if multiprocessing.parent_process() is not None or "pytest" not in sys.modules:
    register()
