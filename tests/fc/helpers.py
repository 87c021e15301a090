"""Test set-ups: a game with scripted dice and ships placed by hand, and a small driver for engine steps."""
from paperrobot.core.contract import Request
from paperrobot.core.controller import Decision
from paperrobot.core.dice import Dice
from paperrobot.core.hexgrid import Hex
from paperrobot.fc import Robot, build
from paperrobot.fc.requests import PLAIN, encode
from paperrobot.fc.state import Drone

A, B, C, D, E, F = range(6)


def setup(*dice, robot="d7", other="federation-ca", rpos=(10, 10), rface=D, ppos=(10, 14), pface=A):
    """Robot at ``rpos`` facing ``rface``; the player's ship at ``ppos`` facing ``pface``; dice scripted."""
    d = Dice.scripted(*dice)
    game = build(0, robot_ship=robot, player_ship=other, dice=d)
    r, p = game.ships["robot"], game.ships["player"]
    r.pos, r.facing, p.pos, p.facing = Hex(*rpos), rface, Hex(*ppos), pface
    r.energy, p.energy = float(r.power()), float(p.power())
    r.baseline = p.baseline = 16
    game.turn, game.impulse = 1, 3
    game.start_internal = {s.side: s.internal_boxes() for s in (r, p)}
    return game, Robot(d), d


def ask(game, robot, kind, options=None, side="robot"):
    """The robot's decision (as an engine action) on a request of ``kind`` with engine data ``options``."""
    return robot.act(Request(kind, side, state=game, subject=game.ships[side], data=options))


def drive(steps, controllers):
    """Run an engine step (a generator of requests) to its end; each controller gives engine actions, which
    are put in contract terms and parsed by the request like any answer (IllegalAction if refused)."""
    try:
        request = next(steps)
        while True:
            controller = controllers[request.side]
            decision = (controller.act if hasattr(controller, "act") else controller.decide)(request)
            answer = decision.action if request.kind in PLAIN else encode(request.kind, decision.action)
            request = steps.send(Decision(request.parse(answer), ()))
    except StopIteration as stop:
        return stop.value


def run(game, controllers):
    """Play a whole game built by hand with in-process controllers (objects with ``decide``)."""
    from paperrobot.fc import Policy
    ctl = {s: (Robot(game.dice) if c == "robot" else Policy() if c == "policy" else c) for s, c in controllers.items()}
    try:
        steps = game.sequence()
        request = next(steps)
        while True:
            decision = ctl[request.side].decide(request)
            request = steps.send(Decision(request.parse(decision.action), decision.reasons))
    except StopIteration as stop:
        return stop.value


def drone(game, did, pos, target="robot", owner="player", facing=A, **kw):
    d = Drone(did, owner, target, Hex(*pos), facing, game.turn, **kw)
    game.drones.append(d)
    return d


def rules(decision):
    return [r.rule for r in decision.reasons]
