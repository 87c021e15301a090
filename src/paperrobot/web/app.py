"""The web page's routes: Start, Play, Watch, Results, rule summaries. Server-rendered HTML and SVG; htmx
(vendored) only checks forms as they are typed, shows rule summaries and steps battles in place, and every
page also works without it.

``create_app(db)`` builds the app on one SQLite file (``web/store.py``). Every refusal (an unknown game, a
stale or tampered form, an illegal answer) is a 4xx page that says what happened and changes nothing.
"""
from __future__ import annotations

import json
import logging
import random
from pathlib import Path
from typing import Any, Iterable

from fastapi import Depends, FastAPI, Request as HttpRequest
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool
from markupsafe import Markup, escape
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__, games as game_names, game_info
from ..core import registry
from ..core.errors import PaperRobotError
from ..core.narrate import generic_line, stamp
from ..core.save import match_save
from . import assist_pages, maps, rules
from .origin import cross_site
from .live import WHO, Games, Live, Refused
from .hosts import HostAllowlist
from .results import open_results
from .sweeps import open_sweeps, sweep_folder, sweep_svg
from .store import GameStore
from .watch import Battles, log_battle, play_battle

HERE = Path(__file__).parent
HTMX = "htmx-2.0.11.min.js"
LOG_SHOWN = 200  # log entries on the play page (the newest); the whole log is in the save's replay
MAX_FORM_FIELDS = 200
logger = logging.getLogger(__name__)


