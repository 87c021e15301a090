"""``balance GAME --robot-rules A --robot-rules B``: both procedures measured, the difference of their even points
with an interval; a sweep database refuses a rules file changed since its games were played."""
import json

import pytest

pytest.importorskip("statsmodels")

from typer.testing import CliRunner

from paperrobot.cli.main import app
from paperrobot.sim.fit import BalanceFit, Fieller, h50_difference
from tests.sim import synthetic_rules_game

runner = CliRunner()
SMALL = ["--games-per-level", "80", "--probe-games", "60", "--quiet", "--jobs", "1"]


@pytest.fixture(autouse=True)
def game():
    synthetic_rules_game.register()
    yield
    synthetic_rules_game.unregister()


def rules(tmp_path, name, h50):
    path = tmp_path / name
    path.write_text(synthetic_rules_game.PROCEDURE.export().replace("value = 40", f"value = {h50}"))
    return path


def test_two_variants_are_measured_and_their_difference_given_with_an_interval(tmp_path):
    a, b = rules(tmp_path, "a.toml", 40), rules(tmp_path, "b.toml", 80)
    out = tmp_path / "out"
    result = runner.invoke(app, ["balance", "synthetic-rules", "--robot-rules", str(a), "--robot-rules", str(b),
                                 "--out", str(out), *SMALL])
    assert result.exit_code == 0, result.output
    assert result.output.count("Even-fight handicap, synthetic-rules") == 2
    rows = json.loads((out / "robot-rules-compare.json").read_text())
    assert len(rows) == 1 and rows[0]["variant"] == str(b)
    low, high = rows[0]["interval95"]
    assert low < rows[0]["difference"] < high and low < 40 < high  # the true difference is 40 points
    assert f"{b}: h50" in result.output and "95% MOVER interval" in result.output


def test_a_sweep_database_refuses_a_rules_file_changed_since(tmp_path):
    a = rules(tmp_path, "a.toml", 40)
    args = ["balance", "synthetic-rules", "--robot-rules", str(a), "--out", str(tmp_path / "out"), *SMALL]
    assert runner.invoke(app, args).exit_code == 0
    again = runner.invoke(app, args)
    assert again.exit_code == 0 and "played now 0" in again.output  # the same file: every game from the store
    rules(tmp_path, "a.toml", 60)
    changed = runner.invoke(app, args)
    assert changed.exit_code == 2
    assert "was made with other robot rules" in changed.output and "even_point: recorded 40, file 60" in changed.output


def test_the_difference_interval_combines_the_two_fieller_intervals():
    def fit(h50, low, high):
        return BalanceFit(-h50 * 0.05, 0.05, ((0, 0), (0, 0)), Fieller(low, high, 1.0), (), 0.0, 0, 0)
    d = h50_difference(fit(40, 35, 47), fit(80, 72, 86))
    assert d.value == pytest.approx(40)
    assert d.low == pytest.approx(40 - (8 ** 2 + 7 ** 2) ** 0.5) and d.high == pytest.approx(40 + (6 ** 2 + 5 ** 2) ** 0.5)
    assert h50_difference(fit(40, None, None), fit(80, 72, 86)).low is None
