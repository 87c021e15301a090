"""Games as files to download: a save, or for a game that cannot be opened, what is stored of it."""
from __future__ import annotations

import json
from typing import Any

from fastapi.responses import Response

from .. import __version__
from ..core.save import MatchSave
from .store import GameStore


def download(data: Any, name: str) -> Response:
    name = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:100]
    text = json.dumps(data, indent=1, default=lambda v: v.hex() if isinstance(v, bytes) else str(v))  # raw rows: any type
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


def stored_download(store: GameStore, game_id: int) -> tuple[dict, str]:
    """A game that cannot be opened, as a file: a save built from its stored rows when they make a valid one (a
    newer program may resume it), else the rows exactly as stored with the reason, for repair by hand."""
    raw = store.raw(game_id) or {"game": {}, "answers": []}
    game = raw["game"]
    try:
        answers = [tuple(a[:4]) for a in store.answers_with_labels(game_id)]
        save = MatchSave(program=__version__, game=game.get("game"), engine_version=game.get("engine_version"),
                         setup=json.loads(game.get("setup")), seed=game.get("seed"),
                         controllers=json.loads(game.get("controllers")), dice=game.get("dice"), answers=answers)
        return save.model_dump(mode="json"), f"{save.game}-{game_id}.save"
    except Exception as exc:  # damaged: any field may be anything
        why = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        return ({"format": "paperrobot-web-rows", "game_id": game_id, "why_not_a_save": why, **raw},
                f"game-{game_id}.rows.json")
