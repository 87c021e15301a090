"""The Watch pages' routes: a battle to watch set up from the form (robot or policy on each side) or a log uploaded
(``battle --log``), then stepped through frame by frame or played. Battles are web/watch.py's; a battle built or
a log replayed runs in a worker thread, at most ``replays`` at once (the memory they hold is bounded)."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

from anyio import CapacityLimiter, to_thread
from fastapi import FastAPI, Request as HttpRequest
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from ..core import registry
from ..core.errors import PaperRobotError
from . import maps
from .forms import catalogue, read_form, whole_number
from .live import Refused
from .log_lines import LOG_SHOWN, event_entry, narrator
from .store import GameStore
from .uploads import read_file, upload_form
from .watch import MAX_LOG_BYTES, Battles, log_battle, play_battle


def add_routes(app: FastAPI, page: Callable[..., HTMLResponse], templates: Jinja2Templates, setup_from: Callable,
               store: GameStore, battles: Battles, replays: CapacityLimiter) -> None:
    # ------------------------------------------------------------------ Watch
    @app.get("/watch", response_class=HTMLResponse)
    async def watch_start(request: HttpRequest):
        return page(request, "watch_start.html", games=catalogue(), random_seed=random.randrange(1, 10 ** 6))

    @app.post("/watch")
    async def watch_new(request: HttpRequest):
        data = await read_form(request)
        game, setup, seed, controllers = setup_from(data)
        info = registry.info(game)
        setup = info.check_setup(setup)
        who = {}
        for side in info.sides:
            choice = controllers.get(side) or "robot"
            if choice not in ("robot", "policy"):
                raise Refused(400, f"in a battle to watch, {side} is flown by 'robot' or 'policy', not '{choice[:20]}'")
            who[side] = choice
        seed = random.randrange(0, 2 ** 31) if seed is None else seed
        registry.new_match(game, seed, None, **setup)
        watch_id = store.create_watch(game, setup, seed, who)
        return RedirectResponse(f"/watch/{watch_id}", status_code=303)

    @app.post("/watch/upload")
    async def watch_upload(request: HttpRequest):
        form = await upload_form(request, MAX_LOG_BYTES, "the log")  # bounded: a 413 past the cap, files on disk
        try:
            upload = form.get("log")
            if upload is None or not hasattr(upload, "read"):
                raise Refused(400, "choose a log file written by 'paperrobot battle --log'")
            watch_id = await to_thread.run_sync(_store_log, upload, limiter=replays)  # replays: off the event loop
        finally:
            await form.close()
        return RedirectResponse(f"/watch/{watch_id}", status_code=303)

    def _store_log(upload) -> int:
        blob = read_file(upload, MAX_LOG_BYTES, "the log")
        name = Path(upload.filename or "log").name[:80]
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, f"{name}: not a text file; is this a log written by 'battle --log'?") from None
        del blob
        battle = log_battle(text, name)
        watch_id = store.create_watch(battle.game, {}, 0, {}, text, name)
        battles.put(watch_id, battle)
        return watch_id

    def battle_of(watch_id: int):
        row = store.get_watch(watch_id) if 0 < watch_id < 2 ** 63 else None
        if row is None:
            raise Refused(404, f"there is no battle {watch_id} in this database", title="No such battle")
        if row.damaged:
            raise Refused(409, f"battle {watch_id} is damaged in this database ({row.damaged}); nothing was changed, "
                               f"the other battles are not affected", title="Damaged battle")
        try:
            if row.log is not None:
                return row, battles.get(watch_id, lambda: log_battle(row.log, row.name))
            return row, battles.get(watch_id, lambda: play_battle(row.game, row.setup, row.seed, row.controllers))
        except PaperRobotError:
            raise
        except Exception as exc:  # a stored set-up of the right shape that the engine still cannot take
            raise Refused(409, f"battle {watch_id} cannot be played again from its stored set-up "
                               f"({type(exc).__name__}); nothing was changed", title="Damaged battle") from None

    def frame_context(watch_id: int, step: Any, turn: Any, playing: Any) -> dict:
        row, battle = battle_of(watch_id)
        last = len(battle.frames) - 1
        number = whole_number(step, 0)
        if turn not in (None, ""):
            number = battle.frame_of_turn(whole_number(turn, 0))
        number = min(max(number, 0), last)
        frame = battle.frames[number]
        view = next((f.view for f in reversed(battle.frames[: number + 1]) if f.view is not None), None)
        pic = maps.picture(battle.game, view, frame.side) if battle.has_views else maps.Picture()
        narrate = narrator(battle.game)
        entries = [event_entry(e, narrate) for e in battle.events[: frame.events]]
        entries = [e for e in entries if e][-LOG_SHOWN:]
        speed = min(max(whole_number(playing, 0), 0), 100)  # frames per tick while playing
        return dict(watch_id=watch_id, battle=battle, frame=frame, step=number, last=last, picture=pic,
                    entries=list(reversed(entries)), playing=speed if number < last else 0, row=row,
                    fast=max(5, last // 100))

    @app.get("/watch/{watch_id}", response_class=HTMLResponse)
    async def watch(request: HttpRequest, watch_id: int, step: str = "0", turn: str = "", play: str = ""):
        context = await to_thread.run_sync(frame_context, watch_id, step, turn, play, limiter=replays)
        return page(request, "watch.html", **context)

    @app.get("/watch/{watch_id}/frame", response_class=HTMLResponse)
    async def watch_frame(request: HttpRequest, watch_id: int, step: str = "0", turn: str = "", play: str = ""):
        context = await to_thread.run_sync(frame_context, watch_id, step, turn, play, limiter=replays)
        return HTMLResponse(templates.get_template("_frame.html").render(**context))

