"""The SFB table assistant (the game's part; the terminal is cli/assist.py): the person keeps the map and their
own ship, the program flies the Cadet robot and keeps its ship sheet.

What the person is asked (docs/assistant.md "SFB"), and what is filled in for them:
- energy (16 impulses): only the speed (and, with a cloak, whether it is paid for); the rest of the allocation
  is the suggested one at that speed (the robot's rules read the person's speed, not their phasers' energy; the
  program's copy of the person's ship needs some allocation to check the fire the person reports);
- speed (8 impulses): the speed;
- each impulse the person's ship moves with a choice to make (turn mode satisfied): the hex and facing it is in
  now, or straight/left/right; a move without a choice (C3.2) is made without asking;
- fire: which weapons fired at what, asked when a shot can do at least 1 point on average or on the last
  impulse (the rule the terminal game uses, docs/sfb.md "When a person is asked"), or after the word 'fire'; the
  dice then give the damage (rolled by the program, or typed with table dice); otherwise "no fire" without asking;
- drone and plasma launches, when a launcher is ready and bears; the cloak, when paid for (the energy answer
  said so: not asked again);
- scenario #5's disengagement: "no" without asking, unless the person typed 'disengage'.
"""
from __future__ import annotations

from typing import Any

from ..core import hexgrid
from ..core.assist import Question, RuleNotes, die_question, yes_no
from ..core.errors import IllegalAction, PaperRobotError
from ..core.narrate import stamp
from .energy import energy_values
from ..core.hexgrid import distance
from .movement import candidates
from .narrate import narrator

WORDS = {"disengage": "leave the battle at the end of this impulse (scenario #5: a draw for you, a tactical "
                      "victory for the robot)",
         "fire": "ask about your fire at this impulse's fire step even if no shot is worth much"}


