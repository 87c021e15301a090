"""Balance sweeps: how many handicap points does the robot need for an even fight?

A matchup is a picklable ``play(seed, handicap) -> Outcome`` plus the robot's side. The sweep (docs/balance.md):

1. **Bracket.** Play ``probe_games`` seeds at ``start``, then step up (or down) with doubling steps until a
   level where the robot scores under 40 % lies below one where it scores over 60 %.
2. **Fit.** Play ``games_per_level`` seeds at ``levels`` equally spaced levels across the bracket, the *same*
   seeds at every level (common random numbers); fit ``sim.fit.fit_sweep``.
3. **Precision.** With ``precision=W``, add seeds to every level in batches until the Fieller interval's
   half-width is at most W (or ``max_games`` is reached).

Every game goes to a SQLite store as it finishes (one transaction a chunk, chunks.task_size), keyed by
(matchup, level, seed index). The choices depend only on game results, and a result only on (matchup, level,
seed): the same sweep again replays nothing it has, so it resumes, and more games or a finer precision extend it.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import math
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core import players
from ..core.errors import PaperRobotError
from .balance_words import plain_answer, report_name
from .chunks import Chunk, HandicapPlay, Row, split, task_size
from .rungs import cost

SCHEMA_VERSION = 1
SCHEMA = """
CREATE TABLE IF NOT EXISTS balance_matchups (
    matchup TEXT PRIMARY KEY,
    label TEXT NOT NULL,
    spec TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS balance_games (
    matchup TEXT NOT NULL REFERENCES balance_matchups(matchup),
    level REAL NOT NULL,
    seed_index INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    score REAL NOT NULL,
    winner TEXT,
    result TEXT NOT NULL,
    turns INTEGER NOT NULL,
    UNIQUE (matchup, level, seed_index)
);
"""

CAVEATS = {
    "policy": "Caveat: the opponent is PaperRobot's heuristic policy, not a person; this is the handicap for an "
              "even fight against that policy, and a stronger or weaker player needs another.",
    "robot": "Caveat: the opponent is the robot itself (mirror), not a person; this is the handicap for an even "
             "fight between two robots.",
    "search": "Caveat: the opponent is PaperRobot's search player (docs/search.md), not a person; this is the "
              "handicap for an even fight against a player that plans with that many simulations per decision.",
}


def caveat(opponent: str) -> str:
    return CAVEATS.get(opponent, CAVEATS.get(opponent.partition(":")[0], f"Caveat: the opponent is '{opponent}', "
                                                                           f"not a person."))


# ----------------------------------------------------------------------------------------- store
class BalanceStore:
    """The games of balance sweeps in SQLite: its own tables, schema version in ``PRAGMA user_version``."""

    def __init__(self, path: str | Path | None):
        self.path = None if path is None else Path(path)
        where = ":memory:" if path is None else str(path)
        try:
            if self.path is not None and self.path.parent and not self.path.parent.exists():
                raise PaperRobotError(f"cannot open the sweep database {path}: folder {self.path.parent} does not "
                                      "exist")
            self.db = sqlite3.connect(where)
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            tables = [r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            foreign = sorted(t for t in tables if not t.startswith("balance_"))
            if foreign or (version != SCHEMA_VERSION and tables and version <= SCHEMA_VERSION):
                raise PaperRobotError(f"{path} is not a balance-sweep database (it holds {', '.join(foreign or tables)});"
                                      " give --db a file of its own")
            if version > SCHEMA_VERSION:
                raise PaperRobotError(f"{path} was written by a newer PaperRobot (balance schema {version}); "
                                      "upgrade, or give --db a new file")
            if self.path is not None:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(SCHEMA)
            self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            self.db.commit()
        except sqlite3.Error as exc:
            raise PaperRobotError(f"cannot use the sweep database {path}: {exc}") from None

    def matchup(self, key: str, label: str, spec: dict) -> None:
        self._write("INSERT OR IGNORE INTO balance_matchups VALUES (?, ?, ?, ?)",
                    [(key, label, json.dumps(spec, sort_keys=True, default=str), time.time())])

    def keys(self) -> set[str]:
        return {r[0] for r in self.db.execute("SELECT matchup FROM balance_matchups")}

    def specs(self) -> list[dict]:
        return [json.loads(r[0]) for r in self.db.execute("SELECT spec FROM balance_matchups")]

    def games(self, key: str) -> dict[tuple[float, int], float]:
        """(level, seed index) -> the robot's score, for every stored game of the matchup."""
        rows = self.db.execute("SELECT level, seed_index, score FROM balance_games WHERE matchup = ?", (key,))
        return {(float(level), int(index)): float(score) for level, index, score in rows}

    def rows(self, key: str) -> list[Row]:
        return [Row(*r) for r in self.db.execute(
            "SELECT level, seed_index, seed, score, winner, result, turns FROM balance_games WHERE matchup = ? "
            "ORDER BY level, seed_index", (key,))]

    def add(self, key: str, rows: Sequence[Row]) -> None:
        self._write("INSERT OR IGNORE INTO balance_games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(key, *row) for row in rows])

    def _write(self, sql: str, rows: list) -> None:
        try:
            with self.db:
                self.db.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise PaperRobotError(f"cannot write to the sweep database {self.path}: {exc}") from None

    def close(self) -> None:
        self.db.close()


# --------------------------------------------------------------------------------------- matchups
@dataclass(frozen=True)
class Matchup:
    """What a sweep needs of a game. ``key`` names its games in the store: it must change whenever the games
    would (set-up, opponent, engine version); ``Matchup.for_registry_game`` builds it."""

    key: str
    label: str
    play: HandicapPlay
    robot_side: str = "robot"
    opponent: str = "policy"
    low: float | None = None  # the handicap option's bounds
    high: float | None = None
    integer: bool = True  # levels are whole numbers
    unit: str = "points"
    spec: dict = field(default_factory=dict)

    def clamp(self, level: float) -> float:
        if self.integer:
            level = float(round(level))
        if self.low is not None:
            level = max(level, float(self.low))
        if self.high is not None:
            level = min(level, float(self.high))
        return level

    def handicap(self, level: float) -> Any:
        return int(level) if self.integer else float(level)


@dataclass(frozen=True)
class RegistryPlay:
    """``play(seed, handicap)`` for a game of the registry: a new match with the handicap and set-up, the robot
    on its side and ``opponent`` ("policy", "robot" or a named player such as "search:20") on every other, driven to the end. ``module`` is imported
    first so that a game registered outside the game packages (a test game) exists in every worker too."""

    game: str
    setup: tuple[tuple[str, Any], ...]
    robot_side: str
    other_sides: tuple[str, ...]
    opponent: str
    module: str | None = None

    def __call__(self, seed: int, handicap: Any):
        import paperrobot
        from ..core.contract import drive_all

        if self.module:
            importlib.import_module(self.module)
        match = paperrobot.new_game(self.game, seed=seed, handicap=handicap, **dict(self.setup))
        from .rungs import controller

        controllers = {self.robot_side: "robot",
                       **{side: controller(match, side, self.opponent, seed) for side in self.other_sides}}
        return drive_all(match, players.resolve(controllers, match))  # search:N made here (core/players.py)


def registry_matchup(game: str, setup: dict, opponent: str) -> Matchup:
    """The matchup of a registered game that has a ``handicap`` set-up option (a whole number, in the game's
    points). Raises one PaperRobotError line when the game, an option or the opponent is wrong."""
    import paperrobot

    info = paperrobot.game_info(game)
    names = [o.name for o in info.options]
    if "handicap" not in names:
        raise PaperRobotError(f"{game} has no handicap set-up option yet, so it cannot be swept; its options: "
                              f"{', '.join(names) or 'none'}")
    if "handicap" in setup:
        raise PaperRobotError("the sweep sets the handicap itself: leave out --handicap")
    from .rungs import check_rung, flies

    try:  # a rung of the ladder: random, policy, robot (the mirror), search:N, mix:...
        check_rung(opponent)
        if players.known(opponent) and opponent not in players.BUILT_IN:
            players.check(opponent, "--opponent")  # a named player's argument (search:N, N at most 100,000)
    except PaperRobotError as exc:
        raise PaperRobotError(f"--opponent: {exc}") from None
    option = info.option("handicap")
    if option.kind != "int":
        raise PaperRobotError(f"{game}'s handicap option is of kind '{option.kind}'; a sweep needs a whole number")
    checked = info.check_setup(setup)
    checked.pop("handicap", None)
    others = tuple(s for s in info.sides if s != info.robot_side)
    if opponent != "robot" and not all(flies(opponent, side, game, checked) for side in others):
        raise PaperRobotError(f"--opponent {opponent} cannot fly {game}'s {', '.join(others)} side")
    module = getattr(info.build, "__module__", None)
    play = RegistryPlay(game, tuple(sorted(checked.items())), info.robot_side, others, opponent,
                        None if module is None or module.startswith("paperrobot.") else module)
    spec = {"game": game, "setup": checked, "opponent": opponent, "robot_side": info.robot_side,
            "engine_version": info.engine_version}
    digest = hashlib.sha256(json.dumps(spec, sort_keys=True, default=str).encode()).hexdigest()[:12]
    given = str(setup.get("robot_rules") or "")
    if given and "\n" not in given:  # a file: its name goes with the contents (a file edited since is refused)
        spec["robot_rules_file"] = str(Path(given).resolve())
    shown = " ".join(f"{k}={v if k != 'robot_rules' or chr(10) not in str(v) else 'variant'}"
                     for k, v in sorted(setup.items()))
    label = f"{game}{(' ' + shown) if shown else ''}: robot ({info.robot_side}) vs {opponent} ({', '.join(others)})"
    return Matchup(f"{game}/{digest}", label, play, info.robot_side, opponent, option.low, option.high, True,
                   getattr(info, "handicap_unit", "points"), spec)


# ------------------------------------------------------------------------------------------ sweep
@dataclass(frozen=True)
class Plan:
    base_seed: int = 1
    start: float = 0.0
    step: float = 10.0  # the first bracketing step; doubles at every probe
    probe_games: int = 200
    levels: int = 7
    games_per_level: int = 200
    precision: float | None = None  # wanted Fieller half-width, in handicap points
    max_games: int = 200_000  # at most this many stage-2 games per matchup when chasing a precision
    max_probes: int = 12
    chunk: int = 25
    fresh_seeds: bool = False  # True: each level its own seeds (no common random numbers)

    def store_key(self, matchup: "Matchup") -> str:
        """The games of a sweep in the store: the matchup's, with this base seed and seeding."""
        return f"{matchup.key}/seed{self.base_seed}{'/fresh' if self.fresh_seeds else ''}"

    def level_base(self, level: float) -> int:
        """The base seed of a level: the plan's (common random numbers), or one drawn from (base, level)."""
        if not self.fresh_seeds:
            return self.base_seed
        digest = hashlib.sha256(f"{self.base_seed}/{float(level)!r}".encode()).digest()
        return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF  # seeds stay below 2**63 (SQLite, new_game)


class SweepError(PaperRobotError):
    pass


@dataclass
class Sweep:
    matchup: Matchup
    plan: Plan
    probes: list[tuple[float, int, float]]  # (level, games, score) in probing order
    bracket: tuple[float, float]
    levels: list[float]
    per_level: int
    fit: Any  # sim.fit.BalanceFit
    played: int  # games played by this run
    reused: int  # games found in the store
    precision_met: bool | None
    notes: list[str]
    seconds: float

    @property
    def stage2_games(self) -> int:
        return self.per_level * len(self.levels)


class Progress:
    """What a sweep tells its caller; override to show progress bars."""

    def stage(self, text: str, games: int) -> None:
        pass

    def games(self, count: int) -> None:
        pass


def run_sweep(matchup: Matchup, plan: Plan, store: BalanceStore, engine, progress: Progress | None = None) -> Sweep:
    from .fit import fit_sweep

    progress = progress or Progress()
    started = time.perf_counter()
    key = plan.store_key(matchup)
    if matchup.spec.get("robot_rules_file") and key not in store.keys():
        import paperrobot
        from ..core.robot_rules import refuse_changed
        mine = {**matchup.spec, "base_seed": plan.base_seed, "fresh_seeds": plan.fresh_seeds}
        refuse_changed(store.specs(), mine, str(store.path or "the sweep database"),
                       paperrobot.game_info(matchup.spec["game"]).robot_rules)
    store.matchup(key, matchup.label, {**matchup.spec, "base_seed": plan.base_seed, "fresh_seeds": plan.fresh_seeds})
    have = store.games(key)
    before = set(have)
    counts = {"played": 0}
    notes: list[str] = []

    def ensure(levels: Sequence[float], n: int, what: str) -> None:
        chunks = []
        for level in levels:
            missing = [i for i in range(n) if (level, i) not in have]
            for indices in split(missing, task_size(plan.chunk, len(missing), cost("robot", matchup.opponent))):
                chunks.append(Chunk(matchup.play, matchup.robot_side, plan.level_base(level), matchup.handicap(level),
                                    indices))
        todo = sum(len(c.indices) for c in chunks)
        progress.stage(what, todo)
        for rows in engine.map(chunks):
            store.add(key, rows)
            for row in rows:
                have[(row.level, row.seed_index)] = row.score
            counts["played"] += len(rows)
            progress.games(len(rows))

    def score(level: float, n: int) -> float:
        return sum(have[(level, i)] for i in range(n)) / n

    # ---- stage 1: bracket the 50 % point
    probes: list[tuple[float, int, float]] = []
    seen: dict[float, float] = {}

    def probe(level: float) -> float:
        level = matchup.clamp(level)
        if level not in seen:
            ensure([level], plan.probe_games, f"bracket: h {level:+g}")
            seen[level] = score(level, plan.probe_games)
            probes.append((level, plan.probe_games, seen[level]))
        return seen[level]

    def find_bracket() -> tuple[float, float] | None:
        below = [h for h, s in seen.items() if s < 0.4]
        above = [h for h, s in seen.items() if s > 0.6]
        pairs = [(lo, hi) for lo in below for hi in above if lo < hi]
        return min(pairs, key=lambda p: p[1] - p[0]) if pairs else None

    start = matchup.clamp(plan.start)
    probe(start)
    for direction in ((+1, -1) if seen[start] <= 0.6 else (-1, +1)):
        step, level = plan.step, start
        while find_bracket() is None and len(probes) < plan.max_probes:
            target = matchup.clamp(level + direction * step)
            # walk this way until the robot scores past the threshold on this side
            if target == level:
                break  # the option's limit
            s = probe(target)
            level, step = target, step * 2
            if (direction > 0 and s > 0.6) or (direction < 0 and s < 0.4):
                break
        if find_bracket() is not None:
            break
    bracket = find_bracket()
    if bracket is None:
        shown = ", ".join(f"h {h:+g}: {100 * s:.1f}%" for h, _, s in probes)
        raise SweepError(f"could not bracket the even point of {matchup.label} (robot score {shown}); the 50% "
                         f"point lies beyond the handicaps tried or the option's limits "
                         f"[{matchup.low}, {matchup.high}]")

    # ---- stage 2: the same seeds at levels across the bracket
    lo, hi = bracket
    count = max(2, plan.levels)
    levels = sorted({matchup.clamp(lo + (hi - lo) * k / (count - 1)) for k in range(count)})
    n = plan.games_per_level
    ensure(levels, n, f"fit: {len(levels)} levels x {n} seeds")

    def fit_now():
        h, y, g = [], [], []
        for k, level in enumerate(levels):
            for i in range(n):
                h.append(level)
                y.append(have[(level, i)])
                g.append(k * n + i if plan.fresh_seeds else i)  # a cluster per seed; every game its own when fresh
        return fit_sweep(h, y, g)

    fit = fit_now()
    met = None
    if plan.precision is not None:
        while True:
            half = fit.interval.half_width if fit.slope_positive else math.inf
            if half <= plan.precision:
                met = True
                break
            if n * len(levels) >= plan.max_games:
                met = False
                notes.append(f"stopped at the cap of {plan.max_games} stage-2 games before the half-width reached "
                             f"{plan.precision:g}")
                break
            if math.isfinite(half):
                # Var(h50) ~ 1/N: the games needed grow with (half/W)^2; aim 10 % past it, at most double
                need = math.ceil(n * (half / plan.precision) ** 2 * 1.1)
                add = min(max(need - n, max(10, n // 4)), n)
            else:
                add = n
            n = min(n + add, max(plan.max_games // len(levels), n + 1))
            ensure(levels, n, f"precision: {len(levels)} levels x {n} seeds")
            fit = fit_now()
    used = {(level, i) for level, games, _ in probes for i in range(games)}
    used |= {(level, i) for level in levels for i in range(n)}
    return Sweep(matchup, plan, probes, bracket, levels, n, fit, counts["played"], len(used & before), met, notes,
                 time.perf_counter() - started)


# ----------------------------------------------------------------------------------------- report
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def report_lines(sweep: Sweep) -> list[str]:
    fit, m = sweep.fit, sweep.matchup
    unit = m.unit
    lines = [f"Even-fight handicap, {m.label}", plain_answer(sweep)]  # the answer first, then the statistics
    if fit.slope_positive:
        lines.append(f"h50    {fit.h50:+.1f} {unit}   95% Fieller {fit.interval.low:+.1f} to {fit.interval.high:+.1f}"
                     f" (half-width {fit.interval.half_width:.1f})   slope {100 * fit.slope_at_50:.2f} %/{unit[:-1] if unit.endswith('s') else unit}"
                     f" at 50%")
    else:
        h50 = "n/a" if fit.h50 is None else f"{fit.h50:+.1f}"
        lines.append(f"h50    {h50} {unit}   no interval: the slope is not clearly positive (b1 = {fit.b1:.4g}; "
                     f"Fieller's b1^2 - z^2 v11 = {fit.interval.leading:.3g}), so no even point can be given")
    seeds = (f"seeds 0..{sweep.per_level - 1} of a base drawn per level from {sweep.plan.base_seed}, robust "
             f"covariance" if sweep.plan.fresh_seeds else f"seeds 0..{sweep.per_level - 1} at every level "
             f"(base {sweep.plan.base_seed}), covariance clustered by seed")
    lines.append(f"Fit    logit p = {fit.b0:.3f} {'+' if fit.b1 >= 0 else '-'} {abs(fit.b1):.4f} h   deviance "
                 f"{fit.deviance:.1f} on {fit.df} df   {seeds}")
    wins = sum(lv.wins for lv in fit.levels)
    draws = sum(lv.draws for lv in fit.levels)
    losses = sum(lv.losses for lv in fit.levels)
    lines.append(f"Games  N {fit.games}  W {wins}  L {losses}  D {draws}   levels {sweep.levels[0]:+g} .. "
                 f"{sweep.levels[-1]:+g} ({len(sweep.levels)})   played now {sweep.played}, from the store "
                 f"{sweep.reused}")
    lines.append(f"{'Level':>7} {'h':>7} {'N':>6} {'W':>6} {'L':>6} {'D':>5} {'score':>7}   {'95% Wilson':<13} "
                 f"{'fitted':>7} {'dev.res':>7}")
    for lv in fit.levels:
        lines.append(f"{'':>7} {lv.handicap:>+7g} {lv.games:>6} {lv.wins:>6} {lv.losses:>6} {lv.draws:>5} "
                     f"{_pct(lv.score):>7}   {_pct(lv.low):>5}-{_pct(lv.high):<7} {_pct(lv.fitted):>7} "
                     f"{lv.residual:>+7.2f}")
    lines.append("Bracket " + ", ".join(f"h {h:+g}: {_pct(s)}" for h, _, s in sweep.probes)
                 + f" ({sweep.plan.probe_games} games each) -> [{sweep.bracket[0]:+g}, {sweep.bracket[1]:+g}]")
    if sweep.plan.precision is not None:
        state = "reached" if sweep.precision_met else "NOT reached"
        lines.append(f"Precision  half-width <= {sweep.plan.precision:g} {state} with {sweep.stage2_games} stage-2 "
                     f"games ({sweep.per_level} per level)")
    lines.extend(sweep.notes)
    lines.append(caveat(m.opponent))
    return lines


def report_dict(sweep: Sweep) -> dict:
    m = sweep.matchup
    return {"matchup": sweep.plan.store_key(m), "label": m.label, "spec": m.spec, "opponent": m.opponent, "unit": m.unit,
            "plain_answer": plain_answer(sweep), "caveat": caveat(m.opponent), "plan": sweep.plan.__dict__,
            "probes": [{"handicap": h, "games": n, "score": s} for h, n, s in sweep.probes],
            "bracket": list(sweep.bracket), "levels": sweep.levels, "games_per_level": sweep.per_level,
            "precision_met": sweep.precision_met, "played_now": sweep.played, "from_store": sweep.reused,
            "seconds": sweep.seconds, "notes": sweep.notes, "fit": sweep.fit.to_dict()}


def slug(matchup: Matchup) -> str:
    """The report files' stem: readable, e.g. sfb-scenario5-policy (sim/balance_words.py)."""
    return report_name(matchup)


def sweep_from_report(data: dict) -> Sweep:
    """The sweep of a report written by ``report_dict`` (the JSON in ``--out``), for reading and plotting it
    again (the web page's results view): no games are played. KeyError/TypeError/ValueError when ``data`` is
    not such a report."""
    from .fit import BalanceFit, Fieller, Level

    f = data["fit"]
    levels = tuple(Level(float(lv["handicap"]), int(lv["games"]), int(lv["wins"]), int(lv["draws"]),
                         int(lv["losses"]), float(lv["wilson95"][0]), float(lv["wilson95"][1]), lv.get("fitted"),
                         lv.get("deviance_residual")) for lv in f["levels"])
    bounds = f.get("fieller95") or (None, None)
    fit = BalanceFit(float(f["b0"]), float(f["b1"]), tuple(tuple(float(x) for x in row) for row in f["cov"]),
                     Fieller(bounds[0], bounds[1], float(f["fieller_leading"])), levels, float(f["deviance"]),
                     int(f["clusters"]), int(f["games"]))
    spec = data.get("spec") or {}
    matchup = Matchup(str(data["matchup"]), str(data["label"]), None, spec.get("robot_side", "robot"),
                      str(data["opponent"]), unit=str(data.get("unit", "points")), spec=spec)
    known = set(Plan.__dataclass_fields__)
    plan = Plan(**{k: v for k, v in (data.get("plan") or {}).items() if k in known})
    probes = [(float(p["handicap"]), int(p["games"]), float(p["score"])) for p in data.get("probes", [])]
    return Sweep(matchup, plan, probes, tuple(data["bracket"]), [float(x) for x in data["levels"]],
                 int(data["games_per_level"]), fit, int(data.get("played_now", 0)), int(data.get("from_store", 0)),
                 data.get("precision_met"), list(data.get("notes", [])), float(data.get("seconds", 0.0)))
