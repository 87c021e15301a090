"""The FC table assistant (the game's part; the terminal is cli/assist.py): the person keeps the map and their
own ship, the program flies the Robot Rules (steps 1A-7C) and keeps the robot's ship card.

What the person is asked (docs/assistant.md "FC"), and what is filled in for them:
- energy allocation: only the baseline speed (0, 8, 16, 24); shield regeneration, held drones and photons are
  the suggested allocation at that speed (the robot's rules read the person's speed and position, not their
  energy);
- acceleration: "none" each impulse without asking, unless the person typed 'accel' or 'stop' (emergency
  deceleration) before the impulse;
- each sub-pulse the person's ship moves: the hex and facing it is in now (or the move's name);
- offensive fire: the shots fired, asked only when a weapon bears (else "no fire" without asking); the dice
  give the damage (rolled by the program, or typed with table dice);
- launches, when a rack is ready; the defence against the robot's drones striking, reinforcement of a hit
  shield, and which phaser or tractor the DAC takes (the person's choices, which change what the robot meets);
- end of turn (batteries, repairs, shield transfers of the person's ship): the suggested answers without
  asking (the robot's rules do not read them until the next turn's shields; 'fix' corrects a shield).
"""
from __future__ import annotations

from typing import Any

from ..core.assist import Question, RuleNotes, die_question
from ..core.errors import IllegalAction, PaperRobotError
from ..core.hexgrid import Hex, facing_index, label, neighbour
from ..core.narrate import stamp
from .narrate import narrator

WORDS = {"accel": "accelerate at the start of the next impulse (one more move, FC.2)",
         "stop": "emergency deceleration at the start of the next impulse (stop this turn)"}
AUTO = ("batteries", "repair", "transfer")  # the person's own end-of-turn bookkeeping: the suggestion


def _where(xy) -> str:
    return label(Hex(int(xy[0]), int(xy[1])))


def move_result(pos: Hex, facing: int, move: str) -> tuple[Hex, int]:
    """Where a move leaves a ship (game.move_ship's geometry, without changing anything)."""
    if move.startswith("het-"):
        facing = facing_index(move[4])
        return neighbour(pos, facing), facing
    if move in ("pivot-left", "pivot-right"):
        return pos, (facing + (-1 if move == "pivot-left" else 1)) % 6
    if move == "decel":
        return pos, facing
    if move == "straight":
        return neighbour(pos, facing), facing
    if move in ("turn-left", "turn-right"):
        facing = (facing + (-1 if move == "turn-left" else 1)) % 6
        return neighbour(pos, facing), facing
    return neighbour(pos, facing + (-1 if move == "slip-left" else 1)), facing  # sideslip


