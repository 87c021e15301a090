"""Sentences for FC events (battle narration, replays, play)."""
from __future__ import annotations

from ..core.events import Event
from ..core.hexgrid import Hex, label
from ..core.narrate import Narrator, decision_line, stamp
from ..core.words import in_words


def _where(xy) -> str:
    return label(Hex(int(xy[0]), int(xy[1])))


def _line(fmt):
    def f(e: Event) -> str:
        return f"{stamp(e)} {e.side}: " + fmt(e.data)
    return f


FORMATS = {
    "setup": lambda e: (f"Federation Commander: robot {e.data.get('ships', {}).get('robot')} against "
                        f"{e.data.get('ships', {}).get('player')}" + (f" ({e.data['opponent']})" if e.data.get("opponent") else "")
                        + f", seed {e.data.get('seed')}"
                        + (f"\n{e.data['robot_rules'].get('summary')}" if e.data.get("robot_rules") else "")),
    "provisional": lambda e: ("Provisional data in use (stand-ins for unconfirmed FC charts): "
                              + ", ".join(e.data.get("tables", [])) + "; see 'paperrobot data --provisional --game fc'"),
    "decision": decision_line,
    "allocated": _line(lambda d: f"allocates speed {d['speed']}, regenerates "
                                 f"{in_words(d['regen'], ', ') if d['regen'] else 'nothing'}, energy "
                                 f"{in_words(d['energy'])} + battery {in_words(d['battery'])}"),
    "accelerated": _line(lambda d: f"accelerates to {d['speed']}"),
    "emergency": _line(lambda d: "emergency deceleration"),
    "moved": _line(lambda d: f"{d['move']} to {_where(d['to'])} facing {d['facing']}"),
    "het": _line(lambda d: f"high energy turn to face {d['facing']}"),
    "decelerated": _line(lambda d: "decelerates (cancels the move)"),
    "fired": _line(lambda d: f"fires {d['weapon']}{' ' + d['mode'] if d['mode'] else ''} at {d['target']} range "
                             f"{d['range']}: d6={d['roll']}, {d['damage']} damage"
                             + (" - destroyed" if d.get("destroyed") else "")),
    "damage": _line(lambda d: f"takes {d['damage']} on shield #{d['shield']} (reinforced {d['reinforced']}): "
                              f"{d['shield_boxes']} shield boxes, {d['internal']} internal, shield now {d['shield_left']}"),
    "internal": _line(lambda d: "internal hits: " + (", ".join(d["boxes"]) or "none")),
    "launched": _line(lambda d: f"launches drone {d['drone']} at {d['target']}"),
    "impact": _line(lambda d: f"drone {d['drone']} strikes {d['target']} on shield #{d['shield']}"),
    "tractored": _line(lambda d: f"holds drone {d['drone']} in a tractor beam"),
    "add": _line(lambda d: f"ADD at drone {d['drone']}: d6={d['roll']} {'destroyed' if d['hit'] else 'missed'}"),
    "drone_destroyed": _line(lambda d: f"counter-drone {d['by']} destroys drone {d['drone']}"),
    "batteries": _line(lambda d: f"stores {d['stored']:g} in batteries ({d['battery']:g})"),
    "repaired": _line(lambda d: f"repairs {d['item']}"),
    "transfer": _line(lambda d: f"moves {d['boxes']} boxes from shield #{d['source']} to #{d['to']}"),
    "destroyed": _line(lambda d: "is DESTROYED"),
    "disengaged": _line(lambda d: "leaves the map and disengages"),
    "correction": _line(lambda d: "correction to match the table: "
                                  + ", ".join(f"{k}={in_words(v)}" for k, v in d["changes"].items())),
    "result": lambda e: (f"Result after turn {e.turn}: " + (f"{e.data['winner']} wins" if e.data.get("winner")
                         else "a draw") + f" ({e.data['result']}; internal damage {in_words(e.data.get('internals'))})"),
}


def narrator() -> Narrator:
    return Narrator(dict(FORMATS))
