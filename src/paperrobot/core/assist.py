"""What every game's table assistant shares (sfb/assist.py, fc/assist.py; the terminal in cli/assist.py).

A table assistant runs the full engine with the person's reports as the person's side's answers and the
robot's side flown by the seed's robot. Its game module says, in table words:
- ``auto(request)``: the answer given for the person without asking (what the robot's rules do not need, or
  what the program derives), or None;
- ``question(request)``: a ``Question`` in table words (what to type, the answer it stands for), or None to
  ask the request as the contract gives it;
- ``instruction(event)``: one line telling the table what the robot did (counter, fire, boxes to mark),
  or None for events the table does not need.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .errors import IllegalAction
from .hexgrid import parse as parse_hex
from .rules import summary


@dataclass
class Question:
    """A question to the person: ``prompt`` (one line), ``form`` (the expected answer format, shown with it)
    and ``parse(text) -> answer in contract terms`` (raises PaperRobotError with one line if not understood)."""

    prompt: str
    form: str
    parse: Callable[[str], Any]


class RuleNotes:
    """Rule ID, dice and the rule's summary for a robot decision; the summary in full the first time a rule is
    cited in a session, its title after that (the same paragraph every impulse would bury the table's lines)."""

    def __init__(self):
        self.seen: set[str] = set()

    def line(self, rule: str, text: str, rolls: list, who: str = "") -> str:
        dice = "; ".join(f"{'coin' if r[0] == 2 else 'd' + str(r[0])}={r[1]} ({r[2]})" for r in rolls or [])
        out = f"{who}[{rule}] {text}" + (f"  dice: {dice}" if dice else "")
        found = summary(rule)
        if found is not None:
            if found["id"] in self.seen:
                out += f"  ({found['title']})"
            else:
                self.seen.add(found["id"])
                out += f"\n      {found['id']} {found['title']}: {found['summary']}"
        return out


def die_question(request) -> Question:
    """A die the person rolls at the table (``dice="table"``): its value, or Enter for the program's die."""
    sides = request.data["sides"] if isinstance(request.data, dict) else len(request.options) - 1

    def parse(text: str) -> str:
        text = text.strip().lower()
        if text in ("", "program", "p"):
            return "program"
        if text.isascii() and text.isdigit() and 1 <= int(text) <= sides:
            return text
        from .errors import PaperRobotError
        raise PaperRobotError(f"'{text[:20]}' is not a roll of a {'coin' if sides == 2 else f'd{sides}'}; "
                              f"type 1 to {sides}, or Enter to let the program roll")
    return Question(request.prompt + "?", f"1-{sides} as rolled; Enter: the program rolls it", parse)


def yes_no(text: str, default: bool) -> bool:
    text = text.strip().lower()
    if not text:
        return default
    if text in ("y", "yes"):
        return True
    if text in ("n", "no"):
        return False
    from .errors import PaperRobotError
    raise PaperRobotError(f"'{text[:20]}': answer y or n")


def corrected_hex(value: Any, name: str, board: Any, example: str, rule: str):
    """The hex of a correction (``fix hex=2215``; a number loses its leading zero on the way, so 515 is 0515),
    on ``board`` (None: a floating map); IllegalAction under ``rule`` naming the format otherwise."""
    text = f"{value:04d}" if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10000 else str(value)
    try:
        where = parse_hex(text)
    except ValueError:
        raise IllegalAction(f"{name}={str(value)[:20]}: a hex is four digits, column then row, e.g. {name}={example}",
                            rule) from None
    if board is not None and not board.contains(where):
        raise IllegalAction(f"{name}={text}: not on the {board.cols}x{board.rows} map", rule)
    return where
