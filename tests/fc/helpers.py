"""Test set-ups: a game with scripted dice and ships placed by hand."""
from paperrobot.core.controller import Request
from paperrobot.core.dice import Dice
from paperrobot.core.hexgrid import Hex
from paperrobot.fc import Robot, make_game
from paperrobot.fc.state import Drone

A, B, C, D, E, F = range(6)


def setup(*dice, robot="d7", other="federation-ca", rpos=(10, 10), rface=D, ppos=(10, 14), pface=A):
    """Robot at ``rpos`` facing ``rface``; the player's ship at ``ppos`` facing ``pface``; dice scripted."""
    d = Dice.scripted(*dice)
    game = make_game(0, robot, other, "policy", dice=d)
    r, p = game.ships["robot"], game.ships["player"]
    r.pos, r.facing, p.pos, p.facing = Hex(*rpos), rface, Hex(*ppos), pface
    r.energy, p.energy = float(r.power()), float(p.power())
    r.baseline = p.baseline = 16
    game.turn, game.impulse = 1, 3
    game.start_internal = {s.side: s.internal_boxes() for s in (r, p)}
    return game, Robot(d), d


def ask(game, robot, kind, options=None):
    return robot.decide(Request(kind, "robot", game, options))


def drone(game, did, pos, target="robot", owner="player", facing=A, **kw):
    d = Drone(did, owner, target, Hex(*pos), facing, game.turn, **kw)
    game.drones.append(d)
    return d


def rules(decision):
    return [r.rule for r in decision.reasons]
