"""Narration of every event kind the SFB engine emits."""
from __future__ import annotations

from ..core.events import Event
from ..core.narrate import Narrator, stamp


def _setup(e: Event) -> str:
    ships = ", ".join(f"{name} ({v['side']}{', robot' if v.get('robot') else ''}) at {v['hex']} facing {v['facing']}"
                      for name, v in e.data.get("ships", {}).items())
    rules = e.data.get("robot_rules")  # a variant of the robot's procedure: its first line says which entries
    return (f"Scenario {e.data.get('scenario')} (seed {e.data.get('seed')}): {ships}"
            + (f"\n{rules.get('summary')}" if rules else ""))


def _decision(e: Event) -> str | None:
    """A robot decision: ship, rule ID, sentence and dice (the policy's own choices are not narrated)."""
    if e.data.get("rule") in ("POLICY", "SAVE"):
        return None
    rolls = e.data.get("rolls") or []
    dice = "; ".join(f"{'coin' if r[0] == 2 else 'd' + str(r[0])}={r[1]} {r[2]}" for r in rolls)
    text = f"{stamp(e)} {e.data.get('ship', e.side)} [{e.data.get('rule', '?')}] {e.data.get('text', '')}"
    return f"{text}  (dice: {dice})" if dice else text


def _energy(e: Event) -> str:
    arm = ", ".join(f"{k} {v}" for k, v in e.data.get("arm", []))
    return (f"{stamp(e)} {e.data['ship']} allocates energy: speed {e.data['speed']}, phasers {e.data['phasers']:g}"
            f"{', ' + arm if arm else ''}, recharge {e.data['recharge']}")


def _damage(e: Event) -> str:
    d = e.data
    text = f"{stamp(e)} {d['ship']} takes {d['points']} on shield #{d['shield']} ({d['absorbed']} stopped"
    if d.get("internal"):
        text += f", {d['internal']} internal: {', '.join(d.get('hits', []))}"
    return text + ")"


def _fired(e: Event) -> str:
    d = e.data
    result = f"{d['damage']} damage" if d["damage"] else "miss"
    return f"{stamp(e)} {d['ship']} fires {d['weapon']} at {d['target']}, range {d['range']}: d6={d['roll']}, {result}"


FORMATTERS = {
    "setup": _setup,
    "turn": lambda e: f"--- Turn {e.turn} ---",
    "energy": _energy,
    "decision": _decision,
    "moved": lambda e: (f"{stamp(e)} {e.data['ship']} moves {e.data['steer']} to {e.data['to']} "
                        f"facing {e.data['facing']}"),
    "drone-moved": lambda e: None,
    "launched": lambda e: (f"{stamp(e)} {e.data['ship']} launches drone {e.data['drone']} from {e.data['rack']} at "
                           f"{e.data['target']} ({e.data['left']} left)"),
    "impact": lambda e: f"{stamp(e)} drone {e.data['drone']} strikes {e.data['target']} on shield #{e.data['shield']}",
    "drone-destroyed": lambda e: f"{stamp(e)} drone {e.data['drone']} is destroyed",
    "drone-lost": lambda e: f"{stamp(e)} drone {e.data['drone']} is gone ({e.data['why']})",
    "fired": _fired,
    "damage": _damage,
    "destroyed": lambda e: f"{stamp(e)} {e.data['ship']} is DESTROYED",
    "left-map": lambda e: f"{stamp(e)} {e.data['ship']} leaves the map ({e.data['how']})",
    # scenario #6: plasma torpedoes and the cloak
    "plasma-arming": lambda e: f"{stamp(e)} {e.data['ship']} {e.data['tube']}: {e.data['what']} [{e.data['rule']}]",
    "cloak": lambda e: (f"{stamp(e)} {e.data['ship']} is {'CLOAKED' if e.data['cloaked'] else 'uncloaked'} this turn "
                        f"[SFB.CLOAK]"),
    "plasma-launched": lambda e: (f"{stamp(e)} {e.data['ship']} launches plasma {e.data['plasma']} from {e.data['tube']}"
                                  f" at {e.data['target']}, facing {e.data['facing']}, strength {e.data['strength']}"
                                  f" [SFB.PLASMA.LAUNCH]"),
    "plasma-moved": lambda e: None,
    "plasma-lost": lambda e: f"{stamp(e)} plasma {e.data['plasma']} is gone ({e.data['why']})",
    "plasma-impact": lambda e: (f"{stamp(e)} plasma {e.data['plasma']} strikes {e.data['target']} on shield "
                                f"#{e.data['shield']} after {e.data['travelled']} hexes: strength {e.data['strength']}"
                                f", {e.data['damage']} damage [SFB.PLASMA.STRENGTH]"),
    "plasma-destroyed": lambda e: f"{stamp(e)} plasma {e.data['plasma']} is reduced to nothing by phasers",
    "cloak-roll": lambda e: (f"{stamp(e)} {e.data['weapon']} enters cloaked {e.data['target']}'s hex: "
                             f"d6={e.data['roll']}, " + (f"hits for half ({e.data['damage']})" if e.data['hits']
                                                         else "misses and is removed") + " [SFB.CLOAK]"),
    "feedback": lambda e: (f"{stamp(e)} {e.data['ship']} takes {e.data['damage']} feedback on shield "
                           f"#{e.data['shield']} from its own plasma {e.data['plasma']} [SFB.PLASMA.FEEDBACK]"),
    "plasma-tube": lambda e: (f"{stamp(e)} {e.data['ship']}'s {e.data['tube']} is destroyed: its torpedo may still be "
                              f"launched until impulse {e.data['until']} (absolute) [SFB.PLASMA.TUBE]"),
    "correction": lambda e: (f"{stamp(e)} correction to match the table: {e.data['ship']} "
                             + ", ".join(f"{k}={v}" for k, v in e.data["changes"].items())),
    "result": lambda e: (f"Result after {e.data['turns']} turns: "
                         f"{'draw' if e.data['winner'] is None else e.data['winner'] + ' wins'} ({e.data['result']})"),
}


def narrator() -> Narrator:
    return Narrator(dict(FORMATTERS))
