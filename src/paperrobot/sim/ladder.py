"""The opponent ladder: play rungs against each other on shared seeds, fit one rating scale (docs/ladder.md).

* **Pairings.** Two rungs meet in every orientation they can fly: A on the robot side and B on the other
  side(s), and the reverse where both fly both sides. The robot flies only its robot side, so every other
  rung meets it on the player side. Game ``i`` of every pairing and orientation gets the seed
  ``derive_seed(base_seed, i)``: both rungs meet the same dice and set-ups, and the fit clusters by ``i``.
* **Adaptive.** A first round plays ``batch`` seeds of every pairing; then, while some pair of rungs next to
  each other in rating has a 95 % interval of their difference wider than +-``precision`` points, the pairing
  that most narrows the widest such interval (the fit's information, largest where the expected score is near
  50 %) gets ``batch`` more seeds, until the cap on games.
* **Resumable.** Every game is stored as it finishes, keyed by (ladder, orientation, handicap, seed index);
  the choices depend only on stored results, so the same command resumes an interrupted ladder, and a finer
  ``precision``, a larger cap or more rungs extend a finished one.

Games are played by the balance sweep's engines (``sim.chunks.LocalEngine``, ``sim.ray_engine.RayEngine``):
a chunk is ``(play, robot side, base seed, handicap, seed indices)``, so local and Ray give the same rows.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import math
import sqlite3
import time
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Sequence

from ..core.errors import PaperRobotError
from ..core.files import DB_APPLICATION_ID
from . import rungs as rung_kinds
from .chunks import Chunk, Row, split, task_size
from .ratings import ANCHOR, LadderFit, Result, adjacent, fit_ladder, information_gain
from .fit import Z95

SCHEMA_VERSION = 1
FAR = 0.02  # adjacent rungs whose expected score is beyond 2 % / 98 % are not chased to --precision
FAR_APART = -math.log(FAR / (1 - FAR)) * 400 / math.log(10)  # 676 rating points
SCHEMA = """
CREATE TABLE IF NOT EXISTS ladder_specs (
    ladder TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    spec TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS ladder_games (
    ladder TEXT NOT NULL REFERENCES ladder_specs(ladder),
    robot_rung TEXT NOT NULL,
    player_rung TEXT NOT NULL,
    handicap REAL NOT NULL,
    seed_index INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    score REAL NOT NULL,            -- the player side's: win 1, draw 1/2, loss 0
    winner TEXT,
    result TEXT NOT NULL,
    turns INTEGER NOT NULL,
    UNIQUE (ladder, robot_rung, player_rung, handicap, seed_index)
);
"""


class LadderStore:
    """The games of ladders in SQLite (its own tables, ``ladder_*``), safe to resume and extend."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if not self.path.parent.exists():
            raise PaperRobotError(f"--db {path}: folder {self.path.parent} does not exist")
        try:
            self.db = sqlite3.connect(self.path, timeout=10)
            tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            foreign = sorted(t for t in tables if not t.startswith("ladder_"))
            if foreign:
                raise PaperRobotError(f"--db {path}: not a ladder database (it holds {', '.join(foreign)}); give "
                                      f"--db a file of its own")
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise PaperRobotError(f"--db {path}: written by a newer PaperRobot (ladder schema {version}); "
                                      f"upgrade, or give --db a new file")
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(SCHEMA)
            self.db.execute(f"PRAGMA application_id = {DB_APPLICATION_ID}")
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.commit()
        except sqlite3.Error as exc:
            raise PaperRobotError(f"--db {path}: cannot be used as a ladder database ({exc}); give --db a new "
                                  f"file") from None

    def ladder(self, key: str, label: str, spec: dict) -> None:
        self._write("INSERT OR IGNORE INTO ladder_specs VALUES (?, ?, ?, ?)",
                    [(key, label, json.dumps(spec, sort_keys=True, default=str), time.time())])

    def add(self, key: str, robot_rung: str, player_rung: str, rows: Sequence[Row]) -> None:
        self._write("INSERT OR IGNORE INTO ladder_games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(key, robot_rung, player_rung, r.level, r.seed_index, r.seed, 1.0 - r.score, r.winner,
                      r.result, r.turns) for r in rows])

    def results(self, key: str) -> list[Result]:
        return [Result(*row) for row in self.db.execute(
            "SELECT robot_rung, player_rung, handicap, seed_index, score FROM ladder_games WHERE ladder = ? "
            "ORDER BY robot_rung, player_rung, handicap, seed_index", (key,))]

    def indices(self, key: str, robot_rung: str, player_rung: str, handicap: float) -> set[int]:
        return {i for (i,) in self.db.execute(
            "SELECT seed_index FROM ladder_games WHERE ladder = ? AND robot_rung = ? AND player_rung = ? AND "
            "handicap = ?", (key, robot_rung, player_rung, handicap))}

    def _write(self, sql: str, rows: list) -> None:
        try:
            with self.db:
                self.db.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise PaperRobotError(f"cannot write to the ladder database {self.path}: {exc}") from None

    def close(self) -> None:
        self.db.close()


