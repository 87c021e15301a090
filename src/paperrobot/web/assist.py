"""Table-assistant sessions for the web page (no HTTP here; the pages are web/assist_pages.py).

An SFB or FC session is a stored game of mode "assist": the full engine, the robot side flown by the seed's
robot, the person's side answered through the game's registered ``assistant`` (``auto``, ``question``,
``instruction``, ``before``, ``status``; the same object ``paperrobot assist sfb|fc`` drives). Answers the
assistant gives without asking are stored like the person's (labelled ``auto:``), so a session is rebuilt
by replaying its answers exactly as a played game is (web/live.py), after a restart too. Asides (``roll``,
``fix``) are answers of their own (the contract's ``{"@roll": [...]}``, ``{"@fix": {...}}``).

Armada's assistant is older and of another shape (the person asks, armada/assist.py answers): an Armada
session is a game row whose answers are the lines the person typed, replayed in order on a fresh
``armada.Assistant`` (its dice follow from the seed and the count of questions, so the replay is exact).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..core import registry
from ..core.contract import DICE_SOURCES
from ..core.errors import PaperRobotError
from .live import Games, Live, Refused, end_view

AUTO = "auto: "  # the label of an answer the assistant gave without asking


@dataclass
class AssistLive(Live):
    assistant: Any = None
    since: int = 0                                  # events before the person's last answer: the instructions
    before: list = field(default_factory=list)     # the assistant's lines due before the open question
    before_seq: int = -1
    notice: str = ""                                # what the last aside did (one line)

    def question(self):
        """The open question in table words (None: the request as the contract gives it)."""
        if self.request is None:
            return None
        return self.assistant.question(self.request)

    def given_without_asking(self, n: int) -> bool:
        """Was entry ``n`` (from 1) given by the program?"""
        return self.labels[n - 1].startswith(AUTO) if n <= len(self.labels) else False


class Assists(Games):
    """SFB and FC sessions: ``Games`` with the assistant answering what it can and wording the rest."""

    mode = "assist"
    live_type = AssistLive

    def new_session(self, game: str, setup: dict, seed: int | None, dice: str) -> int:
        info = registry.info(game)
        if info.assistant is None:
            raise Refused(404, f"{game} has no table assistant here", title="No such assistant")
        if dice not in DICE_SOURCES:
            raise Refused(400, f"the dice are 'program' or 'table', not '{str(dice)[:20]}'")
        checked = info.check_setup(setup)
        seed = random.randrange(0, 2 ** 31) if seed is None else seed
        registry.new_match(game, seed, None, dice=dice, **checked)  # refuses a bad seed before anything is stored
        who = {side: ("robot" if side == info.robot_side else "person") for side in info.sides}
        game_id = self.store.create(game, checked, seed, who, info.engine_version, mode="assist", dice=dice)
        with self.lock:
            self.live(game_id)
        return game_id

    holding = False  # True while undo rebuilds: the program's answers wait until the later ones are deleted

    def _rebuild(self, row, keep: int | None = None) -> AssistLive:
        if registry.info(row.game).assistant is None:
            raise Refused(404, f"{row.game} has no table assistant here", title="No such assistant")
        return super()._rebuild(row, keep)

    def undo(self, game_id: int, seq: Any, keep: Any) -> AssistLive:
        with self.lock:
            self.holding = True
            try:
                fresh = super().undo(game_id, seq, keep)
            finally:
                self.holding = False
            self._settle(fresh)
            return fresh

    def _settle(self, live: AssistLive) -> None:
        if self.holding:
            return
        if live.assistant is None:  # a rebuilt session: a fresh assistant; the instructions since the last answer
            live.assistant = registry.info(live.row.game).assistant()
            person = [n for n in range(1, len(live.labels) + 1)
                      if not live.given_without_asking(n) and not live.match.answers[n - 1][1].startswith("@")]
            live.since = live.marks[person[-1] - 1] if person else 0
        while live.request is not None:
            answer = live.assistant.auto(live.request)
            if answer is None:
                break
            live.pending_label = AUTO + _text(answer)
            asked = live.request
            try:
                live.request = live.steps.send(answer)
            except StopIteration:
                live.request = None
            if live.request is not None and live.request.seq == asked.seq:
                raise PaperRobotError(f"the assistant's own answer to {asked.kind} is refused: {live.request.error}")
            live.last = live.request or asked
        if live.request is not None and live.request.seq != live.before_seq:
            live.before_seq = live.request.seq
            live.before = list(live.assistant.before(live.match, live.request))
        super()._settle(live)

    # ------------------------------------------------------------------ the person's answers and asides
    def reply(self, game_id: int, seq: Any, text: str) -> AssistLive:
        """The person's typed answer to the open question, parsed by the assistant's question (or an option key)."""
        with self.lock:
            live = self.current(game_id, seq)
            question = live.question()
            text = str(text)[:500]
            try:
                if question is not None:
                    answer = question.parse(text)
                else:
                    answer = text.strip() or live.request.default
            except PaperRobotError as exc:
                raise Refused(422, str(exc)) from None
            since = len(live.log.events)
            self.answer(game_id, seq, answer, text.strip() or f"Enter: {_text(answer)}")
            live = self.live(game_id)
            live.since, live.notice = since, ""
            return live

    def aside(self, game_id: int, seq: Any, answer: dict, label: str) -> AssistLive:
        """A roll (``{"@roll": [4]}``) or a correction (``{"@fix": {...}}``) at the open question: stored before
        anything else happens; refused with the engine's one line (nothing stored) when it cannot be."""
        with self.lock:
            live = self.current(game_id, seq)
            live.pending_label = label
            asked = live.request
            try:
                request = live.steps.send(answer)
            except Exception:
                self.forget(game_id)
                raise
            live.request = request
            if request.error:
                message, request.error = request.error, ""
                raise Refused(422, message)
            live.notice = ("Next dice: " + ", ".join(map(str, answer["@roll"])) if "@roll" in answer
                           else "Corrected: " + ", ".join(f"{k}={v}" for k, v in answer["@fix"].items()))
            live.last = request or asked
            live.before_seq = request.seq  # the same question: its lines were told
            return live

    def word(self, game_id: int, seq: Any, word: str) -> AssistLive:
        """A word of the game's assistant ('disengage', 'accel', ...): noted for its next automatic answer."""
        with self.lock:
            live = self.current(game_id, seq)
            if word not in getattr(live.assistant, "words", {}):
                raise Refused(400, f"'{word[:20]}' is not a word of the {live.row.game} assistant")
            live.notice = live.assistant.word(word)
            return live

    def undo_last(self, game_id: int, seq: Any) -> AssistLive:
        """Take back the person's last answer (and the program's after it)."""
        with self.lock:
            live = self.live(game_id)
            mine = [n for n in range(1, len(live.match.answers) + 1) if not live.given_without_asking(n)]
            if not mine:
                raise Refused(400, "there is no answer of yours to take back")
            return self.undo(game_id, seq, mine[-1] - 1)

    def status(self, live: AssistLive) -> list[str]:
        return [line.strip() for line in live.assistant.status(live.match)]

    def person_side(self, live: AssistLive) -> str:
        return next((s for s, who in live.row.controllers.items() if who == "person"), "")

    def view(self, live: AssistLive) -> Any:
        if live.request is None:
            return end_view(live.match, self.person_side(live)) or live.view
        return live.view


