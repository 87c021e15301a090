"""FC's answers in contract terms, shared by the engine's requests (requests.py), the robot (robot.py), the
player policy (player.py) and the robot's procedure (procedure.py): the defence steps, which answers are the
engine's action as they are, and ``encode(kind, action)``, an engine action (what the robot and the policy
compute) as the answer a request takes. Apart from requests.py so that the controllers need not import it."""
from __future__ import annotations

from typing import Any, Final

DEFENCE_STEPS: Final[tuple[str, ...]] = ("add", "phaser-3", "phaser-2-as3", "phaser-1-as3", "phaser-1", "phaser-2", "tractor")
PLAIN = frozenset(("accelerate", "move", "dac_phaser", "dac_tractor"))  # answers that are the engine's action
# The data of the fire request kept for a side flown in process (fire_requests.fire_request): the engine's own robot
# answers it with its shots, the engine action, checked by the engine's rules without being written out as the
# form's values and read back; whoever records that answer records the form's values (FireRequest.encode).
AS_SHOTS: Final = "shots"


def num_key(x: float) -> str:
    """A number as an option key that reads back exactly."""
    return str(int(x)) if float(x) == int(x) else repr(float(x))


def shot_key(wid: str, tgt: str, mode: str) -> str:
    return f"{wid}@{tgt}" + (f":{mode}" if mode else "")


def encode(kind: str, action: Any) -> Any:
    """An engine action (what the robot and the policy compute) in contract terms."""
    if kind == "allocate":
        return {"speed": action.get("speed", 0), "regen": list(action.get("regen", ())),
                "hold": list(action.get("hold", ())), "photons": list(action.get("photons", ()))}
    if kind == "fire":
        if not action:
            return {}  # hold fire
        return {f"shot{i}": shot_key(s[0], s[1], s[2]) for i, s in enumerate(action, 1)}
    if kind == "launch":
        if not action:
            return {}  # no launch (most launch steps)
        return {f"launch{i}": t for i, t in enumerate(action, 1)}
    if kind == "defend":
        out: dict[str, Any] = {"order": [did for did, _ in action]}
        for did, steps in action:
            out[did] = list(steps)
        return out
    if kind == "repair":
        return {"order": list(action)}
    if kind == "transfer":
        if not action:
            return {}  # no transfer (most ends of turn)
        return {f"move{i}": f"{a}>{b}:{n}" for i, (a, b, n) in enumerate(action, 1)}
    if kind == "reinforce":
        return str(int(action))
    if kind == "batteries":
        return num_key(action)
    return action
