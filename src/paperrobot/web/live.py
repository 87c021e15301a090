"""Games in progress, on the game contract, for the web page (no HTTP here: the benchmark and tests use it too).

A live game is a ``Match`` paused at the person's question (its generator and the open request) with an
event log for the page. Live games are kept in memory, at most ``capacity`` of them (least recently
used dropped first); a game not in memory (evicted, or after a restart) is rebuilt from the store by
replaying its answers. Every answer is written to the store by the match's listener, which the driver
calls after checking the answer and before the engine (and so the robot) resumes: an answer is on disk
before the next question exists.

Refusals never change a game: a stale question number (a second tab, the back button), an answer that
is not legal, a finished game or an unknown id raise ``Refused`` with an HTTP status and one line.
"""
from __future__ import annotations

import random
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core import registry
from ..core.asking import Asking, asking_for
from ..core.contract import Match, Request
from ..core.errors import IllegalAction, PaperRobotError
from ..core.events import EventLog
from .store import DamagedRow, GameRow, GameStore

WHO = ("person", "robot", "policy")
AUTO = "auto: "  # the label of an answer given for the person without asking (core/asking.py)


class Refused(PaperRobotError):
    """A request the page refuses, with the HTTP status to answer and, for illegal answers, the rule."""

    def __init__(self, status: int, message: str, rule: str = "", title: str = ""):
        self.status, self.rule, self.title = status, rule, title or _TITLES.get(status, "Refused")
        super().__init__(message)


_TITLES = {400: "Not understood", 403: "Refused: sent from another site", 404: "No such game", 409: "Out of date",
           422: "Not allowed"}


@dataclass
class Live:
    row: GameRow
    match: Match
    steps: Any
    request: Request | None
    log: EventLog
    marks: list[int] = field(default_factory=list)   # marks[n-1]: events logged before answer n
    labels: list[str] = field(default_factory=list)  # what the person saw for answer n
    last: Request | None = None                      # the last question asked (its view shows a finished game)
    persist: bool = False                            # False while answers are replayed
    pending_label: str = ""
    narrated: list = field(default_factory=list)     # the page's log entry of each event (None: not shown), cached
    asking: Asking | None = None                     # what the person is not asked (play mode; core/asking.py)
    notice: str = ""                                 # what the last word did (one line)
    recorded: str = ""                               # what became of the game in the results file (web/people.py)

    @property
    def finished(self) -> bool:
        return self.request is None

    def given_without_asking(self, n: int) -> bool:
        """Was answer ``n`` (from 1) given by the program?"""
        return self.labels[n - 1].startswith(AUTO) if n <= len(self.labels) else False

    def person_answers(self) -> list[int]:
        """The numbers (from 1) of the answers the person gave."""
        return [n for n in range(1, len(self.match.answers) + 1) if not self.given_without_asking(n)]

    shown_view: Any = None                           # the last view shown: for questions that carry none
    final_view: Any = None                           # the position as the game ended (end_view)

    @property
    def view(self) -> Any:
        """The view of the open question; a finished game's position as it ended (else the last question's);
        a question without a view shows the last view that was shown (a game may leave the view off
        questions such as 'disengage?')."""
        if self.request is None and self.final_view is not None:
            return self.final_view
        request = self.request or self.last
        view = None if request is None else request.view
        if view is None:
            return self.shown_view
        self.shown_view = view
        return view


def damaged(game_id: int, why: str) -> Refused:
    """The one refusal for a game whose stored rows cannot be read: what is damaged, that nothing changed, where
    its rows can be downloaded; every other game is unaffected."""
    return Refused(409, f"{why}; nothing was changed. Its stored rows can be downloaded from /games/{game_id}/save "
                        f"(a save file when they make one); your other games are not affected.", title="Damaged game")


def end_view(match: Match, side: str) -> Any:
    """What ``side`` sees as the game stands (at its end): the engine's ``view(side)``, which sfb, fc and armada
    offer; None for a game without one (the page then shows the last question's view)."""
    view = getattr(match.engine, "view", None)
    if not callable(view) or not side:
        return None
    try:
        return view(side)
    except Exception:  # a picture only: never let it stop the page
        return None