def _text(answer: Any) -> str:
    if isinstance(answer, dict):
        return ", ".join(f"{k}={v}" for k, v in answer.items())
    return str(answer)


# ---------------------------------------------------------------------- Armada's assistant
@dataclass
class ArmadaSession:
    row: Any
    assistant: Any
    outputs: list = field(default_factory=list)  # the AI's answer (lines) to the fleet, then to each question
    lines: list = field(default_factory=list)    # the questions asked, in order


class ArmadaAssists:
    """Armada sessions: the fleet and seed in the row, each question the person asked one stored answer."""

    GAME = "armada"

    def __init__(self, store):
        self.store = store
        self.cache: dict[int, ArmadaSession] = {}

    def new_session(self, fleet: str, seed: int | None) -> int:
        from ..armada import Assistant
        from ..armada.assist import State
        fleet = str(fleet).strip()[:500]
        if not fleet:
            raise Refused(400, "name the AI fleet, e.g. 'victory-ii,gladiator-i,tie-fighter*4'")
        seed = random.randrange(0, 2 ** 31) if seed is None else seed
        try:
            Assistant(State(seed), None).new_fleet(fleet)
        except PaperRobotError as exc:
            raise Refused(400, str(exc)) from None
        game_id = self.store.create(self.GAME, {"fleet": fleet}, seed, {"imperial": "robot", "rebel": "person"},
                                    0, mode="assist")
        return game_id

    def session(self, game_id: int) -> ArmadaSession:
        from ..armada import Assistant
        from ..armada.assist import State
        if game_id in self.cache:
            return self.cache[game_id]
        row = self.store.get(game_id) if 0 < game_id < 2 ** 63 else None
        if row is None or row.mode != "assist" or row.game != self.GAME:
            raise Refused(404, f"there is no Armada assistant session {game_id} in this database")
        assistant = Assistant(State(row.seed), None)
        session = ArmadaSession(row, assistant)
        session.outputs.append(assistant.new_fleet(row.setup["fleet"]))
        for _, _, _, line, _ in self.store.answers_with_labels(game_id):
            try:
                session.outputs.append(assistant.ask_line(line))
                session.lines.append(line)
            except PaperRobotError as exc:
                raise Refused(409, f"session {game_id} cannot be resumed: '{line[:40]}' is refused ({exc})",
                              title="Cannot resume") from None
        self.cache[game_id] = session
        return session

    def ask(self, game_id: int, count: Any, line: str) -> ArmadaSession:
        """One question: answered, then stored (a refused one changes nothing and is not stored)."""
        session = self.session(game_id)
        if str(count) != str(len(session.outputs) - 1):
            raise Refused(409, f"session {game_id} has moved on since this page was shown (another tab?); reload it")
        line = str(line).strip()[:500]
        if not line:
            raise Refused(400, "type a question, e.g. 'style'")
        try:
            out = session.assistant.ask_line(line)
        except PaperRobotError as exc:
            raise Refused(422, str(exc)) from None
        n = len(session.outputs)
        self.store.add_answer(game_id, n, n, line.split()[0].lower(), "rebel", line, "")
        session.outputs.append(out)
        session.lines.append(line)
        return session

    def undo(self, game_id: int, count: Any, keep: Any) -> ArmadaSession:
        """Keep the first ``keep`` questions; the rest are taken back (replayed from the start)."""
        session = self.session(game_id)
        total = len(session.outputs) - 1
        if str(count) != str(total):
            raise Refused(409, f"session {game_id} has moved on since this page was shown; reload it")
        try:
            keep = int(keep)
        except (TypeError, ValueError):
            raise Refused(400, "say how many questions to keep (a whole number)") from None
        if not 0 <= keep < total:
            raise Refused(400, f"you can keep 0 to {total - 1} of the {total} questions" if total
                          else "there is nothing to take back yet")
        self.store.truncate(game_id, keep)
        self.cache.pop(game_id, None)
        return self.session(game_id)
