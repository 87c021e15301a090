"""The learning environments pass Gymnasium's and PettingZoo's own checkers, on every registered game and on
the small counting game; masked random rollouts keep to the rules; the same seed and actions replay."""
import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium, pettingzoo) is not installed")
pettingzoo = pytest.importorskip("pettingzoo")
import numpy as np  # noqa: E402  (comes with gymnasium)

import paperrobot  # noqa: E402
from paperrobot.envs import aec_env, gym_env  # noqa: E402
from tests.toygame import counting_game  # noqa: E402,F401

GAMES = ["counting"] + list(paperrobot.games())


@pytest.fixture(autouse=True)
def _toy(counting_game):  # noqa: F811
    yield


def _rollout_gym(env, seed, steps, rng):
    obs, info = env.reset(seed=seed)
    trace = []
    for _ in range(steps):
        mask = env.action_masks()
        assert mask.any() and env.observation_space.contains(obs)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        assert not info["illegal_action"]
        trace.append((action, reward, obs.tobytes()))
        if terminated:
            obs, info = env.reset()
    return trace


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env(name):
    from gymnasium.utils.env_checker import check_env
    check_env(gym_env(name).unwrapped, skip_render_check=True)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_and_seed_tests(name):
    from pettingzoo.test import api_test, seed_test
    api_test(aec_env(name), num_cycles=200)
    seed_test(lambda: aec_env(name), num_cycles=50)


@pytest.mark.parametrize("name", GAMES)
def test_masked_random_rollout_and_seeded_replay(name):
    steps = 1000 if name != "counting" else 300
    first = _rollout_gym(gym_env(name), 7, steps, np.random.default_rng(1))
    again = _rollout_gym(gym_env(name), 7, steps, np.random.default_rng(1))
    assert first == again


def test_an_illegal_action_plays_the_default_and_is_flagged():
    env = gym_env("counting", target=20)
    env.reset(seed=3)
    env.step(7)  # the split form's mask allows 2 choices (the preset and "compose")
    obs, reward, terminated, truncated, info = env.step(7)
    assert info["illegal_action"] and not terminated


def test_the_robot_can_answer_inside_the_aec_environment():
    env = aec_env("counting", robot="robot", target=9)
    env.reset(seed=1)
    assert env.agents == ["player"]
    for agent in env.agent_iter(100):
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0])
        env.step(action)
    assert env.agents == [] or all(env.terminations.values())


# ------------------------------------------------------------------------------------------ shaped rewards
REAL = list(paperrobot.games())
SETUPS = {"sfb": {"scenario": "5"}}


@pytest.mark.parametrize("name", REAL)
def test_shaped_environments_pass_the_checkers(name):
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test, seed_test
    check_env(gym_env(name, reward="shaped").unwrapped, skip_render_check=True)
    api_test(aec_env(name, reward="shaped"), num_cycles=100)
    seed_test(lambda: aec_env(name, reward="shaped"), num_cycles=30)


def _first_view(name):
    env = gym_env(name, reward="shaped", **SETUPS.get(name, {}))
    env.reset(seed=5)
    return env, env.decisions.request.view


def _hurt(name, view, side, points):
    """A copy of ``view`` in which one unit of ``side`` has taken ``points`` more damage, the way the game
    records it: SFB and FC ships lose shield boxes, Armada ships get damage cards."""
    import copy
    view = copy.deepcopy(view)
    if name == "fc":
        view["ships"][side]["shields"][0] -= points
    elif name == "sfb":
        next(s for s in view["ships"] if s["side"] == side)["shields"][0] -= points
    else:
        next(s for s in view["ships"] if s["side"] == side)["damage"] += points
    return view


