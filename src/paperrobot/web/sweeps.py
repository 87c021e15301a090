"""Balance sweeps for the results page, read only: the reports ``paperrobot balance --out DIR`` wrote.

The page reads the ``--out`` folder's JSON reports, not the ``--db`` games: a report holds the sweep as it
was reported (which levels were probes and which were fitted, the plan, the fit), while the database holds
only games, from which the fit could not be rebuilt without guessing the plan. A ``balance.sqlite`` given
instead (the default ``--db`` lives in ``--out``) stands for its folder. The plot is drawn again from the
report by ``sim/plot.py`` (the command's own plot, no second one) as SVG, so a folder without the SVG files
still shows it and the page never serves an SVG file it did not draw.
"""
from __future__ import annotations

import json
import sqlite3
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import quote

from ..core.errors import PaperRobotError
from ..core.extras import needs_extra

MAX_REPORTS = 100


@dataclass
class SweepView:
    name: str  # the report's file stem: the plot's address
    sweep: object  # sim.balance.Sweep
    caveat: str

    @property
    def wdl(self) -> tuple[int, int, int]:
        levels = self.sweep.fit.levels
        return sum(lv.wins for lv in levels), sum(lv.draws for lv in levels), sum(lv.losses for lv in levels)


def sweep_folder(path: str) -> Path | None:
    """The ``--out`` folder ``path`` names (the folder, or a balance-sweep database in it); None when ``path``
    is neither (then it may be a ``simulate`` results file)."""
    item = Path(path).expanduser()
    if item.is_dir():
        return item
    if item.is_file() and _is_balance_db(item):
        return item.parent
    return None


def _is_balance_db(file: Path) -> bool:
    try:
        # immutable: no locks, so no -shm/-wal files appear beside a WAL database (balance's --db is one)
        db = sqlite3.connect(f"file:{quote(str(file.resolve()))}?mode=ro&immutable=1", uri=True)
        try:
            names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            db.close()
    except sqlite3.Error:
        return False
    return "balance_games" in names


def open_sweeps(folder: Path) -> list[SweepView]:
    """Every balance report in ``folder``, by file name; one PaperRobotError line when there is none."""
    from ..sim.balance import sweep_from_report

    views = []
    for report in sorted(folder.glob("*.json"))[:MAX_REPORTS]:
        try:
            data = json.loads(report.read_text())
            sweep = sweep_from_report(data)
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            continue  # another JSON file, not a report of 'paperrobot balance'
        views.append(SweepView(report.stem, sweep, str(data.get("caveat", ""))))
    if not views:
        raise PaperRobotError(f"{folder}: holds no balance report (the JSON files 'paperrobot balance --out "
                              f"{folder.name}' writes)")
    return views


def sweep_svg(folder: Path, name: str) -> str:
    """The plot of report ``name`` in ``folder``, as SVG text, drawn by sim/plot.py; cached per report version."""
    report = folder / f"{name}.json"
    if "/" in name or name.startswith(".") or not report.is_file():
        raise PaperRobotError(f"{folder}: has no balance report '{name[:60]}'")
    return _drawn(str(report.resolve()), report.stat().st_mtime_ns)


@lru_cache(maxsize=32)
def _drawn(report: str, version: int) -> str:  # version: the file's mtime, so an updated report is drawn again
    from ..sim.balance import sweep_from_report
    from ..sim.plot import plot_sweep

    if find_spec("matplotlib") is None:  # sim/plot.py imports it only when drawing
        raise PaperRobotError(needs_extra("drawing a sweep", "balance", "matplotlib"))

    try:
        sweep = sweep_from_report(json.loads(Path(report).read_text()))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        raise PaperRobotError(f"{report}: not a balance report") from None
    with tempfile.TemporaryDirectory(prefix="paperrobot-plot-") as scratch:
        paths = plot_sweep(sweep, Path(scratch) / "plot")
        return next(p for p in paths if p.suffix == ".svg").read_text()
