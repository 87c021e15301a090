"""``paperrobot ladder`` and ``paperrobot rating`` end to end: on a synthetic game with known ratings (fast), a
small real SFB ladder, resuming and extending the database, the refusals, and the person's results file."""
import json
import math
import sqlite3

import pytest

pytest.importorskip("statsmodels")
pytest.importorskip("matplotlib")

from typer.testing import CliRunner  # noqa: E402

import paperrobot  # noqa: E402
from paperrobot.cli.main import app  # noqa: E402
from paperrobot.sim import rungs  # noqa: E402
from paperrobot.sim.chunks import LocalEngine  # noqa: E402
from paperrobot.sim.ladder import LadderStore, Plan, pairings, registry_spec, run_ladder  # noqa: E402
from paperrobot.sim.records import Record, Records  # noqa: E402
from tests.sim import ladder_game  # noqa: E402

runner = CliRunner()


@pytest.fixture(autouse=True)
def game():
    ladder_game.register()
    yield
    ladder_game.unregister()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_pairings_follow_the_sides_each_rung_flies():
    spec = registry_spec("sfb", {"scenario": "5"})
    ways = pairings(spec, ["random", "policy", "robot"])
    assert ways[("random", "robot")] == [("robot", "random")]  # the robot flies only its robot side
    assert ways[("random", "policy")] == [("random", "policy"), ("policy", "random")]
    armada = registry_spec("armada", {})
    assert not rungs.flies("policy", "imperial", "armada", armada.setup)  # the Imperial "policy" is the AI
    assert rungs.flies("random", "imperial", "armada", armada.setup)


def test_random_rung_replays_from_the_seed():
    play = registry_spec("sfb", {"scenario": "5"}).play("policy", "random")
    first = [play(seed, 0) for seed in (3, 4)]
    assert [play(seed, 0) for seed in (3, 4)] == first


def test_the_ladder_recovers_the_true_order_and_resumes(tmp_path):
    out = tmp_path / "out"
    args = ["ladder", ladder_game.NAME, "--out", out, "--rungs", "random,policy,robot", "--batch", "100",
            "--precision", "60", "--jobs", "1", "--quiet"]
    result = invoke(*args)
    assert result.exit_code == 0, result.output
    rungs_out = json.loads((out / "ladder.json").read_text())
    assert [r["name"] for r in rungs_out] == ["robot", "policy", "random"]
    robot, policy, rand = rungs_out
    assert robot["rating"] == robot["low"] == robot["high"] == 1000
    assert policy["low"] < 900 < policy["high"]  # the policy answers "fair": 900 by construction
    assert "LOS over next" in result.output and "95% interval" in result.output
    for name in ("ladder.txt", "fit.json", "ladder.png", "ladder.svg"):
        assert (out / name).exists()
    fit = json.loads((out / "fit.json").read_text())
    assert fit["model"]["params"][0] == "side" and fit["precision_met"]
    stored = sqlite3.connect(out / "ladder.sqlite").execute("SELECT COUNT(*) FROM ladder_games").fetchone()[0]
    again = invoke(*args)  # resumes: nothing to play
    assert again.exit_code == 0 and "(0 played now)" in again.output
    finer = invoke(*args[:-5], "--precision", "30", "--jobs", "1", "--quiet")  # extends the same database
    assert finer.exit_code == 0, finer.output
    more = sqlite3.connect(out / "ladder.sqlite").execute("SELECT COUNT(*) FROM ladder_games").fetchone()[0]
    assert more > stored
    tighter = json.loads((out / "ladder.json").read_text())
    assert tighter[1]["high"] - tighter[1]["low"] < policy["high"] - policy["low"]


def test_workers_give_the_same_ratings_as_one_process(tmp_path):
    spec = registry_spec(ladder_game.NAME, {})
    plan = Plan(("random", "policy", "robot"), batch=60, precision=80)
    fits = []
    for jobs, name in ((1, "a"), (2, "b")):
        store = LadderStore(tmp_path / f"{name}.sqlite")
        with LocalEngine(jobs) as engine:
            fits.append(run_ladder(spec, plan, store, engine).fit)
        store.close()
    assert fits[0].coef == fits[1].coef and fits[0].cov == fits[1].cov


