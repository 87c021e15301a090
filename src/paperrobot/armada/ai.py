"""The "AI system for Imperials" v1.02 (seed 003) as pure decisions over measured situations.

Each function takes what the table shows (measured by the engine, or described by the person at the
assistant) and returns a Decision whose reasons cite the ARM.* rule, the blue die rolled and a
sentence. The Overriding Rule (ARM.OVERRIDE) is a list of explicit sanity checks, each named where it
applies and listed in docs/armada.md 'Overriding Rule'.
"""
from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core.controller import Decision, Reason
from ..core.dice import Dice
from .dice import SHIP_DAMAGE, SQUAD_DAMAGE, blue_face, damage
from .procedure import COMMANDS, STYLES, Numbers, numbers  # noqa: F401 (COMMANDS, STYLES: re-exported)

SIDE = "imperial"
# The procedure's tables and numbers (commander style, focal point, deployment, command tables, priorities) are
# in data/robot_rules.toml (procedure.py); each function takes ``n``, the AI's values (None: the published ones).


def blue(dice: Dice, purpose: str) -> str:
    return blue_face(dice.roll(8, f"blue die: {purpose}", SIDE))


def pick(dice: Dice, n: int, purpose: str) -> int:
    """'Roll a die' to choose among n tied options: a fair n-sided roll (docs 'Ties'). Returns 0..n-1."""
    return dice.roll(n, purpose, SIDE) - 1 if n > 1 else 0


# ------------------------------------------------------------------ set-up
def commander_style(dice: Dice, n: Numbers | None = None) -> Decision:
    n = n or numbers()
    m = dice.mark()
    face = blue(dice, "commander style")
    style = n.commander_style[face]
    return Decision(style, (Reason("ARM.CMDR.STYLE", f"blue {face}: the Imperial commander is {style}"
                                   + n.n_commander_style, dice.since(m)),))


_FACE_WORD = {"acc": "accuracy"}  # the dice purposes' words for the faces


