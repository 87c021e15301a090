"""The Start and Play pages' routes: a game started from the start form, then each question answered (options or a
form checked as it is typed), a hint from the search player, undo, words such as 'disengage', the save to download.
Games in progress are web/live.py's; ``page`` and ``templates`` are the app's (web/app.py)."""
from __future__ import annotations

import random
from typing import Callable

from fastapi import FastAPI, Request as HttpRequest
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from ..core import registry
from ..core.save import match_save
from ..sim.records import person_side
from . import maps, rules
from .downloads import download as _download, stored_download
from .forms import catalogue, fields_of, form_values, read_form, values_text
from .live import Games, Live, Refused
from .log_lines import log_entries
from .people import People
from .store import GameStore

HINT_SIMULATIONS = 50  # the search player's simulations for the Hint button (docs/search.md)


def add_routes(app: FastAPI, page: Callable[..., HTMLResponse], templates: Jinja2Templates, setup_from: Callable,
               store: GameStore, live_games: Games, people: People) -> None:
    # ------------------------------------------------------------------ Start
    @app.get("/", response_class=HTMLResponse)
    async def start(request: HttpRequest):
        return page(request, "start.html", games=catalogue(people), saved=store.list(),
                    random_seed=random.randrange(1, 10 ** 6), results=people.panel())

    @app.post("/games")
    async def new_game(request: HttpRequest):
        data = await read_form(request)
        game, setup, seed, controllers = setup_from(data)
        game_id = live_games.new(game, setup, seed, controllers)
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    # ------------------------------------------------------------------ Play
    @app.get("/games/{game_id}", response_class=HTMLResponse)
    async def play(request: HttpRequest, game_id: int):
        with live_games.lock:
            live = live_games.live(game_id)
            return page(request, "play.html", **play_context(live))

    @app.post("/games/{game_id}/answer")
    async def answer(request: HttpRequest, game_id: int):
        data = await read_form(request)
        with live_games.lock:
            live = live_games.current(game_id, data.get("seq"))
            asked = live.request
            if "choice" in data:
                key = str(data.get("choice"))
                option = asked.option(key)
                if option is None:
                    raise Refused(422, f"'{key[:40]}' is not one of the answers to question {asked.seq} "
                                       f"({asked.kind}); nothing was changed")
                live_games.answer(game_id, asked.seq, key, option.label)
            elif asked.form is not None:
                values = form_values(asked, data)
                try:
                    live_games.answer(game_id, asked.seq, values, values_text(values))
                except Refused as exc:
                    if exc.status != 422:
                        raise
                    context = play_context(live)
                    context.update(error=str(exc), error_rule=exc.rule, values=values)
                    return page(request, "play.html", 422, **context)
            else:
                raise Refused(400, "the form holds no answer (no option was chosen)")
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    @app.post("/games/{game_id}/check", response_class=HTMLResponse)
    async def check(request: HttpRequest, game_id: int):
        """The form's fields re-drawn for the values typed so far, with the server's verdict (htmx)."""
        data = await read_form(request)
        with live_games.lock:
            live = live_games.current(game_id, data.get("seq"))
            if live.request.form is None:
                raise Refused(400, f"question {live.request.seq} is answered by choosing an option; it has no form "
                                   f"to check")
            values = form_values(live.request, data)
            verdict, rule = "", ""
            try:
                live_games.check(live, values)
            except Refused as exc:
                verdict, rule = str(exc), exc.rule
            html = templates.get_template("_fields.html").render(
                q=live.request, fields=fields_of(live.request, values), checked=True, verdict=verdict,
                rule=rule, summary=rules.summary(rule) if rule else None, game_id=game_id)
        return HTMLResponse(html)

    @app.post("/games/{game_id}/hint", response_class=HTMLResponse)
    async def hint(request: HttpRequest, game_id: int):
        """What the search player would answer to the open question, with each answer's win chance (htmx)."""
        data = await read_form(request)

        def think():  # seconds of CPU: off the event loop, the game locked meanwhile
            with live_games.lock:
                live = live_games.current(game_id, data.get("seq"))
                if live.match.dice == "table":
                    return None, ("Hints need the program's dice: the search looks ahead with dice of its own, and "
                                  "this game's dice are yours.")
                from ..sim.search import hint as search_hint
                return search_hint(live.match, live.request, HINT_SIMULATIONS), ""

        estimate, note = await run_in_threadpool(think)
        return HTMLResponse(templates.get_template("_hint.html").render(estimate=estimate, note=note))

    @app.post("/games/{game_id}/undo")
    async def undo(request: HttpRequest, game_id: int):
        data = await read_form(request)
        if data.get("keep") == "last":  # 'Undo my last answer': the person's, with those given for them after it
            live_games.undo_last(game_id, data.get("seq"))
        else:
            live_games.undo(game_id, data.get("seq"), data.get("keep"))
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    @app.post("/games/{game_id}/word")
    async def word(request: HttpRequest, game_id: int):
        """A word such as 'disengage' (core/asking.py), said beside any question after its confirmation."""
        data = await read_form(request)
        live_games.word(game_id, data.get("seq"), str(data.get("word", "")))
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    @app.get("/games/{game_id}/save")
    async def download_save(game_id: int):
        row = store.get(game_id) if 0 < game_id < 2 ** 63 else None
        if row is None:
            raise Refused(404, f"there is no game {game_id} in this database")
        if row.mode == "play" and not row.damaged:
            try:
                with live_games.lock:
                    live = live_games.live(game_id)
                    save = match_save(live.match, registry.info(live.row.game).engine_version)
                return _download(save.model_dump(mode="json"), f"{live.row.game}-{game_id}.save")
            except Refused as exc:
                if exc.status != 409:  # cannot be resumed, damaged: the stored rows below
                    raise
        data, name = stored_download(store, game_id)
        return _download(data, name)


    def play_context(live: Live) -> dict:
        row = live.row
        info = registry.info(row.game)
        request = live.request
        person = request.side if request is not None else next(
            (s for s, w in row.controllers.items() if w == "person"), "")
        pic = maps.picture(row.game, live.view, person)
        asking = live.asking
        words = [dict(name=name, help=text, confirm=asking.confirm.get(name, "")) for name, text in
                 (asking.words.items() if asking is not None and request is not None else ())]
        return dict(live=live, row=row, info=info, q=request, picture=pic, log=log_entries(live), words=words,
                    notice=live.notice, person_answers=len(live.person_answers()),
                    fields=fields_of(request, None) if request is not None and request.form is not None else [],
                    error="", error_rule="", summary=None, answers=len(live.match.answers),
                    outcome=row.outcome if request is None else None,
                    results=people.panel(row.game) if request is None and person_side(row.controllers) else None)

