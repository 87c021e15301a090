"""The web page's app: its routes gathered (Start and Play: web/play_pages.py; Watch: web/watch_pages.py; Results:
web/results_pages.py; the table assistants: web/assist_pages.py; results and ladders: web/people_pages.py), refusals
as pages, rule summaries. Server-rendered HTML and SVG; htmx (vendored) only checks forms as they are typed, shows
rule summaries and steps battles in place, and every page also works without it.

``create_app(db)`` builds the app on one SQLite file (``web/store.py``). Every refusal (an unknown game, a
stale or tampered form, an illegal answer) is a 4xx page that says what happened and changes nothing.
"""
from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Iterable

from anyio import CapacityLimiter
from fastapi import Depends, FastAPI, Request as HttpRequest
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__, games as game_names
from ..core.errors import PaperRobotError
from ..core.words import in_words, plain
from . import assist_pages, people_pages, play_pages, results_pages, rules, setup_files, watch_pages
from .forms import catalogue, read_form, same_origin, setup_from as setup_of_form
from .hosts import HostAllowlist
from .live import Games, Refused
from .people import People
from .store import GameStore
from .watch import Battles

HERE = Path(__file__).parent
HTMX = "htmx-2.0.11.min.js"
REPLAYS = 2  # battles built at once (threads); the rest wait their turn
logger = logging.getLogger(__name__)


def create_app(db: str | Path = ":memory:", capacity: int = 64, hosts: Iterable[str] | None = None,
               allow_paths: bool = False, records: str | Path | None = None) -> FastAPI:
    """``hosts``: the Host header values to serve (web/hosts.py, against DNS rebinding); None serves any (tests).
    ``allow_paths``: the start forms take paths on the server's disk too, not only uploads (web/setup_files.py).
    ``records``: the person's results file (None: the one ``paperrobot play`` records in; web/people.py)."""
    game_names()  # imports the game packages, which register themselves: every route can find every game
    store = GameStore(db)
    live_games = Games(store, capacity)
    people = People(store, records)
    live_games.on_finish = people.finished  # every finished game against the robot, into the results file
    battles = Battles()
    files = setup_files.files_folder(db)

    def setup_from(data) -> tuple[str, dict, int | None, dict]:
        return setup_of_form(data, allow_paths, files)
    # a battle played or a log replayed (seconds of CPU, tens of MB for the largest log) runs in a worker thread,
    # never on the event loop, and at most REPLAYS at once: the memory they hold is bounded, other pages go on
    replays = CapacityLimiter(REPLAYS)
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        # shutdown (Ctrl-C, SIGTERM: uvicorn runs this after the last request): every game into the file itself,
        # not only its WAL, so that copying web.sqlite alone copies every game
        if not await run_in_threadpool(store.checkpoint):
            logger.warning("%s: the WAL could not be emptied on shutdown (a reader held it); no game is lost, the "
                           "next start finishes it", store.path)

    # every route, including pages added later, refuses state-changing requests sent from another site
    app = FastAPI(title="PaperRobot", docs_url=None, redoc_url=None, openapi_url=None,
                  dependencies=[Depends(same_origin)], lifespan=lifespan)
    app.state.store, app.state.games, app.state.battles = store, live_games, battles
    app.state.allow_paths, app.state.files, app.state.people = allow_paths, files, people
    if hosts is not None:
        app.add_middleware(HostAllowlist, hosts=hosts)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(htmx=HTMX, version=__version__, allow_paths=allow_paths)
    # values as a person reads them: no None/True/[..]/1.0 (core/words.py)
    templates.env.filters["words"] = lambda value: plain(in_words(value))
    templates.env.auto_reload = False  # the templates are package data: no need to stat them on every page

    def page(request: HttpRequest, name: str, status: int = 200, **context) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status)

    play_pages.add_routes(app, page, templates, setup_from, store, live_games, people)  # /, /games: start and play
    watch_pages.add_routes(app, page, templates, setup_from, store, battles, replays)  # /watch: battles to step through
    results_pages.add_routes(app, page)  # /results: simulate's results and balance's reports, read only
    assist_pages.add_routes(app, page, read_form, setup_from, catalogue, store, capacity)  # /assist: the table assistants
    app.state.assists.on_finish = people.finished  # a table session the program saw to its end is recorded too
    people_pages.add_routes(app, read_form, people)  # the recording setting, ladders, recording again

    # ------------------------------------------------------------------ refusals: pages, never tracebacks
    @app.exception_handler(Refused)
    async def refused(request: HttpRequest, exc: Refused):
        return error_page(request, exc.status, exc.title, str(exc), exc.rule)

    @app.exception_handler(PaperRobotError)
    async def user_error(request: HttpRequest, exc: PaperRobotError):
        # an uploaded file's problem names the file, not where this server keeps it
        return error_page(request, 400, "Not understood", str(exc).replace(f"{files}/", "uploaded "))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: HttpRequest, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return error_page(request, 400, "Not understood", f"{where}: {first.get('msg', 'malformed request')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: HttpRequest, exc: StarletteHTTPException):
        title = {404: "Not found", 405: "Not allowed here"}.get(exc.status_code, "Refused")
        return error_page(request, exc.status_code, title, str(exc.detail))

    @app.exception_handler(Exception)
    async def crash(request: HttpRequest, exc: Exception):
        logger.exception("unexpected error on %s", request.url.path)
        return error_page(request, 500, "Something broke",
                          f"{type(exc).__name__}: {exc}. Your answers so far are stored; reload the page to go on.")

    def error_page(request: HttpRequest, status: int, title: str, message: str, rule: str = "") -> HTMLResponse:
        summary = rules.summary(rule) if rule else None
        if request.headers.get("HX-Request"):
            return HTMLResponse(templates.get_template("_message.html").render(
                kind="error", title=title, message=message, rule=rule, summary=summary), status_code=status)
        game_id = request.path_params.get("game_id")
        game_url = f"/games/{int(game_id)}" if str(game_id).isdigit() and len(str(game_id)) < 19 and status != 404 else ""
        back = request.headers.get("referer", "/") if status != 403 else "/"  # never a link back to a forging site
        return page(request, "error.html", status, title=title, message=message, rule=rule, summary=summary,
                    back=back, game_url=game_url)

    # ------------------------------------------------------------------ rule summaries
    @app.get("/rules/{rule_id}", response_class=HTMLResponse)
    async def rule(request: HttpRequest, rule_id: str):
        summary = rules.summary(rule_id)
        if request.headers.get("HX-Request"):
            return HTMLResponse(templates.get_template("_rule.html").render(rule=rule_id, summary=summary),
                                status_code=200 if summary else 404)
        return page(request, "rule.html", 200 if summary else 404, rule=rule_id, summary=summary)


    return app
