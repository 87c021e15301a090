"""Save files: the game, its set-up, its seed and the person's answers so far, as one JSON document.

Resuming rebuilds the game by replaying those answers through the deterministic engine, so a save
never has to serialise engine internals and cannot fall out of step with them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import SaveError
from .events import write_text_atomic

FORMAT = "paperrobot-save"
VERSION = 1


@dataclass
class SaveData:
    game: str  # "sfb", "fc", "armada"
    setup: dict[str, Any]  # everything needed to start the same game: scenario, ships, options
    seed: int
    answers: list[list[Any]] = field(default_factory=list)  # [request kind, encoded answer]

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "version": VERSION, "game": self.game, "setup": self.setup,
                           "seed": self.seed, "answers": self.answers}, indent=1)


def write_save(path: str | Path, data: SaveData) -> None:
    write_text_atomic(path, data.to_json())


def read_save(path: str | Path, game: str | None = None) -> SaveData:
    """Read and check a save; every problem is one SaveError line."""
    path = Path(path)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except (OSError, UnicodeDecodeError, ValueError):
        raise SaveError(f"{path}: not a PaperRobot save (it is not valid JSON; was it cut short or edited?)") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError(f"{path}: not a PaperRobot save (no '{FORMAT}' header)")
    if raw.get("version") != VERSION:
        raise SaveError(f"{path}: save format version {raw.get('version')} is not supported (this program reads {VERSION})")
    try:
        data = SaveData(str(raw["game"]), dict(raw["setup"]), int(raw["seed"]),
                        [[str(k), v] for k, v in raw["answers"]])
    except (KeyError, TypeError, ValueError):
        raise SaveError(f"{path}: the save is damaged (a required field is missing or malformed)") from None
    if game is not None and data.game != game:
        raise SaveError(f"{path}: this is a save of '{data.game}', not '{game}'; "
                        f"resume it with 'paperrobot play {data.game} --resume {path}'")
    return data
