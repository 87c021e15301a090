"""The balance statistics on synthetic games with a known even point (h50 = 40, 25 % -> 75 % over 60 points,
7 levels 10..70): coverage of the 95 % Fieller interval, its half-width and the spread of h50, for fixed-size
sweeps with full, partial and no common random numbers, with and without clustering by seed; then whole
sweeps stopped by the --precision rule. The figures of docs/balance.md.

    .venv/bin/python benchmarks/balance_validation.py [--replicates 400] [--quick]
"""
import argparse
import time

from paperrobot.sim import synthetic


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replicates", type=int, default=400)
    parser.add_argument("--stopping", type=int, default=200, help="replicates of the precision-stopping rows")
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"{'games/level':>11} {'total':>6} {'shared':>6} {'cov':>9} {'sd h50':>7} {'half-width':>10} "
          f"{'coverage':>8}")
    rows = [(50, 1.0, True), (50, 1.0, False), (50, 0.5, True), (50, 0.0, True), (200, 1.0, True),
            (200, 0.5, True), (200, 0.5, False), (200, 0.0, True), (1000, 0.5, True)]
    for games, shared, cluster in rows:
        r = synthetic.coverage(args.replicates, games, shared=shared, cluster=cluster, draw=0.05)
        print(f"{games:>11} {7 * games:>6} {shared:>6.1f} {'cluster' if cluster else 'model':>9} {r['sd_h50']:>7.2f}"
              f" {r['mean_half_width']:>10.2f} {r['coverage']:>8.3f}", flush=True)
    print()
    print(f"{'precision W':>11} {'shared':>6} {'mean stage-2 games':>18} {'coverage':>8}")
    for precision, shared in ((6.0, 0.5), (3.0, 0.5)):
        r = synthetic.stopping_coverage(args.stopping, precision, shared=shared, draw=0.05)
        print(f"{precision:>11.1f} {shared:>6.1f} {r['mean_stage2_games']:>18.0f} {r['coverage']:>8.3f}", flush=True)
    print(f"({args.replicates} replicates per fixed row, {args.stopping} per stopping row, draws 5 %; "
          f"{time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
