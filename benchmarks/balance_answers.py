"""The answers of the balance sweeps in one table (docs/balance.md "The answers"), and the measured even points
that play, battle, simulate and the web page offer as the suggested difficulty (src/paperrobot/sim/even_points.toml).

    .venv/bin/python benchmarks/balance_answers.py reports/ [--write-even-points] [--runs runs.jsonl]

Reads every sweep's KEY.json under the folder; ``--runs`` adds the games and CPU time of each command (the JSON
lines the sweeps were run with: {"name", "command", "cpu_s"}).
"""
from __future__ import annotations

import argparse
import json
import tomllib
from pathlib import Path

import paperrobot

EVEN_POINTS = Path(paperrobot.__file__).parent / "sim" / "even_points.toml"


def robot_points(spec: dict) -> tuple[str, float | None]:
    """The robot ship's (or fleet's) name and its value in the game's points, for 'as a percentage of'."""
    setup = spec["setup"]
    if spec["game"] == "fc":
        from paperrobot.fc import ship
        card = ship(setup["robot_ship"], setup.get("ships_dir") or None)
        return card.name, card.points
    if spec["game"] == "armada":
        from paperrobot.armada.data import catalogue
        from paperrobot.armada.setup import fleet_list
        ships, squads = catalogue(setup.get("ships_dir") or None)
        names = fleet_list(setup["imperial"])
        return "Imperial fleet", sum((ships[n] if n in ships else squads[n]).points for n in names)
    from paperrobot.sfb.data import scenario
    return (setup.get("robot_ship") or scenario(setup["scenario"]).robot.ship), None


def rows(folder: Path, runs: dict) -> list[dict]:
    out = []
    for path in sorted(folder.glob("*/*.json")):
        report = json.loads(path.read_text())
        fit, spec = report["fit"], report["spec"]
        name, points = robot_points(spec)
        low, high = (fit["fieller95"] or (None, None)) if fit else (None, None)
        run = runs.get(path.parent.name, {})
        out.append({"folder": path.parent.name, "game": spec["game"], "setup": spec["setup"], "robot": name,
                    "points": points, "opponent": report["opponent"], "unit": report["unit"],
                    "h50": fit["h50"] if fit else None, "low": low, "high": high,
                    "games": report["played_now"] + report["from_store"], "fresh": report["plan"]["fresh_seeds"],
                    "cpu": run.get("cpu_s"), "command": run.get("command"), "notes": report["notes"]})
    return out


def at_table(r: dict) -> str:
    """The even point as the table sees it: boxes (FC, SFB) or squadrons (Armada), and who gets them."""
    from paperrobot.core import handicap as hc

    who = "robot" if r["h50"] >= 0 else ("player" if r["game"] != "armada" else "Rebels")
    if r["game"] == "armada":
        count = hc.units_for(round(r["h50"]), 8 if r["h50"] >= 0 else 7)
        return f"{count} {'TIE fighters' if r['h50'] >= 0 else 'Z-95s'} to the {who if r['h50'] < 0 else 'Imperials'}"
    price = 0.6 if r["game"] == "fc" else 1.15
    return f"{hc.units_for(round(r['h50']), price)} shield boxes to the {who}"


def pct(x, points):
    return f"{100 * x / points:+.0f}%" if x is not None and points else ""


def markdown(table: list[dict]) -> str:
    lines = ["| matchup | opponent | seeds | h50 | 95% Fieller | % of the robot's points | at the table | games | CPU s |",
             "|---|---|---|---:|---|---:|---|---:|---:|"]
    for r in table:
        defaults = {o.name: o.default for o in paperrobot.game_info(r["game"]).options}
        shown = {k: v for k, v in r["setup"].items() if v not in ("", None) and k in defaults and k not in (
            "imperial", "rebel") and (v != defaults[k] or k in ("robot_ship", "player_ship", "scenario"))}
        what = f"{r['game']} " + " ".join(f"{k}={v}" for k, v in shown.items())
        if r["h50"] is None or r["low"] is None:
            h50, interval, share, table = "—", "none: " + "; ".join(r["notes"])[:80], "", ""
        else:
            h50 = f"{r['h50']:+.1f} {r['unit']}"
            interval = f"{r['low']:+.1f} to {r['high']:+.1f}"
            share = (f"{pct(r['h50'], r['points'])} ({pct(r['low'], r['points'])} to {pct(r['high'], r['points'])})"
                     if r["points"] else "")
            table = at_table(r)
        seeds = "fresh" if r["fresh"] else "common"
        lines.append(f"| {what} | {r['opponent']} | {seeds} | {h50} | {interval} | {share} | {table} | {r['games']:,} | "
                     f"{r['cpu'] if r['cpu'] is not None else ''} |")
    return "\n".join(lines)


def even_points(table: list[dict]) -> str:
    out = ["# Measured even points (benchmarks/balance_answers.py --write-even-points; docs/balance.md 'The answers').",
           "# play/battle/simulate and the web page offer them as the suggested difficulty.", ""]
    written = set()
    for r in table:
        if r["h50"] is None or r["low"] is None or not r["fresh"]:
            continue
        defaults = {o.name: o.default for o in paperrobot.game_info(r["game"]).options}
        setup = {k: v for k, v in r["setup"].items() if v not in ("", None) and (
            v != defaults.get(k) or k in ("robot_ship", "player_ship", "scenario"))}
        written.add((r["game"], r["opponent"], json.dumps(setup, sort_keys=True)))
        out += ["[[even]]", f'game = "{r["game"]}"', f'opponent = "{r["opponent"]}"',
                f"h50 = {r['h50']:.1f}", f"low = {r['low']:.1f}", f"high = {r['high']:.1f}", f'unit = "{r["unit"]}"',
                f"command = {json.dumps(r['command'] or '')}",
                "setup = {" + ", ".join(f"{k} = {json.dumps(v)}" for k, v in setup.items()) + "}", ""]
    # Rows this table does not make (a sweep on common seeds written by hand, a sweep that found no even point:
    # "none") are kept as they were.
    old = tomllib.loads(EVEN_POINTS.read_text()).get("even", []) if EVEN_POINTS.exists() else []
    for row in old:
        if (row["game"], row["opponent"], json.dumps(row.get("setup", {}), sort_keys=True)) in written:
            continue
        out.append("[[even]]")
        for key, value in row.items():
            if key == "setup":
                out.append("setup = {" + ", ".join(f"{k} = {json.dumps(v)}" for k, v in value.items()) + "}")
            else:
                out.append(f"{key} = {json.dumps(value)}")
        out.append("")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", type=Path)
    parser.add_argument("--runs", type=Path, action="append", default=[])
    parser.add_argument("--write-even-points", action="store_true")
    args = parser.parse_args()
    runs = {}
    for path in args.runs:
        for line in path.read_text().splitlines():
            if line.startswith("{"):  # a sweep extended by a later command: its CPU adds up, its command is the last
                run = json.loads(line)
                before = runs.get(run["name"])
                if before is not None:
                    run["cpu_s"] = round(before["cpu_s"] + run["cpu_s"], 1)
                runs[run["name"]] = run
    table = rows(args.folder, runs)
    print(markdown(table))
    if args.write_even_points:
        EVEN_POINTS.write_text(even_points(table))
        print(f"written {EVEN_POINTS}")


if __name__ == "__main__":
    main()
