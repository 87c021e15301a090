"""Save files: the game, its set-up, its seed, who flies each side and the answers given so far.

Resuming rebuilds the match by replaying those answers through the deterministic engine, so a save
never serialises engine internals. A save carries the format version and the game's engine version;
a save whose answers this engine no longer accepts is refused whole with one line naming both.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import SaveError, one_line
from .events import write_text_atomic
from .files import open_regular
from .._version import __version__

FORMAT = "paperrobot-save"
VERSION = 2
MAX_BYTES = 20_000_000  # a save of a long game is well under 1 MB; refuse anything absurd before reading it

Answer = Union[str, int, float, bool, None, list, dict]


class MatchSave(BaseModel):
    """One save file, validated on read."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    format: Literal["paperrobot-save"] = FORMAT
    version: Literal[2] = VERSION
    program: str = ""
    game: str = Field(min_length=1, max_length=40)
    engine_version: int = Field(ge=1)
    setup: dict[str, Any]
    seed: int = Field(ge=0, lt=2 ** 63)
    controllers: dict[str, Literal["robot", "policy", "person"]]
    dice: Literal["program", "table"] = "program"  # "table": the person typed every roll (the "roll" answers)
    answers: list[tuple[int, str, str, Answer]] = Field(default_factory=list)


def match_save(match, engine_version: int) -> MatchSave:
    return MatchSave(program=__version__, game=match.game, engine_version=engine_version, setup=match.setup,
                    seed=match.seed, controllers=dict(match.controllers), dice=match.dice,
                    answers=[tuple(a) for a in match.answers])


def write_match_save(path: str | Path, data: MatchSave) -> None:
    write_text_atomic(path, json.dumps(data.model_dump(mode="json"), indent=1))


def read_match_save(path: str | Path, game: str | None = None) -> MatchSave:
    """Read and check a save; every problem is one SaveError line."""
    path = Path(path)
    try:
        if path.is_dir():
            raise SaveError(f"{path}: is a folder, not a save file")
        with open_regular(path, "a PaperRobot save file", SaveError) as handle:
            blob = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise SaveError(f"{path}: no such save file") from None
    except OSError as exc:
        raise SaveError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if len(blob) > MAX_BYTES:
        raise SaveError(f"{path}: not a PaperRobot save (larger than {MAX_BYTES // 1_000_000} MB)")
    try:
        raw = json.loads(blob.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise SaveError(f"{path}: not a PaperRobot save (it is not valid JSON; was it cut short or edited?)") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise SaveError(f"{path}: not a PaperRobot save (no '{FORMAT}' header)")
    if raw.get("version") != VERSION:
        raise SaveError(f"{path}: save format version {str(raw.get('version'))[:20]} is not supported "
                        f"(this program reads version {VERSION})")
    try:
        data = MatchSave.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the file"
        raise SaveError(f"{path}: the save is damaged at '{where}': {first['msg']}") from None
    if game is not None and data.game != game:
        raise SaveError(f"{path}: this is a save of '{data.game}', not '{game}'; "
                        f"resume it with 'paperrobot play {data.game} --resume {path}'")
    return data


def load_match(path: str | Path, game: str | None = None, log=None):
    """Rebuild the match a save describes: ``(match, steps, open request or None)``. Refuses, with one line,
    a save of another engine version whose answers no longer fit."""
    from . import registry
    data = read_match_save(path, game)
    info = registry.info(data.game)
    try:
        match = registry.new_match(data.game, data.seed, log, data.dice, **data.setup)
    except SaveError:
        raise
    except Exception as exc:  # a set-up this program refuses (an unknown ship, an edited option)
        raise SaveError(one_line(f"{path}: the save's set-up is refused: {exc}")) from None
    controllers = {side: (None if who == "person" else who) for side, who in data.controllers.items()}
    try:
        steps, request = match.replay([list(a) for a in data.answers], controllers)
    except SaveError as exc:
        raise SaveError(one_line(f"{path}: {exc} (the save was written by engine version {data.engine_version} "
                                 f"of {data.game}, this is version {info.engine_version})")) from None
    return match, steps, request