@dataclass(frozen=True)
class PairPlay:
    """``play(seed, handicap)`` of one orientation: ``robot_rung`` on the robot side, ``player_rung`` on every
    other side, driven to the end. Picklable (plain fields), so chunks travel to processes and Ray tasks."""

    game: str
    setup: tuple[tuple[str, Any], ...]
    robot_side: str
    other_sides: tuple[str, ...]
    robot_rung: str
    player_rung: str
    module: str | None = None

    def __call__(self, seed: int, handicap: Any):
        import paperrobot
        from ..core.contract import drive_all

        if self.module:
            importlib.import_module(self.module)
        setup = dict(self.setup)
        if "handicap" in setup or handicap:
            setup["handicap"] = handicap
        match = paperrobot.new_game(self.game, seed=seed, **setup)
        controllers = {self.robot_side: rung_kinds.controller(match, self.robot_side, self.robot_rung, seed)}
        for side in self.other_sides:
            controllers[side] = rung_kinds.controller(match, side, self.player_rung, seed)
        return drive_all(match, controllers)


@dataclass(frozen=True)
class Spec:
    """The game a ladder is measured on; ``key`` names its games in the store (rungs are not part of it, so
    adding a rung extends a ladder)."""

    game: str
    setup: dict
    robot_side: str
    other_sides: tuple[str, ...]
    handicap: float
    unit: str
    engine_version: int
    base_seed: int
    module: str | None = None

    @property
    def key(self) -> str:
        data = {"game": self.game, "setup": self.setup, "engine_version": self.engine_version,
                "base_seed": self.base_seed}
        digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:12]
        return f"{self.game}/{digest}"

    @property
    def label(self) -> str:
        shown = " ".join(f"{k}={v}" for k, v in sorted(self.setup.items()) if v not in ("", None))
        return f"{self.game} {shown}".strip()

    def play(self, robot_rung: str, player_rung: str) -> PairPlay:
        setup = {k: v for k, v in self.setup.items() if k != "handicap"}
        return PairPlay(self.game, tuple(sorted(setup.items())), self.robot_side, self.other_sides, robot_rung,
                        player_rung, self.module)

    def orientations(self, a: str, b: str) -> list[tuple[str, str]]:
        """(robot side, player side) orientations in which rungs a and b can meet."""
        out = []
        for robot, player in ((a, b), (b, a)):
            if rung_kinds.flies(robot, self.robot_side, self.game, self.setup) and all(
                    rung_kinds.flies(player, side, self.game, self.setup) for side in self.other_sides):
                out.append((robot, player))
        return out


def registry_spec(game: str, setup: dict, base_seed: int = 1) -> Spec:
    """The ladder spec of a registered game; one PaperRobotError line when the game or an option is wrong."""
    import paperrobot

    info = paperrobot.game_info(game)
    checked = info.check_setup(setup)
    handicap = float(checked.get("handicap") or 0)
    module = getattr(info.build, "__module__", None)
    return Spec(game, checked, info.robot_side, tuple(s for s in info.sides if s != info.robot_side), handicap,
                getattr(info, "handicap_unit", "points"), info.engine_version, base_seed,
                None if module is None or module.startswith("paperrobot.") else module)


@dataclass(frozen=True)
class Plan:
    rungs: tuple[str, ...] = ("random", "policy", "robot")
    batch: int = 50  # seeds per pairing in the first round, and added per step
    precision: float = 25.0  # wanted 95 % half-width of every adjacent difference, rating points
    max_games: int = 20_000  # cap on the ladder's games (stored ones included)
    chunk: int = 25


