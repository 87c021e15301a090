"""The person's own results on the web page (docs/web.md "Your results and your rating"); no HTTP here.

- Every game the person finishes against the robot (the play page and the table assistants) is recorded in the
  same local results file as ``paperrobot play`` (sim/records.py: ``$PAPERROBOT_RECORDS``, else
  ``$XDG_DATA_HOME/paperrobot/results.sqlite``), once per game (its source ``web:<database id>:<game id>``: the
  first time the game ends; an undo after the end and a second ending do not make a second game). The setting
  *record my finished games* (on unless turned off) is kept in the page's own database. Nothing leaves the machine.
- A file that cannot be used costs one line on the game's page and a button to try again; the game itself is in
  the page's database whatever happens to the results file.
- The rating is ``sim.person.person_report`` (the lines ``paperrobot rating`` prints) against a ladder's fit.json
  that the person adds on the start page (kept in the page's database, one per game).
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import registry
from ..core.errors import PaperRobotError
from ..sim import person as person_rating
from ..sim.records import Records, default_path, person_side, record_match, record_result

RECORD = "record"        # "on" | "off"
LADDER = "ladder:"       # + game name: a ladder's fit.json, as uploaded
UID = "uid"              # this database's id, in every source key


@dataclass
class GameRating:
    game: str
    title: str
    recorded: int = 0
    lines: list[str] = field(default_factory=list)
    ladder: dict | None = None
    report: Any = None   # sim.person.PersonReport when a ladder is known and the games were rated


@dataclass
class Panel:
    recording: bool
    path: str
    error: str = ""                     # the results file cannot be read (one line)
    games: list[GameRating] = field(default_factory=list)


class People:
    def __init__(self, store, records: str | Path | None = None):
        self.store = store
        self.records = records  # None: sim.records.default_path() when used (it follows the environment)

    @property
    def path(self) -> Path:
        return Path(self.records) if self.records is not None else default_path()

    # ------------------------------------------------------------------ the setting
    @property
    def recording(self) -> bool:
        return self.store.setting(RECORD, "on") != "off"

    def set_recording(self, on: bool) -> None:
        self.store.set_setting(RECORD, "on" if on else "off")

    def source(self, game_id: int) -> str:
        return f"web:{self.store.setting_once(UID, uuid.uuid4().hex[:12])}:{game_id}"

    # ------------------------------------------------------------------ recording
    def finished(self, row, match) -> str:
        """A game of the page or an assistant has just ended: record it. Returns the line its page shows ('' for a
        game a rating cannot use). Never raises: the game is kept whatever happens to the results file."""
        if person_side(row.controllers) is None:  # not a rated game (against the policy, two people)
            return ""
        if not self.recording:
            return "Not recorded: recording is off (Your results, on the start page)."
        try:
            added = record_match(match, row.engine_version, self.path, self.source(row.id))
        except PaperRobotError as exc:
            return self.failed(exc)
        except Exception as exc:  # noqa: BLE001  (a results file must never cost the game)
            return self.failed(f"{type(exc).__name__}: {exc}")
        return self.done(added is not None)

    def reported(self, row, winner: str | None, result: str, turns: int) -> str:
        """A game the person ends by saying who won (Armada's assistant): record it; the line its page shows."""
        if not self.recording:
            return "Not recorded: recording is off (Your results, on the start page)."
        try:
            added = record_result(row.game, dict(row.setup), row.seed, person_side(row.controllers) or "", winner,
                                  result, turns, row.engine_version, self.path, self.source(row.id))
        except PaperRobotError as exc:
            return self.failed(exc)
        except Exception as exc:  # noqa: BLE001
            return self.failed(f"{type(exc).__name__}: {exc}")
        return self.done(added is not None)

    def done(self, added: bool) -> str:
        if added:
            return f"Recorded in your results ({self.path}; for your rating, never sent anywhere)."
        return "Recorded in your results already (a game counts once: as it first ended)."

    @staticmethod
    def failed(exc: Any) -> str:
        return (f"Not recorded: {exc}. The game itself is kept in this page's database; fix or move the file, "
                f"then try again.")

    # ------------------------------------------------------------------ ladders
    def ladder(self, game: str) -> dict | None:
        """The ladder a person of ``game`` is rated on: the one uploaded here, else the project's published one."""
        text = self.store.setting(LADDER + game)
        try:
            if text is None:
                return person_rating.published_fit(game)
            return person_rating.parse_fit(text, f"the ladder of {game}")
        except PaperRobotError:
            return None

    def add_ladder(self, text: bytes | str) -> str:
        """Keep an uploaded fit.json as the ladder of its game; the game's name (PaperRobotError if it is not one)."""
        data = person_rating.parse_fit(text, "the uploaded file")
        if data["game"] not in registry.registered():
            raise PaperRobotError(f"the uploaded ladder is of '{str(data['game'])[:30]}', a game this PaperRobot "
                                  f"does not have")
        self.store.set_setting(LADDER + data["game"], text.decode() if isinstance(text, bytes) else text)
        return data["game"]

    def remove_ladder(self, game: str) -> None:
        self.store.set_setting(LADDER + game, None)

    # ------------------------------------------------------------------ the panel
    def panel(self, only: str | None = None) -> Panel:
        """What the start page (and a finished game's page, ``only`` its game) shows of the person's results."""
        panel = Panel(self.recording, str(self.path))
        played = []
        if self.path.exists():
            try:
                records = Records(self.path, create=False)
                try:
                    played = records.games(only)
                finally:
                    records.close()
            except PaperRobotError as exc:
                panel.error = f"{exc}. Nothing is lost: your games are in this page's database."
        games = [only] if only else sorted({r.game for r in played} | {k[len(LADDER):] for k in
                                                                       self.store.settings(LADDER)})
        for game in games:
            info = registry.registered().get(game)
            entry = GameRating(game, info.title if info else game, sum(r.game == game for r in played),
                               ladder=self.ladder(game))
            entry.lines, entry.report = self._lines(game, played, entry)
            panel.games.append(entry)
        return panel

    def _lines(self, game: str, played: list, entry: GameRating) -> tuple[list[str], Any]:
        n = entry.recorded
        if entry.ladder is None:
            if n == 0:
                return [f"{game}: no games recorded yet."], None
            few = (f"{_games(n)} recorded: play a few more for a rating (it takes {person_rating.MIN_GAMES})"
                   if n < person_rating.MIN_GAMES else f"{_games(n)} recorded")
            return [f"{game}: {few}; a rating needs a ladder of {game}: add its fit.json below "
                    f"(paperrobot ladder {game} --out DIR)."], None
        if n == 0:
            return [f"{game}: no games recorded yet; finish one against the robot for a rating."], None
        try:
            report = person_rating.person_report(game, played, entry.ladder)
        except PaperRobotError as exc:
            return [f"{game}: {_games(n)} recorded; {exc}"], None
        return list(report.lines), report

    def handicap_note(self, game: str, listing: str) -> str:
        """The start form's suggested difficulty: the person's own even handicap when their rating gives one,
        else the measured even points with the rung they were measured against (never a program's as theirs)."""
        ladder = self.ladder(game)
        if ladder is not None:
            try:
                panel = self.panel(game)
                report = panel.games[0].report if panel.games else None
            except Exception:  # noqa: BLE001  (a note on a form: never stop the page)
                report = None
            if report is not None and report.rated and report.even is not None:
                r = report.rating
                setup = " ".join(f"{k}={v}" for k, v in ladder["setup"].items()) or "the default set-up"
                return (f"Suggested for you: {report.even_text()} for the robot makes your next game even, from your "
                        f"rating {r.rating:.0f} (95% {r.low:.0f} to {r.high:.0f}) over {report.used} recorded games "
                        f"of {setup}.")
        return self.rung_note(listing)

    @staticmethod
    def rung_note(listing: str) -> str:
        return (f"Measured even points, against the policy rung (PaperRobot's heuristic player, a program rated "
                f"below the robot on the opponent ladder; not a person): {listing}. Your own comes from your "
                f"recorded games (Your results, on the start page).")


def _games(n: int) -> str:
    return f"{n} game" if n == 1 else f"{n} games"