class Games:
    mode = "play"      # the rows of the store this keeps ("assist": web/assist.py's sessions)
    live_type = Live
    on_finish: Callable[[GameRow, Match], str] | None = None  # a game has just ended: record it (web/people.py)

    def __init__(self, store: GameStore, capacity: int = 64):
        self.store, self.capacity = store, max(1, capacity)
        self.cache: OrderedDict[int, Live] = OrderedDict()
        self.lock = threading.RLock()
        self.rebuilds = 0

    # ------------------------------------------------------------------ new games
    def new(self, game: str, setup: dict, seed: int | None, controllers: dict[str, str]) -> int:
        """Check the set-up and who flies each side, store the game, and play it to the person's first question."""
        info = registry.info(game)
        checked = info.check_setup(setup)
        if seed is None:
            seed = random.randrange(0, 2 ** 31)
        who = {}
        for side in info.sides:
            choice = controllers.get(side) or ("robot" if side == info.robot_side else "person")
            if choice not in WHO:
                raise Refused(400, f"side {side} is flown by one of: {', '.join(WHO)}, not '{str(choice)[:20]}'")
            who[side] = choice
        unknown = sorted(set(controllers) - set(info.sides))
        if unknown:
            raise Refused(400, f"'{unknown[0][:30]}' is not a side of {game}; the sides are {', '.join(info.sides)}")
        if "person" not in who.values():
            raise Refused(400, "nobody is left for you to fly: choose 'person' for at least one side "
                               "(to watch robots fight, use Watch)")
        registry.new_match(game, seed, None, **checked)  # refuses a bad seed before anything is stored
        game_id = self.store.create(game, checked, seed, who, info.engine_version)
        with self.lock:
            self.live(game_id)
        return game_id

    # ------------------------------------------------------------------ the cache
    def live(self, game_id: int) -> Live:
        with self.lock:
            if not isinstance(game_id, int) or not 0 < game_id < 2 ** 63:
                raise Refused(404, f"there is no game {str(game_id)[:30]} in this database")
            live = self.cache.get(game_id)
            if live is not None:
                self.cache.move_to_end(game_id)
                return live
            row = self.store.get(game_id)
            if row is None:
                raise Refused(404, f"there is no game {game_id} in this database")
            if row.mode != self.mode:
                where = f"/games/{game_id}" if row.mode == "play" else f"/assist/{row.game}/{game_id}"
                raise Refused(404, f"game {game_id} is not played on this page: open {where}")
            live = self._rebuild(row)
            self.cache[game_id] = live
            while len(self.cache) > self.capacity:
                self.cache.popitem(last=False)
            return live

    def forget(self, game_id: int) -> None:
        with self.lock:
            self.cache.pop(game_id, None)

    def _rebuild(self, row: GameRow, keep: int | None = None) -> Live:
        """Replay the stored answers (the first ``keep``) through a fresh engine."""
        self.rebuilds += 1
        if row.damaged:
            raise damaged(row.id, f"game {row.id} is damaged in this database ({row.damaged})")
        if row.status == "broken":
            raise Refused(409, f"game {row.id} cannot be resumed: {row.outcome}", title="Cannot resume")
        try:
            stored = self.store.answers_with_labels(row.id)
        except DamagedRow as exc:
            raise damaged(row.id, str(exc)) from None
        if keep is not None:
            stored = stored[:keep]
        log = EventLog()
        try:
            match = registry.new_match(row.game, row.seed, log, dice=row.dice, **row.setup)
        except PaperRobotError as exc:
            raise Refused(409, f"game {row.id} cannot be resumed: its set-up is refused ({exc})",
                          title="Cannot resume") from None
        match.checkpoints = True  # a hint copies the match from its last boundary, not from the start
        live = self.live_type(row, match, None, None, log)
        live.labels = [a[4] for a in stored]
        match.listeners = [lambda m, live=live: self._answered(live)]
        controllers = {side: (None if who == "person" else who) for side, who in row.controllers.items()}
        answers = [a[:4] for a in stored]
        try:
            if answers and answers[-1][1].startswith("@"):  # an aside (roll, fix) last: its question is still open
                live.steps, live.request = match.replay(answers, controllers)
                if live.request is None:
                    raise PaperRobotError("the game ended before its last stored answer")
            elif answers:
                steps, request = match.replay(answers[:-1], controllers)
                if request is None:
                    raise PaperRobotError("the game ended before its last stored answer")
                live.steps, live.last = steps, request
                try:
                    live.request = steps.send(answers[-1][3])
                except StopIteration:
                    live.request = None
                if live.request is not None and live.request.seq == request.seq:
                    raise PaperRobotError(f"the last stored answer is refused: {live.request.error}")
            else:
                live.steps = match.play(controllers)
                try:
                    live.request = next(live.steps)
                except StopIteration:
                    live.request = None
        except Refused:
            raise
        except Exception as exc:  # a changed engine, a damaged row: say so once, keep the row for inspection
            reason = f"{type(exc).__name__}: {exc}" if not isinstance(exc, PaperRobotError) else str(exc)
            self.store.set_status(row.id, "broken", reason[:500])
            raise Refused(409, f"game {row.id} cannot be resumed: {reason}", title="Cannot resume") from None
        if live.request is not None:
            live.last = live.request
        live.persist = True
        self._settle(live)
        return live

    def _answered(self, live: Live) -> None:
        """The match's listener: an answer has been checked; mark the log, and store it before the engine resumes."""
        live.marks.append(len(live.log.events))
        if live.persist:
            seq, kind, side, answer = live.match.answers[-1]
            n = len(live.match.answers)
            live.labels.append(live.pending_label)
            self.store.add_answer(live.row.id, n, seq, kind, side, answer, live.pending_label)

    holding = False  # True while undo rebuilds: answers given without asking wait until the later ones are deleted

    def _answer_for_person(self, live: Live) -> None:
        """Answer what the person need not be asked (core/asking.py: the terminal asks the same questions), each
        stored like the person's answers, labelled ``auto:``."""
        if live.asking is None:
            live.asking = asking_for(registry.info(live.row.game))
        while live.request is not None:
            answer = live.asking.auto(live.request)
            if answer is None:
                return
            option = live.request.option(answer) if isinstance(answer, str) else None
            live.pending_label = AUTO + (option.label if option is not None else str(answer))
            asked = live.request
            try:
                live.request = live.steps.send(answer)
            except StopIteration:
                live.request = None
            if live.request is not None and live.request.seq == asked.seq:
                raise PaperRobotError(f"the answer given for you to {asked.kind} is refused: {live.request.error}")
            live.last = live.request or asked

    def _settle(self, live: Live) -> None:
        if self.holding:
            return
        if self.mode == "play":
            self._answer_for_person(live)
        if live.request is None and live.final_view is None:
            person = next((s for s, who in live.row.controllers.items() if who == "person"), "")
            live.final_view = end_view(live.match, person or (live.last.side if live.last else ""))
        if live.request is None and live.row.status != "finished":
            outcome = live.match.outcome
            data = outcome.to_dict() if outcome is not None else {}
            self.store.set_status(live.row.id, "finished", data)
            live.row.status, live.row.outcome = "finished", data
            if self.on_finish is not None:
                live.recorded = self.on_finish(live.row, live.match)

    # ------------------------------------------------------------------ questions and answers
    def current(self, game_id: int, seq: Any) -> Live:
        """The live game whose open question is number ``seq``; Refused otherwise (nothing changes)."""
        live = self.live(game_id)
        try:
            number = int(seq)
        except (TypeError, ValueError):
            raise Refused(400, "the form has no valid question number (seq); reload the game's page") from None
        if live.request is None:
            raise Refused(409, f"game {game_id} is over; nothing more can be answered (undo reopens it)")
        if number != live.request.seq:
            raise Refused(409, f"question {number} of game {game_id} has already been answered (in another tab, or "
                               f"before you went back); the game is now at question {live.request.seq}. "
                               f"Reload the game's page to see it.")
        return live

    def check(self, live: Live, answer: Any) -> Any:
        """The engine's action for ``answer``, or Refused(422) with the rule it breaks."""
        try:
            return live.request.parse(answer)
        except IllegalAction as exc:
            raise Refused(422, str(exc), exc.rule) from None
        except PaperRobotError as exc:
            raise Refused(422, str(exc)) from None
        except Exception:  # a value of the wrong type that the engine's check did not expect
            raise Refused(422, f"that is not an answer to this {live.request.kind} question") from None

    def answer(self, game_id: int, seq: Any, answer: Any, label: str = "") -> Live:
        with self.lock:
            live = self.current(game_id, seq)
            self.check(live, answer)
            live.pending_label, live.notice = label, ""
            asked = live.request
            try:
                request = live.steps.send(answer)
            except StopIteration:
                request = None
            except Exception:
                self.forget(game_id)  # the generator is dead; the stored answers rebuild it (or mark it broken)
                raise
            if request is not None and request.seq == asked.seq:  # refused after all (cannot happen: checked)
                request.error = ""
                raise Refused(422, "that answer is not legal here")
            live.request = request
            live.last = request or asked
            self._settle(live)
            return live

    def undo(self, game_id: int, seq: Any, keep: Any) -> Live:
        """Take back answers: keep the first ``keep`` (0 = back to the start)."""
        with self.lock:
            live = self.live(game_id)
            if live.request is not None and str(seq) != str(live.request.seq):
                raise Refused(409, f"game {game_id} has moved on to question {live.request.seq} since this page "
                                   f"was shown; reload it before taking answers back")
            try:
                keep = int(keep)
            except (TypeError, ValueError):
                raise Refused(400, "say how many answers to keep (a whole number)") from None
            total = len(live.match.answers)
            if not 0 <= keep < total:
                raise Refused(400, f"you can keep 0 to {total - 1} of the {total} answers" if total
                              else "there is nothing to take back yet")
            self.holding = True
            try:
                fresh = self._rebuild(live.row, keep)
            finally:
                self.holding = False
            self.store.truncate(game_id, keep)
            fresh.row.status, fresh.row.outcome = "playing", None
            self._settle(fresh)
            self.cache[game_id] = fresh
            self.cache.move_to_end(game_id)
            return fresh

    def undo_last(self, game_id: int, seq: Any) -> Live:
        """Take back the person's last answer (and the answers given for them after it)."""
        with self.lock:
            mine = self.live(game_id).person_answers()
            if not mine:
                raise Refused(400, "there is no answer of yours to take back")
            return self.undo(game_id, seq, mine[-1] - 1)

    def word(self, game_id: int, seq: Any, word: str) -> Live:
        """A word of the game's ``Asking`` ('disengage'): noted for its next answer given without asking."""
        with self.lock:
            live = self.current(game_id, seq)
            if live.asking is None or word not in live.asking.words:
                raise Refused(400, f"'{str(word)[:20]}' is not a word of {live.row.game} here")
            live.notice = live.asking.word(word)
            return live
