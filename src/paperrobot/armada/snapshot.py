"""Clone and fork (issue 22, the clone protocol): an engine's mutable state at a boundary of the sequence of play,
copied into immutable tuples, and a new engine made from it.

What changes in a battle is small: each unit's place, speed, shields, damage, tokens, dial and flags; the round,
phase and whose turn (the position in the sequence of play, Game.sequence); the AI's memory (its commander style,
focal point, attack plan; each ship's formation slot); the score, the damage deck and the dice. Everything else
is shared with the engine the snapshot came from: the set-up, geometry, ship and squadron cards, the obstacles
(placed at set-up, never changed) and the pair memo (Measures.pair_memo: what one zone measures of another unit,
a pure function of the two poses, so any engine of the battle may read and fill it). The caches that hold units
(the shot cache, ship_memo) start empty: their entries point at the old engine's ships.

What each side cannot see (docs/armada.md 'Clone and fork'): the Rebel dials set this round and not yet revealed
(the ship has not activated) are hidden from the Imperial side; the AI sets no dial ahead (seed 003: it rolls its
command as each ship activates and places the dial face up), so nothing is hidden from the Rebel side but the
dice to come, which the match reseeds.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, NamedTuple

from ..core.dice import Dice
from ..core.events import Event, EventLog
from .requests import COMMANDS
from .state import Ship, Squad

if TYPE_CHECKING:
    from .base import GameBase
    from .game import Game

REBEL = "rebel"


class Snapshot(NamedTuple):
    position: tuple[Any, ...]  # round, phase, turn, squad_turn, squad_passes, squad_step, first, style, focal, attacks_left,
    #                  plan, index of the active ship (or None), version
    score: tuple[tuple[str, int], ...]  # (side, points) pairs
    deck: tuple[str, ...]
    ships: tuple[tuple[Any, ...], ...]  # Snapshot.ship_state of each ship, in game.ships order
    squads: tuple[tuple[Any, ...], ...]  # (x, y, hull, activated, destroyed) of each squadron
    dice: tuple[Any, ...]  # Dice.snapshot()
    obstacles: tuple[Any, ...]  # the Obstacle records (placed at set-up, never changed afterwards: shared)
    memo: tuple[Any, ...]  # (pair memo, obstacle discs): pure measurements, shared (see above)
    shared: dict[str, Any]  # the battle's immutable data, made once by _shared, handed on to every restored engine as it is


def _shared(game: GameBase) -> dict[str, Any]:
    """What every engine of one battle holds alike: its immutable attributes and each unit's identity."""
    shared = game._shared
    if shared is None:
        shared = game._shared = {
            "attrs": {"setup": game.setup, "geo": game.geo, "width": game.width, "depth": game.depth,
                      "robot_rules": game.robot_rules,  # read-only: every restored engine flies the same procedure
                      "inset": game.inset},
            "ships": tuple((s.uid, s.spec, s.side, s.size) for s in game.ships),
            "squads": tuple((q.uid, q.spec, q.side, q.radius) for q in game.squads)}
    return shared


def take(game: GameBase) -> Snapshot:
    """The mutable state of ``game``, copied into tuples (never changed afterwards: many restores read it)."""
    active = None if game.active is None else game.ships.index(game.active)
    position = (game.round, game.phase, game.turn, game.squad_turn, game.squad_passes, game.squad_step, game.first,
                game.style, game.focal, game.attacks_left, game.plan, active, game.version)
    ships = tuple((s.x, s.y, s.a, s.speed, tuple(s.shields), tuple((k, e) for k, e in s.tokens), s.facedown,
                   tuple(s.faceup), frozenset(s.cmd_tokens), s.dial, frozenset(s.used), s.activated, s.destroyed,
                   s.slot, s._fp, s._at) for s in game.ships)
    squads = tuple((q.x, q.y, q.hull, q.activated, q.destroyed) for q in game.squads)
    return Snapshot(position, tuple(game.score.items()), tuple(game.deck), ships, squads, game.dice.snapshot(),
                    tuple(game.obstacles), (game._pairs, game._obstacle_discs), _shared(game))


def restore(cls: type[Game], snap: Snapshot, log: EventLog) -> Game:
    """A new engine of class ``cls`` in the snapshot's state, its sequence() resuming at the snapshot's boundary. It
    shares no mutable object with the snapshot or with any other engine (the pair memo aside, see above). Built
    through the constructor (a compiled Game is a native class: no ``__dict__``), which takes the immutable data
    from ``shared`` and builds no set-up; the fields that change are set here."""
    shared = snap.shared
    attrs = shared["attrs"]
    game = cls(attrs["setup"], Dice.restore(snap.dice), log, attrs["robot_rules"], shared=shared)
    game.obstacles = list(snap.obstacles)
    game._pairs, game._obstacle_discs = snap.memo
    (rnd, phase, turn, squad_turn, passes, step, first, style, focal, attacks_left, plan, active,
     version) = snap.position
    ships = [Ship(uid, spec, side, x, y, a, speed, list(shields), [[k, e] for k, e in tokens], facedown, list(faceup),
                  set(cmd), dial, set(used), activated, destroyed, slot, size, fp, at)
             for (uid, spec, side, size), (x, y, a, speed, shields, tokens, facedown, faceup, cmd, dial, used, activated,
                                           destroyed, slot, fp, at) in zip(shared["ships"], snap.ships)]
    squads = [Squad(uid, spec, side, x, y, hull, activated, destroyed, radius)
              for (uid, spec, side, radius), (x, y, hull, activated, destroyed) in zip(shared["squads"], snap.squads)]
    game.round, game.phase, game.turn = rnd, phase, turn
    game.squad_turn, game.squad_passes, game.squad_step = squad_turn, passes, step
    game.first, game.style, game.focal = first, style, focal
    game.attacks_left, game.plan, game.version = attacks_left, plan, version
    game.ships, game.squads = ships, squads
    game.active = None if active is None else ships[active]
    game.score = dict(snap.score)
    game.deck = list(snap.deck)
    return game


def hidden_dials(game: GameBase, side: str) -> list[Ship]:
    """The ships whose dial ``side`` cannot see: the other side's set and unrevealed dials (a Rebel ship that has
    not activated this round and is not activating now: its dial is revealed as it activates). The AI's dials are
    rolled and shown as each ship activates: never hidden."""
    if side == REBEL:
        return []
    return [s for s in game.ships if s.side == REBEL and not s.destroyed and not s.activated and s.dial is not None
            and s is not game.active]


def redraw(game: GameBase, side: str, rng: random.Random) -> None:
    """Re-draw what ``side`` cannot see, consistently with what it knows: each hidden Rebel dial is one of the four
    commands, any of them as far as the Imperial side knows (docs/armada.md 'Clone and fork'), so each is drawn
    uniformly with ``rng``. The 'dial' events of those ships in this round's log (the referee's record, never shown
    to the other side) are replaced by the re-drawn ones, so the fork's record agrees with its state."""
    ships = hidden_dials(game, side)
    if not ships:
        return
    drawn = {s.uid: rng.choice(COMMANDS) for s in ships}
    for s in ships:
        s.dial = drawn[s.uid]
    events = game.log.events
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if e.turn != game.round:
            break
        if e.kind == "dial" and e.data.get("ship") in drawn:
            events[i] = Event(e.kind, e.turn, e.impulse, e.side, {**e.data, "command": drawn[e.data["ship"]]})