@dataclass
class Ladder:
    spec: Spec
    plan: Plan
    fit: LadderFit
    results: list[Result]
    played: int
    precision_met: bool
    seconds: float
    notes: list[str] = field(default_factory=list)
    balance: dict[str, Any] = field(default_factory=dict)  # rung -> Sweep, or the line saying why not


class Progress:
    def stage(self, text: str, games: int) -> None:
        pass

    def games(self, count: int) -> None:
        pass


def pairings(spec: Spec, names: Sequence[str]) -> dict[tuple[str, str], list[tuple[str, str]]]:
    out = {}
    for a, b in combinations(names, 2):
        ways = spec.orientations(a, b)
        if ways:
            out[(a, b)] = ways
    return out


def run_ladder(spec: Spec, plan: Plan, store: LadderStore, engine, progress: Progress | None = None) -> Ladder:
    progress = progress or Progress()
    started = time.perf_counter()
    if ANCHOR not in plan.rungs:
        raise PaperRobotError(f"the ladder is anchored at the robot (1000): keep 'robot' in --rungs")
    store.ladder(spec.key, spec.label, {"game": spec.game, "setup": spec.setup, "base_seed": spec.base_seed,
                                        "engine_version": spec.engine_version})
    pairs = pairings(spec, plan.rungs)
    played = 0
    notes: list[str] = []

    def count(pair) -> int:
        return min(len(store.indices(spec.key, r, p, spec.handicap)) for r, p in pairs[pair])

    def ensure(pair, n: int, what: str) -> None:
        nonlocal played
        work = []
        for robot, player in pairs[pair]:
            have = store.indices(spec.key, robot, player, spec.handicap)
            play = spec.play(robot, player)
            todo = [i for i in range(n) if i not in have]
            size = task_size(plan.chunk, len(todo), rung_kinds.cost(robot, player))
            chunks = [Chunk(play, spec.robot_side, spec.base_seed, _level(spec.handicap), tuple(indices))
                      for indices in split(todo, size)]
            work.append((robot, player, chunks))
        progress.stage(what, sum(len(c.indices) for _, _, chunks in work for c in chunks))
        for robot, player, chunks in work:  # one orientation at a time: an engine's rows do not name their play
            for rows in engine.map(chunks):
                store.add(spec.key, robot, player, rows)
                played += len(rows)
                progress.games(len(rows))

    for pair in pairs:  # the first round: every pairing with the robot, and every other one without a search rung
        if first_round(pair, pairs[pair]) and count(pair) < plan.batch:
            ensure(pair, plan.batch, f"first round: {pair[0]} - {pair[1]}")
    met = False
    while True:
        results = [r for r in store.results(spec.key) if r.robot_rung in plan.rungs and r.player_rung in plan.rungs
                   and r.handicap == spec.handicap]
        fit = fit_ladder(results, plan.rungs)
        loose = [(a, b) for a, b in adjacent(fit) if Z95 * fit.difference(a, b)[1] > plan.precision]
        far = [(a, b) for a, b in loose if fit.difference(a, b)[0] > FAR_APART]
        if far:  # games between rungs this far apart tell almost nothing: do not spend the cap on them
            loose = [pair for pair in loose if pair not in far]
            for a, b in far:
                note = (f"{a} and {b} are too far apart to narrow their difference by games between them (expected "
                        f"score beyond {100 * (1 - FAR):g}%); a rung between them would")
                if note not in notes:
                    notes.append(note)
        step = _bound_step(fit, pairs, plan.batch, count)
        if step is not None and len(results) < plan.max_games:  # a rung that won or lost every game it played
            ensure(step[0], step[1], f"bound: {step[0][0]} - {step[0][1]}")
            continue
        if not loose:
            met = not far
            break
        if len(results) >= plan.max_games:
            over = (f" (the first round, --batch {plan.batch} seeds of each pairing, played {len(results)}: the cap "
                    f"stops only the adaptive games after it)" if len(results) > plan.max_games else "")
            notes.append(f"stopped at the cap of {plan.max_games} games before every adjacent interval reached "
                         f"+-{plan.precision:g}{over}")
            break
        pair = _best_pairing(fit, pairs, plan.batch, loose)
        if pair is None:
            notes.append("no pairing can narrow the loose intervals (their rungs have no finite rating)")
            break
        room = (plan.max_games - len(results)) // len(pairs[pair])
        ensure(pair, count(pair) + max(1, min(plan.batch, room)), f"adaptive: {pair[0]} - {pair[1]}")
    ladder = Ladder(spec, plan, fit, results, played, met, 0.0, notes + fit.notes)
    ladder.seconds = time.perf_counter() - started
    return ladder


