"""The ladder's report: the table, ``ladder.json`` (the rungs), ``fit.json`` (the model a person's rating reads),
and the plots (rating per rung; with ``--balance``, the even-fight handicap against rating)."""
from __future__ import annotations

import math
import textwrap
from pathlib import Path

from .fit import Z95, Fieller
from .ratings import ANCHOR, Rating


def ordered(ladder) -> list[Rating]:
    """Rungs from the strongest down: rated ones by rating, those with only a bound at the ends."""
    def key(r: Rating) -> float:
        if r.rating is not None:
            return -r.rating
        return -math.inf if r.bound == "lower" else math.inf
    return sorted(ladder.fit.ratings.values(), key=key)


def against_robot(ladder, name: str) -> tuple[int, int, int]:
    """(wins, draws, losses) of ``name`` flying the player side against the robot, at the ladder's handicap."""
    scores = [r.score for r in ladder.results if r.robot_rung == ANCHOR and r.player_rung == name
              and r.handicap == ladder.spec.handicap]
    return sum(s == 1 for s in scores), sum(s == 0.5 for s in scores), sum(s == 0 for s in scores)


def _rating_text(r: Rating) -> tuple[str, str]:
    if r.rating is not None:
        return f"{r.rating:.0f}", f"{r.low:.0f} to {r.high:.0f}" if r.name != ANCHOR else "anchor"
    if r.bound == "upper" and math.isfinite(r.high):
        return f"< {r.high:.0f}", "lost every game"
    if r.bound == "lower" and math.isfinite(r.low):
        return f"> {r.low:.0f}", "won every game"
    return "n/a", "not linked"


def table_lines(ladder) -> list[str]:
    fit, spec = ladder.fit, ladder.spec
    rows = ordered(ladder)
    width = max([12] + [len(r.name) for r in rows])  # a mixed rung's name is longer than the others
    lines = [f"Ladder, {spec.label} (handicap {spec.handicap:+g} {spec.unit}; seeds from base {spec.base_seed})",
             f"{'rung':<{width}} {'rating':>7}  {'95% interval':<16} {'seat':>5}  {'games':>6}  {'vs robot W-D-L':<15} "
             f"{'score':>6}  {'LOS over next':>13}"]
    for i, r in enumerate(rows):
        value, interval = _rating_text(r)
        if r.name == ANCHOR:
            vs, score = "-", "-"
        else:
            w, d, l = against_robot(ladder, r.name)
            n = w + d + l
            vs, score = (f"{w}-{d}-{l}", f"{100 * (w + d / 2) / n:.1f}%") if n else ("-", "-")
        below = rows[i + 1] if i + 1 < len(rows) else None
        if below is not None and r.rating is not None and below.rating is not None:
            los = f"{100 * fit.superiority(r.name, below.name):.1f}%"
        elif below is not None and below.bound == "upper":
            los = "(bound)"
        else:
            los = "-"
        seat = fit.seat(r.name) if r.name != ANCHOR else None
        seat_text = f"{seat[0]:.0f}" if seat is not None else "-"
        lines.append(f"{r.name:<{width}} {value:>7}  {interval:<16} {seat_text:>5}  {r.games:>6}  {vs:<15} {score:>6}  "
                     f"{los:>13}")
    side = fit.side
    slope = fit.handicap_slope
    extra = [f"side term {side * 400 / math.log(10):+.0f} rating points for the player side (the rating is "
             f"side-free; seat = rating + side term, the rung flying the player's ship, what its score against the "
             f"robot reads)" if "side" in fit.params else "no side term (seat = rating)"]
    if slope is not None:
        per_point = -slope * 400 / math.log(10)
        extra.append(f"one {spec.unit[:-1] if spec.unit.endswith('s') else spec.unit} of handicap to the robot is "
                     f"worth {per_point:.1f} rating points to it")
    lines.append(f"Fit: one Bradley-Terry fit over {fit.games} games (of the rungs with a finite rating), no prior, robot anchored at 1000, "
                 f"{'covariance clustered by seed' if fit.clustered else 'model-based covariance'}; "
                 + "; ".join(extra))
    state = "reached" if ladder.precision_met else "NOT reached"
    lines.append(f"Precision: adjacent 95% half-widths <= {ladder.plan.precision:g} {state}; "
                 f"{len(ladder.results)} games ({ladder.played} played now), {ladder.seconds:.1f} s")
    lines.extend(ladder.notes)
    for name, sweep in ladder.balance.items():
        if isinstance(sweep, str):
            lines.append(f"Even fight vs {name}: {sweep}")
            continue
        f = sweep.fit
        low, high = f.b1 - Z95 * math.sqrt(f.cov[1][1]), f.b1 + Z95 * math.sqrt(f.cov[1][1])
        if f.slope_positive:
            lines.append(f"Even fight vs {name}: robot handicap {f.h50:+.1f} {spec.unit}, 95% Fieller "
                         f"{f.interval.low:+.1f} to {f.interval.high:+.1f} (slope {f.b1:.4f}/point, 95% {low:.4f} "
                         f"to {high:.4f}; {f.games} games)")
        else:
            lines.append(f"Even fight vs {name}: no interval (the slope is not clearly positive)")
    curve = even_curve(ladder)
    if curve:
        lines.append(f"Even fight from the joint fit (rating and handicap worth; assumes a point is worth the same "
                     f"at every strength), robot handicap in {spec.unit}:")
        for name, h, interval in curve:
            shown = (f"95% Fieller {interval.low:+.1f} to {interval.high:+.1f}" if interval.low is not None
                     else "no interval")
            lines.append(f"  {name:<12} {h:+.1f}  {shown}")
    return lines


