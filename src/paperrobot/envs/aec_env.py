"""A PettingZoo AEC environment: every side of the game is an agent (so the robot can be one agent, driven
by ``robot_agent``, or two learners can play). The agent to act is the side the engine asks next.

Observations are Classic-style dicts ``{"observation": Box, "action_mask": int8 vector}``; actions are
``Discrete(max_choices)`` over the current small decision (see decisions.py). An unmasked action plays the
request's default and sets ``infos[agent]["illegal_action"]``. Rewards: +1/-1 (0 for a draw) at the end;
``reward="shaped"`` adds each agent's scaled damage dealt minus damage taken as it happens (rewards.py).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import paperrobot
from ..core.events import EventLog
from . import encoding, rewards
from .decisions import Decisions


class PaperRobotAEC(AECEnv):
    metadata = {"render_modes": [], "name": "paperrobot_v0", "is_parallelizable": False}

    def __init__(self, game: str, robot: str = "agent", reward: str = "outcome", reward_scale: float | None = None,
                 **setup: Any):
        super().__init__()
        self.info_ = paperrobot.game_info(game)
        self.enc = encoding.encoder(game)
        rewards.check(reward, self.enc, game)
        self.reward_kind, self.reward_scale = reward, reward_scale
        self.shaped: rewards.ShapedReward | None = None
        self.game, self.setup = game, setup
        paperrobot.new_game(game, seed=0, **setup)  # checks the set-up now, with one clear error
        if robot not in ("agent", "robot"):
            raise ValueError("robot must be 'agent' (the robot's side is a learner) or 'robot' (the seed's robot "
                             "answers for it inside the environment)")
        self.robot_mode = robot
        self.possible_agents = [s for s in self.info_.sides if not (robot == "robot" and s == self.info_.robot_side)]
        n = encoding.size(self.enc)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-encoding.BOUND, encoding.BOUND, (n,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.enc.max_choices,), np.int8)})
        self._act_space = spaces.Discrete(self.enc.max_choices)
        self._seed: int | None = None

    def observation_space(self, agent):
        return self._obs_space

    def action_space(self, agent):
        return self._act_space

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif not hasattr(self, "_rng"):
            self._rng = np.random.default_rng()
        # a given seed seeds the game's dice itself (the same game as `--seed`); later resets draw from it
        game_seed = int(seed) % 2 ** 63 if seed is not None else int(self._rng.integers(0, 2 ** 62))
        self.log = EventLog()
        self.match = paperrobot.new_game(self.game, seed=game_seed, log=self.log, **self.setup)
        controllers = {side: None for side in self.possible_agents}
        self.steps = self.match.play(controllers)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"illegal_action": False} for a in self.agents}
        self.seen = 0
        if self.reward_kind == "shaped":
            self.shaped = rewards.ShapedReward(rewards.DamageTally(self.enc, self.reward_scale), self.info_.sides)
        try:
            self._open(next(self.steps))
        except StopIteration:
            self._finish()
        self._shape()
        self.rewards = {a: 0.0 for a in self.agents}  # the first reading sets each unit's level: no reward

    def observe(self, agent):
        live = self.decisions if (self.decisions is not None and self.decisions.request.side == agent) else None
        mask = np.array(live.mask(), dtype=np.int8) if live is not None else np.zeros(self.enc.max_choices, np.int8)
        return {"observation": encoding.encode(self.enc, live, agent), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        decisions = self.decisions
        done = decisions.act(action)
        self.infos[agent] = {"illegal_action": decisions.illegal}
        if done:
            request = decisions.request
            try:
                after = self.steps.send(decisions.answer)
                if after.seq == request.seq:  # a composed form the engine refuses: its default instead
                    self.infos[agent]["illegal_action"] = True
                    after = self.steps.send(request.default)
                self._open(after)
            except StopIteration:
                self._finish()
            self._shape()
        self._accumulate_rewards()

    # ------------------------------------------------------------------ helpers
    def _open(self, request) -> None:
        self.decisions = Decisions(request, self.enc.max_choices, self.enc.split.get(request.kind))
        self.agent_selection = request.side
        new = self.log.events[self.seen:]
        self.seen = len(self.log.events)
        self.infos[request.side]["robot_decisions"] = [
            {"rule": e.data.get("rule"), "text": e.data.get("text"), "rolls": e.data.get("rolls"), "side": e.side}
            for e in new if e.kind == "decision"]

    def _shape(self) -> None:
        """Add each agent's shaped reward since the last request: read from the open request's view (damage is
        open information in every game), or from the view after the end."""
        if self.shaped is None:
            return
        self.shaped.tally.read(rewards.latest_view(self.enc, self.decisions, self.match, self.possible_agents[0]))
        for agent in self.agents:
            self.rewards[agent] += self.shaped.pay(agent)

    def _finish(self) -> None:
        outcome = self.match.outcome
        self.decisions = None
        for agent in self.agents:
            self.rewards[agent] = rewards.outcome_reward(outcome, agent)
            self.terminations[agent] = True
        if self.agents:
            self.agent_selection = self.agents[0]

    def render(self):
        return None

    def close(self):
        pass
