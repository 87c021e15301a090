"""A person playing any registered game in the terminal, on the game contract.

One loop for every game: it shows each request (numbered options, or a form's fields with the suggested
values), reads the person's line, and sends the answer; an illegal answer comes back with the rule it
breaks and is asked again. The save (set-up, seed, answers) is written after every answer, to ``--save``
or to a recovery file that the next ``play`` offers to resume, so a crash or Ctrl-C loses nothing.
``undo [N]`` rebuilds the match without the last N answers. A game's front end adds what only it knows:
what to show before a request (map, status) and extra words such as ``map``.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, Callable

from ..core import registry
from ..core.asking import Asking, asking_for
from ..core.contract import Match, Request
from ..core.errors import PaperRobotError
from ..core.events import Event, EventLog
from ..core.outcome import Outcome
from ..core.save import load_match, match_save, write_match_save
from ..core.words import in_words
from . import choices
from .common import program, say, typed

COMMON_HELP = ("At any prompt: Enter takes the suggestion; 'save' writes the save file, 'undo' (or 'undo N') takes "
               "back your last answer (or N answers), 'roll 4' (or 'roll 3 6') makes the next dice the ones you "
               "rolled, 'fix name=value ...' corrects the game to match your table (where the game allows it), "
               "'hint' (or 'hint N') shows what the search player would answer, with its estimated win chance per "
               "answer (N simulations, default 50), 'quit' stops (the game is kept), 'help' shows this.")
HINT_SIMULATIONS = 50
MAX_LINE = 2000  # longer lines are refused unread: no answer in any game is that long


class Unasked(Asking):
    """For a front end that decides itself what is asked (the table assistants): nothing answered here."""

    def auto(self, request: Request) -> Any:
        return None


class QuitGame(Exception):
    """The person asked to stop (``quit`` or end of input)."""


class Front:
    """What one game's terminal front end adds to the loop; every hook is optional."""

    help = ""
    game_asking = True  # the game's own rules of what a person is not asked (core/asking.py); an assistant has its own

    def commands(self, match: Match) -> dict[str, Callable[[], None]]:
        return {}

    def before(self, match: Match, request: Request) -> None:
        """Show what the person needs for this request (map, status)."""

    def auto(self, match: Match, request: Request) -> Any:
        """An answer given without asking (e.g. 'no' to a question the person answers by a command); None asks."""
        return None

    def narrate(self, event: Event) -> str | None:
        return None


def recovery_path(game: str, kind: str = "recovery") -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "paperrobot"
    return base / f"{kind}-{game}.save"


