"""``paperrobot assist GAME``: the robot at your own table, for every game whose registry entry has an
``assistant`` (sfb/assist.py, fc/assist.py); a game whose assistant is asked questions instead (Armada's) is
cli/questions.py.

The person keeps the map and their own ship; the program runs the full engine, flies the robot and keeps its
sheet. Before each question it prints what the robot did since the last one (counter, fire, boxes to mark, with
rule ID, dice and the rule's summary), then asks in table words with the expected answer shown. The session is
one versioned save file (``--state``), written after every answer: the same command resumes it. ``log`` lists
the numbered entries (answers, rolls, corrections), ``undo`` takes back the last answer and ``undo N`` goes back
to entry N; ``fix`` corrects the robot's state, ``roll`` gives the next dice (docs/assistant.md). A finished
game is recorded in the person's results like one of ``play`` (``--no-record`` leaves it out).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

import paperrobot

from ..core import files, registry
from ..core.contract import DICE_SOURCES, Match, Request
from ..core.errors import PaperRobotError
from ..core.events import Event, EventLog
from ..core.frontend import frontend_of
from . import setup_flags
from .common import FORCE_HELP, NO_RECORD_HELP, check_outputs, check_resumed_rules, fail, program, say, typed
from .terminal import _UNDO, Front, TerminalPlay
from .verbs import GameGroup, make, option

LOG_HELP = ("'log' lists the numbered entries (your answers, rolls, corrections); 'undo' takes back your last answer, 'undo N' goes back to entry N (it is asked again); 'map' "
            "shows where the program has every counter.")


class AssistFront(Front):
    """The terminal hooks of an assistant session: the game's assistant answers, asks and instructs."""

    def __init__(self, assistant):
        self.assistant = assistant
        self.play: "AssistPlay | None" = None
        words = getattr(assistant, "words", {})
        self.help = LOG_HELP + "".join(f" '{w}': {text}." for w, text in words.items())

    def commands(self, match: Match) -> dict[str, Callable[[], None]]:
        out: dict[str, Callable[[], None]] = {"log": lambda: self.show_log(match), "map": lambda: self.show_map(match)}
        for word in getattr(self.assistant, "words", {}):
            out[word] = lambda word=word: say(self.assistant.word(word))
        return out

    def show_map(self, match: Match) -> None:
        for line in self.assistant.status(match):
            say(line)

    def show_log(self, match: Match) -> None:
        hidden = 0
        for number, (seq, kind, side, answer) in enumerate(match.answers, 1):
            if self.play is not None and self.play.given_without_asking([seq, kind]):
                hidden += 1  # given without asking: numbered, not shown (going back to one asks nothing)
                continue
            say(f"  {number:>4}. question {seq} {kind.lstrip('@')}: {_short(answer)}")
        if not match.answers:
            say("The log is empty: nothing answered yet.")
        elif hidden:
            say(f"  ({hidden} entries the program answered without asking are not shown; their numbers are skipped)")

    def before(self, match: Match, request: Request) -> None:
        for line in getattr(self.assistant, "before", lambda m, r: [])(match, request):
            say(line)

    game_asking = False  # the assistant asks what its game's robot rules need (sfb/assist.py, fc/assist.py)

    def auto(self, match: Match, request: Request) -> Any:
        return self.assistant.auto(request)

    def narrate(self, event: Event) -> str | None:
        return self.assistant.instruction(event)