@pytest.mark.ray
def test_ray_gives_the_same_ratings_as_local(tmp_path):
    pytest.importorskip("ray")
    from paperrobot.sim.ray_engine import RayEngine

    spec = registry_spec(ladder_game.NAME, {})
    plan = Plan(("random", "policy", "robot"), batch=60, precision=80)
    with LocalEngine(1) as engine:
        local = run_ladder(spec, plan, LadderStore(tmp_path / "l.sqlite"), engine).fit
    with RayEngine(2) as engine:
        ray = run_ladder(spec, plan, LadderStore(tmp_path / "r.sqlite"), engine).fit
    assert local.coef == ray.coef


def sfb_ladder(engine, path):
    """A tiny real ladder (SFB #5: random, policy, robot; 8 seeds a pairing) on ``engine``: its stored game
    records, in a stable order, and its fit."""
    spec = registry_spec("sfb", {"scenario": "5"})
    store = LadderStore(path)
    fit = run_ladder(spec, Plan(("random", "policy", "robot"), batch=8, precision=1000, max_games=40), store,
                     engine).fit
    rows = sorted(store.db.execute("SELECT robot_rung, player_rung, handicap, seed_index, seed, score, winner, "
                                   "result, turns FROM ladder_games"))
    store.close()
    return rows, fit


@pytest.mark.ray
def test_ray_plays_the_same_sfb_games_and_gives_the_same_ratings_as_local(tmp_path):
    pytest.importorskip("ray")
    from paperrobot.sim.ray_engine import RayEngine

    with LocalEngine(1) as engine:
        local_rows, local = sfb_ladder(engine, tmp_path / "local.sqlite")
    with RayEngine(2) as engine:
        ray_rows, ray = sfb_ladder(engine, tmp_path / "ray.sqlite")
    assert len(local_rows) == 40 and ray_rows == local_rows  # every game's record: seed, winner, how, turns
    assert ray.coef == local.coef and ray.cov == local.cov
    assert {n: r.to_dict() for n, r in ray.ratings.items()} == {n: r.to_dict() for n, r in local.ratings.items()}


def test_a_small_real_ladder_in_sfb(tmp_path):
    out = tmp_path / "sfb"
    result = invoke("ladder", "sfb", "--scenario", "5", "--out", out, "--batch", "20", "--games", "100",
                    "--jobs", "1", "--quiet")
    assert result.exit_code == 0, result.output
    rows = {r["name"]: r for r in json.loads((out / "ladder.json").read_text())}
    assert set(rows) == {"random", "policy", "robot"} and rows["robot"]["rating"] == 1000
    assert rows["random"]["rating"] is None and rows["random"]["bound"] == "upper"  # random never wins
    assert rows["random"]["high"] < rows["policy"]["rating"]


@pytest.mark.parametrize("args, message", [
    (["--rungs", "random,policy"], "--rungs must include robot"),
    (["--rungs", "robot,genius"], "unknown rung 'genius'"),
    (["--rungs", "robot,search:50"], "the search player (sim/search.py) is not in this version"),
    (["--rungs", "robot,policy,policy"], "names a rung twice"),
    (["--precision", "0"], "--precision must be a positive number"),
    (["--nonsense", "1"], "nonsense"),
])
def test_bad_input_is_one_line(tmp_path, args, message):
    if any("search:50" in a for a in args) and rungs.search_available():
        pytest.skip("the search player exists")
    result = invoke("ladder", ladder_game.NAME, "--out", tmp_path / "o", "--quiet", *args)
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_unknown_game_and_foreign_database(tmp_path):
    bad = invoke("ladder", "chess", "--out", tmp_path / "o")
    assert bad.exit_code == 2 and "unknown game 'chess'" in bad.output
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE people (name TEXT)").connection.commit()
    refused = invoke("ladder", ladder_game.NAME, "--out", tmp_path / "o", "--db", other, "--quiet")
    assert refused.exit_code == 2 and "not a ladder database" in refused.output


def test_balance_takes_every_rung_as_opponent(tmp_path):
    from paperrobot.sim.balance import registry_matchup

    for rung in ("random", "policy", "robot", "mix:policy=0.9,random=0.1"):
        assert registry_matchup("sfb", {"scenario": "5"}, rung).opponent == rung
    play = registry_matchup("sfb", {"scenario": "5"}, "random").play
    assert play(5, 0).winner == "robot"


def _record(path, game, score, handicap=0.0, setup=None):
    records = Records(path)
    records.add(Record(game, setup or {"handicap": handicap}, handicap, 1, "player", "robot",
                       "player" if score == 1 else "robot", score, "destroyed", 3, 1, 0.0))
    records.close()


