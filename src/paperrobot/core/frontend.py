"""What a game gives its front ends beyond the contract: the hooks the terminal and the web page call (issue 25).

A game registers a factory of its ``Frontend`` (``GameInfo.frontend``, in ``paperrobot/<game>/frontend.py``);
the front ends (cli/, web/) reach a game only through the registry, so a new game needs no front-end code: a game
without hooks gets this class, whose every hook is empty and whose words are generic. Hooks return text lines
(never print), so the terminal and the web page can both show them. One object per session: a hook may keep what
it has shown (the round last drawn, a toggle such as FC's 'auto').
"""
from __future__ import annotations

from typing import Any, Callable


class Frontend:
    """Every hook is optional; the defaults say nothing and draw nothing."""

    help = ""  # the game's own words at the terminal's prompt (after the common ones)
    turns = "turns"  # what the outcome's count of turns is called ("rounds" in Armada)
    decision_kinds: tuple[str, ...] = ("decision", "result")  # the events 'battle --decisions' and 'replay' keep
    paths: tuple[str, ...] = ()  # text set-up options naming a file or folder: made absolute (a save resumes anywhere)
    default_games = 1000  # 'simulate' without --games
    handicap_what = ""  # what the handicap buys, in the --handicap help ("extra shield boxes (...)")
    setup_flags: tuple = ()  # extra set-up flags (core.registry.SetupOption, kind "text"): see setup_from_flags
    pairings: tuple[tuple[str, str], ...] = ()  # (ship, short name) of 'simulate --all-pairings'; empty: no such flag
    pairings_setup: dict = {}  # set-up options of --all-pairings unless given (SFB: the free duel)
    question_assistant: Any = None  # a table assistant the person asks questions of (Armada's); see cli/questions.py

    # ------------------------------------------------------------------ set-up
    def setup_from_flags(self, values: dict) -> dict:
        """The registry set-up options that the extra ``setup_flags`` given (name -> text) stand for."""
        return {}

    def intro(self, setup: dict) -> list[str]:
        """Lines before a game is played in the terminal (what it is, the words at the prompt)."""
        return [self.help] if self.help else []

    def battle_title(self, setup: dict, seed: int) -> str:
        return "Start positions"

    def handicap_line(self, setup: dict) -> str:
        """What the set-up's handicap gives to whom, in the game's own terms (empty: no handicap). A game that says
        nothing more gets the bare figure."""
        handicap = int(setup.get("handicap") or 0)
        return f"Handicap {handicap:+d} for the robot" if handicap else ""

    def simulate_notes(self, setup: dict) -> list[str]:
        """Lines before many games are played (e.g. stand-in data in use)."""
        return []

    # ------------------------------------------------------------------ the table
    def map_lines(self, engine: Any, whole: bool = False) -> list[str]:
        """The map as text lines (80x24); empty when the game has none."""
        return []

    def status_lines(self, engine: Any) -> list[str]:
        """Both sides' units, as text lines."""
        return []

    def pictures(self, folder: Any, setup: dict) -> Any:
        """A listener writing pictures of the table into ``folder`` (``see(event)``, ``count``); None: no pictures."""
        return None

    # ------------------------------------------------------------------ a person playing
    def before(self, match: Any, request: Any) -> list[str]:
        """What the person needs on screen before this question (the map, the status, the odds)."""
        return []

    def commands(self, match: Any) -> dict[str, Callable[[], list[str]]]:
        """Extra words at the prompt ('map', 'status'): word -> the lines it shows."""
        return {}

    def auto(self, match: Any, request: Any) -> Any:
        """An answer given without asking (a toggle the person set), or None to ask."""
        return None

    # ------------------------------------------------------------------ ships and data
    def ship_names(self, ships_dir: str | None) -> list[str]:
        return []

    def ship_list(self, ships_dir: str | None) -> list[str]:
        return []

    def ship_sheet(self, name: str, ships_dir: str | None) -> list[str]:
        return []

    def data_lines(self, provisional: bool) -> list[str]:
        return []


def frontend_of(info: Any) -> Frontend:
    """The game's hooks (a fresh object), or the empty ones for a game that registers none."""
    factory = getattr(info, "frontend", None)
    return factory() if factory is not None else Frontend()