class Assistant:
    game = "sfb"
    words = WORDS
    always_auto = ("disengage",)  # answered by auto() every time: never a question to take back

    def __init__(self):
        self.notes = RuleNotes()
        self.narrator = narrator()
        self.wants_out = False
        self.cloak_wanted: dict[int, bool] = {}  # turn -> the energy answer paid for the cloak to cloak
        self.speed_told = 0  # the turn whose robot speed was last told
        self.wants_fire = False  # 'fire' typed: ask the next fire question even if no shot is worth much

    # ------------------------------------------------------------------ the person's side
    def word(self, name: str) -> str:
        if name == "disengage":
            self.wants_out = True
            return "You will disengage at the end of this impulse."
        if name == "fire":
            self.wants_fire = True
            return "You will be asked about your fire at this impulse's fire step."
        raise PaperRobotError(f"'{name}' is not a word of the SFB assistant")

    def auto(self, request) -> Any:
        kind = request.kind
        if kind == "disengage":
            answer, self.wants_out = ("yes" if self.wants_out else "no"), False
            return answer
        if kind == "fire":
            if self.wants_fire:
                self.wants_fire = False
                return None
            if not request.view.get("worth_asking"):
                return "none"
        if kind == "cloak" and request.state.turn in self.cloak_wanted:
            return "cloak" if self.cloak_wanted[request.state.turn] else "uncloaked"
        return None

    def question(self, request) -> Question | None:
        kind = request.kind
        if kind == "roll":
            return die_question(request)
        game, ship = request.state, request.subject
        if kind == "energy":
            return self._energy(request, game, ship)
        if kind == "speed":
            keys = [o.key for o in request.options]
            top = max(int(k) for k in keys)

            def parse_speed(text: str) -> str:
                text = text.strip() or str(request.default)
                if text not in keys:
                    raise PaperRobotError(f"'{text[:20]}' is not a speed here; type 0 to {top}")
                return text
            return Question(f"Turn {game.turn}: your {ship.name}'s speed this turn (your Chief Engineer arms the "
                            f"weapons)?", f"0-{top}; Enter = {request.default}", parse_speed)
        if kind == "move":
            return self._move(request, game, ship)
        if kind == "fire":
            return self._fire(request, game, ship)
        if kind == "launch":
            return self._launch(request, ship)
        if kind == "cloak":
            return Question(f"Is your {ship.name} cloaked this turn?", "y or n; Enter = n",
                            lambda text: "cloak" if yes_no(text, False) else "uncloaked")
        return None

    def _energy(self, request, game, ship) -> Question:
        form = request.form
        speeds = form.choices("speed", {})
        top = max(speeds)
        cloak_cost = ship.cloak.cost if ship.cloak is not None else 0
        suggested = game.policy.energy_allocation(ship)

        def parse(text: str) -> dict:
            words = text.lower().split()
            cloak = "cloak" in words
            words = [w for w in words if w != "cloak"]
            if cloak and not cloak_cost:
                raise PaperRobotError(f"{ship.name} has no cloaking device")
            if len(words) > 1 or (words and not (words[0].isascii() and words[0].isdigit())):
                raise PaperRobotError(f"type your speed, a number from 0 to {top}" + (" (and 'cloak' to pay for "
                                                                                      "the cloak)" if cloak_cost else ""))
            speed = int(words[0]) if words else suggested.speed
            if speed not in speeds:
                raise PaperRobotError(f"speed {speed} is not possible this turn: 0 to {top} (at most 8 more than "
                                      f"last turn's {ship.speed}, and what the engines give)")
            values = allocation_at(game, ship, speed, cloak)
            self.cloak_wanted[game.turn] = cloak
            return values
        form_text = f"a speed 0-{top}" + (f", then 'cloak' to pay {cloak_cost} for the cloak" if cloak_cost else "")
        return Question(f"Turn {game.turn}: your {ship.name}'s speed this turn? (the rest of your energy is allocated "
                        f"as suggested)", f"{form_text}; Enter = {suggested.speed}", parse)

    def _move(self, request, game, ship) -> Question:
        moves = {}
        for steer, facing, dest in candidates(ship.hex, ship.facing, True):
            where = hexgrid.label(dest) if game.board.contains(dest) else "off"
            moves[steer] = (where, hexgrid.facing_letter(facing))
        default = request.default
        shown = ", ".join(f"{s} = {w} {f}" for s, (w, f) in moves.items())

        def parse(text: str) -> str:
            words = text.upper().replace(",", " ").split()
            if not words:
                return default
            if words[0].lower() in moves:
                return words[0].lower()
            found = [s for s, (w, f) in moves.items() if w == words[0] and (len(words) < 2 or f == words[1])]
            if len(found) == 1 and len(words) <= 2:
                return found[0]
            raise PaperRobotError(f"'{text[:30]}' is not one move from {hexgrid.label(ship.hex)} "
                                  f"{hexgrid.facing_letter(ship.facing)}: {shown} (or 'fix player_hex=... "
                                  f"player_facing=...' if the table differs)")
        return Question(f"Impulse {game.impulse}: your {ship.name} moves from {hexgrid.label(ship.hex)} facing "
                        f"{hexgrid.facing_letter(ship.facing)}: where is it now?",
                        f"hex and facing ({shown}); Enter = {default}", parse)

    def _fire(self, request, game, ship) -> Question:
        shots = game.fire_options(ship, labels=False)
        by_weapon: dict[str, list[str]] = {}
        for _, _, weapon, target in shots:
            by_weapon.setdefault(weapon.key, []).append(game.name_of(target))
        enemy = game.enemy_of(ship)
        default_target = enemy.name if enemy is not None else None
        by_target: dict[str, list[str]] = {}
        for _, _, weapon, target in shots:
            name = f"{game.name_of(target)} (range {distance(ship.hex, target.hex)})"
            by_target.setdefault(name, []).append(weapon.key)
        listing = "; ".join(f"at {t}: {', '.join(w)}" for t, w in by_target.items())

        def parse(text: str) -> Any:
            words = text.replace(",", " ").split()
            if not words or words == ["none"]:
                return "none"
            if words == ["all"] and request.option("all") is not None:
                return "all"
            answer = {}
            for word in words:
                weapon, sep, target = word.partition("=")
                if weapon not in by_weapon:
                    raise PaperRobotError(f"'{weapon[:20]}' cannot fire now; what bears: {listing}")
                if not sep:
                    target = default_target if default_target in by_weapon[weapon] else by_weapon[weapon][0]
                answer[weapon] = target
            return answer
        return Question(f"Impulse {game.impulse}: did your {ship.name} fire?",
                        f"the weapons fired, e.g. '{next(iter(by_weapon), 'phaser-1#1')}' (at {default_target}) or "
                        f"'weapon=target'; 'all'; Enter = no fire. Bearing: {listing}", parse)

    def _launch(self, request, ship) -> Question:
        what, weapons, target = request.data
        keys = [w.key for w in weapons]

        def parse(text: str) -> Any:
            words = text.replace(",", " ").split()
            if not words or words[0].lower() in ("n", "no", "none"):
                return "none"
            if words[0].lower() in ("y", "yes", "all"):
                return "all"
            if all(w in keys for w in words):
                return {"launch": words}
            raise PaperRobotError(f"answer y, n, or the launchers: {', '.join(keys)}")
        thing = "plasma torpedo" if what == "plasma" else "drone"
        return Question(f"Does your {ship.name} launch a {thing} at {target.name} now (from {', '.join(keys)})?",
                        f"y (all of them), n, or the launchers; Enter = n", parse)

    # ------------------------------------------------------------------ the robot's side, told to the table
    def instruction(self, event) -> str | None:
        d, kind = event.data, event.kind
        at = stamp(event)
        robot = event.side == "robot"
        if kind == "decision":
            if d.get("rule") in ("POLICY", "SAVE") or not robot:
                return None
            return f"{at} ROBOT {self.notes.line(d.get('rule', '?'), d.get('text', ''), d.get('rolls'), d['ship'] + ' ')}"
        if kind == "moved":
            if not robot:
                return None
            return f"{at} MOVE the {d['ship']} counter to {d['to']} facing {d['facing']} ({d['steer']})"
        if kind in ("drone-moved", "plasma-moved"):
            what = "drone" if kind == "drone-moved" else "plasma torpedo"
            label = d.get("drone") or d.get("plasma")
            extra = f", strength {d['strength']}" if "strength" in d else ""
            return f"{at} MOVE {what} {label} to {d['to']}{extra}"
        if kind == "fired":
            result = f"{d['damage']} damage" if d["damage"] else "no damage"
            who = f"the {d['ship']}" if robot else f"your {d['ship']}"
            return (f"{at} {'ROBOT FIRES' if robot else 'YOUR FIRE'}: {who} {d['weapon']} at {d['target']}, range "
                    f"{d['range']}: d6={d['roll']}, {result}")
        if kind == "damage":
            boxes = f"mark {d['absorbed']} box(es) of shield #{d['shield']}"
            inside = f"; internal ({d.get('damage_rule', 'DAC')}): {', '.join(d['hits'])}" if d.get("hits") else ""
            whose = f"the {d['ship']} robot's sheet" if robot else f"your {d['ship']}'s sheet"
            return f"{at} MARK on {whose}: {d['points']} points, {boxes}{inside} [{d.get('rule', 'SFB.DMG4')}]"
        if kind == "launched" and robot:
            return (f"{at} PLACE drone {d['drone']} in the {d['ship']}'s hex facing {d['facing']}, seeking "
                    f"{d['target']} ({d['rack']}: {d['left']} left) [SFB.R5]")
        if kind == "energy":  # the person's allocation filled in from their speed: say what was assumed
            arm = ", ".join(f"{k} {v}" for k, v in d.get("arm", []))
            return (f"{at} your {d['ship']}: speed {d['speed']}; assumed as suggested: phasers {d['phasers']:g}"
                    f"{', ' + arm if arm else ''}, recharge {d['recharge']}")
        if kind in ("setup", "turn", "impact", "drone-destroyed", "drone-lost", "destroyed", "left-map", "cloak",
                    "plasma-launched", "plasma-lost", "plasma-impact", "plasma-destroyed", "cloak-roll", "feedback",
                    "plasma-tube", "plasma-arming", "correction", "result", "launched"):
            return self.narrator.line(event)
        return None

    def before(self, match, request) -> list[str]:
        """At the turn's first question: the robot's speed this turn (SFB.R1, less a hex per warp box lost:
        SFB.DMG3), which the table needs for the movement chart."""
        game = match.engine
        if request.kind not in ("energy", "speed") or self.speed_told == game.turn:
            return []
        self.speed_told = game.turn
        lines = []
        for s in game.ships:
            if s.robot and s.active:
                lost = f", {s.warp_lost} warp box(es) lost: SFB.DMG3" if s.warp_lost else ""
                n = game.robot_numbers  # the procedure's numbers (sfb/procedure.py)
                speed = n.robot_speed(game.impulses, s.warp_lost)  # as start_turn sets it
                lines.append(f"T{game.turn} ROBOT {s.name} moves at speed {speed} this turn "
                             f"[SFB.R1: {n.robot_speed(game.impulses, 0)}{lost}]")
        return lines

    def status(self, match) -> list[str]:
        """Where the program has every counter (shown by 'map' and before the first question)."""
        game = match.engine
        lines = []
        for s in game.ships:
            speed = f" speed {s.speed}" if game.turn else ""  # speeds are set at the first turn's start
            where = "destroyed" if s.destroyed else (s.gone or f"{hexgrid.label(s.hex)} "
                                                               f"{hexgrid.facing_letter(s.facing)}{speed}")
            lines.append(f"  {s.name} ({'robot' if s.robot else 'you'}): {where}; shields "
                         f"{'/'.join(str(x) for x in s.shields)}")
        for d in game.drones:
            if d.alive:
                lines.append(f"  drone {d.label} at {hexgrid.label(d.hex)} seeking {d.target}")
        for t in game.plasmas:
            if t.alive:
                lines.append(f"  plasma {t.label} at {hexgrid.label(t.hex)} seeking {t.target}, strength {t.strength}")
        return lines


def allocation_at(game, ship, speed: int, cloak: bool) -> dict:
    """The person's energy as form values at ``speed``: the suggested allocation at that speed (the captain's,
    seed 002's Chief Engineer), with the cloak paid when asked; if the power does not stretch, the phasers' top-up,
    then the weapons' arming give way to the speed the person flies (their table is the authority)."""
    alloc = game.policy.energy_allocation(ship, speed=speed)
    has_cloak = ship.cloak is not None
    values = dict(energy_values(alloc, has_cloak), speed=speed)
    if has_cloak:
        values["cloak"] = ship.cloak.cost if cloak else 0
    attempts = [values, dict(values, phasers=0.0, recharge=0),
                {k: (speed if k == "speed" else values["cloak"] if k == "cloak" else 0.0 if k == "phasers" else 0)
                 for k in values}]
    for attempt in attempts:
        try:
            game.energy_request(ship).form.check(attempt)
            return attempt
        except IllegalAction:  # try the next, leaner allocation
            continue
    raise PaperRobotError(f"speed {speed}{' with the cloak' if cloak else ''} needs more energy than "
                          f"{ship.name} has this turn")
