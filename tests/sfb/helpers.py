"""Set-ups for rule tests: a game with chosen ships, positions and scripted dice."""
from paperrobot import sfb
from paperrobot.core.dice import Dice
from paperrobot.core.hexgrid import facing_index, parse


def make(scenario="5", *, robot="klingon", player="federation", dice=(), opponent="policy", ships_dir=None,
         **options):
    game = sfb.new_game(scenario, seed=0, robot_ship=robot, player_ship=player, opponent=opponent,
                        ships_dir=ships_dir, options=options or None)
    game.dice = Dice.scripted(*dice)
    game.turn, game.impulse = 1, 1
    return game


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
    return game.controllers[ship.name]