@pytest.mark.parametrize("name", REAL)
def test_a_shaped_reward_is_damage_dealt_minus_damage_taken(name):
    from paperrobot.envs import encoding, rewards
    env, view = _first_view(name)
    enc = encoding.encoder(name)
    learner, robot = env.unwrapped.learner, paperrobot.game_info(name).robot_side
    tally = rewards.DamageTally(enc)
    shaped = rewards.ShapedReward(tally, paperrobot.game_info(name).sides)
    tally.read(view)
    assert shaped.pay(learner) == 0.0  # the first reading sets the levels: full shields are no damage
    tally.read(_hurt(name, view, robot, 2))  # the robot's ship takes 2 points
    assert shaped.pay(learner) == pytest.approx(2 * enc.damage_scale) and enc.damage_scale > 0
    assert shaped.pay(robot) == pytest.approx(-2 * enc.damage_scale)
    tally.read(_hurt(name, _hurt(name, view, robot, 2), learner, 3))  # then the learner's takes 3
    assert shaped.pay(learner) == pytest.approx(-3 * enc.damage_scale)
    assert shaped.pay(robot) == pytest.approx(3 * enc.damage_scale)


@pytest.mark.parametrize("name", REAL)
def test_shaped_rewards_of_a_battle_add_up_to_its_damage(name):
    """A seeded battle in which the learner always takes the first choice (the suggestion): damage happens, each
    step's shaped reward follows the views, and the total is the outcome plus the scaled damage balance
    between the first view and the view after the end."""
    from paperrobot.envs import encoding
    enc = encoding.encoder(name)
    env = gym_env(name, reward="shaped", **SETUPS.get(name, {}))
    plain = gym_env(name, **SETUPS.get(name, {}))
    obs, _ = env.reset(seed=11)
    plain.reset(seed=11)
    first = env.unwrapped.decisions.request.view
    total, nonzero = 0.0, 0
    for _ in range(20000):
        obs, reward, terminated, _, _ = env.step(0)
        _, plain_reward, plain_done, _, _ = plain.step(0)
        total += reward
        nonzero += reward != 0 and not terminated
        assert plain_done == terminated and (plain_reward == 0.0 or terminated)  # the same game, outcome-only
        if terminated:
            break
    assert terminated and nonzero > 0
    learner = env.unwrapped.learner
    end = enc.end_view(env.unwrapped.match.engine, learner)

    def taken(side):
        before, after = enc.damage(first), enc.damage(end)
        return sum(after[u][1] - before.get(u, after[u])[1] for u in after if after[u][0] == side)
    dealt = sum(taken(s) for s in paperrobot.game_info(name).sides if s != learner)
    assert dealt + taken(learner) > 0
    assert total == pytest.approx(plain_reward + enc.damage_scale * (dealt - taken(learner)))


def test_sfb_shaped_damage_agrees_with_the_engine_s_own_count():
    """SFB's outcome counts each side's internal damage and shield boxes left: the shaped rewards of a battle
    must match them (damage = shield boxes lost + internal damage, SFB.DMG4)."""
    env = gym_env("sfb", reward="shaped", scenario="5")
    env.reset(seed=11)
    start = {s["side"]: sum(s["shields"]) for s in env.unwrapped.decisions.request.view["ships"]}
    total, terminated = 0.0, False
    while not terminated:
        _, reward, terminated, _, _ = env.step(0)
        total += reward
    m = env.unwrapped.match.outcome.metrics
    robot = m["robot_internal"] + start["robot"] - m["robot_shields"]
    player = m["player_internal"] + start["player"] - m["player_shields"]
    from paperrobot.envs.rewards import outcome_reward
    outcome = outcome_reward(env.unwrapped.match.outcome, "player")
    assert robot > 0 and player > 0
    assert total == pytest.approx(outcome + 0.01 * (robot - player))


@pytest.mark.parametrize("name", REAL)
def test_the_aec_environment_pays_the_same_shaped_rewards(name):
    """With the robot answering inside the AEC environment, the learner's side gets, step by step, what the
    Gymnasium environment gives for the same seed and actions."""
    gym = gym_env(name, reward="shaped", **SETUPS.get(name, {}))
    gym.reset(seed=4)
    expected = []
    for _ in range(3000):
        _, reward, terminated, _, _ = gym.step(0)
        expected.append(reward)
        if terminated:
            break
    aec = aec_env(name, robot="robot", reward="shaped", **SETUPS.get(name, {}))
    aec.reset(seed=4)
    got = []  # last() gives what the agent earned since its previous step: the first one is the reset's
    for agent in aec.agent_iter(len(expected) + 1):
        _, reward, term, trunc, _ = aec.last()
        got.append(reward)
        aec.step(None if term or trunc else 0)
    assert any(expected) and got[0] == 0.0 and got[1:] == pytest.approx(expected)


