"""A synthetic game for the ladder's tests: each side answers one request, choosing a strength ("weak",
"fair", "strong"); the player side wins with the logistic chance of the strength difference (on the ladder's
rating scale), a side term and a handicap term, from the seed's own RNG. The policy answers "fair", the robot
"strong", a random rung a uniform mixture: known true ratings, any pairing, a game in microseconds."""
import math
import multiprocessing
import random
import sys

from paperrobot.core import registry
from paperrobot.core.contract import Decision, Option, Reason, Request
from paperrobot.core.outcome import Outcome

NAME = "synthetic-ladder"
STRENGTH = {"weak": 600.0, "fair": 900.0, "strong": 1000.0}  # the robot answers strong: the anchor
SIDE = 0.2  # the player side's advantage, logit
SLOPE = -0.03  # per handicap point given to the robot
SCALE = 400 / math.log(10)


def chance(player: float, robot: float, handicap: float = 0.0) -> float:
    return 1 / (1 + math.exp(-((player - robot) / SCALE + SIDE + SLOPE * handicap)))


class LadderEngine:
    sides = ("robot", "player")
    robot_side = "robot"

    def __init__(self, seed, log, handicap=0):
        self.seed, self.log, self.handicap = seed, log, handicap

    def sequence(self):
        options = tuple(Option(k) for k in STRENGTH)
        robot = yield Request("strength", "robot", options=options)
        player = yield Request("strength", "player", options=options)
        rng = random.Random(self.seed)
        p = chance(STRENGTH[player.action], STRENGTH[robot.action], self.handicap)
        u = rng.random()
        winner = "player" if u < p else "robot"
        return Outcome(winner, "decided", 1, {})

    def controller(self, side, kind):
        answer = "strong" if kind == "robot" else "fair"

        class Robot:
            def decide(self, request):
                return Decision(answer, (Reason("TEST.GO", "fights"),))

        class Policy(Robot):
            pass
        return Robot() if kind == "robot" else Policy()

    def record(self, request, decision):
        pass


INFO = registry.GameInfo(
    NAME, "Synthetic ladder game", LadderEngine.sides, "robot",
    (registry.SetupOption("handicap", "points given to the robot", 0, "int", low=-200, high=200),),
    LadderEngine, lambda: None)


def register():
    registry.register(INFO)


def unregister():
    registry.registered().pop(NAME, None)


if multiprocessing.parent_process() is not None or "pytest" not in sys.modules:
    register()  # a worker process (pool or Ray): the test registered it in the pytest process only
