"""The assistant pages (/assist): the robot at your own table, on a phone. Sessions are kept by web/assist.py.

- ``/assist``: the games with a table assistant (the registry's ``assistant``: SFB, FC) and Armada's.
- ``/assist/{game}``: a new session's set-up (the registry's options, dice program|table; Armada: the fleet).
- ``/assist/{game}/{id}``: one session: what the robot did since your last answer (rule, dice, summary), the
  question in table words with its answer format, an answer box, your dice for the next roll, a correction,
  the robot's status, the numbered log with undo to any entry.
"""
from __future__ import annotations

import random
from typing import Any, Callable

from fastapi import FastAPI, Request as HttpRequest
from fastapi.responses import HTMLResponse, RedirectResponse
from markupsafe import Markup, escape

from .. import games as game_names
from ..core import registry
from ..core.errors import PaperRobotError
from ..core.narrate import stamp
from ..core.robot_rules import OPTION as RULES
from ..core.words import plain
from . import maps, rules, setup_files
from .assist import ArmadaAssists, Assists, AssistLive, question_assistant, question_games
from .live import Refused

SHOWN = 300  # instruction lines shown at most (a long robot impulse, a first question after many autos)


def assistant_games() -> list[str]:
    """The games with a page here: those whose registry entry has an ``assistant``, and those whose front-end hooks
    have an assistant asked questions (Armada's)."""
    names = [n for n in game_names() if registry.info(n).assistant is not None]
    return names + [n for n in question_games() if n not in names]


def _asked() -> str:
    """The game whose assistant is asked questions, as the start page's template names it ('' if none)."""
    return next(iter(question_games()), "")


def add_routes(app: FastAPI, page: Callable[..., HTMLResponse], read_form: Callable, setup_from: Callable,
               catalogue: Callable[[], list[dict]], store, capacity: int) -> None:
    sessions = Assists(store, capacity)
    askers: dict[str, ArmadaAssists] = {}

    def asked(game: str) -> ArmadaAssists | None:
        """The sessions of ``game``'s assistant asked questions, or None (its assistant is of the contract's shape)."""
        if question_assistant(game) is None:
            return None
        return askers.setdefault(game, ArmadaAssists(store, game))
    app.state.assists, app.state.question_assists, app.state.asked = sessions, askers, asked

    def known(game: str) -> str:
        if game not in assistant_games():
            raise Refused(404, f"there is no table assistant for '{game[:30]}'; the assistants are "
                               f"{', '.join(assistant_games()) or 'none'}", title="No such assistant")
        return game

    @app.get("/assist", response_class=HTMLResponse)
    async def assist_index(request: HttpRequest):
        listed = [g for g in catalogue() if g["name"] in assistant_games()]
        saved = [s for s in store.list() if s.mode == "assist"]
        return page(request, "assist_start.html", games=listed, saved=saved, random_seed=random.randrange(1, 10 ** 6),
                    armada=_asked(), questions=_armada_questions(_asked()))

    @app.get("/assist/{game}", response_class=HTMLResponse)
    async def assist_game_start(request: HttpRequest, game: str):
        known(game)
        listed = [g for g in catalogue() if g["name"] == game]
        saved = [s for s in store.list() if s.mode == "assist" and s.game == game]
        return page(request, "assist_start.html", games=listed, saved=saved, random_seed=random.randrange(1, 10 ** 6),
                    armada=_asked(), questions=_armada_questions(_asked()))

    @app.post("/assist/{game}")
    async def assist_new(request: HttpRequest, game: str):
        known(game)
        data = await read_form(request)
        armada = asked(game)
        if armada is not None:  # the form's set-up is the fleet, the seed and an uploaded robot-rules variant
            _, _, seed, _ = setup_from({"game": game, "seed": data.get("seed", ""),
                                        "random_seed": data.get("random_seed", "")})
            setup: dict = {}
            setup_files.path_options(data, setup, request.app.state.allow_paths, request.app.state.files)
            game_id = armada.new_session(str(data.get("fleet", "")), seed, str(setup.get(RULES) or ""))
        else:
            _, setup, seed, _ = setup_from(data)
            game_id = sessions.new_session(game, setup, seed, str(data.get("dice", "program")))
        return RedirectResponse(f"/assist/{game}/{game_id}", status_code=303)

    @app.get("/assist/{game}/{game_id}", response_class=HTMLResponse)
    async def assist_page(request: HttpRequest, game: str, game_id: int):
        known(game)
        armada = asked(game)
        if armada is not None:
            return page(request, "assist_armada.html", **_armada_context(armada.session(game_id), armada.asker))
        with sessions.lock:
            live = sessions.live(game_id)
            _same_game(live.row, game)
            return page(request, "assist.html", **_context(sessions, live))

    @app.post("/assist/{game}/{game_id}/answer")
    async def assist_answer(request: HttpRequest, game: str, game_id: int):
        known(game)
        data = await read_form(request)
        armada = asked(game)
        if armada is not None:
            try:
                armada.ask(game_id, data.get("count"), _armada_line(data))
            except Refused as exc:
                if exc.status != 422:
                    raise
                context = _armada_context(armada.session(game_id), armada.asker)
                context.update(error=str(exc), typed=_armada_line(data))
                return page(request, "assist_armada.html", 422, **context)
            return RedirectResponse(f"/assist/{game}/{game_id}", status_code=303)
        with sessions.lock:
            _same_game(sessions.live(game_id).row, game)
            action = str(data.get("action", "answer"))
            try:
                if action == "roll":
                    values = str(data.get("roll", "")).replace(",", " ").split()
                    if not values or not all(v.isascii() and v.isdigit() and len(v) < 4 for v in values):
                        raise Refused(422, "type the value you rolled, e.g. 4 (several dice: 3 6)")
                    sessions.aside(game_id, data.get("seq"), {"@roll": [int(v) for v in values]},
                                   "roll " + " ".join(values))
                elif action == "fix":
                    text = str(data.get("fix", ""))[:500]
                    try:
                        fix = parse_fix(text)
                    except PaperRobotError as exc:
                        raise Refused(422, str(exc)) from None
                    sessions.aside(game_id, data.get("seq"), {"@fix": fix}, "fix " + text.strip())
                elif action == "word":
                    sessions.word(game_id, data.get("seq"), str(data.get("word", "")))
                else:
                    sessions.reply(game_id, data.get("seq"), str(data.get("answer", "")))
            except Refused as exc:
                if exc.status != 422:
                    raise
                live = sessions.live(game_id)
                context = _context(sessions, live)
                context.update(error=str(exc), error_rule=exc.rule, typed=data.get(action if action != "answer"
                                                                                     else "answer", ""),
                               error_for=action)
                return page(request, "assist.html", 422, **context)
        return RedirectResponse(f"/assist/{game}/{game_id}", status_code=303)

    @app.post("/assist/{game}/{game_id}/undo")
    async def assist_undo(request: HttpRequest, game: str, game_id: int):
        known(game)
        data = await read_form(request)
        armada = asked(game)
        if armada is not None:
            armada.undo(game_id, data.get("count"), data.get("keep"))
        else:
            with sessions.lock:
                _same_game(sessions.live(game_id).row, game)
                if data.get("keep") in (None, ""):
                    sessions.undo_last(game_id, data.get("seq"))
                else:
                    sessions.undo(game_id, data.get("seq"), data.get("keep"))
        return RedirectResponse(f"/assist/{game}/{game_id}", status_code=303)