def test_rating_from_recorded_games(tmp_path):
    out = tmp_path / "lad"
    made = invoke("ladder", ladder_game.NAME, "--out", out, "--batch", "100", "--precision", "80", "--jobs", "1",
                  "--quiet")
    assert made.exit_code == 0, made.output
    path = tmp_path / "results.sqlite"
    for i in range(30):
        _record(path, ladder_game.NAME, 1.0 if i % 3 == 0 else 0.0)
    result = invoke("rating", ladder_game.NAME, "--ladder", out, "--records", path)
    assert result.exit_code == 0, result.output
    assert "your rating" in result.output and "W-D-L 10-0-20" in result.output
    assert "not known: the ladder has no handicap term" in result.output
    missing = invoke("rating", ladder_game.NAME, "--records", path)
    assert missing.exit_code == 2 and "give --ladder DIR" in missing.output
    none = invoke("rating", "--ladder", out, "--records", tmp_path / "nothing.sqlite")
    assert none.exit_code == 2 and "no recorded games yet" in none.output


def test_play_records_a_finished_game_and_no_record_leaves_it_out(tmp_path, monkeypatch):
    from paperrobot.cli.terminal import TerminalPlay
    from paperrobot.sim.records import default_path

    monkeypatch.setenv("PAPERROBOT_RECORDS", str(tmp_path / "r.sqlite"))
    assert default_path() == tmp_path / "r.sqlite"

    class Front:
        def commands(self, match):
            return {}

        def before(self, match, request):
            pass

        def auto(self, match, request):
            return request.default

        def narrate(self, event):
            return None

    for record in (True, False):
        session = TerminalPlay(ladder_game.NAME, Front(), lambda log: paperrobot.new_game(ladder_game.NAME, seed=2,
                                                                                          log=log),
                               save_path=tmp_path / f"g{record}.save", record=record)
        assert session.run() is not None
    games = Records(tmp_path / "r.sqlite").games()
    assert len(games) == 1 and games[0].game == ladder_game.NAME and games[0].person_side == "player"


def test_ladder_balance_gives_the_even_handicap_per_rung_from_sweeps_and_from_the_joint_fit(tmp_path):
    out = tmp_path / "bal"
    result = invoke("ladder", ladder_game.NAME, "--out", out, "--rungs", "random,policy,robot", "--batch", "100",
                    "--precision", "80", "--jobs", "1", "--quiet", "--balance", "--balance-games", "100")
    assert result.exit_code == 0, result.output
    fit = json.loads((out / "fit.json").read_text())
    even = fit["even_from_fit"]
    assert set(even) == {"policy", "random"} and (out / "handicap.png").exists()
    # the policy (900) against the robot (1000): logit 0 at h = ((900 - 1000) / SCALE + SIDE) / -SLOPE
    true = ((900 - 1000) / ladder_game.SCALE + ladder_game.SIDE) / -ladder_game.SLOPE
    assert even["policy"]["low"] < true < even["policy"]["high"]
    text = (out / "ladder.txt").read_text()
    assert "Even fight from the joint fit" in text and "Even fight vs policy: robot handicap" in text


def test_the_answers_script_reports_stored_games_and_writes_the_rungs_points(tmp_path, monkeypatch):
    """benchmarks/ladder_answers.py: the report of a ladder's stored games (none played), sweeps of chosen rungs,
    and ladder_points.toml, which the suggested difficulty reads."""
    import importlib.util
    from pathlib import Path

    from paperrobot.sim import even_points

    db = tmp_path / "l.sqlite"
    assert invoke("ladder", ladder_game.NAME, "--out", tmp_path / "first", "--rungs", "random,policy,robot",
                  "--batch", "60", "--precision", "200", "--jobs", "1", "--quiet", "--db", db).exit_code == 0
    stored = sqlite3.connect(db).execute("SELECT count(*) FROM ladder_games").fetchone()[0]
    path = Path(__file__).parents[2] / "benchmarks" / "ladder_answers.py"
    spec = importlib.util.spec_from_file_location("ladder_answers", path)
    answers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(answers)
    points = tmp_path / "ladder_points.toml"
    monkeypatch.setattr(answers, "LADDER_FILE", points)
    monkeypatch.setattr(answers, "PUBLISHED", tmp_path / "fits")
    code = answers.main([ladder_game.NAME, "--db", str(db), "--rungs", "random,policy,robot", "--sweep", "policy",
                         "--balance-games", "60", "--out", str(tmp_path / "rep"), "--jobs", "1", "--write-points",
                         "--command", "the command"])
    assert code == 0
    assert sqlite3.connect(db).execute("SELECT count(*) FROM ladder_games").fetchone()[0] == stored
    fit = json.loads((tmp_path / "rep" / "fit.json").read_text())
    assert "policy" in fit["balance"] and "policy" in fit["even_from_fit"]
    monkeypatch.setattr(even_points, "LADDER_FILE", points)
    even_points.load.cache_clear()
    try:
        rows = {p.opponent: p for p in even_points.load() if p.game == ladder_game.NAME}
        policy = next(r for r in fit["rungs"] if r["name"] == "policy")
        assert rows["policy"].rating == pytest.approx(policy["rating"], abs=0.1)
        assert rows["policy"].seat == pytest.approx(policy["seat"], abs=0.1) and rows["policy"].command == "the command"
        # a swept rung's even handicap is its own sweep's; a rung not swept has the joint fit's, and says so
        assert rows["policy"].how == "sweep" and rows["policy"].h50 == pytest.approx(fit["balance"]["policy"]["h50"],
                                                                                     abs=0.1)
        assert rows["random"].how == "ladder fit" and rows["random"].h50 == pytest.approx(
            fit["even_from_fit"]["random"]["h50"], abs=0.1)
    finally:
        even_points.load.cache_clear()
    assert json.loads((tmp_path / "fits" / f"{ladder_game.NAME}.json").read_text()) == fit  # the published ladder
    assert answers.main([ladder_game.NAME, "--db", str(tmp_path / "none.sqlite"), "--rungs", "policy,robot",
                         "--out", str(tmp_path / "x")]) == 2


