"""Armada's attacks: the dice pool, defence tokens, damage to squadrons and ships, face-up damage cards, destruction;
a part of the engine (after movement.Movement in the chain of game.py's Game)."""
from __future__ import annotations

from collections.abc import Generator
from functools import partial
from typing import Any

from . import dice as D
from ..core.contract import Request
from .base import Steps
from .geometry import ADJACENT
from .measure import ShotOpt
from .movement import Movement
from .requests import token_check, token_options
from .sides import IMPERIAL
from .state import Ship, Squad, ZONE_INDEX

LOCK_ORDER = ("brace", "scatter", "redirect", "evade", "contain", "salvo")
DAMAGE_DECK = [("Structural Damage", 8), ("Injured Crew", 4)] + [(n, 2) for n in (
    "Blinded Gunners", "Capacitor Failure", "Comm Noise", "Compartment Fire", "Coolant Discharge", "Crew Panic",
    "Damaged Controls", "Damaged Munitions", "Depowered Armament", "Disengaged Fire Control",
    "Faulty Countermeasures", "Life Support Failure", "Point-Defense Failure", "Power Failure",
    "Projector Misaligned", "Ruptured Engine", "Shield Failure", "Targeter Disruption",
    "Thrust-Control Malfunction", "Thruster Fissure")]


def _least_damage(faces: list[str]) -> int | None:
    """The first die of the least squadron damage (None: no dice)."""
    worst: int | None = None
    for i, f in enumerate(faces):
        if worst is None or D.SQUAD_DAMAGE[f] < D.SQUAD_DAMAGE[faces[worst]]:
            worst = i
    return worst


def _most_damage(faces: list[str], table: dict[str, int]) -> int:
    """The last die of the most damage (max of (damage, index)); ``faces`` is not empty."""
    worst = 0
    for i in range(1, len(faces)):
        if table[faces[i]] >= table[faces[worst]]:
            worst = i
    return worst


def _best_colour(colours: list[str]) -> str:
    """The colour of the highest mean (max of (mean, colour)); ``colours`` is not empty."""
    best = ""
    for c in set(colours):
        if not best or (D.MEAN[c], c) > (D.MEAN[best], best):
            best = c
    return best


def _redirect_zone(dfd: Ship, zone: str) -> str:
    """The adjacent zone with the most shields (max of (shields, zone))."""
    best = ""
    for z in ADJACENT[zone]:
        if not best or (dfd.zone_shields(z), z) > (dfd.zone_shields(best), best):
            best = z
    return best