class Assistant:
    game = "fc"
    words = WORDS
    always_auto = ("accelerate",) + AUTO  # answered by auto() every time: never a question to take back

    def __init__(self):
        self.notes = RuleNotes()
        self.narrator = narrator()
        self.next_impulse = "none"  # 'accel' / 'stop' typed by the person
        self.drones_seen: dict[str, str] = {}

    def word(self, name: str) -> str:
        if name not in WORDS:
            raise PaperRobotError(f"'{name}' is not a word of the FC assistant")
        self.next_impulse = "accel" if name == "accel" else "emergency"
        return f"Noted: {WORDS[name]}."

    # ------------------------------------------------------------------ the person's side
    def auto(self, request) -> Any:
        kind = request.kind
        if kind == "accelerate":
            answer, self.next_impulse = self.next_impulse, "none"
            return answer if request.option(answer) is not None else "none"
        if kind in AUTO:
            return request.default
        if kind == "fire" and (not request.form.fields
                               or request.form.choices(request.form.fields[0].name, {}) == ("none",)):
            return dict.fromkeys((f.name for f in request.form.fields), "none")
        return None

    def question(self, request) -> Question | None:
        kind = request.kind
        if kind == "roll":
            return die_question(request)
        game, ship = request.state, request.subject
        if kind == "allocate":
            return self._allocate(request, game, ship)
        if kind == "move":
            return self._move(request, game, ship)
        if kind == "fire":
            return self._fire(request, ship)
        if kind == "launch":
            return self._launch(request)
        if kind == "defend":
            return self._defend(request)
        if kind == "reinforce":
            info = request.data
            keys = [o.key for o in request.options]

            def parse_reinforce(text: str) -> str:
                text = text.strip() or str(request.default)
                if text not in keys:
                    raise PaperRobotError(f"type 0 to {info['cap']}")
                return text
            return Question(f"{info['damage']} damage on your shield #{info['shield']}: how much reinforcement?",
                            f"0-{info['cap']} energy; Enter = {request.default}", parse_reinforce)
        if kind in ("dac_phaser", "dac_tractor"):
            keys = [o.key for o in request.options]

            def parse_choice(text: str) -> str:
                text = text.strip() or str(request.default)
                if text not in keys:
                    raise PaperRobotError(f"one of: {', '.join(keys)}")
                return text
            what = "phaser" if kind == "dac_phaser" else "tractor (free or holding a drone)"
            return Question(f"The DAC hits a {what} of your ship: which one do you mark?",
                            f"{', '.join(keys)}; Enter = {request.default}", parse_choice)
        return None

    def _allocate(self, request, game, ship) -> Question:
        preset = request.option("suggested")
        suggested = preset.value if preset is not None else {"speed": 0, "regen": [], "hold": [], "photons": []}

        def parse(text: str) -> dict:
            text = text.strip()
            speed = int(text) if text.isascii() and text.isdigit() and len(text) < 3 else (
                suggested["speed"] if not text else None)
            legal = request.form.choices("speed", {})
            if speed not in legal:
                raise PaperRobotError(f"a baseline speed is one of {', '.join(map(str, legal))} (FC.1)")
            base = dict(suggested, speed=speed)
            for attempt in (base, dict(base, photons=[]), dict(base, photons=[], regen=[])):
                try:
                    request.form.check(attempt)
                    return attempt
                except IllegalAction:  # the power does not stretch: the speed the person flies comes first
                    continue
            raise PaperRobotError(f"speed {speed} needs more power than your ship has this turn")
        return Question(f"Turn {game.turn}: your ship's baseline speed? (the rest of your energy is allocated as "
                        f"suggested)", f"0, 8, 16 or 24; Enter = {suggested['speed']}", parse)

    def _move(self, request, game, ship) -> Question:
        results = {}
        for move in request.data:
            pos, facing = move_result(ship.pos, ship.facing, move)
            results[move] = (label(pos), "ABCDEF"[facing])
        shown = ", ".join(f"{m} = {w} {f}" for m, (w, f) in results.items())
        brief = ", ".join(f"{m} = {w} {f}" for m, (w, f) in results.items() if not m.startswith(("het-", "pivot-")))
        brief += "; HETs and pivots by name" if len(results) > brief.count("=") else ""

        def parse(text: str) -> str:
            words = text.replace(",", " ").split()
            if not words:
                return request.default
            if words[0].lower() in results:
                return words[0].lower()
            where = words[0]
            facing = words[1].upper() if len(words) > 1 else None
            found = [m for m, (w, f) in results.items() if w == where and (facing is None or f == facing)]
            if found and len(words) <= 2:
                plain = [m for m in found if not m.startswith(("het-", "pivot-"))]  # the cheapest way there
                return (plain or found)[0]
            raise PaperRobotError(f"'{text[:30]}' is not one move from {label(ship.pos)} {'ABCDEF'[ship.facing]}: "
                                  f"{shown}")
        return Question(f"Impulse {game.impulse}, sub-pulse {game.subpulse}: your ship moves from {label(ship.pos)} "
                        f"facing {'ABCDEF'[ship.facing]}: where is it now?",
                        f"hex and facing, or the move ({brief}); Enter = {request.default}", parse)

    def _fire(self, request, ship) -> Question:
        first = request.form.fields[0].name
        legal = [k for k in request.form.choices(first, {}) if k != "none"]
        weapons = sorted({k.split("@")[0] for k in legal}, key=lambda w: [x.id for x in ship.weapons].index(w))
        names = [f.name for f in request.form.fields]

        def parse(text: str) -> Any:
            words = text.replace(",", " ").split()
            values = dict.fromkeys(names, "none")
            if not words or words == ["none"]:
                return values
            if len(words) > len(names):
                raise PaperRobotError(f"at most {len(names)} shots")
            for name, word in zip(names, words):
                shot = word if "@" in word else word.replace(":", "@ship:", 1) if ":" in word else word + "@ship"
                values[name] = shot
            return values
        return Question(f"Impulse {game_impulse(request)}: did your ship fire? (each weapon once a turn)",
                        "the weapons fired at the robot, e.g. 'ph1-1 phot-1' ('disr-1:overload'; at a drone "
                        f"'ph3-1@r2'); Enter = no fire. Bearing: {', '.join(weapons)}", parse)

    def _launch(self, request) -> Question:
        names = [f.name for f in request.form.fields]

        def parse(text: str) -> Any:
            words = text.replace(",", " ").split()
            if not words or words[0].lower() in ("n", "no", "none"):
                return dict.fromkeys(names, "none")
            if words[0].lower() in ("y", "yes"):
                return {**dict.fromkeys(names, "none"), names[0]: "ship"}
            if len(words) > len(names):
                raise PaperRobotError(f"{len(names)} rack(s) ready: at most {len(names)} drones")
            return {**dict.fromkeys(names, "none"), **dict(zip(names, words))}
        return Question(f"Does your ship launch drones ({len(names)} rack(s) ready)?",
                        "y (one at the robot), n, or one target a drone: 'ship ship', or a drone id for a "
                        "counter-drone; Enter = n", parse)

    def _defend(self, request) -> Question:
        drones = list(request.data)
        suggested = request.option("suggested")

        def parse(text: str) -> Any:
            words = text.split()
            if not words:
                return "suggested"
            if words[0].lower() in ("nothing", "everything"):
                return words[0].lower()
            values: dict = {"order": []}
            for word in words:
                did, sep, steps = word.partition("=")
                if did not in drones or not sep:
                    raise PaperRobotError(f"give drone=steps for the drones {', '.join(drones)}, e.g. "
                                          f"{drones[0]}=add,phaser-3")
                values["order"].append(did)
                values[did] = [s for s in steps.split(",") if s]
            return values
        return Question(f"The robot's drones {', '.join(drones)} strike your ship: how do you defend (FC.4)?",
                        f"drone=steps (add, phaser-3, phaser-2-as3, phaser-1-as3, phaser-1, phaser-2, tractor), "
                        f"'nothing', 'everything'; Enter = {suggested.label if suggested else 'suggested'}", parse)

    # ------------------------------------------------------------------ the robot's side, told to the table
    def before(self, match, request) -> list[str]:
        """Drones move without events (FC.GEN.DRONES): their new hexes since the last question."""
        lines = []
        for d in match.engine.drones:
            where = label(d.pos) if d.alive else "gone"
            if self.drones_seen.get(d.id) != where:
                self.drones_seen[d.id] = where
                if d.alive:
                    held = f", held by {d.held_by}'s tractor" if d.held_by else ""
                    lines.append(f"MOVE drone {d.id} ({d.owner}'s) to {where} facing {'ABCDEF'[d.facing]}{held}")
                else:
                    lines.append(f"REMOVE drone {d.id}")
        return lines

    def instruction(self, event) -> str | None:
        d, kind = event.data, event.kind
        at = stamp(event)
        robot = event.side == "robot"
        if kind == "decision":
            if not robot:
                return None
            return f"{at} ROBOT {self.notes.line(d.get('rule', '?'), d.get('text', ''), d.get('rolls'))}"
        if kind == "moved" and robot:
            return f"{at} MOVE the robot's counter to {_where(d['to'])} facing {d['facing']} ({d['move']})"
        if kind == "decelerated" and robot:
            return f"{at} the robot stays in {_where(d['at'])} (decelerates: the move is cancelled)"
        if kind == "het" and robot:
            return f"{at} the robot makes a high energy turn to face {d['facing']}"
        if kind == "fired":
            what = "your ship" if d["target"] == "ship" and robot else ("the robot" if d["target"] == "ship"
                                                                        else f"drone {d['target']}")
            head = "ROBOT FIRES" if robot else "YOUR FIRE"
            return (f"{at} {head}: {d['weapon']}{' ' + d['mode'] if d['mode'] else ''} at {what}, range {d['range']}: "
                    f"d6={d['roll']}, {d['damage']} damage" + (" - destroyed" if d.get("destroyed") else ""))
        if kind == "damage":
            card = "the robot's card" if robot else "your card"
            return (f"{at} MARK on {card}: {d['damage']} on shield #{d['shield']} (reinforced {d['reinforced']}): "
                    f"{d['shield_boxes']} shield box(es), {d['internal']} internal; shield #{d['shield']} now "
                    f"{d['shield_left']}")
        if kind == "internal":
            card = "the robot's card" if robot else "your card"
            return f"{at} MARK internal boxes on {card} (DAC): {', '.join(d['boxes']) or 'none'}"
        if kind == "allocated":
            regen = ", ".join(f"#{n}" for n in d["regen"]) or "nothing"
            hold = ", ".join(d["hold"]) or "nothing"
            photons = ", ".join(d["photons"]) or "none"
            if robot:
                return (f"{at} ROBOT energy: speed {d['speed']}; regenerate shield boxes: {regen} (clear them on its "
                        f"card); hold drones: {hold}; photons armed: {photons}")
            return (f"{at} your ship: speed {d['speed']}; assumed as suggested: regenerate {regen}, hold {hold}, "
                    f"photons {photons}")
        if kind == "launched" and robot:
            target = "your ship" if d["target"] == "ship" else f"drone {d['target']}"
            return f"{at} PLACE drone {d['drone']} in the robot's hex, seeking {target}"
        if kind in ("setup", "provisional", "accelerated", "emergency", "impact", "tractored", "add", "drone_destroyed",
                    "destroyed", "disengaged", "correction", "result") or (robot and kind in (
                        "batteries", "repaired", "transfer", "launched")):
            return self.narrator.line(event)
        return None

    def status(self, match) -> list[str]:
        game = match.engine
        lines = []
        for s in game.ships.values():
            lines.append(f"  {'robot' if s.side == 'robot' else 'you'}: {s.spec.title} at {label(s.pos)} facing "
                         f"{'ABCDEF'[s.facing]}, speed {s.speed_now()}, shields {s.shields}")
        for d in game.drones:
            if d.alive:
                lines.append(f"  drone {d.id} of {d.owner} at {label(d.pos)} seeking {d.target}")
        return lines


def game_impulse(request) -> int:
    return request.state.impulse
