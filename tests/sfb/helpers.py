"""Set-ups for rule tests: a game with chosen ships, positions and scripted dice; a step of the sequence of play
driven to its end by the game's own controllers (every answer parsed by its request, as the contract's driver
does)."""
from paperrobot import sfb
from paperrobot.core.contract import Request
from paperrobot.core.controller import Decision
from paperrobot.core.dice import Dice
from paperrobot.core.hexgrid import facing_index, parse


def make(scenario="5", *, robot="klingon", player="federation", dice=(), opponent="policy", ships_dir=None,
         **options):
    game = sfb.new_game(scenario, seed=0, robot_ship=robot, player_ship=player, opponent=opponent,
                        ships_dir=ships_dir, options=options or None)
    game.dice = Dice.scripted(*dice)
    game.turn, game.impulse = 1, 1
    return game


def drive(game, steps, player=None):
    """Run a step of the sequence of play (a generator) to its end: the robot answers for robot ships, the
    policy (or ``player``) for the others; returns the step's value."""
    controllers = {side: game.controller(side, "robot" if side == "robot" or game.flown[side] == "robot"
                                          else "policy") for side in sfb.SIDES}
    if player is not None:
        controllers["player"] = player
    try:
        request = next(steps)
        while True:
            decision = controllers[request.side].decide(request)
            action = request.parse(decision.action)
            decision = Decision(action, decision.reasons, decision.memory)
            game.record(request, decision)
            request = steps.send(decision)
    except StopIteration as stop:
        return stop.value


def ask(game, ship, kind, data=None):
    """The request ``kind`` about ``ship`` as the engine builds it (for robot and policy tests)."""
    return Request(kind, ship.side, state=game, subject=ship, data=data)


def ships(game):
    """(player ship, first robot ship)."""
    return game.side_ships("player")[0], game.side_ships("robot")[0]


def place(ship, label, facing, straight=99, speed=None):
    ship.hex = ship.prev_hex = parse(label)
    ship.facing = facing_index(facing)
    ship.straight = straight
    if speed is not None:
        ship.speed = speed
    return ship


def weapon(ship, key):
    return next(w for w in ship.weapons if w.key == key)


def robot_of(game, ship):
    return game.robot_for(ship)




def ask_robot(game, ship, kind, what=None):
    """The robot's decision on a ``kind`` request about ``ship`` (``what`` = "plasma" for a torpedo launch), its
    contract answer shown as the rule tests read it: shots as (weapon, target) pairs, launches as keys."""
    data = (what or "drones", (), None) if kind == "launch" else None
    decision = game.robot_for(ship).decide(ask(game, ship, kind, data))
    if decision.memory:  # what the engine does with a robot's decision: store what it remembers on the ship
        game.remember(ship, decision.memory)
    action = decision.action
    if kind == "fire":
        action = tuple(action.items())
    elif kind == "launch":
        action = tuple(action["launch"])
    return Decision(action, decision.reasons)
