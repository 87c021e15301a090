"""The rungs of the opponent ladder: players of known kinds, named the same way in every game.

A rung is a controller name: ``random`` (uniformly random legal answers), ``policy`` (the heuristic player),
``robot`` (the published robot), ``search:N`` (the search player, N simulations per decision, once
``sim/search.py`` exists) and, for the validation of a person's rating, ``mix:policy=0.7,random=0.3`` (a
simulated person who, at each decision, answers as one of the named rungs drawn with those chances).

The robot flies only its robot side (the published rules are written for that side). Every other rung flies
every side, except where the game has no distinct controller of that kind for a side (Armada's "policy" of
the Imperial side is the Imperial AI itself): found by asking a throw-away engine, not by naming games.
"""
from __future__ import annotations

import importlib.util
import random
import re
from functools import lru_cache
from typing import Any

from ..core.controller import Decision
from ..core.errors import PaperRobotError

BUILT_IN = ("random", "policy", "robot")
_SEARCH = re.compile(r"search(?::(\d+))?")
_MIX = re.compile(r"mix:(.+)")


class RandomController:
    """Answers every request with one of its listed options, uniformly, from its own seeded RNG (so a game with
    a random rung replays from the game's seed). Forms are answered with one of their legal presets."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def decide(self, request) -> Decision:
        options = request.options
        return Decision(options[self.rng.randrange(len(options))].key)


class MixedController:
    """A simulated person: at each decision one of ``parts`` (controllers) answers, drawn with ``weights``."""

    def __init__(self, parts: list[Any], weights: list[float], seed: int):
        self.parts, self.weights = parts, weights
        self.rng = random.Random(seed)

    def decide(self, request) -> Decision:
        part = self.rng.choices(self.parts, self.weights)[0]
        return part.decide(request)


def search_available() -> bool:
    return importlib.util.find_spec("paperrobot.sim.search") is not None


def parse_mix(name: str) -> list[tuple[str, float]]:
    """``mix:policy=0.7,random=0.3`` -> [("policy", 0.7), ("random", 0.3)]; one line if malformed."""
    match = _MIX.fullmatch(name)
    parts = []
    for item in (match.group(1).split(",") if match else []):
        rung, _, share = item.partition("=")
        try:
            weight = float(share)
        except ValueError:
            weight = -1.0
        if rung not in BUILT_IN or not weight > 0:
            parts = []
            break
        parts.append((rung, weight))
    if not parts:
        raise PaperRobotError(f"'{name}' is not a mixed rung; write it as mix:policy=0.7,random=0.3 (rungs random, "
                              f"policy, robot with positive shares)")
    return parts


# A rough model of what a game costs, in games of cheap players, used only to choose which pairing to play next
# (never in the fit): a search:N side plays about N games to the end at each of its searched decisions, and a
# game has a few dozen of them. Measured on this machine (docs/ladder.md): a search:10 game against the robot cost
# 56 (SFB #5), 750 (FC D7 v CA) and 500 (Armada) times a policy-robot game.
SEARCH_GAMES_PER_SIMULATION = 50.0


def simulations(name: str) -> int:
    """N of a ``search:N`` rung (the search player's default for plain ``search``); 0 for every other rung."""
    match = _SEARCH.fullmatch(name)
    if not match:
        return 0
    if match.group(1) is not None:
        return int(match.group(1))
    from .search import DEFAULT_SIMULATIONS

    return DEFAULT_SIMULATIONS


def cost(robot_rung: str, player_rung: str) -> float:
    """The rough cost of one game with these rungs, in games of cheap players (1 when neither searches)."""
    return 1.0 + SEARCH_GAMES_PER_SIMULATION * (simulations(robot_rung) + simulations(player_rung))


def split_rungs(text: str) -> list[str]:
    """The rungs of a comma-separated list; a mixed rung's own parts stay with it: ``random,mix:policy=0.9,
    random=0.1,robot`` -> ["random", "mix:policy=0.9,random=0.1", "robot"] (a part is ``rung=share``, which no
    rung's name holds)."""
    names: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        if "=" in item and names and names[-1].startswith("mix:"):
            names[-1] += "," + item
        else:
            names.append(item)
    return names


def check_rung(name: str) -> str:
    """The rung's name if this program can fly it; else one line saying what the rungs are."""
    if name in BUILT_IN:
        return name
    search = _SEARCH.fullmatch(name)
    if search:
        if search.group(1) is not None and int(search.group(1)) < 1:
            raise PaperRobotError(f"rung '{name}': search:N needs N of at least 1 simulation per decision")
        if not search_available():
            raise PaperRobotError(f"rung '{name}': the search player (sim/search.py) is not in this version of "
                                  f"PaperRobot yet; leave search rungs out of --rungs")
        return name
    if name.startswith("mix:"):
        parse_mix(name)
        return name
    raise PaperRobotError(f"unknown rung '{name}'; the rungs are random, policy, robot, search:N (N simulations "
                          f"per decision) and mix:policy=0.7,random=0.3")


@lru_cache(maxsize=None)
def _distinct(game: str, setup: tuple, side: str, kind: str) -> bool:
    """Whether the game has a ``kind`` controller for ``side`` distinct from its robot there."""
    import paperrobot

    if side != paperrobot.game_info(game).robot_side:
        return True
    engine = paperrobot.new_game(game, seed=1, **dict(setup)).engine
    return type(engine.controller(side, kind)) is not type(engine.controller(side, "robot"))


def flies(rung: str, side: str, game: str, setup: dict) -> bool:
    """Whether ``rung`` flies ``side`` of ``game`` in the ladder (module docstring)."""
    import paperrobot

    robot_side = paperrobot.game_info(game).robot_side
    if rung == "robot":
        return side == robot_side
    if rung.startswith("mix:"):
        return all(flies(part, side, game, setup) for part, _ in parse_mix(rung))
    if rung == "policy":
        return _distinct(game, tuple(sorted(setup.items())), side, "policy")
    return True


def controller(match, side: str, rung: str, seed: int) -> Any:
    """What ``match.play(controllers=...)`` takes for ``rung`` on ``side``: a name the contract knows, or an
    object with ``decide``. ``seed`` (the game's) seeds a random rung's own RNG."""
    if rung == "random":
        return RandomController(_side_seed(seed, side, rung))
    if rung.startswith("mix:"):
        parts = parse_mix(rung)
        built = [RandomController(_side_seed(seed, side, f"{rung}/{i}")) if name == "random"
                 else match.engine.controller(side, name) for i, (name, _) in enumerate(parts)]
        return MixedController(built, [w for _, w in parts], _side_seed(seed, side, rung))
    return rung  # robot, policy, search:N: the contract builds them


def _side_seed(seed: int, side: str, rung: str) -> int:
    import hashlib

    digest = hashlib.sha256(f"{seed}/{side}/{rung}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
