"""A synthetic game on the game contract, for the balance command's end-to-end tests: the robot's win chance
is a known logistic function of a ``handicap`` set-up option (sim.synthetic). The robot side answers one
request per game, so the driver's whole path is used.

Tests register it with ``register()`` and remove it afterwards; a worker process started by the sweep (a pool
worker or a Ray worker) imports this module (``RegistryPlay.module``) and registers it here, at import.
"""
import multiprocessing
import sys

from paperrobot.core import registry
from paperrobot.core.contract import Decision, Option, Reason, Request
from paperrobot.sim import synthetic

NAME = "synthetic-balance"


class SyntheticEngine:
    sides = ("robot", "player")
    robot_side = "robot"

    def __init__(self, seed, log, handicap=0, h50=40, draw="no"):
        self.seed, self.log, self.handicap, self.h50 = seed, log, handicap, h50
        self.draw = 0.1 if draw == "yes" else 0.0

    def sequence(self):
        yield Request("ready", "robot", options=(Option("go", "fight"),))
        return synthetic.play(self.seed, self.handicap, h50=self.h50, draw=self.draw, shared=0.8)

    def controller(self, side, kind):
        class Controller:
            def decide(self, request):
                return Decision("go", (Reason("TEST.GO", "fights"),))
        return Controller()

    def record(self, request, decision):
        pass


INFO = registry.GameInfo(
    NAME, "Synthetic logistic game", SyntheticEngine.sides, "robot",
    (registry.SetupOption("handicap", "points given to the robot", 0, "int", low=-200, high=400),
     registry.SetupOption("h50", "the true even point", 40, "int", low=-100, high=300),
     registry.SetupOption("draw", "10% draws", "no", "choice", choices=("no", "yes"))),
    SyntheticEngine, lambda: None)

NO_HANDICAP = registry.GameInfo(
    "synthetic-nohandicap", "Synthetic game without a handicap", SyntheticEngine.sides, "robot",
    (registry.SetupOption("h50", "the true even point", 40, "int", low=-100, high=300),),
    SyntheticEngine, lambda: None)


def register():
    registry.register(INFO)
    registry.register(NO_HANDICAP)


def unregister():
    registry.registered().pop(NAME, None)
    registry.registered().pop(NO_HANDICAP.name, None)


if multiprocessing.parent_process() is not None or "pytest" not in sys.modules:
    register()  # a sweep's worker (pool or Ray): the test registered it in the pytest process only