def first_round(pair: tuple[str, str], ways: Sequence[tuple[str, str]]) -> bool:
    """Whether a pairing is played in the first round: every pairing with the robot (so every rung has a rating
    from the start), and every pairing whose games are cheap; pairings between a searching rung and another rung
    wait until the fit says they tell something (their games cost seconds each)."""
    return ANCHOR in pair or all(rung_kinds.cost(r, p) == 1 for r, p in ways)


def _best_pairing(fit: LadderFit, pairs: dict, batch: int, loose: list) -> tuple[str, str] | None:
    """The pairing whose next ``batch`` seeds shrink the summed variance of the loose adjacent differences most
    per unit of cost (``rungs.cost``): a search:50 game must tell fifty times what a search:1 game tells to be
    chosen over it. None when no pairing with finite ratings narrows them."""
    now = information_gain(fit, [], 0, loose, total=True)
    best, chosen = 0.0, None
    for pair, ways in pairs.items():
        after = information_gain(fit, ways, batch, loose, total=True)
        if not math.isfinite(after):
            continue
        gain = (now - after) / (batch * sum(rung_kinds.cost(r, p) for r, p in ways))
        if gain > best:
            best, chosen = gain, pair
    return chosen


BOUND_ROUNDS = 4  # a rung with only a bound gets up to this many batches against its nearest rated rung


def _bound_step(fit: LadderFit, pairs: dict, batch: int, count) -> tuple[tuple[str, str], int] | None:
    """A rung that lost (won) every game has only a bound: ``batch`` more seeds of its pairing with the lowest
    (highest) rated rung it can meet, until it has a rating or that pairing has ``BOUND_ROUNDS`` batches (the
    first round leaves a searching rung with only a few games against the robot)."""
    rated = sorted((r for r in fit.ratings.values() if r.rating is not None), key=lambda r: r.rating)
    for r in fit.ratings.values():
        if r.rating is not None or not r.bound:
            continue
        for other in (rated if r.bound == "upper" else rated[::-1]):
            pair = next((p for p in ((r.name, other.name), (other.name, r.name)) if p in pairs), None)
            if pair is not None:
                if count(pair) < BOUND_ROUNDS * batch:
                    return pair, count(pair) + batch
                break
    return None


def _level(handicap: float):
    return int(handicap) if float(handicap).is_integer() else handicap




def refit_with_sweeps(ladder: Ladder, games: dict[str, dict[tuple[float, int], float]]) -> None:
    """Fit again with the games of the balance sweeps (``games``: rung -> {(handicap, seed index): the robot's
    score}; each rung on the player side against the robot at many handicaps, on the same seeds), which gives
    the fit its handicap term. The robot's own sweep is the mirror (the robot on the player side too), which
    the ladder's pairings exclude, so its games stay out."""
    seen = {(r.robot_rung, r.player_rung, r.handicap, r.seed_index) for r in ladder.results}
    extra = []
    for name, rows in games.items():
        if name == ANCHOR:
            continue
        for (level, index), robot_score in sorted(rows.items()):
            key = (ANCHOR, name, float(level), int(index))
            if key not in seen:
                seen.add(key)
                extra.append(Result(ANCHOR, name, float(level), int(index), 1.0 - robot_score))
    if not extra:
        return
    ladder.results = ladder.results + extra
    old = set(ladder.fit.notes)
    ladder.fit = fit_ladder(ladder.results, ladder.plan.rungs)
    ladder.notes = [n for n in ladder.notes if n not in old] + ladder.fit.notes
    ladder.notes.append(f"the fit includes {len(extra)} games of the balance sweeps (handicaps "
                        f"{min(r.handicap for r in extra):+g} to {max(r.handicap for r in extra):+g})")
    # the stopping rule judged again on the fit the report shows: the sweeps' games narrow the differences too
    ladder.precision_met = all(Z95 * ladder.fit.difference(a, b)[1] <= ladder.plan.precision
                               for a, b in adjacent(ladder.fit))
