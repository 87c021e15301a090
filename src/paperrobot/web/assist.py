"""Table-assistant sessions for the web page (no HTTP here; the pages are web/assist_pages.py).

An SFB or FC session is a stored game of mode "assist": the full engine, the robot side flown by the seed's
robot, the person's side answered through the game's registered ``assistant`` (``auto``, ``question``,
``instruction``, ``before``, ``status``; the same object ``paperrobot assist sfb|fc`` drives). Answers the
assistant gives without asking are stored like the person's (labelled ``auto:``), so a session is rebuilt
by replaying its answers exactly as a played game is (web/live.py), after a restart too. Asides (``roll``,
``fix``) are answers of their own (the contract's ``{"@roll": [...]}``, ``{"@fix": {...}}``).

A game's assistant may be of another shape, asked questions by the person (Armada's: the game's front-end hook
``question_assistant``, core/frontend.py): such a session is a game row whose answers are the lines the person
typed, replayed in order on a fresh assistant (its dice follow from the seed and the count of questions, so the
replay is exact). No game is imported here: the assistants come from the registry.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ..core import registry
from ..core.contract import DICE_SOURCES
from ..core.errors import PaperRobotError
from ..core.frontend import frontend_of
from ..core.robot_rules import OPTION as RULES
from .live import AUTO, Games, Live, Refused, damaged, end_view
from .store import DamagedRow



@dataclass
class AssistLive(Live):
    assistant: Any = None
    since: int = 0                                  # events before the person's last answer: the instructions
    before: list = field(default_factory=list)     # the assistant's lines due before the open question
    before_seq: int = -1

    def question(self):
        """The open question in table words (None: the request as the contract gives it)."""
        if self.request is None:
            return None
        return self.assistant.question(self.request)


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

    def _rebuild(self, row, keep: int | None = None) -> AssistLive:
        if registry.info(row.game).assistant is None:
            raise Refused(404, f"{row.game} has no table assistant here", title="No such assistant")
        return super()._rebuild(row, keep)

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


# ---------------------------------------------------------------------- assistants asked questions (Armada's)
def question_assistant(game: str):
    """The game's assistant that the person asks questions of (its front-end hook), or None."""
    if game not in registry.registered():
        return None
    return frontend_of(registry.info(game)).question_assistant


def question_games() -> list[str]:
    """The registered games whose table assistant is asked questions."""
    return sorted(name for name in registry.registered() if question_assistant(name) is not None)


@dataclass
class ArmadaSession:
    row: Any
    assistant: Any
    outputs: list = field(default_factory=list)  # the AI's answer (lines) to the fleet, then to each question
    lines: list = field(default_factory=list)    # the questions asked, in order
    recorded: str = ""                            # what became of the ended session in the results file

    @property
    def ended(self) -> bool:
        return self.row.status == "finished"


class ArmadaAssists:
    """Sessions of an assistant asked questions (Armada's): the fleet and seed in the row, each question the person
    asked one stored answer."""

    def __init__(self, store, game: str = "armada"):
        self.store = store
        self.GAME = game
        self.cache: dict[int, ArmadaSession] = {}

    @property
    def asker(self):
        asker = question_assistant(self.GAME)
        if asker is None:
            raise Refused(404, f"{self.GAME} has no table assistant asked questions here", title="No such assistant")
        return asker

    def new_session(self, fleet: str, seed: int | None, robot_rules: str = "") -> int:
        """A new session of ``fleet``; ``robot_rules``: the stored upload of a variant of the AI's procedure
        (web/setup_files.py), its path kept in the session's set-up and read again when the session is rebuilt."""
        fleet = str(fleet).strip()[:500]
        if not fleet:
            raise Refused(400, f"name the AI fleet, e.g. '{self.asker.example.partition(' ')[2]}'")
        seed = random.randrange(0, 2 ** 31) if seed is None else seed
        try:
            self.asker.new(seed, self._rules(robot_rules)).new_fleet(fleet)
        except PaperRobotError as exc:
            raise Refused(400, str(exc)) from None
        info = registry.info(self.GAME)
        robot = info.robot_side
        who = {side: ("robot" if side == robot else "person") for side in info.sides}
        setup = {"fleet": fleet, **({RULES: robot_rules} if robot_rules else {})}
        game_id = self.store.create(self.GAME, setup, seed, who, 0, mode="assist")
        return game_id

    def _rules(self, path: str) -> str:
        """The text of a robot-rules file, checked ("" for none: the published procedure)."""
        if not path:
            return ""
        try:
            return str(registry.info(self.GAME).option(RULES).check(str(path)))
        except PaperRobotError as exc:
            raise PaperRobotError(f"robot rules: {exc}") from None

    def session(self, game_id: int) -> ArmadaSession:
        if game_id in self.cache:
            return self.cache[game_id]
        row = self.store.get(game_id) if 0 < game_id < 2 ** 63 else None
        if row is None or row.mode != "assist" or row.game != self.GAME:
            raise Refused(404, f"there is no Armada assistant session {game_id} in this database")
        try:
            if row.damaged:
                raise DamagedRow(f"session {game_id} is damaged in this database ({row.damaged})")
            lines = [a[3] for a in self.store.answers_with_labels(game_id)]
            if not isinstance(row.setup.get("fleet"), str) or not all(isinstance(line, str) for line in lines):
                raise DamagedRow(f"session {game_id} is damaged in this database (its fleet or a question is not text)")
        except DamagedRow as exc:
            raise damaged(game_id, str(exc)) from None
        try:
            assistant = self.asker.new(row.seed, self._rules(str(row.setup.get(RULES) or "")))
        except PaperRobotError as exc:
            raise Refused(409, f"session {game_id} cannot be resumed: {exc}", title="Cannot resume") from None
        session = ArmadaSession(row, assistant)
        session.outputs.append(assistant.new_fleet(row.setup["fleet"]))
        for line in lines:
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
        if session.ended:
            raise Refused(409, f"session {game_id} is over; nothing more can be asked (undoing a question reopens it)")
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

    def end(self, game_id: int, count: Any, winner: str | None) -> ArmadaSession:
        """The person ends the session, saying who won (``rebel``, ``imperial``, None for a draw): the program does
        not play Armada's table game, so this is its end; recording it is web/people.py's."""
        session = self.session(game_id)
        if str(count) != str(len(session.outputs) - 1):
            raise Refused(409, f"session {game_id} has moved on since this page was shown (another tab?); reload it")
        if session.ended:
            raise Refused(409, f"session {game_id} is over already")
        outcome = {"winner": winner, "result": "reported", "turns": session.assistant.state.round}
        self.store.set_status(game_id, "finished", outcome)
        session.row.status, session.row.outcome = "finished", outcome
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
