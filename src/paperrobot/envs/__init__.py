"""Learning environments on the game contract: Gymnasium (the learner against the seed's robot) and
PettingZoo AEC (every side an agent). Needs the rl extra (not on the package index: install by path or wheel,
docs/envs.md "Installing").

    from paperrobot.envs import gym_env, aec_env
    env = gym_env("sfb", scenario="5")          # setup as in paperrobot.new_game
    env = aec_env("fc", robot="agent")          # robot="robot": the seed's robot answers inside the env
    env = gym_env("armada", reward="shaped")    # + scaled damage dealt minus damage taken at every step
"""
from __future__ import annotations

from typing import Any

from ..core.errors import PaperRobotError
from ..core.extras import needs_extra

# PaperRobot is not on the package index: the rl extra is installed by the checkout's set-up, or by path or wheel
NEED_RL = needs_extra("the learning environments", "rl", "gymnasium, pettingzoo")


def _need_rl() -> None:
    try:
        import gymnasium  # noqa: F401
        import pettingzoo  # noqa: F401
    except ImportError:
        raise PaperRobotError(NEED_RL) from None


def gym_env(game: str, **setup: Any):
    """A Gymnasium environment in which the learner flies the person's side against the seed's robot."""
    _need_rl()
    from .gym_env import VsRobot
    return VsRobot(game, **setup)


def aec_env(game: str, **setup: Any):
    """A PettingZoo AEC environment with every side of ``game`` as an agent."""
    _need_rl()
    from .aec_env import PaperRobotAEC
    return PaperRobotAEC(game, **setup)


__all__ = ["gym_env", "aec_env"]
