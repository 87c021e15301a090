"""Driving an armada engine (or a part of its sequence) in rule tests, as the contract's driver does."""
from paperrobot.core.contract import Decision, Request


def run(game, steps=None, controllers=None):
    """Drive ``steps`` (a generator of the engine, e.g. ``game.attack(shot)``; the whole game when None) to its
    end: the robot answers for the Imperials, the policy for the Rebels, unless ``controllers`` names another.
    Every answer is parsed by its request and recorded, as ``Match.play`` does; returns the generator's value."""
    routes = {"imperial": game.controller("imperial", "robot"), "rebel": game.controller("rebel", "policy")}
    routes.update(controllers or {})
    steps = game.sequence() if steps is None else steps
    try:
        request = next(steps)
        while True:
            answer = routes[request.side].decide(request)
            decision = Decision(request.parse(answer.action), answer.reasons)
            game.record(request, decision)
            request = steps.send(decision)
    except StopIteration as stop:
        return stop.value


def answer(game, kind, side="imperial", **fields):
    """The robot's (or the policy's) Decision for a request built by hand."""
    who = "robot" if side == "imperial" else "policy"
    return game.controller(side, who).decide(Request(kind, side, state=game, **fields))
