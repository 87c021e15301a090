"""The routes of the person's results (web/people.py; docs/web.md "Your results and your rating"):

- ``POST /settings/record``: the setting *record my finished games* (a checkbox on the start page);
- ``POST /settings/ladder``: a ladder's fit.json uploaded (the rating's scale for its game), or one removed;
- ``POST /games/{id}/record``: try again to record a finished game that could not be recorded;
- ``POST /assist/{game}/{id}/end``: the person ends a table session of an assistant asked questions (Armada's) by saying who won (the program does
  not play Armada's table game to its end, so only the person can say it is over).
"""
from __future__ import annotations

from typing import Callable

from fastapi import FastAPI, Request as HttpRequest
from fastapi.responses import RedirectResponse

from ..core.errors import PaperRobotError
from ..sim.person import FIT_CAP
from .live import Refused
from .people import People
from .uploads import read_file

WINNERS = {"rebel": "you", "imperial": "the AI", "draw": "nobody"}  # Armada: the person flies the Rebels


def add_routes(app: FastAPI, read_form: Callable, people: People) -> None:
    store = people.store

    @app.post("/settings/record")
    async def set_recording(request: HttpRequest):
        data = await read_form(request)
        people.set_recording(str(data.get("record", "")) in ("on", "yes", "true", "1"))
        return RedirectResponse("/#your-results", status_code=303)

    @app.post("/settings/ladder")
    async def set_ladder(request: HttpRequest):
        data = await read_form(request)
        remove = str(data.get("remove", ""))
        if remove:
            people.remove_ladder(remove[:40])
            return RedirectResponse("/#your-results", status_code=303)
        upload = data.get("fit")
        if upload is None or isinstance(upload, str) or not getattr(upload, "filename", ""):
            raise Refused(400, "choose a ladder's fit.json to add (written by 'paperrobot ladder GAME --out DIR'); "
                               "nothing was changed")
        text = read_file(upload, FIT_CAP, "a ladder's fit.json")
        try:
            people.add_ladder(text)
        except PaperRobotError as exc:
            raise Refused(400, f"{exc}; nothing was changed") from None
        return RedirectResponse("/#your-results", status_code=303)

    @app.post("/games/{game_id}/record")
    async def record_again(game_id: int):
        row = store.get(game_id) if 0 < game_id < 2 ** 63 else None
        if row is None:
            raise Refused(404, f"there is no game {game_id} in this database")
        asker = app.state.asked(row.game) if row.mode == "assist" else None
        if asker is not None:
            if row.status != "finished" or not isinstance(row.outcome, dict):
                raise Refused(409, f"session {game_id} has not been ended; end it first (who won)")
            session = asker.session(game_id)
            session.recorded = people.reported(row, row.outcome.get("winner"), "reported",
                                               session.assistant.state.round)
            return RedirectResponse(f"/assist/{row.game}/{game_id}", status_code=303)
        games = app.state.games if row.mode == "play" else app.state.assists
        with games.lock:
            live = games.live(game_id)
            if not live.finished:
                raise Refused(409, f"game {game_id} is not over; it is recorded when it ends")
            live.recorded = people.finished(live.row, live.match)
        return RedirectResponse(f"/games/{game_id}" if row.mode == "play" else f"/assist/{row.game}/{game_id}",
                                status_code=303)

    @app.post("/assist/{game}/{game_id}/end")
    async def asked_end(request: HttpRequest, game: str, game_id: int):
        asker = app.state.asked(game)
        if asker is None:
            raise Refused(404, f"there is no table assistant asked questions for '{game[:30]}'")
        data = await read_form(request)
        winner = str(data.get("winner", ""))
        if winner not in WINNERS:
            raise Refused(400, f"say who won: {', '.join(WINNERS)}; nothing was changed")
        session = asker.end(game_id, data.get("count"), None if winner == "draw" else winner)
        session.recorded = people.reported(session.row, session.row.outcome["winner"], "reported",
                                           session.assistant.state.round)
        return RedirectResponse(f"/assist/{game}/{game_id}", status_code=303)
