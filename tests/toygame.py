"""A small game on the contract for tests of the driver, saves, the terminal loop and the environments:
two sides add 1-3 to a total in turns; whoever reaches ``target`` wins."""
import pytest

from paperrobot.core import registry
from paperrobot.core.contract import Decision, Field, Form, Option, Reason, Request
from paperrobot.core.dice import Dice
from paperrobot.core.errors import IllegalAction
from paperrobot.core.outcome import Outcome


class Counting:
    """Two sides add 1-3 to a total, in turns; whoever reaches ``target`` wins. The 'bank' side also
    answers a form (split 4 points between a and b, a >= b) once."""

    sides = ("robot", "player")
    robot_side = "robot"

    def __init__(self, seed, log, target=7):
        self.dice, self.log, self.target, self.total = Dice(seed), log, target, 0
        self.recorded = []
        self.split, self.side = None, "player"  # the position in the sequence of play is state (clone, fork)
        self.boundary = None

    def sequence(self):
        if self.split is None:
            split_form = Form((Field("a"), Field("b")),
                              lambda name, earlier: (2, 3, 4) if name == "a" else (4 - earlier["a"],),
                              self._split)
            decision = yield Request("split", "player", form=split_form,
                                     options=(Option("even", "2 and 2", {"a": 2, "b": 2}),),
                                     view={"total": 0, "target": self.target})
            self.split = decision.action
        while True:
            if self.boundary is not None:
                self.boundary()
            side = self.side
            add = yield Request("add", side, state=self, options=lambda: tuple(Option(str(n), f"add {n}", n)
                                                                                for n in (1, 2, 3)),
                                view=lambda: {"total": self.total, "target": self.target})
            self.total += add.action
            if self.total >= self.target:
                return Outcome(side, "reached", self.total)
            self.side = "robot" if side == "player" else "player"

    def snapshot(self):
        return (self.total, self.split, self.side, self.dice.snapshot())

    def restore(self, snapshot, log):
        copy = Counting.__new__(Counting)
        copy.log, copy.target, copy.recorded, copy.boundary = log, self.target, [], None
        copy.total, copy.split, copy.side, dice = snapshot
        copy.dice = Dice.restore(dice)
        return copy

    @staticmethod
    def _split(values):
        a, b = values.get("a"), values.get("b")
        if not isinstance(a, int) or not isinstance(b, int) or a + b != 4 or a < b:
            raise IllegalAction("a and b must add up to 4 with a >= b", "TEST.SPLIT")
        return (a, b)

    def controller(self, side, kind):
        game = self

        class Robot:
            def decide(self, request):
                roll = game.dice.d6("how much", side)
                return Decision(str(1 + roll % 3), (Reason("TEST.ADD", f"d6={roll}"),))
        return Robot()

    def fix(self, changes):
        """A correction of the state (the table assistant's 'fix'): only the total can be set."""
        total = changes.get("total")
        if set(changes) != {"total"} or not isinstance(total, int) or not 0 <= total < self.target:
            raise IllegalAction(f"the total can be set to 0-{self.target - 1}", "TEST.FIX")
        self.total = total
        self.log.emit("correction", side="player", total=total)

    def record(self, request, decision):
        self.recorded.append((request.seq, request.kind, decision.action, tuple(r.rule for r in decision.reasons)))


@pytest.fixture
def counting_game():
    registry.register(registry.GameInfo(
        "counting", "Counting", Counting.sides, "robot",
        (registry.SetupOption("target", "total to reach", 7, "int", low=2, high=50),), Counting, lambda: None))
    try:
        from paperrobot.envs import encoding
        encoding.register("counting", encoding.Encoder(("split", "add"), ("total", "target"),
                                                       lambda view, side: [view["total"], view["target"]], 8))
    except ImportError:  # numpy (the rl extra) is not installed
        pass
    yield
    registry.registered().pop("counting")