def even_curve(ladder) -> list[tuple[str, float, Fieller]]:
    """(rung, even handicap, Fieller interval) from the joint fit for every rated rung but the robot, strongest
    first: the even-fight handicap against rating (LadderFit.even)."""
    out = []
    for r in ordered(ladder):
        if r.name == ANCHOR or r.rating is None:
            continue
        h, interval = ladder.fit.even(r.name)
        if h is not None and interval is not None:
            out.append((r.name, h, interval))
    return out


def rungs_json(ladder) -> list[dict]:
    """Every rung's rating (side-free) and, but for the robot, its rating from the player's seat."""
    rows = []
    for r in ordered(ladder):
        row = r.to_dict()
        seat = ladder.fit.seat(r.name) if r.name != ANCHOR else None
        if seat is not None:
            row.update(seat=round(seat[0], 2), seat_low=round(seat[1], 2), seat_high=round(seat[2], 2))
        rows.append(row)
    return rows


def fit_json(ladder) -> dict:
    spec = ladder.spec
    out = {"game": spec.game, "setup": spec.setup, "handicap": spec.handicap, "unit": spec.unit,
           "engine_version": spec.engine_version, "base_seed": spec.base_seed, "ladder": spec.key,
           "rungs": rungs_json(ladder), "model": ladder.fit.model(), "precision": ladder.plan.precision,
           "precision_met": ladder.precision_met, "games": len(ladder.results), "seconds": ladder.seconds,
           "notes": ladder.notes, "balance": {}}
    for name, sweep in ladder.balance.items():
        out["balance"][name] = sweep if isinstance(sweep, str) else sweep.fit.to_dict()
    out["even_from_fit"] = {name: {"h50": h, "low": i.low, "high": i.high} for name, h, i in even_curve(ladder)}
    return out


def plot_ladder(ladder) -> dict[str, bytes]:
    """Rating per rung with its 95 % interval (bounds drawn as arrows): {".png": bytes, ".svg": bytes}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(reversed(ordered(ladder)))
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.55 * len(rows)), dpi=110)
    try:
        for y, r in enumerate(rows):
            if r.rating is not None:
                ax.errorbar([r.rating], [y], xerr=[[r.rating - r.low], [r.high - r.rating]], fmt="o",
                            color="tab:blue", capsize=4)
            elif r.bound == "upper" and math.isfinite(r.high):
                ax.annotate("", xy=(r.high - 120, y), xytext=(r.high, y),
                            arrowprops={"arrowstyle": "->", "color": "tab:red"})
                ax.plot([r.high], [y], "|", color="tab:red", ms=12)
            elif r.bound == "lower" and math.isfinite(r.low):
                ax.annotate("", xy=(r.low + 120, y), xytext=(r.low, y),
                            arrowprops={"arrowstyle": "->", "color": "tab:red"})
                ax.plot([r.low], [y], "|", color="tab:red", ms=12)
        ax.set_yticks(range(len(rows)), [f"{r.name} ({r.games})" for r in rows])
        ax.axvline(1000, color="gray", lw=0.8, ls="--")
        ax.set_xlabel("rating (the published robot = 1000; 95% intervals; arrows: one-sided bounds)")
        ax.set_title(textwrap.fill(f"Opponent ladder: {ladder.spec.label}", 80), fontsize=8)
        ax.grid(alpha=0.3, axis="x")
        fig.tight_layout()
        return _render(fig)
    finally:
        plt.close(fig)


def plot_handicap(ladder) -> dict[str, bytes]:
    """The even-fight handicap per rung (Fieller intervals) against the rung's rating: {".png": ..., ".svg": ...}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=110)
    try:
        for name, sweep in ladder.balance.items():
            rating = ladder.fit.ratings.get(name)
            if isinstance(sweep, str) or rating is None or rating.rating is None or not sweep.fit.slope_positive:
                continue
            f = sweep.fit
            ax.errorbar([rating.rating], [f.h50], xerr=[[rating.rating - rating.low], [rating.high - rating.rating]],
                        yerr=[[f.h50 - f.interval.low], [f.interval.high - f.h50]], fmt="o", capsize=4)
            ax.annotate(name, (rating.rating, f.h50), textcoords="offset points", xytext=(6, 6), fontsize=8)
        for name, h, interval in even_curve(ladder):  # hollow: from the joint fit, where no sweep was run
            rating = ladder.fit.ratings[name]
            low = interval.low if interval.low is not None else h
            high = interval.high if interval.high is not None else h
            ax.errorbar([rating.rating], [h], xerr=[[rating.rating - rating.low], [rating.high - rating.rating]],
                        yerr=[[h - low], [high - h]], fmt="o", mfc="none", color="gray", capsize=3, alpha=0.8)
            ax.annotate(f"{name} (fit)", (rating.rating, h), textcoords="offset points", xytext=(6, -10),
                        fontsize=7, color="gray")
        ax.axhline(0, color="gray", lw=0.8, ls="--")
        ax.set_xlabel("rung rating, side-free (robot = 1000; a person's rating is on this scale)")
        ax.set_ylabel(f"even-fight handicap for the robot ({ladder.spec.unit})\nfilled: own sweep; hollow: joint fit")
        ax.set_title(textwrap.fill(f"Even-fight handicap against rating: {ladder.spec.label}", 80), fontsize=8)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        return _render(fig)
    finally:
        plt.close(fig)


def _render(fig) -> dict[str, bytes]:
    """The figure as PNG and SVG bytes: nothing written here (the caller writes the report folder atomically)."""
    import io

    pictures = {}
    for suffix in (".png", ".svg"):
        buffer = io.BytesIO()
        fig.savefig(buffer, format=suffix[1:])
        pictures[suffix] = buffer.getvalue()
    return pictures
