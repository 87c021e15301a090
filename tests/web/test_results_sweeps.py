"""The results page on a balance sweep's ``--out`` folder (web/sweeps.py): the even point and its interval,
the fit, W/D/L, the per-level table with Wilson intervals, the caveat and the plot, all read only."""
from __future__ import annotations

import hashlib
import json
import re
import shutil
from urllib.parse import quote

import pytest

pytest.importorskip("matplotlib")


def digest(folder) -> dict:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_a_sweep_folder_shows_every_part_of_the_report(client, balance_out):
    before = digest(balance_out)
    (name,) = [p.stem for p in balance_out.glob("*.json")]
    report = json.loads((balance_out / f"{name}.json").read_text())
    fit = report["fit"]
    page = client.get("/results", params={"path": str(balance_out)})
    assert page.status_code == 200
    text = text_of(page.text)
    low, high = fit["fieller95"]
    assert f"Even point h50 = {fit['h50']:+.1f} points" in text
    assert f"95% Fieller interval {low:+.1f} to {high:+.1f}" in text
    assert f"slope at 50% {100 * fit['slope_at_50_per_point']:.2f} win-rate points per point" in text
    assert f"deviance {fit['deviance']:.1f} on 5 df" in text
    wins = sum(lv["wins"] for lv in fit["levels"])
    draws = sum(lv["draws"] for lv in fit["levels"])
    losses = sum(lv["losses"] for lv in fit["levels"])
    assert draws > 0 and f"Games {fit['games']}: W {wins} · D {draws} · L {losses}" in text
    for lv in fit["levels"]:  # a row per level with its Wilson interval, as the command reported it
        w_low, w_high = lv["wilson95"]
        assert (f"{lv['handicap']:+g} {lv['games']} {lv['wins']} {lv['draws']} {lv['losses']} "
                f"{100 * lv['score']:.1f}% {100 * w_low:.1f}–{100 * w_high:.1f}%") in text
    assert "the opponent is PaperRobot's heuristic policy, not a person" in text.replace("&#39;", "'")
    assert f'src="/results/plot.svg?path={quote(str(balance_out))}&amp;name={name}"' in page.text

    plot = client.get("/results/plot.svg", params={"path": str(balance_out), "name": name})
    assert plot.status_code == 200 and plot.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in plot.text and plot.text.count("<path") > 50  # curve, error bars, markers, text as paths
    assert "default-src 'none'" in plot.headers["content-security-policy"]
    # the --db file in the folder stands for the folder
    db = client.get("/results", params={"path": str(balance_out / "balance.sqlite")})
    assert db.status_code == 200 and f"Even point h50 = {fit['h50']:+.1f}" in text_of(db.text)
    assert digest(balance_out) == before  # read only: nothing written, nothing touched


def test_the_plot_is_drawn_from_the_report_when_the_svg_is_gone(client, balance_out, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    for report in balance_out.glob("*.json"):
        shutil.copy(report, copy)
    (name,) = [p.stem for p in copy.glob("*.json")]
    plot = client.get("/results/plot.svg", params={"path": str(copy), "name": name})
    assert plot.status_code == 200 and "<svg" in plot.text
    assert sorted(p.name for p in copy.iterdir()) == [f"{name}.json"]  # drawn in memory, nothing written here


def test_a_sweep_without_a_clear_slope_says_no_interval(client, balance_out, tmp_path):
    (report,) = balance_out.glob("*.json")
    data = json.loads(report.read_text())
    data["fit"]["fieller95"] = None  # as fit_sweep reports a slope that is not clearly positive
    data["fit"]["fieller_leading"] = -0.001
    (tmp_path / "flat.json").write_text(json.dumps(data))
    text = text_of(client.get("/results", params={"path": str(tmp_path)}).text)
    assert "No interval : the slope is not clearly positive" in text and "so no even point can be given" in text
    assert "Even point h50" not in text
    assert client.get("/results/plot.svg", params={"path": str(tmp_path), "name": "flat"}).status_code == 200


@pytest.mark.parametrize("name", ["../flat", "missing", ".hidden", "a/b"])
def test_only_the_folders_reports_are_drawn(client, balance_out, name):
    response = client.get("/results/plot.svg", params={"path": str(balance_out), "name": name})
    assert response.status_code == 400 and "has no balance report" in response.text


def test_a_folder_without_reports_is_one_line(client, tmp_path):
    (tmp_path / "other.json").write_text('{"not": "a report"}')
    response = client.get("/results", params={"path": str(tmp_path)})
    assert response.status_code == 400 and "holds no balance report" in response.text
    assert client.get("/results/plot.svg", params={"path": str(tmp_path / "nothing"), "name": "x"}).status_code == 400
