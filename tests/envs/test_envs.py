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
