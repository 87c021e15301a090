"""What a person playing SFB is not asked (core/asking.py; docs/sfb.md "When a person is asked"): scenario #5's
"disengage?" at the end of every impulse is answered "no" unless the person said ``disengage``; a fire question
where no shot can do a point on average (and it is not the last impulse: ``worth_asking`` in the view) is "none"."""
from __future__ import annotations

from typing import Any

from ..core.asking import Asking

DISENGAGE = ("leave the battle at the end of this impulse (scenario #5: a draw for you, a tactical victory for the "
             "robot)")


class SfbAsking(Asking):
    words = {"disengage": DISENGAGE}
    confirm = {"disengage": "Disengage at the end of this impulse? Scenario #5 then ends: a draw for you, a "
                            "tactical victory for the robot."}

    def __init__(self):
        self.wants_out = False

    def word(self, name: str) -> str:
        if name != "disengage":
            raise KeyError(name)
        self.wants_out = True
        return ("You will disengage at the end of this impulse (scenario #5: a draw for you, a tactical victory for "
                "the robot).")

    def auto(self, request: Any) -> Any:
        if request.kind == "disengage":
            answer, self.wants_out = ("yes" if self.wants_out else "no"), False
            return answer
        if request.kind == "fire" and not (request.view or {}).get("worth_asking"):
            return "none"
        return super().auto(request)
