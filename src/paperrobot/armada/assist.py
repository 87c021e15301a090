"""The at-the-table assistant: the person describes what they measured, the AI answers (seed 003).

It keeps the AI fleet's state (style, focal point, shields, damage, defence and command tokens,
activations) between questions: in memory for an interactive session, and in a JSON state file
(--state) after every answer, so a later invocation continues where the last one stopped. Every
answer names the rule and shows the blue dice the AI rolled. ``help`` lists the questions.
"""
from __future__ import annotations

import copy
import shlex
from pathlib import Path

from ..core.controller import Decision
from ..core.dice import Dice, derive_seed
from ..core.errors import PaperRobotError
from ..core.events import write_text_atomic
from ..core import robot_rules as rr
from . import ai
from .assist_state import State, number, read_state, split_words, state_of
from .data import catalogue, geometry, parse_dice
from .dice import ALLOWED, FACES, SHIP_DAMAGE, SQUAD_DAMAGE, blue_face, pool_at
from .fleets import fleet_names
from .geometry import ADJACENT, ZONES
from .procedure import PROCEDURE, load

# The questions, their answer forms and the rules they apply (the web page lists them; 'help' in the terminal).
QUESTIONS: tuple[tuple[str, str, str, str], ...] = (
    ("fleet", "fleet victory-ii,gladiator-i,tie-fighter*4", "", "start a new AI fleet"),
    ("show", "show", "", "the AI fleet's state"),
    ("style", "style", "ARM.CMDR.STYLE", "roll the commander style"),
    ("focal", "focal X1 X2 ...", "ARM.DEPLOY.FP", "your ships' positions along your edge, in mm"),
    ("deploy", "deploy", "ARM.DEPLOY.ZONE", "where and how the AI deploys"),
    ("round", "round", "", "start the next round (readies tokens, clears activations)"),
    ("order", "order SHIP:DICE[:double][:squads][:out] ...", "ARM.ACT.ORDER",
     "which unactivated AI ship activates next (DICE: most dice it has on one enemy target; 'order' alone: a die "
     "among all unactivated AI ships)"),
    ("command", "command SHIP in|out [squads] [damaged]", "ARM.CMD.ROLL", "its command, by blue die"),
    ("attack", "attack SHIP ZONE>TARGET[:TZONE=SHIELDS]@RANGE[!] ...", "ARM.TARGET.DICE",
     "its attacks; no :TZONE for a squadron, ! = obstructed"),
    ("defend", "defend SHIP ZONE RANGE COLOURS FACES [threat=N] [squad]", "ARM.DEF.USE",
     "its defence tokens, e.g. defend victory-ii-1 front medium RRU hit,hit+hit,hit threat=4"),
    ("squad", "squad SQUADRON ENEMY:HULL[:escort][:counter] ...", "ARM.SQ.TARGET",
     "which engaged enemy squadron it shoots"),
    ("squadmove", "squadmove SQUADRON [ordered] [squad=ENEMY [reach]] [ship=ENEMY]", "ARM.SQ.MOVE",
     "where it moves"),
    ("nav", "nav SHIP [double=ENEMY]", "ARM.CMD.NAV", "keep formation or break it for a double arc"),
    ("damage", "damage SHIP ZONE N", "", "record damage you dealt to a ship outside an answer"),
    ("hit", "hit SQUADRON N", "", "record damage you dealt to a squadron"),
    ("override", "override", "ARM.OVERRIDE", "the sanity checks the AI applies"),
)


