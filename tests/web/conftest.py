"""The web page's tests run on the toy game of tests/toygame.py ("counting"), made to log its robot's
decisions (rule, dice, sentence) and its additions like a real game, with a small hex-strip map
registered through the same hook the real games use (web/maps.py)."""
from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed: pip install -e '.[web]'")

from paperrobot.core import registry  # noqa: E402
from paperrobot.web import maps, svg  # noqa: E402
from paperrobot.core.contract import Decision  # noqa: E402
from tests.toygame import Counting  # noqa: E402


class WebCounting(Counting):
    """The toy game, logging like a real engine: a 'decision' event per robot reason, an 'added' event per move."""

    def record(self, request, decision):
        super().record(request, decision)
        if request.kind == "add":
            for reason in decision.reasons:
                self.log.emit("decision", self.total // 3 + 1, 0, request.side, rule=reason.rule, text=reason.text,
                              rolls=[[6, int(reason.text.split("=")[1]), "how much", request.side]])
            self.log.emit("added", self.total // 3 + 1, 0, request.side, amount=decision.action)

    def view(self, side):  # what sfb, fc and armada offer: the position now (the page draws a game's end with it)
        return {"total": self.total, "target": self.target}

    def controller(self, side, kind):
        inner = super().controller(side, kind)

        class Either:  # the toy's robot only adds; a watched battle also needs the split answered
            def decide(self, request):
                return Decision("even") if request.kind == "split" else inner.decide(request)
        return Either()


def counting_picture(view, side):
    """The total as a counter walking along a strip of hexes 0101..01NN: one hex per point."""
    strip = svg.HexMap(cols=2, rows=max(2, (view["target"] + 1) // 2), title="counting strip")
    n = view["total"]
    strip.counters.append(svg.Counter("total", svg.hex_label(1 + n % 2, 1 + n // 2), str(n), facing="C",
                                      side="player", title=f"total {n}"))
    strip.marked[svg.hex_label(1 + view["target"] % 2, 1 + view["target"] // 2)] = "mark"
    return maps.Picture(strip.svg(), [maps.Status("count", [("total", str(n)), ("target", str(view["target"]))],
                                                  id="status-count")])


@pytest.fixture
def counting():
    registry.register(registry.GameInfo(
        "counting", "Counting", Counting.sides, "robot",
        (registry.SetupOption("target", "total to reach", 7, "int", low=2, high=50),), WebCounting, lambda: None))
    maps.register("counting", counting_picture)
    yield
    registry.registered().pop("counting", None)
    maps.RENDERERS.pop("counting", None)


@pytest.fixture
def client(counting, tmp_path):
    from fastapi.testclient import TestClient
    from paperrobot.web.app import create_app
    app = create_app(tmp_path / "web.sqlite", capacity=4)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        test_client.app_state = app.state
        yield test_client


@pytest.fixture(scope="session")
def balance_out(tmp_path_factory):
    """A real ``paperrobot balance --out`` folder: one sweep of the synthetic game of the balance tests
    (tests/sim/synthetic_game.py, true even point +40), 60 games per probe and level, one process (~1 s)."""
    pytest.importorskip("statsmodels")
    pytest.importorskip("matplotlib")
    from typer.testing import CliRunner

    from paperrobot.cli.main import app
    from tests.sim import synthetic_game

    out = tmp_path_factory.mktemp("balance") / "out"
    synthetic_game.register()
    try:
        result = CliRunner().invoke(app, ["balance", "synthetic-balance", "--draw", "yes", "--opponent", "policy",
                                          "--out", str(out), "--jobs", "1", "--games-per-level", "60",
                                          "--probe-games", "60", "--quiet"])
    finally:
        synthetic_game.unregister()
    assert result.exit_code == 0, result.output
    return out
