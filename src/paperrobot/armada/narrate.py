"""Sentences for Armada events (battle narration and replay)."""
from __future__ import annotations

from ..core.events import Event
from ..core.narrate import Narrator
from ..core.words import signed


def _rolls(e: Event) -> str:
    if not e.data.get("rolls"):
        return ""
    parts = []
    for sides, value, purpose, _ in e.data["rolls"]:
        if sides == 8 and purpose.startswith("blue die"):
            from .dice import blue_face
            parts.append(f"blue {blue_face(value)}")
        else:
            parts.append(f"d{sides}={value}")
    return " [" + ", ".join(parts) + "]"


def decision(e: Event) -> str:
    return f"  R{e.turn} {e.side} AI {e.data['rule']}: {e.data['text']}{_rolls(e)}" if e.side == "imperial" else \
        f"  R{e.turn} {e.side} {e.data['rule']}: {e.data['text']}"


def attack(e: Event) -> str:
    d = e.data
    src = f"{d['attacker']} {d['zone']}" if d.get("zone") else d["attacker"]
    tgt = f"{d['target']} {d['tzone']}" if d.get("tzone") else d["target"]
    extra = " (obstructed)" if d.get("obstructed") else ""
    kind = "counters" if d.get("counter") else "attacks"
    return f"R{e.turn} {src} {kind} {tgt} at {d.get('band')}: {d['dice']} -> {', '.join(d['faces']) or 'nothing'}{extra}"


FORMATS = {
    "setup": lambda e: f"Star Wars: Armada, seed {e.data.get('seed')}: Imperials {', '.join(e.data['setup']['imperial'])} "
                       f"vs Rebels {', '.join(e.data['setup']['rebel'])}"
                       + (f"\n{e.data['robot_rules'].get('summary')}" if e.data.get("robot_rules") else ""),
    "initiative": lambda e: f"First player: {e.data['first']} (fleets {e.data['imperial_points']} vs {e.data['rebel_points']} points)",
    "deployed": lambda e: f"Deployed: {e.data['style']} Imperial commander, focal point x={e.data['focal'][0]:.0f} mm, "
                          f"Imperials on the {e.data['zone']} of the far zone",
    "round": lambda e: f"--- Round {e.data['number']} ---",
    "dial": lambda e: None,
    "activate": lambda e: f"R{e.turn} {e.side} activates {e.data['ship']}",
    "command": lambda e: f"R{e.turn} {e.data['ship']} command: {e.data['command'] or 'none'}"
                         + (f", tokens {', '.join(e.data['tokens'])}" if e.data['tokens'] else ""),
    "attack": attack,
    "defence": lambda e: (f"R{e.turn} {e.data['ship']} spends {', '.join(e.data['spent'])}: {e.data['damage']} damage"
                          if e.data["spent"] else f"R{e.turn} {e.data['ship']} takes {e.data['damage']} damage"),
    "damage": lambda e: (f"R{e.turn} {e.data['unit']} {e.data['zone']}: {e.data['shields']} shields, {e.data['cards']} "
                         f"cards, {e.data['hull_left']} hull left" if "zone" in e.data else
                         f"R{e.turn} {e.data['unit']} loses {e.data['amount']} hull ({e.data['hull']} left)"),
    "crit": lambda e: f"R{e.turn} {e.data['unit']} face-up damage card: {e.data['card']}",
    "destroyed": lambda e: f"R{e.turn} {e.data['unit']} DESTROYED ({e.data['points']} points)"
                           + (f": {e.data['reason']}" if e.data.get("reason") else ""),
    "move": lambda e: f"R{e.turn} {e.data['ship']} moves speed {e.data['moved']} yaw {signed(e.data['clicks'])} to "
                      f"({e.data['x']:.0f}, {e.data['y']:.0f}) heading {e.data['heading']:.0f}",
    "squadron-move": lambda e: f"R{e.turn} {e.data['unit']} moves to ({e.data['x']:.0f}, {e.data['y']:.0f})",
    "collision": lambda e: f"R{e.turn} {e.data['unit']} overlaps: a facedown damage card",
    "obstacle": lambda e: f"R{e.turn} {e.data['unit']} ends on a {e.data['obstacle']}",
    "repair": lambda e: f"R{e.turn} {e.data['ship']} repairs: {', '.join(e.data['did']) or 'nothing'}",
    "status": lambda e: f"Score after round {e.turn}: Imperials {e.data['score']['imperial']}, Rebels {e.data['score']['rebel']}",
    "picture": lambda e: None,
    "end": lambda e: f"RESULT: {e.data['winner'] + ' wins' if e.data['winner'] else 'a draw'} ({e.data['result']}) after {e.data['rounds']} rounds, "
                     f"Imperials {e.data['score']['imperial']} - Rebels {e.data['score']['rebel']}",
    "decision": decision,
}


def narrator() -> Narrator:
    return Narrator(dict(FORMATS))