class Assistant:
    def __init__(self, state: State, path: Path | None):
        self.state, self.path = state, path
        self._numbers: tuple[str, ai.Numbers | None] = ("", None)

    @classmethod
    def open(cls, path: Path | None, fleet: str | None, seed: int | None, robot_rules: str = "") -> "Assistant":
        """A new session (``fleet``), or the one in ``path`` continued. ``robot_rules``: a variant's text (the
        set-up option's value); a continued session keeps the rules it was started with, and refuses a file whose
        entries differ from them (as a save does)."""
        state = State(seed if seed is not None else 1, robot_rules=robot_rules)
        if path is not None and Path(path).exists() and fleet is None:
            state = read_state(Path(path))
            if robot_rules and robot_rules != state.robot_rules:  # none given: the session's own rules
                rr.check_same(state.robot_rules, robot_rules, f"{path}", PROCEDURE)
            if seed is not None and seed != state.seed:  # other dice from here: the log starts afresh
                state.seed, state.lines = seed, []
                state.base = copy.deepcopy(state.core())
        a = cls(state, Path(path) if path else None)
        a.n  # a damaged variant in a state file is one line now, not at the first question
        if fleet:
            a.ask_line("fleet " + shlex.quote(fleet))
        return a

    def log(self) -> list[str]:
        """The numbered questions answered ('undo N' goes back to N)."""
        return [f"  {n:>3}. {line}" for n, line in enumerate(self.state.lines, 1)] or ["The log is empty."]

    def undo(self, n: int | None = None) -> list[str]:
        """Go back to question N of the log (N and the questions after it are taken back; the last one without
        N): the log before N is replayed on the state it starts from, with the same dice."""
        lines = self.state.lines
        n = len(lines) if n is None else n
        if not lines:
            raise PaperRobotError("there is no question to take back")
        if not 1 <= n <= len(lines):
            raise PaperRobotError(f"'undo N' goes back to question N of the log: 1 to {len(lines)} ('log' lists them)")
        fresh = Assistant(state_of(self.state.base or self.state.fresh()), self.path)
        for line in lines[:n - 1]:
            fresh.ask_line(line)
        taken = lines[n - 1:]
        self.state = fresh.state
        return [f"Took back {len(taken)} question(s): {'; '.join(taken)[:200]}."]

    # ---------------------------------------------------------------- plumbing
    @property
    def n(self) -> "ai.Numbers | None":
        """The AI's values under the session's robot rules (None: the published procedure)."""
        text = self.state.robot_rules
        if not text:
            return None
        if self._numbers[0] != text:
            self._numbers = (text, ai.numbers(load(text)))
        return self._numbers[1]

    def variant(self) -> str:
        """One line naming the entries a variant changes ('' for the published procedure)."""
        return load(self.state.robot_rules).summary() if self.state.robot_rules else ""

    def dice(self) -> Dice:
        self.state.asked += 1
        return Dice(derive_seed(self.state.seed, self.state.asked))

    def save(self) -> None:
        if self.path is not None:
            write_text_atomic(self.path, self.state.to_json())

    def ask(self, verb: str, args: list[str]) -> list[str]:
        """Answer one question (its words, as the front end split them): the lines to show."""
        handler = getattr(self, "q_" + verb, None)
        if handler is None:
            raise PaperRobotError(f"unknown question '{verb}'; type 'help' for the list")
        return handler(args)

    def ask_line(self, line: str) -> list[str]:
        """One typed question (its words split as a shell would), answered. A refused question leaves the state
        as it was (its dice not counted either), so the state is always the fleet's plus the questions answered,
        in order: what the web page replays to resume or go back."""
        words = split_words(line)
        if not words:
            raise PaperRobotError("type a question; 'help' lists them")
        before = copy.deepcopy(self.state)
        if self.state.base is None:
            self.state.base = copy.deepcopy(self.state.core())
        try:
            out = self.ask(words[0].lower(), words[1:])
            self.state.lines.append(line)
            return out
        except PaperRobotError:
            self.state = before
            raise
        except (ValueError, KeyError, IndexError, StopIteration):  # a malformed measurement
            self.state = before
            raise PaperRobotError(f"'{line[:60]}' is not understood; 'help' shows each question's form") from None

    def ship(self, uid: str) -> dict:
        if uid not in self.state.ships:
            raise PaperRobotError(f"no AI ship '{uid}'; the fleet has: {', '.join(self.state.ships) or 'nothing'}")
        return self.state.ships[uid]

    # ---------------------------------------------------------------- questions
    def new_fleet(self, text: str) -> list[str]:
        ships, squads = catalogue()
        st = self.state
        st.ships, st.squads, st.round = {}, {}, 0
        counts: dict[str, int] = {}
        for name in fleet_names(text):
            counts[name] = counts.get(name, 0) + 1
            uid = f"{name}-{counts[name]}"
            if name in ships:
                s = ships[name]
                st.ships[uid] = {"ship": name, "shields": list(s.shields), "facedown": 0, "faceup": [],
                                 "tokens": [[t, False] for t in s.tokens], "cmd_tokens": [], "dial": None,
                                 "activated": False, "speed": 0, "destroyed": False}
            elif name in squads:
                st.squads[uid] = {"squadron": name, "hull": squads[name].hull, "activated": False}
            else:
                raise PaperRobotError(f"unknown ship or squadron '{name}' (see 'paperrobot ships --game armada')")
        return [f"AI fleet: {', '.join(list(st.ships) + list(st.squads))}"]

    def q_fleet(self, args):
        return self.new_fleet(",".join(args))

    def q_show(self, args):
        st = self.state
        out = [f"Round {st.round}, commander {st.style or '(not rolled)'}, focal point "
               f"{'x=%.0f mm' % st.focal if st.focal is not None else '(not placed)'}"]
        ships, _ = catalogue()
        for uid, s in st.ships.items():
            hull = ships[s["ship"]].hull
            dmg = s["facedown"] + len(s["faceup"])
            out.append(f"  {uid}: shields {'/'.join(map(str, s['shields']))}, damage {dmg}/{hull}, tokens "
                       f"{', '.join(k + ('*' if e else '') for k, e in s['tokens']) or 'none'}, commands "
                       f"{', '.join(s['cmd_tokens']) or 'none'}{', activated' if s['activated'] else ''}"
                       f"{', DESTROYED' if s['destroyed'] else ''}")
        for uid, q in st.squads.items():
            out.append(f"  {uid}: hull {q['hull']}{', activated' if q['activated'] else ''}")
        return out

    def q_override(self, args):
        return ["ARM.OVERRIDE sanity checks (docs/armada.md 'Overriding Rule'):",
                "  1. never take a course that leaves the table when another course stays on it",
                "  2. never take a course that overlaps a ship when another course avoids it",
                "  3. brace despite a bigger unactivated threat when the attack would otherwise destroy the ship",
                "  4. no defence token is spent when it changes nothing (no damage, brace on 1 damage)",
                "  5. if every command result is unusable and already held as a token, navigate",
                "  6. a squadron already in reach of an enemy ship attacks it instead of drifting back to formation"]

    def q_style(self, args):
        dec = ai.commander_style(self.dice(), self.n)
        self.state.style = dec.action
        return _say(dec)

    def q_focal(self, args):
        if not args:
            raise PaperRobotError("give your ships' positions along your edge in mm, e.g. 'focal 500 900 1300'")
        width = geometry().play_area.standard[0]
        xs = [number(a, "a position along your edge, in mm", 0, width) for a in args]
        dec = ai.focal_point(xs, self.dice(), geometry().play_area.standard[0], geometry().ruler.distance,
                            self.n)
        self.state.focal = dec.action
        return _say(dec) + [f"Place the focal point at x = {dec.action:.0f} mm on your edge."]

    def q_deploy(self, args):
        st = self.state
        if st.style is None:
            raise PaperRobotError("roll the commander style first ('style')")
        dec = ai.deployment_zone(self.dice(), self.n)
        ships, _ = catalogue()
        order = ai.formation_order([(u, ships[s["ship"]].points, len(ships[s["ship"]].speed_chart))
                                    for u, s in st.ships.items()])
        out = _say(dec) + [f"Line abreast, west to east: {', '.join(order)} (flagship in the centre, fastest "
                           f"outside), all facing the focal point."]
        for u, s in st.ships.items():
            s["speed"] = ai.deploy_speed(st.style, len(ships[s["ship"]].speed_chart), self.n)
            out.append(f"  {u}: speed {s['speed']}")
        if st.squads:
            out.append("Squadrons: " + ("in contact with the ships (cautious)." if st.style == "cautious"
                                        else "within distance 2 of the ships."))
        return out

    def q_round(self, args):
        st = self.state
        st.round += 1
        for s in st.ships.values():
            s["activated"], s["dial"] = False, None
            for t in s["tokens"]:
                t[1] = False
        for q in st.squads.values():
            q["activated"] = False
        return [f"Round {st.round}: defence tokens readied, every AI ship and squadron unactivated."]

    def q_order(self, args):
        infos = []
        for a in args:
            parts = a.split(":")
            uid = parts[0]
            s = self.ship(uid)
            if s["activated"]:
                raise PaperRobotError(f"{uid} has already activated this round")
            flags = set(parts[2:])
            unknown = flags - {"double", "squads", "out"}
            if unknown:
                raise PaperRobotError(f"unknown flag(s) {', '.join(unknown)}; use double, squads, out")
            infos.append(ai.ActInfo(uid, int(number(parts[1], "dice", 0, 20, whole=True)) if len(parts) > 1 else 0,
                                    "double" in flags, "squads" in flags, "out" in flags))
        if not infos:  # nothing measured separates the ships: the 4th tier, a die among all of them
            infos = [ai.ActInfo(u, 0) for u, s in self.state.ships.items() if not s["activated"] and not s["destroyed"]]
        if not infos:
            return ["Every AI ship has activated: end of the AI's ship phase."]
        return _say(ai.activation(infos, self.dice()))

    def q_command(self, args):
        if len(args) < 2 or args[1] not in ("in", "out"):
            raise PaperRobotError("say 'command SHIP in' or 'command SHIP out' (enemy ship in range or not)")
        uid, where = args[0], args[1]
        s = self.ship(uid)
        ships, _ = catalogue()
        spec = ships[s["ship"]]
        damaged = "damaged" in args or s["facedown"] or s["faceup"] or s["shields"] != list(spec.shields)
        usable = {"navigate": True, "squadron": "squads" in args, "repair": bool(damaged),
                  "concentrate": where == "in" or "targets" in args}
        dec = ai.command(self.state.style or "normal", where == "in", usable, set(s["cmd_tokens"]), self.dice(),
                         self.n)
        how, cmd = dec.action
        if how == "token":
            if cmd not in s["cmd_tokens"]:
                s["cmd_tokens"].append(cmd)
            s["dial"] = None
        else:
            s["dial"] = cmd
        s["activated"] = True
        out = _say(dec)
        out.append(f"Set a {cmd} dial beside {uid}." if how == "dial" else f"{uid} takes a {cmd} token.")
        if cmd == "squadron" and how == "dial":
            out.append(f"Activate up to {spec.squadron} squadrons at close-medium range: closest to the enemy first; "
                       f"ask 'squadmove SQUADRON ordered ...' for each.")
        if cmd == "repair" and how == "dial":
            out.append(f"Repair with {spec.engineering} engineering points: face-up cards first (3), then shields (2).")
        return out

    def q_attack(self, args):
        if len(args) < 2:
            raise PaperRobotError("say e.g. 'attack victory-ii-1 front>cr90:front=2@medium left>x-wing@medium'")
        uid = args[0]
        s = self.ship(uid)
        ships, _ = catalogue()
        spec = ships[s["ship"]]
        shots = []
        for a in args[1:]:
            try:
                zone, rest = a.split(">", 1)
                rest, band = rest.split("@", 1)
            except ValueError:
                raise PaperRobotError(f"'{a}' is not ZONE>TARGET[:TZONE=SHIELDS]@RANGE") from None
            obstructed = band.endswith("!")
            band = band.rstrip("!")
            if zone not in ZONES or band not in ALLOWED:
                raise PaperRobotError(f"'{a}': zone must be one of {', '.join(ZONES)}, range close/medium/long")
            target, _, tz = rest.partition(":")
            shields = 0
            if tz:
                tz, _, sh = tz.partition("=")
                if tz not in ZONES:
                    raise PaperRobotError(f"'{a}': the defending zone must be one of {', '.join(ZONES)}")
                shields = int(number(sh, "the defending zone's shields", 0, 10, whole=True)) if sh else 0
            dice = pool_at(parse_dice(getattr(spec, zone) if tz else spec.anti_squadron), band)
            n = max(0, len(dice) - (1 if obstructed and dice else 0))
            shots.append(ai.Shot(zone, target, tz or None, n, shields, not tz))
        dice = self.dice()
        out: list[str] = []
        first = ai.choose_attack(shots, dice, 2)
        out += _say(first)
        if first.action is None:
            return out
        zone, group, chosen = first.action
        out.append(_attack_line(spec, zone, chosen))
        rest = [x for x in shots if x.zone != zone]
        second = ai.choose_attack(rest, dice, 1, group)
        if second.action is not None:
            out += _say(second)
            out.append(_attack_line(spec, second.action[0], second.action[2]))
        if s.get("dial") == "concentrate" or "concentrate" in s["cmd_tokens"]:
            out.append("Concentrate fire: add one die of a colour already in the pool (dial) or reroll a blank "
                       "(token) on the first attack.")
        return out

    def q_defend(self, args):
        if len(args) < 5:
            raise PaperRobotError("say e.g. 'defend victory-ii-1 front medium RRU hit,hit+hit,hit threat=4'")
        uid, zone, band, colours, faces_text = args[:5]
        s = self.ship(uid)
        if zone not in ZONES or band not in ALLOWED:
            raise PaperRobotError(f"zone must be one of {', '.join(ZONES)}; range close, medium or long")
        faces = faces_text.split(",")
        colours = list(colours.upper())
        if len(colours) != len(faces) or any(c not in FACES for c in colours):
            raise PaperRobotError("give one colour letter (R, U, K) per die face, e.g. RRU for hit,hit,crit")
        for c, f in zip(colours, faces):
            if f not in FACES[c]:
                raise PaperRobotError(f"'{f}' is not a face of the {c} die ({', '.join(sorted(set(FACES[c])))})")
        threat = 0
        squad = "squad" in args[5:]
        locked = set()
        for a in args[5:]:
            if a.startswith("threat="):
                threat = int(number(a[7:], "threat", 0, 100, whole=True))
            elif a.startswith("lock="):
                locked |= set(a[5:].split(","))
        ships, _ = catalogue()
        spec = ships[s["ship"]]
        i = ZONES.index(zone)
        v = ai.DefenceView(faces, colours, band, [(k, e) for k, e in s["tokens"]], locked, s["shields"][i],
                           max(s["shields"][ZONES.index(z)] for z in ADJACENT[zone]),
                           spec.hull - s["facedown"] - len(s["faceup"]), threat, squad)
        dec = ai.defence(v, self.n)
        out = _say(dec)
        dice = self.dice()
        kinds = [k for k, _ in dec.action]
        if "scatter" in kinds:
            faces = []
        if "evade" in kinds and faces:
            table = SQUAD_DAMAGE if squad else SHIP_DAMAGE
            worst = max(range(len(faces)), key=lambda j: (table[faces[j]], j))
            if band == "long":
                out.append(f"Evade: cancel your {colours[worst]} {faces[worst]}.")
                faces.pop(worst)
                colours.pop(worst)
            else:
                new = FACES[colours[worst]][dice.roll(8, "evade reroll", "imperial") - 1]
                out.append(f"Evade: the AI rerolls your {colours[worst]} {faces[worst]}: {new}.")
                faces[worst] = new
        dmg = sum((SQUAD_DAMAGE if squad else SHIP_DAMAGE)[f] for f in faces)
        if "brace" in kinds:
            dmg = (dmg + 1) // 2
        for k, e in dec.action:
            idx = next(j for j, t in enumerate(s["tokens"]) if t[0] == k and t[1] == e)
            if e:
                s["tokens"].pop(idx)
            else:
                s["tokens"][idx][1] = True
        redirected = 0
        if "redirect" in kinds and dmg:
            adj = max(ADJACENT[zone], key=lambda z: (s["shields"][ZONES.index(z)], z))
            want = dmg - s["shields"][i] if dmg > s["shields"][i] else dmg // 2
            redirected = min(s["shields"][ZONES.index(adj)], max(want, 0))
            s["shields"][ZONES.index(adj)] -= redirected
            if redirected:
                out.append(f"Redirect: {redirected} damage to the {adj} shields.")
        rest = dmg - redirected
        absorbed = min(rest, s["shields"][i])
        s["shields"][i] -= absorbed
        cards = rest - absorbed
        crit = any(f in ("crit", "hit+crit") for f in faces) and "contain" not in kinds and not squad
        s["facedown"] = _cards(s, spec.hull, cards)
        out.append(f"{uid} takes {dmg} damage: {redirected + absorbed} on shields, {cards} damage card(s)"
                   + (" (deal the first face up)" if cards and crit else "") + ".")
        if s["facedown"] + len(s["faceup"]) >= spec.hull:
            s["destroyed"] = True
            out.append(f"{uid} is DESTROYED.")
        return out

    def q_squad(self, args):
        if len(args) < 2:
            raise PaperRobotError("say e.g. 'squad tie-fighter-1 x-wing-1:5:escort z-95-1:3 a-wing-1:1:counter'")
        self._squad(args[0])
        targets = []
        for a in args[1:]:
            parts = a.split(":")
            if len(parts) < 2:
                raise PaperRobotError(f"'{a}' is not ENEMY:HULL[:escort][:counter]")
            targets.append(ai.SquadTarget(parts[0], int(number(parts[1], "the enemy squadron's hull", 1, 20, whole=True)), "escort" in parts[2:],
                                          "counter" in parts[2:]))
        return _say(ai.squadron_target(targets, self.dice(), self.n))

    def q_squadmove(self, args):
        if not args:
            raise PaperRobotError("say e.g. 'squadmove tie-fighter-1 ordered squad=x-wing-1 reach ship=cr90-a-1'")
        q = self._squad(args[0])
        opts = {a.split("=")[0]: (a.split("=", 1)[1] if "=" in a else True) for a in args[1:]}
        dec = ai.squadron_move(args[0], opts.get("squad"), bool(opts.get("reach")), opts.get("ship"),
                               bool(opts.get("ordered")))
        q["activated"] = True
        return _say(dec)

    def q_nav(self, args):
        if not args:
            raise PaperRobotError("say 'nav SHIP' or 'nav SHIP double=ENEMY'")
        s = self.ship(args[0])
        double = next((a.split("=", 1)[1] for a in args[1:] if a.startswith("double=")), None)
        courses = [ai.Course("formation", s["speed"], (), None, 0.0)]
        if double:
            courses.append(ai.Course("double", s["speed"], (), double, 1.0))
        dec = ai.course(courses)
        return _say(dec) + (["Break formation: take the course that double-arcs " + double + "."] if dec.action == "double"
                            else ["Keep formation: inside of a wheel slows, outside speeds up (navigate dial or token)."])

    def q_damage(self, args):
        if len(args) != 3 or args[1] not in ZONES:
            raise PaperRobotError("say 'damage SHIP ZONE N'")
        s = self.ship(args[0])
        n = int(number(args[2], "damage", 0, 100, whole=True))
        i = ZONES.index(args[1])
        absorbed = min(n, s["shields"][i])
        s["shields"][i] -= absorbed
        hull = catalogue()[0][s["ship"]].hull
        s["facedown"] = _cards(s, hull, n - absorbed)
        out = [f"{args[0]}: {absorbed} shields lost, {n - absorbed} damage card(s)."]
        if s["facedown"] + len(s["faceup"]) >= hull and not s["destroyed"]:
            s["destroyed"] = True
            out.append(f"{args[0]} is DESTROYED.")
        return out

    def q_hit(self, args):
        if len(args) != 2:
            raise PaperRobotError("say 'hit SQUADRON N'")
        q = self._squad(args[0])
        q["hull"] = max(0, q["hull"] - int(number(args[1], "damage", 0, 100, whole=True)))
        return [f"{args[0]}: {q['hull']} hull left" + (" - DESTROYED" if not q["hull"] else "")]

    def _squad(self, uid: str) -> dict:
        if uid not in self.state.squads:
            raise PaperRobotError(f"no AI squadron '{uid}'; the fleet has: {', '.join(self.state.squads) or 'none'}")
        return self.state.squads[uid]


def _attack_line(spec, zone: str, chosen) -> str:
    if chosen and chosen[0].squadron:
        return f"=> {zone} zone attacks squadrons " + ", ".join(c.target for c in chosen) + f" ({spec.anti_squadron} each)"
    c = chosen[0]
    return f"=> {zone} zone attacks {c.target} in its {c.target_zone} hull zone with {c.dice} dice"


def _say(dec: Decision) -> list[str]:
    out = []
    for r in dec.reasons:
        rolls = ", ".join(f"blue {blue_face(x.value)}" if x.sides == 8 else f"d{x.sides}={x.value}" for x in r.rolls)
        out.append(f"{r.rule}: {r.text}" + (f" [{rolls}]" if rolls else ""))
    return out


def _cards(ship: dict, hull: int, cards: int) -> int:
    """The face-down damage cards after ``cards`` more: a ship is destroyed at its hull, so the cards beyond it
    are not kept (the state holds at most a hull's worth: what a table can show)."""
    return min(ship["facedown"] + cards, max(hull - len(ship["faceup"]), 0))