def test_the_sweeps_games_count_towards_the_precision_the_report_states():
    """A ladder short of its precision on its own games reaches it once the balance sweeps' games join the fit
    (ladder_answers.py and ``ladder --balance`` report the refitted ladder: its 'reached' must be that fit's)."""
    import random

    from paperrobot.sim.ladder import Ladder, refit_with_sweeps
    from paperrobot.sim.ratings import Result, adjacent, fit_ladder

    rng = random.Random(5)
    p = 1 / (1 + 10 ** (100 / 400))  # the policy, rated 900, against the robot
    results = [Result("robot", "policy", 0.0, i, float(rng.random() < p)) for i in range(60)]
    plan = Plan(("policy", "robot"), precision=60)
    fit = fit_ladder(results, plan.rungs)
    assert adjacent(fit) == [("robot", "policy")] and 1.96 * fit.difference("robot", "policy")[1] > 60
    ladder = Ladder(None, plan, fit, results, 0, False, 0.0)
    sweep = {}
    for i in range(600):
        h = rng.choice((-40.0, -20.0, 0.0, 20.0))
        q = 1 / (1 + 10 ** (100 / 400) * math.exp(0.02 * h))  # a point to the robot lowers the policy's odds
        sweep[(h, 100 + i)] = 1.0 - float(rng.random() < q)  # the robot's score, on seeds the ladder did not play
    refit_with_sweeps(ladder, {"policy": sweep})
    assert len(ladder.results) == 660 and "handicap" in ladder.fit.params
    assert ladder.precision_met


def test_a_cap_below_the_first_round_says_the_first_round_went_past_it(tmp_path):
    """--games 20 with --batch 20: the first round alone plays more than the cap; the report says so rather than
    claiming to have stopped at 20."""
    out = tmp_path / "out"
    result = invoke("ladder", ladder_game.NAME, "--out", out, "--rungs", "random,policy,robot", "--batch", "20",
                    "--games", "20", "--precision", "5", "--jobs", "1", "--quiet")
    assert result.exit_code == 0, result.output
    stored = sqlite3.connect(out / "ladder.sqlite").execute("SELECT COUNT(*) FROM ladder_games").fetchone()[0]
    text = " ".join(result.output.split())
    assert stored > 20
    assert (f"stopped at the cap of 20 games before every adjacent interval reached +-5 (the first round, --batch 20 "
            f"seeds of each pairing, played {stored}: the cap stops only the adaptive games after it)") in text


def test_a_mixed_rung_keeps_its_parts_in_a_list_of_rungs():
    """--rungs is comma-separated and a mixed rung's parts are too: each 'rung=share' stays with its mix."""
    from paperrobot.sim.rungs import split_rungs
    assert split_rungs("random, mix:policy=0.9,random=0.1 ,robot,search:5") == \
        ["random", "mix:policy=0.9,random=0.1", "robot", "search:5"]
    assert split_rungs("policy,robot,") == ["policy", "robot"]
    assert split_rungs("random=0.1,robot") == ["random=0.1", "robot"]  # no mix before it: an unknown rung, said so
