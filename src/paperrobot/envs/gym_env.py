"""A Gymnasium environment: the learner flies the person's side; the seed's robot and the engine advance
between the learner's decisions.

Actions are ``Discrete(max_choices)`` over the current small decision's choices (``action_masks()`` gives
the legal ones, for sb3-contrib's MaskablePPO). An action outside the mask plays the request's default
and sets ``info["illegal_action"]``. Reward: +1 win, -1 loss, 0 draw, at the end; ``reward="shaped"`` adds
the scaled damage dealt minus damage taken at every step (rewards.py, docs/envs.md).
"""
from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

import paperrobot
from ..core import players
from ..core.contract import Request
from ..core.events import EventLog
from . import encoding, rewards
from .decisions import Decisions


class VsRobot(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, game: str, learner: str | None = None, opponent: str = "robot", reward: str = "outcome",
                 reward_scale: float | None = None, **setup: Any):
        self.info_ = paperrobot.game_info(game)
        self.enc = encoding.encoder(game)
        rewards.check(reward, self.enc, game)
        self.reward_kind, self.reward_scale = reward, reward_scale
        self.shaped: rewards.ShapedReward | None = None
        self.game, self.setup = game, setup
        paperrobot.new_game(game, seed=0, **setup)  # checks the set-up now, with one clear error
        robot = self.info_.robot_side
        self.learner = learner or next(s for s in self.info_.sides if s != robot)
        if self.learner not in self.info_.sides:
            raise ValueError(f"'{self.learner}' is not a side of {game}; the sides are {', '.join(self.info_.sides)}")
        players.check(opponent, "the opponent")  # "robot", "policy" or a named player ("search:20")
        self.others = {side: opponent if side == robot else "policy" for side in self.info_.sides if side != self.learner}
        self.action_space = gym.spaces.Discrete(self.enc.max_choices)
        n = encoding.size(self.enc)
        self.observation_space = gym.spaces.Box(-encoding.BOUND, encoding.BOUND, (n,), np.float32)
        self.match = None
        self.decisions: Decisions | None = None

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        # the game's dice take the seed itself, so reset(seed=s) plays the game `paperrobot ... --seed s` plays
        game_seed = int(seed) % 2 ** 63 if seed is not None else int(self.np_random.integers(0, 2 ** 62))
        self.log = EventLog()
        self.match = paperrobot.new_game(self.game, seed=game_seed, log=self.log, **self.setup)
        self.steps = self.match.play(players.resolve({self.learner: None, **self.others}, self.match))
        self.seen = 0
        self._open(self._first())
        if self.reward_kind == "shaped":
            self.shaped = rewards.ShapedReward(rewards.DamageTally(self.enc, self.reward_scale), self.info_.sides)
            self._reward()
        return self._obs(), self._info(False)

    def step(self, action):
        if self.decisions is None:
            raise RuntimeError("the episode has ended: call reset()")
        done = self.decisions.act(action)
        illegal = self.decisions.illegal
        if not done:  # the next small decision of the same request: nothing happened in the game
            return self._obs(), 0.0, False, False, self._info(illegal)
        answer = self.decisions.answer
        request = self.decisions.request
        try:
            after = self.steps.send(answer)
            if after.seq == request.seq:  # refused (a composed form the engine does not accept)
                illegal = True
                after = self.steps.send(request.default)
            self._open(after)
        except StopIteration:
            self._open(None)
        if self.decisions is None:
            reward = rewards.outcome_reward(self.match.outcome, self.learner) + self._reward()
            return self._obs(), reward, True, False, self._info(illegal)
        return self._obs(), self._reward(), False, False, self._info(illegal)

    def action_masks(self) -> np.ndarray:
        if self.decisions is None:
            return np.zeros(self.enc.max_choices, dtype=bool)
        return np.array(self.decisions.mask(), dtype=bool)

    # ------------------------------------------------------------------ helpers
    def _first(self) -> Request | None:
        try:
            return next(self.steps)
        except StopIteration:
            return None

    def _open(self, request: Request | None) -> None:
        self.decisions = (None if request is None
                          else Decisions(request, self.enc.max_choices, self.enc.split.get(request.kind)))

    def _reward(self) -> float:
        """The shaped part since the last step: read from the new request's view, or the view after the end."""
        if self.shaped is None:
            return 0.0
        self.shaped.tally.read(rewards.latest_view(self.enc, self.decisions, self.match, self.learner))
        return self.shaped.pay(self.learner)

    def _obs(self) -> np.ndarray:
        return encoding.encode(self.enc, self.decisions, self.learner)

    def _info(self, illegal: bool) -> dict:
        new = self.log.events[self.seen:]
        self.seen = len(self.log.events)
        decisions = [{"rule": e.data.get("rule"), "text": e.data.get("text"), "rolls": e.data.get("rolls"),
                      "side": e.side} for e in new if e.kind == "decision" and e.side != self.learner]
        return {"illegal_action": illegal, "robot_decisions": decisions,
                "action_mask": self.action_masks()}
