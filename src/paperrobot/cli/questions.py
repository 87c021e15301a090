"""``paperrobot assist GAME`` for a table assistant the person asks questions of (Armada's AI: the person
describes what they measured, the assistant answers with its rolls and decisions). The assistant is the game's
hook (``question_assistant``, core/frontend.py): its questions, how a line splits into words, and the assistant
itself, which keeps its state in ``--state`` after every answer."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from ..core import files
from ..core.errors import PaperRobotError
from .common import FORCE_HELP, check_outputs, fail, say, typed
from .verbs import make, option


def help_text(asker) -> str:
    """Every question with its form and rule, then the words every session has."""
    lines = ["Questions (one per line; ids are shown by 'show'):"]
    for verb, form, rule, what in asker.questions:
        lines.append(f"  {form}\n      {what}" + (f" ({rule})" if rule else ""))
    lines += ["  log                                            the numbered questions answered so far",
              "  undo | undo N                                  take back the last question, or go back to question "
              "N of the log",
              "  help, quit"]
    return "\n".join(lines)


def answer(assistant, line: str, asker=None) -> list[str]:
    """One typed question to the assistant's answer (the words split as the game splits them)."""
    words = asker.split(line) if asker is not None else line.split()
    if not words:
        return []
    verb, args = words[0].lower(), words[1:]
    if verb == "help":
        return [help_text(asker)] if asker is not None else []
    if verb == "log":
        return assistant.log()
    if verb == "undo":
        if len(args) > 1 or (args and not (args[0].isascii() and args[0].isdigit() and len(args[0]) < 7)):
            raise PaperRobotError("type 'undo' or 'undo N' with N a question's number in the 'log'")
        return assistant.undo(int(args[0]) if args else None)
    return assistant.ask_line(line)


def session(assistant, asker, input_fn=typed) -> None:
    """The assistant at the terminal: one question per line; the state is saved after every answer."""
    say(f"{asker.title}. Type 'help' for the questions, 'quit' to stop.")
    if not assistant.state.ships:
        say(f"No fleet yet: start with e.g. '{asker.example}'.")
    while True:
        try:
            line = input_fn(asker.prompt).strip()
        except EOFError:
            break
        if not line:
            continue
        if line in ("quit", "exit"):
            break
        try:
            for text in answer(assistant, line, asker):
                say(text)
            assistant.save()
        except PaperRobotError as exc:
            say(f"Not understood: {exc}")
    assistant.save()


def build(info, hooks):
    asker = hooks.question_assistant
    parameters = [
        option("state", None, Optional[Path], help="Keep the fleet's state in this file."),
        option("fleet", None, Optional[str], help=f"New fleet, e.g. '{asker.example.partition(' ')[2]}'."),
        option("seed", None, Optional[int], help="Seed for the AI's dice (default: from the state or 1)."),
        option("robot_rules", None, Optional[Path], help=info.option("robot_rules").help),
        option("force", False, bool, help=FORCE_HELP),
    ]

    def body(state: Optional[Path], fleet: Optional[str], seed: Optional[int], robot_rules: Optional[Path],
             force: bool) -> None:
        if fleet is not None and state is not None and state.exists() and not force:
            if files.owned(state, "assist"):  # a table session: a new fleet in it would lose it
                fail(f"--state {state}: the file already holds a table session; continue it without --fleet, give "
                     f"another --state file for the new fleet, or add --force to replace the session")
        check_outputs(force, state=state, new_state=fleet is not None)
        try:
            rules = info.option("robot_rules").check(str(robot_rules)) if robot_rules is not None else ""
        except PaperRobotError as exc:
            fail(f"--robot-rules: {exc}")
        assistant = asker.open(state, fleet, seed, rules)
        variant = assistant.variant()
        if variant:
            say(variant)
        session(assistant, asker)
    return make(body, parameters, f"The {info.title} AI at your own table: describe what you measured, it answers "
                                  f"with its rolls and decisions.")