class TerminalPlay:
    """Runs a match for a person at the terminal: a new one (``new(log)``), a save (``resume``), or the
    recovery file of an interrupted game if the person agrees."""

    recovery_kind = "recovery"  # the recovery file's name: <kind>-<game>.save

    def __init__(self, game: str, front: Front, new: Callable[[EventLog], Match], save_path: Path | None = None,
                 resume: Path | None = None, input_fn: Callable[[str], str] = typed, record: bool = False):
        self.front, self.input = front, input_fn
        self.record = record  # a finished game goes to the person's results file (sim/records.py)
        self.info = registry.info(game)
        # what the person is not asked (the web page asks the same: core/asking.py)
        self.asking = asking_for(self.info) if getattr(front, "game_asking", True) else Unasked()
        self.quiet = True  # no narration while answers are replayed
        self.auto: set[int] = set()  # numbers of the requests the front end answered without asking
        self.recovery = save_path is None and resume is None
        self.save_path = resume or save_path or recovery_path(game, self.recovery_kind)
        if self.recovery:
            try:
                self.save_path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise PaperRobotError(f"{self.save_path.parent}: cannot make the folder for the recovery file "
                                      f"({exc.strerror or exc}); give --save FILE") from None
        if resume is not None:
            match, self.steps, self.request = load_match(resume, game, self._log())
        elif self.recovery and self.save_path.exists() and self._resume_recovery():
            match, self.steps, self.request = load_match(self.save_path, game, self._log())
            say(f"Resumed the unfinished game from {self.save_path}.")
        else:
            match, self.steps, self.request = new(self._log()), None, None
        self.resumed = bool(match.answers)
        self._attach(match)

    def _resume_recovery(self) -> bool:
        try:
            answer = self.input(f"An unfinished {self.info.name} game was found ({self.save_path}); resume it? [Y/n] ")
        except EOFError:
            answer = "n"
        if answer.strip().lower() in ("", "y", "yes"):
            return True
        stamp, n = int(time.time()), 0
        kept = self.save_path.with_name(f"{self.save_path.stem}-{stamp}.save")
        while kept.exists() or kept.is_symlink():  # never over an earlier kept game (two in the same second)
            n += 1
            kept = self.save_path.with_name(f"{self.save_path.stem}-{stamp}-{n}.save")
        self.save_path.replace(kept)
        say(f"Starting a new game; the unfinished one is kept in {kept} (resume it with --resume).")
        return False

    def _log(self) -> EventLog:
        log = EventLog()
        log.listeners.append(self._show)
        return log

    def _attach(self, match: Match) -> None:
        self.match = match
        match.checkpoints = True  # a hint copies the match from its last boundary, not from the start
        match.listeners = [lambda m: self.save(quiet=True)]
        self.quiet = False

    def _show(self, event: Event) -> None:
        if self.quiet:
            return
        text = self.front.narrate(event)
        if text:
            say(text)

    # ------------------------------------------------------------------ saving
    def save(self, quiet: bool = False) -> None:
        write_match_save(self.save_path, match_save(self.match, self.info.engine_version))
        if not quiet:
            say(f"Saved to {self.save_path}; continue later with '{self.resume_hint()}'")

    def resume_hint(self) -> str:
        return f"{program()} play {self.match.game} --resume {self.save_path}"

    # ------------------------------------------------------------------ the loop
    def run(self) -> Outcome | None:
        if self.steps is None:
            self.steps = self.match.play()
            self.request = self._next(None)
        else:
            self._tell_open()
        try:
            while self.request is not None:
                answer = self.front.auto(self.match, self.request)
                if answer is None:
                    answer = self.asking.auto(self.request)
                if answer is not None:
                    self.refused(self.request)
                    self.auto.add(self.request.seq)
                else:
                    answer = self.ask(self.request)
                    if answer is _UNDO:
                        continue
                before = self.request.seq
                self.request = self._next(answer)
                if isinstance(answer, dict) and self.request is not None and self.request.seq == before \
                        and not self.request.error and ("@roll" in answer or "@fix" in answer):
                    say(f"Next dice: {', '.join(map(str, answer['@roll']))}." if "@roll" in answer else
                        "Corrected: " + ", ".join(f"{k}={v}" for k, v in answer["@fix"].items()) + ".")
        except (QuitGame, KeyboardInterrupt) as exc:
            say("")
            say(f"Stopped; the game is kept in {self.save_path}: resume it with '{self.resume_hint()}'."
                if self.match.answers else "Stopped.")
            if isinstance(exc, KeyboardInterrupt):
                raise
            return None
        if self.recovery and self.save_path.exists():
            self.save_path.unlink()  # a finished game needs no recovery
        if self.record and self.match.outcome is not None:
            self._record()
        return self.match.outcome

    def _record(self) -> None:
        """Keep the result for 'paperrobot rating'; a file that cannot be written costs a line, not the game."""
        from ..sim.records import record_match

        try:
            if record_match(self.match, self.info.engine_version) is not None:
                say("Recorded in your results (paperrobot rating; --no-record leaves a game out).")
        except PaperRobotError as exc:
            say(f"Not recorded: {exc}")

    def _next(self, answer: Any) -> Request | None:
        try:
            request = next(self.steps) if answer is None else self.steps.send(answer)
        except StopIteration:
            return None
        return request  # a refusal (request.error) is shown after the question is asked again (ask, refused)

    def _tell_open(self) -> None:
        """What the replay of a save said about the open question (a recorded roll dropped, a die to roll again)."""
        if self.request is not None and self.request.error:
            say(self.request.error[0].upper() + self.request.error[1:] + ".")
            self.told = _said(self.request)  # said: not again as a refusal when it is asked

    def undo(self, count: int) -> None:
        """Take back the person's last ``count`` answers, with the answers the front end gave without asking
        after them (they would only be given again)."""
        answers = self.match.answers
        asked = [i for i, answer in enumerate(answers) if answer[0] not in self.auto]
        if count < 1 or count > len(asked):
            say(f"You can take back 1 to {len(asked)} answers here.")
            return
        keep = asked[-count]
        self.quiet = True
        fresh = self.match.rebuild(keep, self._log())
        self._attach(fresh)
        self.steps, self.request = fresh.resume
        self.save(quiet=True)
        say(f"Took back {count} answer(s); you are at question {self.request.seq if self.request else '-'} again.")
        self._tell_open()

    # ------------------------------------------------------------------ one question
    told: tuple | None = None  # the open question whose error _tell_open has said

    def refused(self, request: Request) -> None:
        """Why the last answer was refused, said once the question has been asked again."""
        if request.error and _said(request) != self.told:
            say(f"Not allowed: {request.error}")

    def read(self, prompt: str) -> str | object:
        commands = self.front.commands(self.match)
        while True:
            try:
                text = self.input(prompt + " ")
            except EOFError:
                raise QuitGame("input ended") from None
            if len(text) > MAX_LINE:
                say(f"That line is {len(text)} characters long; no answer is longer than {MAX_LINE}.")
                continue
            text = text.strip()
            word, _, rest = text.lower().partition(" ")
            if word == "save":
                self.save()
            elif word in ("quit", "exit"):
                raise QuitGame("quit")
            elif word == "help":
                say(COMMON_HELP + (" " + self.front.help if self.front.help else ""))
            elif word == "hint":
                self.hint(rest.strip())
            elif word == "undo":
                count = rest.strip() or "1"
                if not count.isascii() or not count.isdigit() or len(count) > 6:
                    say("Type 'undo' or 'undo N' with N a whole number of answers.")
                    continue
                self.undo(int(count))
                return _UNDO
            elif word == "roll":
                values = rest.split()
                if not values or not all(v.isascii() and v.isdigit() and len(v) < 4 for v in values):
                    say("Type 'roll N' with the value you rolled (several dice: 'roll 3 6').")
                    continue
                return {"@roll": [int(v) for v in values]}
            elif word == "fix":
                try:
                    return {"@fix": parse_fix(text.partition(" ")[2])}
                except PaperRobotError as exc:
                    say(f"Not understood: {exc}")
            elif word in commands:
                commands[word]()
            elif word in self.asking.words:
                say(self.asking.word(word))
            else:
                return text

    def hint(self, arg: str) -> None:
        """What the search player would answer to the open question, with each answer's estimated win chance."""
        if self.match.dice == "table":
            say("Hints need the program's dice: the search looks ahead with dice of its own, and this game's dice "
                "are yours (start it without --dice table to get hints).")
            return
        if arg and not (arg.isascii() and arg.isdigit() and 1 <= int(arg) <= 5000):
            say("Type 'hint' or 'hint N' with N the simulations, 1 to 5000 (more is slower and surer).")
            return
        from ..sim.search import hint
        simulations = int(arg) if arg else HINT_SIMULATIONS
        for line in hint_lines(hint(self.match, self.request, simulations)):
            say(line)

    def ask(self, request: Request) -> Any:
        self.front.before(self.match, request)
        if request.prompt:
            say(request.prompt)
        if request.form is not None:
            return self.ask_form(request)
        for line in choices.option_lines(request):
            say(line)
        self.refused(request)
        text = self.read(choices.prompt(request))
        if isinstance(text, dict):
            return text
        if text is _UNDO or not text:
            return _UNDO if text is _UNDO else request.default
        return choices.choice(request, text)

    def ask_form(self, request: Request) -> Any:
        default = request.default
        if isinstance(default, str) and request.option(default) is not None:
            default = request.option(default).value
        values = dict(default) if isinstance(default, dict) else {}
        problem = f"Not allowed: {request.error}" if request.error and _said(request) != self.told else ""
        while True:
            for field in request.form.fields:
                say(f"  {field.name:>10} = {in_words(values.get(field.name))}    ({field.label})")
            if len(request.options) > 1:
                say("  presets: " + "; ".join(f"{n}. {o.label}" for n, o in enumerate(request.options, 1)))
            if problem:  # after the question it refers to, never above a reprint
                say(problem)
                problem = ""
            text = self.read("[Enter accepts; edit as name=value (several: name=a,b), or a preset number]:")
            if text is _UNDO or isinstance(text, dict):
                return text
            if not text:
                return values
            if text.isascii() and text.isdigit() and len(text) < 6 and 1 <= int(text) <= len(request.options):
                return request.options[int(text) - 1].key
            try:
                values = edit_values(request, values, text)
            except PaperRobotError as exc:
                problem = f"Not allowed: {exc}"