def focal_point(player_xs: list[float], dice: Dice, width: float, distances: tuple[float, ...],
                n: Numbers | None = None) -> Decision:
    """ARM.DEPLOY.FP: x of the focal point on the player's edge (docs 'Focal point'). ``distances``: the ruler's
    distances 1-5 in mm (geometry's ruler.distance)."""
    n = n or numbers()
    m = dice.mark()
    xs = sorted(player_xs)
    k = len(xs)
    x = xs[k // 2] if k % 2 else (xs[k // 2 - 1] + xs[k // 2]) / 2
    how = "on the middle ship" if k % 2 and k > 1 else ("on the only ship" if k == 1 else "midway between the middle ships")
    face = blue(dice, "focal point adjustment")
    shift, units = 0.0, 0
    way = n.focal_point_shift[face]  # "west", "east" or "stay"
    if way != "stay":
        sign, name = (-1, "crit") if way == "west" else (1, "acc")
        units = n.focal_point_distance
        shift = sign * distances[units - 1]
        # the seed's second roll follows the face that moved it: "Roll blue again – if crit ..."
        if blue(dice, f"focal point: second roll after {_FACE_WORD.get(face, face)}") == face:
            if n.focal_point_again_distance:
                units += n.focal_point_again_distance
                shift += sign * distances[n.focal_point_again_distance - 1]
    x = min(max(x + shift, 0.0), width)
    moved = {0: "left in place", -1: "moved west", 1: "moved east"}[(shift > 0) - (shift < 0)]
    text = f"focal point placed {how}, pulled back to the player's edge and {moved}"
    if shift:
        text += f" by {abs(shift):.0f} mm (distance {units})"
    text += n.n_focal_point_shift + n.n_focal_point_distance + n.n_focal_point_again_distance
    return Decision(x, (Reason("ARM.DEPLOY.FP", text, dice.since(m)),))


def deployment_zone(dice: Dice, n: Numbers | None = None) -> Decision:
    n = n or numbers()
    m = dice.mark()
    face = blue(dice, "deployment")
    where = n.deployment_zone[face]
    return Decision(where, (Reason("ARM.DEPLOY.ZONE", f"blue {face}: deploy on the {where} of the far zone, facing "
                                   f"the focal point" + n.n_deployment_zone, dice.since(m)),))


def deploy_speed(style: str, max_speed: int, n: Numbers | None = None) -> int:
    """ARM.DEPLOY.ZONE: cautious 1, normal 2, aggressive 3 (the deploy_speed entry) if the ship can."""
    speed: int = min((n or numbers()).deploy_speed[style], max_speed)
    return speed


def squadron_deployment(style: str, n: Numbers | None = None) -> Decision:
    """ARM.DEPLOY.ZONE: cautious commanders deploy squadrons in contact with ships (touching), aggressive
    and normal ones out to distance 2 of them (the squadron_deploy entry). Action: "contact" or "distance 2"."""
    n = n or numbers()
    if n.squadron_deploy[style] == "contact":
        return Decision("contact", (Reason("ARM.DEPLOY.ZONE", f"{style}: squadrons deploy in contact with "
                                           "their ships (bases touching)" + n.n_squadron_deploy),))
    return Decision("distance 2", (Reason("ARM.DEPLOY.ZONE", f"{style}: squadrons deploy within distance 2 of "
                                          f"their ships" + n.n_squadron_deploy),))


def formation_order(ships: list[tuple[str, int, int]]) -> list[str]:
    """ARM.DEPLOY.ZONE: (id, points, max speed) -> ids west to east: flagship (most points) centre,
    faster ships toward the outer flanks, slower ones next to the flagship."""
    if not ships:
        return []
    at = 0  # the flagship: the first of the greatest (points, id), as max() takes it
    for i in range(1, len(ships)):
        if (ships[i][1], ships[i][0]) > (ships[at][1], ships[at][0]):
            at = i
    flag = ships[at]
    # the others by (max speed, points, id), slow first; ties in their order (a stable sort: the index). By index,
    # not ``is``: compiled, a tuple of a str and two ints is unboxed and no longer the same object when read again
    rest = [ships[i] for _, _, _, i in sorted([(s[2], s[1], s[0], i) for i, s in enumerate(ships) if i != at])]
    west: list[str] = []
    east: list[str] = []
    for i, s in enumerate(rest):
        (west if i % 2 == 0 else east).append(s[0])
    return list(reversed(west)) + [flag[0]] + east


# ------------------------------------------------------------------ ship phase
class ActInfo(NamedTuple):
    """What the activation order needs to know about one unactivated AI ship (a named tuple, as Shot: immutable)."""
    ship: str
    dice: int  # most dice it can put on one enemy target (double arcs added)
    single_double_arc: bool | None = False  # it double-arcs exactly one enemy ship (None: not measured, as no tie is broken)
    squadrons: bool = False  # squadron value and friendly squadrons in range to activate
    can_stay_out: bool = False  # can move without entering enemy range


def activation(cands: list[ActInfo], dice: Dice) -> Decision:
    m = dice.mark()
    shooters = [c for c in cands if c.dice > 0]
    if shooters:
        best = max(c.dice for c in shooters)
        tied = [c for c in shooters if c.dice == best]
        why = f"most dice on an enemy ({best})"
        if len(tied) > 1:
            if any(c.single_double_arc is None for c in tied):
                raise ValueError("ARM.ACT.ORDER: a tie is broken by the double arcs, which were not measured")
            doubles = [c for c in tied if c.single_double_arc]
            if doubles:
                tied, why = doubles, why + ", tie broken by a single enemy double-arced"
        tier = 1
    else:
        for tier, test, why in ((2, lambda c: c.squadrons, "squadron value and squadrons in range"),
                                (3, lambda c: c.can_stay_out, "can move without entering enemy range"),
                                (4, lambda c: True, "all other ships")):
            tied = [c for c in cands if test(c)]
            if tied:
                break
    chosen = tied[pick(dice, len(tied), "activation tie")] if len(tied) > 1 else tied[0]
    text = f"activate {chosen.ship}: priority {tier}, {why}" + (" (die among the tied)" if len(tied) > 1 else "")
    return Decision(chosen.ship, (Reason("ARM.ACT.ORDER", text, dice.since(m)),))


def command(style: str, enemy_in_range: bool, usable: dict[str, bool], held: set[str], dice: Dice,
            n: Numbers | None = None) -> Decision:
    """ARM.CMD.ROLL + ARM.CMD.TOKEN: returns ('dial' | 'token', command).

    ``usable[c]`` says whether command c can be used this round (squadron: squadrons in range;
    repair: something to repair; concentrate: an attack to make; navigate: always).
    """
    n = n or numbers()
    m = dice.mark()
    table, note = n.command_table(style, enemy_in_range)
    reasons: list[Reason] = []
    tried: set[str] = set()
    for attempt in range(n.command_reroll_limit):
        face = blue(dice, "command" if attempt == 0 else "command reroll")
        cmd = table[face]
        if cmd.startswith("squadron/"):  # "Squadron / Concentrate Fire": squadron if squadrons in range, else the other
            cmd = "squadron" if usable["squadron"] else cmd[9:]
        if usable[cmd]:
            text = (f"{'IN' if enemy_in_range else 'OUT'} table ({style}), blue {face}: {cmd}") + note
            reasons.append(Reason("ARM.CMD.ROLL", text, dice.since(m)))
            return Decision(("dial", cmd), tuple(reasons))
        if cmd not in held:
            text = f"blue {face}: {cmd} cannot be used this round, so the ship takes a {cmd} token"
            reasons.append(Reason("ARM.CMD.ROLL", f"{'IN' if enemy_in_range else 'OUT'} table ({style}), blue {face}: {cmd}" + note, dice.since(m)))
            reasons.append(Reason("ARM.CMD.TOKEN", text, ()))
            return Decision(("token", cmd), tuple(reasons))
        tried.add(cmd)
        if attempt == 0:
            reasons.append(Reason("ARM.CMD.TOKEN", f"blue {face}: {cmd} unusable and already held as a token: reroll", ()))
    # ARM.OVERRIDE (docs check 5): every result is unusable and held; navigate is always usable
    return Decision(("dial", "navigate"), tuple(reasons) + (
        Reason("ARM.OVERRIDE", "no usable result after many rerolls: navigate" + n.n_command_reroll_limit,
               dice.since(m)),))


class Shot(NamedTuple):
    """One attack the AI could make, as measured: attacking zone, target, defending zone, dice. (A named tuple:
    immutable like a frozen dataclass, and made five times faster, tens of times per decision.)"""
    zone: str
    target: str  # enemy ship id, or squadron id
    target_zone: str | None  # defending hull zone; None for a squadron
    dice: int
    shields: int = 0  # shields left on the defending zone (ships)
    squadron: bool = False


def _group(shot: Shot) -> str:
    return "squadrons" if shot.squadron else shot.target


def _zone_dice(shots: list[Shot]) -> dict[str, int]:
    """Dice each attacking zone can put on one target group: ships best zone, squadrons summed."""
    out: dict[str, int] = {}
    for s in shots:
        if s.squadron:
            out[s.zone] = out.get(s.zone, 0) + s.dice
        else:
            out[s.zone] = max(out.get(s.zone, 0), s.dice)
    return out


def target_totals(shots: list[Shot], attacks_left: int = 2) -> dict[str, tuple[int, list[str]]]:
    """ARM.TARGET.DOUBLEARC: per target group, the dice of up to ``attacks_left`` zones added together."""
    groups: dict[str, list[Shot]] = {}
    for s in shots:
        if s.dice > 0:
            groups.setdefault(_group(s), []).append(s)
    out = {}
    for g, ss in groups.items():
        per_zone = _zone_dice(ss)
        zones = sorted(per_zone, key=lambda z: (-per_zone[z], z))[:attacks_left]
        out[g] = (sum(per_zone[z] for z in zones), zones)
    return out


def choose_attack(shots: list[Shot], dice: Dice, attacks_left: int = 2, committed: str | None = None) -> Decision:
    """The next attack: ARM.TARGET.DICE (+DOUBLEARC) picks the target, ARM.TARGET.WEAKARC the zone.

    Action: (attacking zone, target group, [Shot...]) — several shots when a zone attacks squadrons
    (one anti-squadron attack per squadron in reach). None when no attack is possible.
    """
    m = dice.mark()
    totals = target_totals(shots, attacks_left)
    if not totals:
        return Decision(None, (Reason("ARM.TARGET.DICE", "no enemy in arc and range: no attack"),))
    if committed in totals:  # the second attack of a plan made at the first (ARM.TARGET.DOUBLEARC)
        total, zones = totals[committed]
        mine = [s for s in shots if s.zone == zones[0] and _group(s) == committed]
        return _aim(committed, zones[0], mine, [Reason("ARM.TARGET.DOUBLEARC", f"second attack of the plan: "
                                                       f"{committed} again, from the {zones[0]} zone")])
    best = max(t for t, _ in totals.values())
    tied = sorted(g for g, (t, _) in totals.items() if t == best)
    group = tied[pick(dice, len(tied), "target tie")] if len(tied) > 1 else tied[0]
    total, zones = totals[group]
    reasons = []
    others = ", ".join(f"{g} {t}" for g, (t, _) in sorted(totals.items()) if g != group)
    reasons.append(Reason("ARM.TARGET.DICE", f"target {group}: {total} dice, the most" +
                          (f" (other targets: {others})" if others else "") +
                          (" (die among the tied)" if len(tied) > 1 else ""), dice.since(m)))
    if len(zones) > 1:
        reasons.append(Reason("ARM.TARGET.DOUBLEARC", f"{group} is in the {zones[0]} and {zones[1]} arcs: "
                              f"both attacks count together ({total} dice)"))
    zone = zones[0]
    mine = [s for s in shots if s.zone == zone and _group(s) == group and s.dice > 0]
    return _aim(group, zone, mine, reasons)


def _aim(group: str, zone: str, mine: list[Shot], reasons: list[Reason]) -> Decision:
    """The shot(s) of one attacking zone at the chosen target: the weakest arc that keeps the dice."""
    mine = [s for s in mine if s.dice > 0]
    if group == "squadrons":
        chosen = sorted(mine, key=lambda s: (-s.dice, s.target))
        reasons.append(Reason("ARM.TARGET.DICE", f"{zone} zone attacks {len(chosen)} squadron(s) "
                              f"({sum(s.dice for s in chosen)} dice in all)"))
        return Decision((zone, group, chosen), tuple(reasons))
    top = max(s.dice for s in mine)
    best_shots = sorted((s for s in mine if s.dice == top), key=lambda s: (s.shields, s.target_zone))
    shot = best_shots[0]
    weaker = [s for s in mine if s.shields < shot.shields]
    text = f"{zone} zone shoots the {shot.target_zone} hull zone ({shot.shields} shields, {shot.dice} dice)"
    if weaker:
        w = min(weaker, key=lambda s: s.shields)
        text += f"; the {w.target_zone} zone has fewer shields but only {w.dice} dice"
    elif len(mine) > 1:
        text += ", the fewest shields among the zones it can reach"
    reasons.append(Reason("ARM.TARGET.WEAKARC", text))
    return Decision((zone, group, [shot]), tuple(reasons))


# ------------------------------------------------------------------ defence
@dataclass(slots=True, init=False)
class DefenceView:
    """What the defending AI ship sees after the attack dice are final (before tokens; __init__ as ShotOpt's)."""
    faces: list[str]  # attack dice faces
    colours: list[str]
    band: str | None  # range band; None for squadron attacks (distance 1)
    tokens: list[tuple[str, bool]]  # (kind, exhausted) for each token it holds
    locked: set[str] = field(default_factory=set)  # kinds locked by accuracies
    zone_shields: int = 0
    adjacent_shields: int = 0  # the larger of the two adjacent zones' shields
    hull_left: int = 99  # damage cards it can take before it is destroyed
    threat_dice: int = 0  # most dice an unactivated enemy in range could still roll at it
    squadron_attack: bool = False
    evade_close: bool = True  # RRG 1.5 evade rerolls at close range (docs 'Evade')

    def __init__(self, faces: list[str], colours: list[str], band: str | None, tokens: list[tuple[str, bool]],
                 locked: set[str] | None = None, zone_shields: int = 0, adjacent_shields: int = 0, hull_left: int = 99,
                 threat_dice: int = 0, squadron_attack: bool = False, evade_close: bool = True) -> None:
        self.faces, self.colours, self.band, self.tokens, self.locked = faces, colours, band, tokens, locked or set()
        self.zone_shields, self.adjacent_shields, self.hull_left = zone_shields, adjacent_shields, hull_left
        self.threat_dice, self.squadron_attack, self.evade_close = threat_dice, squadron_attack, evade_close


TOKEN_ORDER = ("scatter", "evade", "brace", "redirect", "contain")  # the order their effects apply (_after)


class _After:
    """The attack as it stands once some tokens have taken effect (a plain class: compiled, built by a direct call)."""
    def __init__(self, faces: tuple[str, ...], damage: int, cards: int, destroyed: bool, faceup: bool) -> None:
        self.faces, self.damage, self.cards = faces, damage, cards  # damage after a brace, cards after a redirect
        self.destroyed, self.faceup = destroyed, faceup  # faceup: a crit would deal the first card face up


def _after(v: DefenceView, kinds: Collection[str]) -> _After:
    """The effect of the token kinds ``kinds`` on the attack. An evade reroll (medium, close range) cannot
    be known when the tokens are chosen: the rerolled die counts as it was rolled (docs 'Defence tokens')."""
    faces = [] if "scatter" in kinds else list(v.faces)
    if "evade" in kinds and faces and v.band == "long":
        table = SQUAD_DAMAGE if v.squadron_attack else SHIP_DAMAGE
        faces.pop(max(range(len(faces)), key=lambda i: (table[faces[i]], i)))  # the highest-damage die
    dmg = damage(faces, v.squadron_attack)
    if "brace" in kinds:
        dmg = (dmg + 1) // 2
    on_zone = dmg
    if "redirect" in kinds and dmg > 0:  # as the engine resolves it: the excess, or half to spread the loss
        on_zone -= min(v.adjacent_shields, max(dmg - v.zone_shields if dmg > v.zone_shields else dmg // 2, 0))
    cards = max(0, on_zone - v.zone_shields)
    crit = any(f in ("crit", "hit+crit") for f in faces)
    return _After(tuple(faces), dmg, cards, cards >= v.hull_left,
                  bool(cards) and crit and not v.squadron_attack and "contain" not in kinds)


def _use(kind: str, now: _After, v: DefenceView) -> str | None:
    """Why spending ``kind`` reduces the attack as it stands now (ARM.DEF.USE); None if it would not."""
    if now.damage <= 0:
        return None
    if kind == "scatter":
        return f"scatter cancels all {len(now.faces)} dice"
    if kind == "evade" and v.band is not None and (v.band != "close" or v.evade_close):
        return f"evade {'cancels' if v.band == 'long' else 'rerolls'} the highest-damage die at {v.band} range"
    if kind == "brace" and now.damage >= 2:
        return f"brace halves {now.damage} damage to {(now.damage + 1) // 2}"
    if kind == "redirect" and v.adjacent_shields > 0 and now.damage >= v.zone_shields:
        return "redirect moves damage onto an adjacent zone's shields"
    if kind == "contain" and now.faceup:
        return "contain stops the critical effect (a face-up card)"
    return None


def defence(v: DefenceView, n: Numbers | None = None) -> Decision:
    """ARM.DEF.USE / ARM.DEF.BRACE / ARM.DEF.EXHAUSTED: which tokens to spend (kinds, at most one each).

    Action: list of (kind, exhausted). The readied tokens are decided first, then the exhausted ones, each
    kind in the order the effects apply, and each on the attack as it stands after the tokens already
    chosen (docs 'Defence tokens'). Evade is chosen against the highest-damage die.
    """
    n = n or numbers()  # token_order: the order the AI considers its tokens in (published: TOKEN_ORDER)
    if damage(v.faces, v.squadron_attack) <= 0:
        return Decision([], (Reason("ARM.DEF.USE", "no damage: keep every token"),))
    available: dict[str, bool] = {}
    for kind, exhausted in v.tokens:  # prefer a readied copy of each kind
        if kind in v.locked:
            continue
        if kind not in available or available[kind]:
            available[kind] = exhausted
    spend: list[tuple[str, bool]] = []
    reasons: list[Reason] = []
    for exhausted_pass in (False, True):
        for kind in n.token_order:
            if available.get(kind) is not exhausted_pass:
                continue
            chosen = {k for k, _ in spend}
            now = _after(v, chosen)
            use = _use(kind, now, v)
            if use is None:
                if kind == "brace" and now.damage == 1:
                    reasons.append(Reason("ARM.DEF.USE", "no brace: halving 1 damage leaves 1"))
                continue
            if kind == "brace" and v.threat_dice > len(v.faces):
                # "otherwise": without the brace, with every other readied token the ship holds
                rest = chosen | {k for k, e in available.items() if not e and k != "brace"}
                if not _after(v, rest).destroyed:
                    reasons.append(Reason("ARM.DEF.BRACE", f"no brace: an unactivated enemy in range could roll "
                                          f"{v.threat_dice} dice, more than this attack's {len(v.faces)}"))
                    continue
                reasons.append(Reason("ARM.OVERRIDE", "brace despite a bigger threat: without it the ship is destroyed"))
            if exhausted_pass:
                need = now.destroyed if kind == "brace" else now.cards > 0
                reasons.append(Reason("ARM.DEF.EXHAUSTED", f"{kind} is exhausted: " + (
                    "spent because the ship would otherwise be destroyed" if need and kind == "brace" else
                    "spent because the ship would otherwise take damage cards" if need else
                    "kept, as the ship is not destroyed without it" if kind == "brace" else
                    "kept, as the ship takes no damage cards without it")))
                if not need:
                    continue
            if kind == "scatter" and spend:  # it cancels every die: the tokens chosen before it are kept
                reasons.append(Reason("ARM.DEF.USE", "scatter leaves nothing for the other tokens: they are kept"))
                spend = []
            if kind == "brace" and v.threat_dice:
                reasons.append(Reason("ARM.DEF.BRACE", use + "; no unactivated enemy in range has more dice"))
            else:
                reasons.append(Reason("ARM.DEF.USE", use + n.n_token_order))
            spend.append((kind, exhausted_pass))
    if not spend and not reasons:
        reasons.append(Reason("ARM.DEF.USE", "no token reduces this damage"))
    return Decision(spend, tuple(reasons))


# ------------------------------------------------------------------ squadrons
class SquadTarget(NamedTuple):
    squad: str
    hull: int
    escort: bool = False
    counter: bool = False


SQUAD_GROUPS: dict[str, tuple[str, Callable[[SquadTarget], bool]]] = {"escort": ("Escort", lambda t: t.escort),  # ARM.SQ.TARGET's three kinds (each target in one)
                "no-counter": ("without Counter", lambda t: not t.escort and not t.counter),
                "counter": ("with Counter", lambda t: not t.escort and t.counter)}


def squadron_target(engaged: list[SquadTarget], dice: Dice, n: Numbers | None = None) -> Decision:
    """ARM.SQ.TARGET: Escorts first, then squadrons without Counter, then Counter (squadron_target_order); fewest
    hull; die."""
    n = n or numbers()
    m = dice.mark()
    for kind in n.squadron_target_order:
        label, test = SQUAD_GROUPS[kind]
        group = [t for t in engaged if test(t)]
        if group:
            break
    low = min(t.hull for t in group)
    tied = sorted((t for t in group if t.hull == low), key=lambda t: t.squad)
    chosen = tied[pick(dice, len(tied), "squadron target tie")] if len(tied) > 1 else tied[0]
    skipped = [t for t in engaged if t not in group]
    text = f"shoot {chosen.squad} ({label}, {chosen.hull} hull left)"
    if skipped:
        text += "; ahead of " + ", ".join(f"{t.squad} ({t.hull} hull)" for t in skipped)
    text += n.n_squadron_target_order
    return Decision(chosen.squad, (Reason("ARM.SQ.TARGET", text, dice.since(m)),))


def squadron_move(squad: str, enemy_squad: str | None, reach_squad: bool, enemy_ship: str | None,
                  activated_by_command: bool) -> Decision:
    """ARM.SQ.MOVE: where an unengaged squadron heads. Action: ('engage', id) / ('attack', id) / ('formation', None)."""
    if activated_by_command:
        if enemy_squad is not None and reach_squad:
            return Decision(("engage", enemy_squad), (Reason("ARM.SQ.MOVE", f"ordered: move to engage the nearest enemy squadron {enemy_squad}"),))
        if enemy_ship is not None:
            return Decision(("attack", enemy_ship), (Reason("ARM.SQ.MOVE", f"ordered, no enemy squadron in range: attack the nearest ship {enemy_ship}"),))
    return Decision(("formation", None), (Reason("ARM.SQ.MOVE", "unengaged in the squadron phase: keep position in the formation"),))


# ------------------------------------------------------------------ navigation
class Course:
    """One course the AI could take, as measured (up to 66 a decision; not a named tuple: compiled, built by a direct
    call, where a named tuple's __new__ runs as interpreted code)."""
    def __init__(self, key: str, speed: int, clicks: tuple[int, ...], double_arc: str | None, formation_error: float,
                 on_table: bool = True, overlap: bool = False, navigate: bool = False) -> None:
        self.key, self.speed, self.clicks = key, speed, clicks
        self.double_arc = double_arc  # enemy ship double-arced at the end, if any
        self.formation_error = formation_error  # mm from the ship's formation slot
        self.on_table, self.overlap, self.navigate = on_table, overlap, navigate  # navigate: needs the dial or token


def course(options: list[Course]) -> Decision:
    """ARM.CMD.NAV: keep formation, but break it for a double arc on an enemy ship.

    ARM.OVERRIDE checks 1-2: never leave the table or ram a ship when another course avoids it.
    """
    reasons = []
    safe = [c for c in options if c.on_table and not c.overlap]
    if len(safe) < len(options) and safe:
        reasons.append(Reason("ARM.OVERRIDE", "courses that leave the table or overlap a ship are not taken"))
    pool = safe or [c for c in options if c.on_table] or options
    doubles = [c for c in pool if c.double_arc]
    if doubles:
        c = doubles[0]  # the first of the least (formation error, key), as min() takes it
        for d in doubles[1:]:
            c = d if d.formation_error < c.formation_error or (d.formation_error == c.formation_error and d.key < c.key) else c
        reasons.append(Reason("ARM.CMD.NAV", f"breaks formation: speed {c.speed} {c.clicks} double-arcs {c.double_arc}"))
    else:
        c = pool[0]  # the first of the least (formation error, navigate, key), as min() takes it
        for d in pool[1:]:
            if d.formation_error < c.formation_error or (d.formation_error == c.formation_error and (
                    d.navigate < c.navigate or (d.navigate == c.navigate and d.key < c.key))):
                c = d
        reasons.append(Reason("ARM.CMD.NAV", f"keeps formation: speed {c.speed} yaw {c.clicks} "
                              f"({c.formation_error:.0f} mm from its place)"))
    return Decision(c.key, tuple(reasons))