def create_app(db: str | Path = ":memory:", capacity: int = 64, hosts: Iterable[str] | None = None) -> FastAPI:
    """``hosts``: the Host header values to serve (web/hosts.py, against DNS rebinding); None serves any (tests)."""
    game_names()  # imports the game packages, which register themselves: every route can find every game
    store = GameStore(db)
    live_games = Games(store, capacity)
    battles = Battles()
    # every route, including pages added later, refuses state-changing requests sent from another site
    app = FastAPI(title="PaperRobot", docs_url=None, redoc_url=None, openapi_url=None,
                  dependencies=[Depends(_same_origin)])
    app.state.store, app.state.games, app.state.battles = store, live_games, battles
    if hosts is not None:
        app.add_middleware(HostAllowlist, hosts=hosts)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.globals.update(htmx=HTMX, version=__version__)
    templates.env.auto_reload = False  # the templates are package data: no need to stat them on every page

    def page(request: HttpRequest, name: str, status: int = 200, **context) -> HTMLResponse:
        return templates.TemplateResponse(request, name, context, status_code=status)

    assist_pages.add_routes(app, page, _form, _setup_from, _catalogue, store, capacity)  # /assist: the table assistants

    # ------------------------------------------------------------------ refusals: pages, never tracebacks
    @app.exception_handler(Refused)
    async def refused(request: HttpRequest, exc: Refused):
        return error_page(request, exc.status, exc.title, str(exc), exc.rule)

    @app.exception_handler(PaperRobotError)
    async def user_error(request: HttpRequest, exc: PaperRobotError):
        return error_page(request, 400, "Not understood", str(exc))

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

    # ------------------------------------------------------------------ Start
    @app.get("/", response_class=HTMLResponse)
    async def start(request: HttpRequest):
        return page(request, "start.html", games=_catalogue(), saved=store.list(), random_seed=random.randrange(1, 10 ** 6))

    @app.post("/games")
    async def new_game(request: HttpRequest):
        data = await _form(request)
        game, setup, seed, controllers = _setup_from(data)
        game_id = live_games.new(game, setup, seed, controllers)
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    # ------------------------------------------------------------------ Play
    @app.get("/games/{game_id}", response_class=HTMLResponse)
    async def play(request: HttpRequest, game_id: int):
        with live_games.lock:
            live = live_games.live(game_id)
            return page(request, "play.html", **_play_context(live))

    @app.post("/games/{game_id}/answer")
    async def answer(request: HttpRequest, game_id: int):
        data = await _form(request)
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
                    live_games.answer(game_id, asked.seq, values, _values_text(values))
                except Refused as exc:
                    if exc.status != 422:
                        raise
                    context = _play_context(live)
                    context.update(error=str(exc), error_rule=exc.rule, values=values)
                    return page(request, "play.html", 422, **context)
            else:
                raise Refused(400, "the form holds no answer (no option was chosen)")
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    @app.post("/games/{game_id}/check", response_class=HTMLResponse)
    async def check(request: HttpRequest, game_id: int):
        """The form's fields re-drawn for the values typed so far, with the server's verdict (htmx)."""
        data = await _form(request)
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
                q=live.request, fields=_fields(live.request, values), checked=True, verdict=verdict,
                rule=rule, summary=rules.summary(rule) if rule else None, game_id=game_id)
        return HTMLResponse(html)

    @app.post("/games/{game_id}/undo")
    async def undo(request: HttpRequest, game_id: int):
        data = await _form(request)
        live_games.undo(game_id, data.get("seq"), data.get("keep"))
        return RedirectResponse(f"/games/{game_id}", status_code=303)

    @app.get("/games/{game_id}/save")
    async def download_save(game_id: int):
        with live_games.lock:
            live = live_games.live(game_id)
            info = registry.info(live.row.game)
            save = match_save(live.match, info.engine_version)
        return Response(json.dumps(save.model_dump(mode="json"), indent=1), media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{live.row.game}-{game_id}.save"'})

    # ------------------------------------------------------------------ rule summaries
    @app.get("/rules/{rule_id}", response_class=HTMLResponse)
    async def rule(request: HttpRequest, rule_id: str):
        summary = rules.summary(rule_id)
        if request.headers.get("HX-Request"):
            return HTMLResponse(templates.get_template("_rule.html").render(rule=rule_id, summary=summary),
                                status_code=200 if summary else 404)
        return page(request, "rule.html", 200 if summary else 404, rule=rule_id, summary=summary)

    # ------------------------------------------------------------------ Watch
    @app.get("/watch", response_class=HTMLResponse)
    async def watch_start(request: HttpRequest):
        return page(request, "watch_start.html", games=_catalogue(), random_seed=random.randrange(1, 10 ** 6))

    @app.post("/watch")
    async def watch_new(request: HttpRequest):
        data = await _form(request)
        game, setup, seed, controllers = _setup_from(data)
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
        form = await request.form(max_files=1, max_fields=10)
        upload = form.get("log")
        if upload is None or not hasattr(upload, "read"):
            raise Refused(400, "choose a log file written by 'paperrobot battle --log'")
        blob = await upload.read(20_000_001)
        try:
            text = blob.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, f"{upload.filename}: not a text file; is this a log written by 'battle --log'?") from None
        name = Path(upload.filename or "log").name[:80]
        battle = log_battle(text, name)
        watch_id = store.create_watch(battle.game, {}, 0, {}, text, name)
        battles.cache[watch_id] = battle
        return RedirectResponse(f"/watch/{watch_id}", status_code=303)

    def battle_of(watch_id: int):
        row = store.get_watch(watch_id) if 0 < watch_id < 2 ** 63 else None
        if row is None:
            raise Refused(404, f"there is no battle {watch_id} in this database", title="No such battle")
        if row.log is not None:
            return row, battles.get(watch_id, lambda: log_battle(row.log, row.name))
        return row, battles.get(watch_id, lambda: play_battle(row.game, row.setup, row.seed, row.controllers))

    def frame_context(watch_id: int, step: Any, turn: Any, playing: Any) -> dict:
        row, battle = battle_of(watch_id)
        last = len(battle.frames) - 1
        number = _int(step, 0)
        if turn not in (None, ""):
            number = battle.frame_of_turn(_int(turn, 0))
        number = min(max(number, 0), last)
        frame = battle.frames[number]
        view = next((f.view for f in reversed(battle.frames[: number + 1]) if f.view is not None), None)
        pic = maps.picture(battle.game, view, frame.side) if battle.has_views else maps.Picture()
        narrate = _narrator(battle.game)
        entries = [_event_entry(e, narrate) for e in battle.events[: frame.events]]
        entries = [e for e in entries if e][-LOG_SHOWN:]
        speed = min(max(_int(playing, 0), 0), 100)  # frames per tick while playing
        return dict(watch_id=watch_id, battle=battle, frame=frame, step=number, last=last, picture=pic,
                    entries=list(reversed(entries)), playing=speed if number < last else 0, row=row,
                    fast=max(5, last // 100))

    @app.get("/watch/{watch_id}", response_class=HTMLResponse)
    async def watch(request: HttpRequest, watch_id: int, step: str = "0", turn: str = "", play: str = ""):
        return page(request, "watch.html", **frame_context(watch_id, step, turn, play))

    @app.get("/watch/{watch_id}/frame", response_class=HTMLResponse)
    async def watch_frame(request: HttpRequest, watch_id: int, step: str = "0", turn: str = "", play: str = ""):
        context = frame_context(watch_id, step, turn, play)
        return HTMLResponse(templates.get_template("_frame.html").render(**context))

    # ------------------------------------------------------------------ Results
    @app.get("/results", response_class=HTMLResponse)
    async def results(request: HttpRequest, path: str = ""):
        runs, sweeps, error = None, None, ""
        if path:
            try:
                folder = sweep_folder(path)
                if folder is not None:  # a balance --out folder (or its balance.sqlite): the sweeps' reports
                    sweeps = open_sweeps(folder)
                else:
                    runs = open_results(path)
            except PaperRobotError as exc:
                error = str(exc)
        return page(request, "results.html", 200 if not error else 400, path=path, runs=runs, sweeps=sweeps,
                    error=error)

    @app.get("/results/plot.svg")
    async def sweep_plot(path: str, name: str):
        folder = sweep_folder(path)
        if folder is None:
            raise PaperRobotError(f"{path[:200]}: not a folder of balance reports")
        svg = await run_in_threadpool(sweep_svg, folder, name)  # matplotlib: off the event loop
        # drawn here, but an image all the same: no scripts, no sniffing
        return Response(svg, media_type="image/svg+xml", headers={
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
            "X-Content-Type-Options": "nosniff"})

    # ------------------------------------------------------------------ helpers needing the templates
    def _play_context(live: Live) -> dict:
        row = live.row
        info = registry.info(row.game)
        request = live.request
        person = request.side if request is not None else next(
            (s for s, w in row.controllers.items() if w == "person"), "")
        pic = maps.picture(row.game, live.view, person)
        return dict(live=live, row=row, info=info, q=request, picture=pic, log=_log_entries(live),
                    fields=_fields(request, None) if request is not None and request.form is not None else [],
                    error="", error_rule="", summary=None, answers=len(live.match.answers),
                    outcome=row.outcome if request is None else None)

    return app


# ---------------------------------------------------------------------- forms in, values out
async def _same_origin(request: HttpRequest) -> None:  # async: no thread per request
    """A POST from a page of another site is refused before anything is read or changed (web/origin.py)."""
    reason = cross_site(request.method, request.headers)
    if reason:
        raise Refused(403, f"{reason}; nothing was changed. Open the game from this page's own address.")


async def _form(request: HttpRequest) -> Any:
    try:
        return await request.form(max_files=0, max_fields=MAX_FORM_FIELDS)
    except Exception:
        raise Refused(400, "the form could not be read (too many fields, or not a form)") from None


def _int(text: Any, default: int) -> int:
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return default


def _setup_from(data) -> tuple[str, dict, int | None, dict]:
    """(game, set-up options, seed or None for random, side -> who) from a Start or Watch form."""
    game = str(data.get("game", ""))
    info = registry.info(game)
    setup = {}
    for option in info.options:
        raw = data.get(f"o.{option.name}")
        if raw is None or raw == "":
            if option.kind == "bool" and f"o.{option.name}" not in data and f"b.{option.name}" in data:
                setup[option.name] = False
            continue
        setup[option.name] = raw if option.kind != "bool" else raw in ("on", "yes", "true", "1")
    seed_text = str(data.get("seed", "")).strip()
    if data.get("random_seed") or not seed_text:
        seed = None
    else:
        seed = _int(seed_text, -1)
        if seed < 0 or seed >= 2 ** 63 or not seed_text.isdigit():
            raise Refused(400, f"the seed must be a whole number from 0 to 2**63-1, not '{seed_text[:30]}'")
    controllers = {side: str(data.get(f"side.{side}")) for side in info.sides if data.get(f"side.{side}")}
    return game, setup, seed, controllers


def form_values(request, data) -> dict:
    """A form's values from the posted fields ``f.<name>`` (typed back to the legal values they name)."""
    values: dict[str, Any] = {}
    for field in request.form.fields:
        raws = [str(r) for r in data.getlist(f"f.{field.name}")]
        try:
            legal = request.form.choices(field.name, values)
        except Exception:
            legal = ()
        if field.multi:
            items = [p.strip() for raw in raws for p in raw.split(",") if p.strip()]
            values[field.name] = [_typed(item, legal) for item in items[:100]]
        else:
            raw = raws[0].strip() if raws else ""
            values[field.name] = _typed(raw, legal) if raw != "" else None
    return values


def _typed(text: str, legal: tuple) -> Any:
    for value in legal:
        if str(value) == text:
            return value
    if text.lstrip("-").isdigit() and len(text) < 12:
        return int(text)
    try:
        number = float(text) if len(text) < 24 else None
    except ValueError:
        number = None
    if number is not None and number == number and abs(number) < 1e12:
        return number
    return text[:200]


def _values_text(values: dict) -> str:
    return ", ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in values.items())


def _fields(request, values: dict | None) -> list[dict]:
    """Each field of a request's form: its value (typed, or the default), its legal values given the earlier ones."""
    if request is None or request.form is None:
        return []
    if values is None:
        default = request.default
        if isinstance(default, str) and request.option(default) is not None:
            default = request.option(default).value
        values = dict(default) if isinstance(default, dict) else {}
    out, earlier = [], {}
    for field in request.form.fields:
        try:
            legal = list(request.form.choices(field.name, earlier))
        except Exception:
            legal = []
        value = values.get(field.name)
        earlier[field.name] = value
        if field.multi:
            chosen = value if isinstance(value, list) else []
            widget = "checks" if 0 < len(legal) <= 24 else "text"
            shown = ",".join(str(v) for v in chosen)
        else:
            chosen = [value]
            widget = "select" if 0 < len(legal) <= 40 and (value in legal or value is None) else "text"
            shown = "" if value is None else str(value)
        out.append(dict(name=field.name, label=field.label, multi=field.multi, legal=[str(v) for v in legal[:60]],
                        more=max(0, len(legal) - 60), chosen=[str(v) for v in chosen if v is not None],
                        shown=shown, widget=widget))
    return out


# ---------------------------------------------------------------------- the registry, for the forms
def _catalogue() -> list[dict]:
    out = []
    for name in game_names():
        info = game_info(name)
        options = []
        for option in info.options:
            data = option.to_json()
            data["choices"] = [str(c) for c in data.get("choices", [])]
            data["suggest"] = []
            if option.kind == "text" and option.name.endswith("ship"):
                data["suggest"] = _safe_list(info.ships)
            elif option.kind == "text" and option.name == "scenario":
                data["suggest"] = _safe_list(info.scenarios)
            if option.name == "handicap":  # the measured even points, as the suggested difficulty
                from ..sim.even_points import listing
                data["help"] += f". Measured even points: {listing(name)}"
            data["more"] = option.kind == "text" and not option.default and not data["suggest"]  # paths: tucked away
            options.append(data)
        out.append(dict(name=name, title=info.title, sides=list(info.sides), robot_side=info.robot_side,
                        options=options, who=WHO))
    return out


def _safe_list(source) -> list[str]:
    try:
        return [str(x) for x in source()][:200]
    except Exception:
        return []


# ---------------------------------------------------------------------- the log beside the map
def _narrator(game: str):
    try:
        narrator = registry.info(game).narrator()
    except Exception:
        narrator = None
    line = getattr(narrator, "line", None)
    return line if callable(line) else generic_line


def _event_entry(event, narrate) -> dict | None:
    """One log line, rendered once (events never change): a robot decision with its rule link and dice, or the
    narrator's sentence."""
    when = stamp(event)
    side = escape(event.side)
    if event.kind == "decision":
        rolls = event.data.get("rolls") or []
        dice = "; ".join(f"{'coin' if r[0] == 2 else 'd' + str(r[0])}={r[1]} {r[2]}" for r in rolls
                         if isinstance(r, (list, tuple)) and len(r) >= 3)
        rule = escape(str(event.data.get("rule", "")))
        html = (f'<li class="decision side-{side}"><span class="stamp">{escape(when)}</span> {side} '
                f'<a class="rule" href="/rules/{rule}" hx-get="/rules/{rule}" hx-target="#rule-panel">{rule}</a> '
                f'{escape(str(event.data.get("text", "")))}'
                + (f' <span class="dice">(dice: {escape(dice)})</span>' if dice else "") + "</li>")
        return dict(type="decision", html=Markup(html))
    try:
        text = narrate(event)
    except Exception:
        text = generic_line(event)
    if not text:
        return None
    if text.startswith(when + " "):  # the narrator stamped it already
        text = text[len(when) + 1:]
    html = (f'<li class="event {escape(event.kind)}"><span class="stamp">{escape(when)}</span> {escape(text)}</li>')
    return dict(type="event", html=Markup(html))


def _log_entries(live: Live) -> list[dict]:
    """The log, newest first: events narrated, robot decisions with rule and dice, the person's answers (undo points)."""
    narrate = _narrator(live.row.game)
    events = live.log.events
    cache = live.narrated
    if len(cache) > len(events):  # cannot happen (a rebuilt game has a fresh Live); stay safe
        cache.clear()
    for event in events[len(cache):]:
        cache.append(_event_entry(event, narrate))
    marks = live.marks
    answers = live.match.answers
    out: list[dict] = []
    n = 0
    for index in range(len(events) + 1):
        while n < len(marks) and marks[n] == index:
            seq, kind, side, answer = answers[n]
            label = live.labels[n] if n < len(live.labels) and live.labels[n] else _short(answer)
            out.append(dict(type="answer", n=n + 1, seq=seq, kind=kind, side=side, text=label))
            n += 1
        if index < len(events):
            entry = cache[index]
            if entry:
                out.append(entry)
    out = out[-LOG_SHOWN:]
    out.reverse()
    return out


def _short(answer: Any) -> str:
    text = answer if isinstance(answer, str) else json.dumps(answer)
    return text if len(text) <= 80 else text[:77] + "..."