def test_an_unknown_reward_is_one_clear_error():
    from paperrobot.core.errors import PaperRobotError
    with pytest.raises(PaperRobotError, match="reward must be one of outcome, shaped"):
        gym_env("sfb", reward="dense")
    with pytest.raises(PaperRobotError, match="no damage measure"):
        aec_env("counting", reward="shaped")


# ------------------------------------------------------------------------------------------ split option keys
def test_split_option_keys_become_one_decision_per_part():
    from paperrobot.core.contract import Option, Request
    from paperrobot.envs.decisions import Decisions
    from paperrobot.envs.games import _course_parts
    keys = ("0:", "1:0", "1:1", "2:0,0", "2:0,-1", "2:1,1")
    request = Request("maneuver", "rebel", options=tuple(Option(k) for k in keys), default="1:0")
    d = Decisions(request, 8, _course_parts)
    assert d.choices() == ["0", "1", "2"] and d.stage() == (2, 1)
    assert d.act(2) is False and d.choices() == ["0", "1"]  # speed 2: the first joint's yaw
    assert d.act(0) is False and d.choices() == ["0", "-1"]
    assert d.act(1) is True and d.answer == "2:0,-1"
    d = Decisions(request, 8, _course_parts)
    assert d.act(2) is False and d.act(1) is True and d.answer == "2:1,1"  # one yaw left after 1: taken
    d = Decisions(request, 8, _course_parts)
    assert d.act(0) is True and d.answer == "0:"
    d = Decisions(request, 8, _course_parts)
    assert d.act(5) is True and d.illegal and d.answer == "1:0"  # outside the mask: the default
    single = Request("maneuver", "rebel", options=(Option("3:0,0,0"),), default="3:0,0,0")
    assert Decisions(single, 8, _course_parts).choices() == ["3:0,0,0"]  # one option: still one decision


def test_armada_courses_are_chosen_joint_by_joint():
    """Every Armada maneuver is answered by small decisions (a speed, then a yaw per joint: at most 5 choices
    each, RRG Ship Movement) whose answer is one of the listed courses."""
    env = gym_env("armada")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    maneuvers = 0
    for _ in range(3000):
        d = env.unwrapped.decisions
        if d.request.kind == "maneuver" and len(d.request.options) > 1:
            assert 1 < len(d.choices()) <= 5 and env.action_masks().sum() == len(d.choices())
        _, _, terminated, _, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        assert not info["illegal_action"]
        if d.request.kind == "maneuver" and d.answer is not None:
            assert d.answer in {o.key for o in d.request.options}
            maneuvers += len(d.request.options) > 1
        if terminated:
            env.reset()
    assert maneuvers > 5


def test_armada_agents_read_the_same_numbers_from_the_view_without_drawing_aids():
    """The Armada environments encode a view built without drawing aids (Encoder.agent_view: no course paths,
    arcs or attack polygons); its observation and damage numbers are those of the request's full view."""
    from paperrobot.envs.encoding import encoder
    enc = encoder("armada")
    env = gym_env("armada", reward="shaped")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    kinds = set()
    for step in range(600):
        d = env.unwrapped.decisions
        full, lean = d.request.view, enc.agent_view(d.request)
        assert "courses" not in lean and "arcs" not in lean
        assert enc.observe(lean, "rebel") == enc.observe(full, "rebel")
        assert enc.damage(lean) == enc.damage(full)
        kinds.add(d.request.kind)
        mask = env.action_masks()
        action = int(np.argmax(mask)) if step % 2 else int(rng.choice(np.flatnonzero(mask)))
        if env.step(action)[2]:
            env.reset()
    assert {"maneuver", "attack", "activate"} <= kinds
