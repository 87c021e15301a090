"""The picture of a sweep: robot score against handicap, per-level Wilson intervals, the fitted logistic curve
and the even point with its Fieller interval. matplotlib with the Agg backend (no display needed)."""
from __future__ import annotations

from pathlib import Path


def plot_sweep(sweep, stem: str | Path) -> list[Path]:
    """Write ``stem.png`` and ``stem.svg`` (each atomically); returns their paths."""
    from ..core.files import write_bytes_atomic

    paths = []
    for suffix, data in render_sweep(sweep).items():
        path = Path(stem).with_suffix(suffix)
        write_bytes_atomic(path, data)
        paths.append(path)
    return paths


def render_sweep(sweep) -> dict[str, bytes]:
    """The picture as {".png": bytes, ".svg": bytes}, nothing written (the caller writes it atomically)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from .balance import caveat

    fit, m = sweep.fit, sweep.matchup
    levels = fit.levels
    h = np.array([lv.handicap for lv in levels])
    score = np.array([lv.score for lv in levels])
    low = np.array([lv.low for lv in levels])
    high = np.array([lv.high for lv in levels])
    shown = list(h) + [ph for ph, _, _ in sweep.probes]
    span = max(max(shown) - min(shown), 1.0)
    left, right = min(shown) - 0.05 * span, max(shown) + 0.05 * span
    if fit.slope_positive:
        left, right = min(left, fit.interval.low - 0.05 * span), max(right, fit.interval.high + 0.05 * span)

    fig, ax = plt.subplots(figsize=(8, 5), dpi=110)
    try:
        if fit.slope_positive:
            ax.axvspan(fit.interval.low, fit.interval.high, color="tab:orange", alpha=0.18,
                       label=f"95% Fieller {fit.interval.low:+.1f} to {fit.interval.high:+.1f}")
            ax.axvline(fit.h50, color="tab:orange", lw=1.5, label=f"even point h50 = {fit.h50:+.1f} {m.unit}")
        x = np.linspace(left, right, 300)
        ax.plot(x, 100 / (1 + np.exp(-(fit.b0 + fit.b1 * x))), color="tab:blue", lw=2,
                label=f"fit: logit p = {fit.b0:.2f} {'+' if fit.b1 >= 0 else '-'} {abs(fit.b1):.4f} h")
        ax.errorbar(h, 100 * score, yerr=[100 * (score - low), 100 * (high - score)], fmt="o", color="black",
                    ecolor="dimgray", capsize=4, ms=5, label=f"robot score per level, 95% Wilson ({levels[0].games}"
                                                                 f" games each)")
        probes = [(ph, ps) for ph, _, ps in sweep.probes if ph not in set(h.tolist())]
        if probes:
            ax.plot([p[0] for p in probes], [100 * p[1] for p in probes], "x", color="gray", ms=6,
                    label=f"bracketing probes ({sweep.plan.probe_games} games)")
        ax.axhline(50, color="gray", lw=0.8, ls="--")
        ax.set_xlim(left, right)
        ax.set_ylim(0, 100)
        ax.set_xlabel(f"handicap given to the robot ({m.unit})")
        ax.set_ylabel("robot score, % (draw = 1/2)")
        ax.set_title(f"Even-fight handicap: {m.label}", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize=8, framealpha=0.9)
        fig.text(0.01, 0.01, caveat(m.opponent), fontsize=6.5, color="dimgray", wrap=True)
        fig.tight_layout(rect=(0, 0.05, 1, 1))
        out = {}
        for suffix in (".png", ".svg"):
            buffer = io.BytesIO()
            fig.savefig(buffer, format=suffix[1:])
            out[suffix] = buffer.getvalue()
        return out
    finally:
        plt.close(fig)