_UNDO = object()


def _said(request: Request) -> tuple:
    """Which question with which error (an engine may ask the same Request object again)."""
    return id(request), request.seq, request.error


def hint_lines(estimate) -> list[str]:
    """A search's estimate as lines for a person: the answer, then every answer it weighed with its win chance."""
    if not estimate.searched:
        return [f"Hint: {estimate.rows[0][1]} (nothing to weigh here)."]
    best = estimate.rows[0]
    lines = [f"Hint ({estimate.simulations} simulations against fresh dice): {best[1]}"]
    lines += [f"  {'*' if n == 0 else ' '} {label}: wins {chance:.0%} of {visits}"
              for n, (_, label, visits, chance) in enumerate(estimate.rows)]
    return lines


def edit_values(request: Request, values: dict, text: str) -> dict:
    """Apply ``name=value`` edits to a form's values; a value is a number, a word, or a comma list."""
    fields = {f.name: f for f in request.form.fields}
    out = dict(values)
    for part in text.replace(";", " ").split():
        name, sep, raw = part.partition("=")
        if not sep or name not in fields:
            raise PaperRobotError(f"'{part[:40]}' is not name=value with a name of: {', '.join(fields)}")
        items = [] if raw.lower() in ("", "none") else raw.split(",")
        parsed = [_scalar(item) for item in items]
        out[name] = parsed if fields[name].multi else (parsed[0] if parsed else None)
    return out


def parse_fix(text: str) -> dict:
    """``name=value ...`` of a correction as a dict (the engine's ``fix`` checks names and values)."""
    out = {}
    for part in text.split():
        name, sep, raw = part.partition("=")
        if not sep or not name or not raw:
            raise PaperRobotError(f"'{part[:40]}' is not name=value; e.g. 'fix hex=2215 facing=C'")
        out[name] = raw if raw[:1] == "0" and len(raw) > 1 else _scalar(raw)  # a hex such as 0515 stays a label
    if not out:
        raise PaperRobotError("say what to correct, e.g. 'fix hex=2215 facing=C'")
    return out


def _scalar(text: str) -> Any:
    if text.isascii() and text.lstrip("-").isdigit() and len(text) < 10:
        return int(text)
    try:
        number = float(text) if text.isascii() and len(text) < 20 else None
    except ValueError:
        number = None
    if number is not None and number == number and abs(number) < 1e9:
        return number
    return text


def dumps(value: Any) -> str:
    return json.dumps(value)