class Attacks(Movement):
    # ------------------------------------------------------------------ attacks
    def attack(self, shot: ShotOpt, counter: int = 0) -> Steps:
        att, dfd = shot.attacker, shot.target
        side = att.side
        colours = list(shot.colours) if not counter else ["U"] * counter
        squad_attack = isinstance(att, Squad) or isinstance(dfd, Squad)
        bomber = isinstance(att, Squad) and att.keyword("bomber") > 0 and isinstance(dfd, Ship)
        texts = D.attack_texts(att.uid, dfd.uid)  # "<colour> die: <attacker> at <defender>", made once
        faces = [D.roll_face(self.dice, c, texts[c], side) for c in colours]
        if isinstance(att, Squad) and isinstance(dfd, Squad) and att.keyword("swarm") and not counter \
                and any(o is not att for o in self.engaged_with(dfd)):
            # Swarm: attacking a squadron engaged with another squadron, reroll one die (a blank first)
            worst = _least_damage(faces)
            if worst is not None and D.SQUAD_DAMAGE[faces[worst]] == 0:
                faces[worst] = D.roll_die(self.dice, colours[worst], "swarm reroll", side)
        # Concentrate fire (automatic for both sides, docs 'Attacker choices'): dial adds a die
        if isinstance(att, Ship) and att.has_command("concentrate") and not counter and colours:
            # the dial adds a die; a token rerolls a blank (spent only when there is one to reroll)
            blank = next((i for i, f in enumerate(faces) if f in ("blank", "acc")), None)
            use_token = "concentrate" in att.cmd_tokens and blank is not None
            if att.dial == "concentrate":
                colour = _best_colour(colours)
                colours.append(colour)
                faces.append(D.roll_die(self.dice, colour, "concentrate fire: added die", side))
            if use_token and blank is not None:
                att.cmd_tokens.discard("concentrate")
                faces[blank] = D.roll_die(self.dice, colours[blank], "concentrate fire: reroll", side)
            if att.dial == "concentrate" or use_token:
                att.used.add("concentrate")
        if self.logging():
            self.emit("attack", side, attacker=att.uid, zone=shot.zone, target=dfd.uid, tzone=shot.tzone,
                      band=shot.band, dice="".join(colours), faces=list(faces), obstructed=shot.obstructed,
                      counter=bool(counter))
        if isinstance(dfd, Squad):
            dmg = D.damage(faces, True)
            self.hurt_squad(dfd, dmg, att)
            k = dfd.keyword("counter")
            if k and isinstance(att, Squad) and not counter and not att.destroyed:
                yield from self.attack(ShotOpt(dfd, None, att, None, "close", ["U"] * k, False), counter=k)
            return
        # spend accuracies on the defender's tokens (automatic: docs 'Attacker choices')
        locked: set[str] = set()
        accs = sum(1 for f in faces if f == "acc")
        kinds = {k for k, _ in dfd.tokens}
        for kind in LOCK_ORDER:
            if accs and kind in kinds:
                locked.add(kind)
                accs -= 1
        spent: list[tuple[str, bool]] = []
        if dfd.speed > 0 and dfd.tokens and D.damage(faces, squad_attack, bomber) > 0:
            spent = yield from self.defend(dfd, shot, faces, colours, locked, squad_attack, bomber)
        kinds_spent = {k for k, _ in spent}
        if "scatter" in kinds_spent:
            faces = []
        if "evade" in kinds_spent and faces and shot.band:
            dmg_table = D.SQUAD_DAMAGE if squad_attack and not bomber else D.SHIP_DAMAGE
            worst = _most_damage(faces, dmg_table)
            if shot.band == "long":
                faces.pop(worst)
                colours.pop(worst)
            elif shot.band == "medium" or self.setup.evade_close:
                faces[worst] = D.roll_die(self.dice, colours[worst], "evade reroll", dfd.side)
        dmg = D.damage(faces, squad_attack, bomber)
        if "brace" in kinds_spent:
            dmg = (dmg + 1) // 2
        crit = (not isinstance(att, Squad) or bomber) and D.has_crit(faces) and "contain" not in kinds_spent
        zone = shot.tzone
        assert zone is not None  # a ship is attacked in a hull zone
        redirected, adj = 0, ""
        if "redirect" in kinds_spent and dmg > 0:
            adj = _redirect_zone(dfd, zone)
            zs = dfd.zone_shields(zone)
            want = dmg - zs if dmg > zs else dmg // 2
            redirected = min(dfd.zone_shields(adj), max(want, 0))
        if self.logging():
            self.emit("defence", dfd.side, ship=dfd.uid, spent=[k + ("*" if e else "") for k, e in spent],
                      faces=list(faces), damage=dmg)
        if redirected:
            dfd.shields[ZONE_INDEX[adj]] -= redirected
        self.hurt_ship(dfd, zone, dmg - redirected, crit, att)
        if "salvo" in kinds_spent and not counter and isinstance(att, Ship) and not dfd.destroyed:
            rear = D.pool_at(dfd.battery("rear"), shot.band)
            if rear:
                yield from self.attack(ShotOpt(dfd, "rear", att, shot.zone, shot.band, rear, False), counter=-1)

    def defend(self, dfd: Ship, shot: ShotOpt, faces: list[str], colours: list[str], locked: set[str],
               squad_attack: bool, bomber: bool) -> Generator[Request, Any, list[tuple[str, bool]]]:
        """The defender's tokens (a generator: asks the defending side; returns [(kind, was exhausted)])."""
        avail = [(k, e) for k, e in dfd.tokens if k not in locked]
        if not avail:
            return []
        view: dict[str, Any] = {"game": self, "ship": dfd, "shot": shot, "faces": list(faces), "colours": list(colours), "locked": set(locked),
                "squad_attack": squad_attack, "bomber": bomber,
                "threat": self.threat_dice(dfd) if dfd.side == IMPERIAL else 0}  # any attacker (ARM.DEF.BRACE)
        kinds = sorted({k for k, _ in avail})
        exhausted = {k for k in kinds if all(e for kk, e in avail if kk == k)}
        dec = yield self._ask("defend", dfd.side, state=self, subject=view, default="none",
                            options=partial(token_options, kinds, exhausted), check=token_check(kinds),
                            prompt=f"{dfd.uid}: spend defence tokens")
        chosen = list(dec.action)
        if "salvo" in chosen and not isinstance(shot.attacker, Ship):
            chosen.remove("salvo")
        out: list[tuple[str, bool]] = []
        for k in chosen:
            idx = -1  # the first of the kind, a ready one before an exhausted one
            for i, t in enumerate(dfd.tokens):
                if t[0] == k and (idx < 0 or t[1] < dfd.tokens[idx][1]):
                    idx = i
            if idx < 0:
                raise ValueError(f"no {k} token")
            was = dfd.tokens[idx][1]
            if was:
                dfd.tokens.pop(idx)  # spending an exhausted token discards it
            else:
                dfd.tokens[idx][1] = True
            out.append((k, was))
        return out

    def hurt_squad(self, q: Squad, dmg: int, by: Ship | Squad | None) -> None:
        if dmg <= 0:
            return
        q.hull = max(0, q.hull - dmg)
        self.emit("damage", q.side, unit=q.uid, amount=dmg, hull=q.hull)
        if q.hull == 0:
            q.destroyed = True
            self.touch()
            self.score[self.enemy(q.side)] += q.spec.points
            self.emit("destroyed", q.side, unit=q.uid, points=q.spec.points)

    def hurt_ship(self, s: Ship, zone: str, dmg: int, crit: bool, by: Ship | Squad | None) -> None:
        if dmg <= 0 or s.destroyed:
            return
        i = ZONE_INDEX[zone]
        absorbed = min(s.shields[i], dmg)
        s.shields[i] -= absorbed
        cards = dmg - absorbed
        faceup_first = crit
        for _ in range(cards):
            if faceup_first:
                self.faceup(s)
                faceup_first = False
            else:
                s.facedown += 1
        self.emit("damage", s.side, unit=s.uid, zone=zone, amount=dmg, shields=absorbed, cards=cards,
                  hull_left=s.hull_left)
        self.check_destroyed(s)

    def faceup(self, s: Ship) -> None:
        if not self.deck:
            self.deck = [n for n, c in DAMAGE_DECK for _ in range(c)]
        card = self.deck.pop(self.dice.roll(len(self.deck), "damage card", "table") - 1)
        self.emit("crit", s.side, unit=s.uid, card=card)
        if card == "Structural Damage":
            s.facedown += 2  # deals an extra facedown card, and is itself flipped face down
        elif card == "Injured Crew":
            s.facedown += 1
            if s.tokens:
                s.tokens.pop(0)
        else:
            s.faceup.append(card)

    def check_destroyed(self, s: Ship) -> None:
        if not s.destroyed and s.damage >= s.spec.hull:
            s.destroyed = True
            self.touch()
            self.score[self.enemy(s.side)] += s.spec.points
            self.emit("destroyed", s.side, unit=s.uid, points=s.spec.points)
