"""The search player's answers at fixed positions, with every simulation's outcome: a check that a change to the
search, the contract's forks or the play-outs leaves the search deciding exactly as before.

For each game (seed 3, the player side answered by its policy from outside the engine, the robot on its side), at
the K-th questions worth searching (more than one distinct answer, no standing answer), ``SearchPlayer(N)``
estimates the question. One line per position: the game, the question's number and kind, the answer chosen, the
simulations played and a digest (sha256) of every candidate's key and outcome per fork seed index. Two versions
decide the same when their lines are equal. tests/sim/test_search_answers.py holds a few of them (search:12).

Run: PYTHONPATH=src .venv/bin/python benchmarks/search_answers.py [--games sfb,fc,armada] [--at 1,10,30]
     [--simulations 50] [--seed 3]
"""
from __future__ import annotations

import argparse
import hashlib

import paperrobot
from paperrobot.core.contract import Decision
from paperrobot.sim.search import SearchPlayer, _one_action

SETUPS = {"sfb": {"scenario": "5"}, "fc": {}, "armada": {}}


class Probe:
    """Flies the player side with the engine's policy, answered from outside (recorded, so forks replay it); at
    the ``at``-th questions worth searching it runs a search of ``simulations`` and keeps what it found."""

    def __init__(self, at: list[int], simulations: int):
        self.at, self.simulations = set(at), simulations
        self.seen = 0
        self.found: list[tuple[int, str, str, int, str]] = []
        self.policy = None

    def bind(self, match, side):
        self.match, self.side = match, side
        match.checkpoints = True

    def decide(self, request):
        if self.policy is None:
            self.policy = self.match.engine.controller(self.side, "policy")
            unroute = getattr(self.match.engine, "unroute", None)
            if unroute is not None:  # answered from outside: asked every question, as before the probe
                unroute(self.side)
        if len(request.options) > 1 and not _one_action(request):
            player = SearchPlayer(self.simulations)
            player.bind(self.match, self.side)
            if request.kind not in player._standing(self.match, self.side):
                self.seen += 1
                if self.seen in self.at:
                    estimate = player.estimate(request)
                    self.found.append((request.seq, request.kind, str(estimate.chosen), player.played,
                                       digest(player)))
        return Decision(self.policy.decide(request).action)


def digest(player: SearchPlayer) -> str:
    """sha256 (16 hex digits) of every candidate's key and its outcome on each fork seed index, in order."""
    text = ";".join(f"{arm.key}=" + ",".join(f"{i}:{v}" for i, v in sorted(arm.results.items()))
                    for arm in player.arms)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def answers(game: str, at: list[int], simulations: int, seed: int = 3) -> list[tuple[int, str, str, int, str]]:
    """(question number, kind, answer, simulations played, digest) at each of the ``at``-th searchable questions."""
    info = paperrobot.game_info(game)
    side = next(s for s in info.sides if s != info.robot_side)
    probe = Probe(at, simulations)
    match = paperrobot.new_game(game, seed=seed, **SETUPS[game])
    steps = match.play({side: probe, info.robot_side: "robot"})
    try:
        next(steps)
    except StopIteration:
        pass
    return probe.found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="sfb,fc,armada")
    parser.add_argument("--at", default="1,10,30")
    parser.add_argument("--simulations", type=int, default=50)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    for game in args.games.split(","):
        for row in answers(game, [int(a) for a in args.at.split(",")], args.simulations, args.seed):
            print(game, *row, flush=True)


if __name__ == "__main__":
    main()