def _same_game(row, game: str) -> None:
    if row.game != game:
        raise Refused(404, f"session {row.id} is a {row.game} session: open /assist/{row.game}/{row.id}")


def parse_fix(text: str) -> dict:
    """``name=value ...`` of a correction (the engine's ``fix`` checks the names and values)."""
    out: dict[str, Any] = {}
    for part in text.split():
        name, sep, raw = part.partition("=")
        if not sep or not name or not raw:
            raise PaperRobotError(f"'{part[:40]}' is not name=value; e.g. hex=2215 facing=C")
        out[name] = raw if raw[:1] == "0" and len(raw) > 1 or not _number(raw) else int(raw)
    if not out:
        raise PaperRobotError("say what to correct, e.g. hex=2215 facing=C")
    return out


def _number(text: str) -> bool:
    return text.isascii() and text.lstrip("-").isdigit() and len(text) < 10


# ---------------------------------------------------------------------- what a session page shows
def _context(sessions: Assists, live: AssistLive) -> dict:
    row = live.row
    info = registry.info(row.game)
    question = live.question()
    request = live.request
    assistant = live.assistant
    instructions = [_instruction(e, assistant) for e in live.log.events[live.since:]]
    instructions = [i for i in instructions if i][-SHOWN:]
    before = [Markup(f"<li class=\"event before\">{escape(line)}</li>") for line in live.before] if request else []
    options = []
    if request is not None and question is None and request.options:
        options = [(o.key, o.label) for o in request.options]
    picture = maps.picture(row.game, sessions.view(live), sessions.person_side(live))
    return dict(row=row, info=info, live=live, q=request, question=question, options=options,
                instructions=instructions + before, robot_status=sessions.status(live), picture=picture,
                robot_sheets=[t for t in picture.status if t.title.split(":")[0] == info.robot_side],
                log=_numbered(live), words=getattr(assistant, "words", {}), notice=live.notice,
                error="", error_rule="", error_for="", typed="", outcome=row.outcome if request is None else None,
                mine=any(not live.given_without_asking(n) for n in range(1, len(live.match.answers) + 1)))


