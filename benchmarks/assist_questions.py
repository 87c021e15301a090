"""Questions the table assistant asks the person, per robot impulse (SFB) and per movement sub-pulse (FC).

Scripted games: the battle as 'battle' plays it (seeded dice, the robot on its side), the person's side answered
through the game's assistant (tests/assist/scripted.py: what the assistant fills in is taken, each question it asks
is answered with the heuristic captain's choice in table words). The tests prove the same lines typed at
'paperrobot assist' with every die typed play the same game, so the counts are those of a table session:
- program dice: the questions the assistant asks;
- table dice: those plus one question per die rolled (the robot's and the person's own: fire, damage).
An SFB impulse or an FC sub-pulse counts once the game has reached it (the last one is the game's end).

Run: .venv/bin/python benchmarks/assist_questions.py [GAMES]
"""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.assist.scripted

from paperrobot.core.dice import derive_seed  # noqa: E402
from tests.assist.scripted import reference  # noqa: E402

CASES = (("sfb", "scenario #4", {"scenario": "4"}), ("sfb", "scenario #5", {"scenario": "5"}),
         ("sfb", "scenario #6", {"scenario": "6"}), ("fc", "D7 vs Fed CA", {}),
         ("fc", "Kzinti BC vs Fed CA", {"robot_ship": "kzinti-bc"}))


def steps_played(game: str, ref) -> int:
    """SFB: impulses reached; FC: movement sub-pulses reached (8 impulses of 4 sub-pulses a turn)."""
    last = ref.log.events[-1]
    if game == "sfb":
        impulses = 8 if any(e.kind == "setup" and e.data.get("options", {}).get("impulses") == 8
                            for e in ref.log.events[:1]) else 16
        return (last.turn - 1) * impulses + (last.impulse or impulses)
    return ((last.turn - 1) * 8 + (last.impulse or 8)) * 4


def measure(game: str, setup: dict, games: int):
    asked = rolls = steps = 0
    kinds: Counter = Counter()
    for index in range(games):
        ref = reference(game, derive_seed(7, index), **setup)
        asked += len(ref.asked)
        rolls += len(ref.rolls)
        kinds.update(ref.asked)
        steps += steps_played(game, ref)
    return asked / steps, (asked + rolls) / steps, steps / games, {k: v / steps for k, v in kinds.most_common()}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    print(f"Questions to the person per robot impulse (SFB) / per sub-pulse (FC), {games} scripted games each")
    print("| game | set-up | per step, program dice | per step, table dice | steps a game | asked per step, by kind |")
    print("|---|---|---|---|---|---|")
    for game, title, setup in CASES:
        program, table, steps, kinds = measure(game, setup, games)
        unit = "impulse" if game == "sfb" else "sub-pulse"
        by_kind = ", ".join(f"{k} {v:.2f}" for k, v in kinds.items())
        print(f"| {game} | {title} | {program:.2f} | {table:.2f} | {steps:.0f} {unit}s | {by_kind} |")


if __name__ == "__main__":
    main()