def _short(answer: Any) -> str:
    if isinstance(answer, dict) and "@fix" in answer:
        return "fix " + " ".join(f"{k}={v}" for k, v in answer["@fix"].items())
    if isinstance(answer, dict) and "@roll" in answer:
        return "roll " + " ".join(map(str, answer["@roll"]))
    if isinstance(answer, dict):
        values = {k: v for k, v in answer.items() if v not in ("none", [], None)}
        text = " ".join(f"{k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in values.items())
        return text or "nothing"
    return str(answer)


class AssistPlay(TerminalPlay):
    """The terminal loop with questions in table words, a numbered log and 'undo N' to any entry of it."""

    recovery_kind = "assist"  # without --state: assist-<game>.save, apart from play's recovery file

    def __init__(self, game: str, front: AssistFront, new: Callable[[EventLog], Match], state: Path | None,
                 input_fn: Callable[[str], str] = typed, record: bool = False):
        self.last_line = ""

        def remembered(prompt: str) -> str:
            self.last_line = input_fn(prompt)
            return self.last_line
        resume = state if state is not None and state.exists() else None
        super().__init__(game, front, new, save_path=None if resume else state, resume=resume, input_fn=remembered,
                         record=record)
        front.play = self
        self.known_from = len(self.match.answers)  # entries before this were given in an earlier session
        self.probed: dict[int, bool] = {}

    def resume_hint(self) -> str:
        return f"{program()} assist {self.match.game} --state {self.save_path}"

    def given_without_asking(self, entry: list, index: int | None = None) -> bool:
        """Was this log entry answered by the program? Known for this session's answers; for answers replayed
        from the state file, the kinds the assistant always answers itself (``always_auto``), or, given the
        entry's ``index``, the assistant asked again at that point of a rebuilt match (undo only: it costs a
        replay)."""
        seq, kind = entry[0], entry[1]
        if kind.startswith("@") or kind == "roll":
            return False
        if seq in self.auto or kind in getattr(self.front.assistant, "always_auto", ()):
            return True
        if index is None or index >= self.known_from:
            return False
        if index not in self.probed:
            request = self.match.rebuild(index, EventLog(enabled=False)).resume[1]
            fresh = registry.info(self.match.game).assistant()  # auto() may note things: not the session's
            self.probed[index] = request is not None and fresh.auto(request) is not None
        return self.probed[index]

    def undo(self, count: int) -> None:
        if self.last_line.strip().lower() == "undo":  # the last answer the person gave
            index = len(self.match.answers) - 1
            while index >= 0 and self.given_without_asking(self.match.answers[index], index):
                index -= 1
            if index < 0:
                say("There is no answer of yours to take back.")
                return
            count = index + 1
        entries = len(self.match.answers)
        if count < 1 or count > entries:
            say(f"'undo N' goes back to entry N of the log: 1 to {entries} here ('log' lists them).")
            return
        self.quiet = True
        fresh = self.match.rebuild(count - 1, self._log())
        self._attach(fresh)
        self.steps, self.request = fresh.resume
        self.save(quiet=True)
        if self.last_line.strip().lower() == "undo":
            say(f"Took back entry {count} of the log (and the {entries - count} the program gave after it).")
        else:
            say(f"Back to entry {count} of the log; entries {count}-{entries} are taken back.")
        self._tell_open()

    def ask(self, request: Request) -> Any:
        question = self.front.assistant.question(request)
        if question is None:
            return super().ask(request)
        self.front.before(self.match, request)
        say(question.prompt)
        say(f"  [{question.form}]")
        self.refused(request)  # after the question asked again, as play says it
        while True:
            text = self.read(">")
            if text is _UNDO or isinstance(text, dict):
                return text
            try:
                return question.parse(text)
            except PaperRobotError as exc:
                say(f"Not understood: {exc}")


def run_assist(game: str, values: dict, seed: int, dice: str, state: Optional[Path], force: bool,
               no_record: bool = False, input_fn: Callable[[str], str] = typed) -> None:
    info = registry.info(game)
    if dice not in DICE_SOURCES:
        fail(f"--dice is 'program' (the program rolls) or 'table' (you type the rolls of your own dice), not "
             f"'{dice[:20]}'")
    setup = setup_flags.setup_of(info, frontend_of(info), values)
    resuming = state is not None and state.exists()
    if resuming:
        if not files.owned(state, "save"):
            fail(f"--state {state}: the file exists and is not a PaperRobot save; choose another --state file")
        check_outputs(force, save=state, resume=state)
        if setup.get("robot_rules"):  # a rules file given again must be the one the session was started with
            check_resumed_rules(game, state, setup["robot_rules"])
        if values:
            say(f"Resuming {state}: its own set-up is used (the set-up options given are ignored).")
    else:
        check_outputs(force, save=state)
        paperrobot.new_game(game, seed=seed, dice=dice, **setup)  # bad set-up fails before the first question
    assistant = info.assistant()
    front = AssistFront(assistant)

    def new(events: EventLog) -> Match:
        return paperrobot.new_game(game, seed=seed, log=events, dice=dice, **setup)

    session = AssistPlay(game, front, new, state, input_fn=input_fn, record=not no_record)
    say(f"{info.title}: the table assistant. You keep the map and your ship; the program flies the robot and keeps "
        f"its sheet. Dice: {'you roll them (type each roll)' if session.match.dice == 'table' else 'the program rolls'}"
        f". 'help' lists every word.")
    if session.resumed:
        say(f"Resumed {session.save_path}: {len(session.match.answers)} entries replayed.")
    for line in assistant.status(session.match):
        say(line)
    outcome = session.run()
    if outcome is None:
        return
    winner = "a draw" if outcome.winner is None else ("you win" if outcome.winner == "player" else "the robot wins")
    say(f"Game over: {winner} ({outcome.result}) after {outcome.turns} turns. The session is in {session.save_path}.")


def build(info):
    """``assist GAME`` for a game with a table assistant: the contract-shaped one (``GameInfo.assistant``), or the
    one the person asks questions of (the game's hooks' ``question_assistant``: cli/questions.py)."""
    hooks = frontend_of(info)
    if info.assistant is None:
        from .questions import build as questions
        return questions(info, hooks) if hooks.question_assistant is not None else None
    parameters = setup_flags.params(info, hooks) + [
        option("seed", 1, int, help="Seed of the program's dice."),
        option("dice", "program", str, help="program: the program rolls; table: you type every roll of your own "
                                            "dice ('roll 4' also works at any question)."),
        option("state", None, Optional[Path], help="The session's save file, written after every answer; give the "
                                                   "same file again to resume."),
        option("force", False, bool, help=FORCE_HELP),
        option("no_record", False, bool, "--no-record", help=NO_RECORD_HELP),
    ]

    def body(**kwargs):
        values = setup_flags.given(kwargs)
        run_assist(info.name, values, kwargs["seed"], kwargs["dice"], kwargs["state"], kwargs["force"],
                   kwargs["no_record"])
    return make(body, parameters, f"The {info.title} robot at your own table: it tells you what the robot does and "
                                  f"asks only what its rules need.")


class AssistGroup(GameGroup):
    build = staticmethod(build)

    @staticmethod
    def refusal(info) -> str:
        return f"{info.name} has no table assistant yet"