def _instruction(event, assistant) -> Markup | None:
    """One line of what the robot did: a decision with its rule (linked, with the summary), sentence and dice;
    other events in the assistant's table words."""
    try:
        text = assistant.instruction(event)
    except Exception:  # one odd event never stops the page
        text = None
    if not text:
        return None
    when = escape(stamp(event))
    if event.kind == "decision":
        d = event.data
        rule = str(d.get("rule", "?"))
        dice = "; ".join(f"{'coin' if r[0] == 2 else 'd' + str(r[0])}={r[1]} ({r[2]})" for r in d.get("rolls") or []
                         if isinstance(r, (list, tuple)) and len(r) >= 3)
        found = rules.summary(rule)
        summary = (f'<details class="summary"><summary>{escape(found["id"])} {escape(found["title"])}</summary>'
                   f'{escape(found["summary"])}</details>') if found else ""
        who = escape(str(d.get("ship", "")))
        return Markup(f'<li class="decision"><span class="stamp">{when}</span> ROBOT {who} '
                      f'<a class="rule" href="/rules/{escape(rule)}">{escape(rule)}</a> {escape(plain(str(d.get("text", ""))))}'
                      + (f' <span class="dice">dice: {escape(dice)}</span>' if dice else "") + summary + "</li>")
    line = text.split("\n")[0]
    if line.startswith(stamp(event) + " "):
        line = line[len(stamp(event)) + 1:]
    word = line.split(" ", 1)[0]
    kind = word.lower() if word in ("MOVE", "MARK", "PLACE", "REMOVE", "ROBOT") else "event"
    return Markup(f'<li class="event {kind}"><span class="stamp">{when}</span> {escape(line)}</li>')


def _numbered(live: AssistLive) -> list[dict]:
    """The log's entries, newest first: the person's answers, rolls and corrections (numbered as stored; the
    program's own answers keep their numbers and are not listed)."""
    out = []
    for n, (seq, kind, side, answer) in enumerate(live.match.answers, 1):
        if live.given_without_asking(n):
            continue
        label = live.labels[n - 1] if n <= len(live.labels) else ""
        out.append(dict(n=n, seq=seq, kind=kind.lstrip("@"), text=label or _short(answer)))
    out.reverse()
    return out


def _short(answer: Any) -> str:
    text = str(answer)
    return text if len(text) <= 80 else text[:77] + "..."


# ---------------------------------------------------------------------- Armada
def _armada_questions(game: str) -> list[tuple]:
    asker = question_assistant(game) if game else None
    return list(asker.questions) if asker is not None else []


def _armada_line(data) -> str:
    verb = str(data.get("verb", "")).strip()
    rest = str(data.get("args", "")).strip()
    return f"{verb} {rest}".strip()[:500]


def _armada_context(session, asker) -> dict:
    QUESTIONS = asker.questions
    forms = {verb: (form, rule, what) for verb, form, rule, what in QUESTIONS}
    entries = []
    for n, (line, out) in enumerate(zip([f"fleet {session.row.setup['fleet']}"] + session.lines, session.outputs)):
        entries.append(dict(n=n, line=line, lines=[_armada_line_html(x) for x in out]))
    latest = entries[-1]
    entries = list(reversed(entries[1:]))
    st = session.assistant.state
    if latest["n"] == 0:
        entries = []
    return dict(row=session.row, session=session, latest=latest, entries=entries, forms=forms,
                questions=QUESTIONS, robot_status=session.assistant.q_show([]), count=len(session.outputs) - 1,
                variant=session.assistant.variant(),
                next_verb=asker.next_question(st), error="", typed="")


def _armada_line_html(text: str) -> Markup:
    """An answer line of armada's assistant: 'RULE: sentence [dice]' gets its rule linked and summarised."""
    rule, sep, rest = text.partition(": ")
    if sep and rule.startswith("ARM.") and " " not in rule:
        found = rules.summary(rule)
        summary = (f'<details class="summary"><summary>{escape(found["id"])} {escape(found["title"])}</summary>'
                   f'{escape(found["summary"])}</details>') if found else ""
        body, dice = rest, ""
        if rest.endswith("]") and " [" in rest:
            body, _, dice = rest[:-1].rpartition(" [")
        return Markup(f'<li class="decision"><a class="rule" href="/rules/{escape(rule)}">{escape(rule)}</a> '
                      f'{escape(body)}' + (f' <span class="dice">dice: {escape(dice)}</span>' if dice else "")
                      + summary + "</li>")
    return Markup(f'<li class="event">{escape(text)}</li>')
