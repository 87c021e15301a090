"""Write the 80-column terminal captures of each game's map into docs/img (issue 26): the renderers' own
output at the most crowded moment of a game (seed 3) taken with the suggestions, as `play` prints it.

    PYTHONPATH=src python scripts/terminal_maps.py
"""
from __future__ import annotations

from pathlib import Path

import paperrobot
from paperrobot.armada.sketch import sketch
from paperrobot.fc import frontend as cli_fc
from paperrobot.sfb import frontend as cli_sfb
from paperrobot.core.contract import drive_all
from paperrobot.core.events import EventLog

OUT = Path(__file__).resolve().parent.parent / "docs" / "img"


def counters(engine) -> int:
    if hasattr(engine, "map_items"):
        return len(engine.map_items())
    return len(engine.ships) + sum(d.alive for d in engine.drones)


def crowded_map(game: str, setup: dict, lines_of) -> list[str]:
    """The window drawn after the move that put the most counters on the map (the closest such moment)."""
    log = EventLog()
    match = paperrobot.new_game(game, seed=3, log=log, **setup)
    best: tuple = (0, [])

    def look(event):
        nonlocal best
        if event.kind in ("moved", "move", "launched", "launch") and counters(match.engine) > best[0]:
            best = (counters(match.engine), lines_of(match.engine))
    log.listeners.append(look)
    robot = match.engine.robot_side
    drive_all(match, {side: ("robot" if side == robot else "policy") for side in match.sides})
    return best[1]


def armada_map() -> list[str]:
    """The table as the person sees it choosing a course in round 2 (arcs, the suggested course's end)."""
    steps = paperrobot.new_game("armada", seed=3).play({"imperial": "robot"})
    request = next(steps)
    while not (request.kind == "maneuver" and request.state.round == 2):
        request = steps.send(request.default)
    return sketch(request.view, request.default)


def main() -> None:
    pictures = {"sfb": crowded_map("sfb", {"scenario": "5"}, cli_sfb.map_lines),
                "fc": crowded_map("fc", {}, cli_fc.map_lines), "armada": armada_map()}
    for name, lines in pictures.items():
        assert max(map(len, lines)) <= 80 and len(lines) <= 24, name
        (OUT / f"terminal-{name}-map.txt").write_text("\n".join(lines) + "\n")
        print(f"docs/img/terminal-{name}-map.txt: {len(lines)} lines, {max(map(len, lines))} columns")


if __name__ == "__main__":
    main()
