"""The search player: flat Monte Carlo over the root's answers on forks of the match (docs/search.md).

At each real question worth weighing, the search plays the game out ``simulations`` times from where it stands,
each time on a fork of the match (``match.fork(seed, side)``: the same past, fresh dice from ``seed`` and
whatever this side cannot see drawn anew): one candidate answer to the open question, then the game's heuristic
policy for this side to the end (on the robot's side the robot), every other side flown by the robot or the
policy in process. A simulation is worth the game's own outcome: 1 for a win, 0.5 for a draw, 0 for a loss,
never a margin of damage (a margin taught a prototype to leave the map while losing).

How the budget is spent (why: docs/search.md, "The algorithm"):
- **sequential halving** over the candidates (Karnin, Koren & Somekh 2013; the root of Gumbel MuZero): the
  budget is split evenly over rounds; each round plays every remaining candidate on the same fork seeds
  (common random numbers: two answers are compared on the same dice), then keeps the better half;
- **the policy's answer is the prior**: it is the first candidate, it is never dropped, and another answer
  replaces it only by scoring strictly better on the same seeds (a tie keeps the policy's answer);
- a round after which every remaining candidate scored the same on every seed ends the search: nothing tells
  them apart (a decided position, a question whose answers come to the same), the policy's answer stands.

Budgeted in simulations, never in time, and seeded from the match's seed, the question's number and the side,
so the same game gives the same answers in any process (jobs 1 = jobs 2). The fork seeds never read the match's
dice: the search cannot learn the real game's future rolls.

Not searched: a question with one answer (answered), and a question the policy answers by a standing answer
whatever the state (SFB "disengage": "no"; FC "accelerate": "none"): the search keeps that answer.
"""
from __future__ import annotations

import hashlib
import math
from functools import partial
from typing import Any

from ..core import players
from ..core.contract import Decision, Reason
from ..core.errors import PaperRobotError
from .collect import collected

DEFAULT_SIMULATIONS = 50
MAX_SIMULATIONS = 100_000
PER_CANDIDATE = 8  # simulations per candidate the budget is sized for: width = simulations // 8 (at least 2)
SAME_AFTER = 4  # seeds every remaining candidate scored alike on before the search ends early (a decided position)
POLICY = "@policy"  # the key of the policy's own answer when it is none of the listed options


class Arm:
    """One candidate answer at the root: its outcome per fork seed index (common to every candidate)."""

    __slots__ = ("key", "label", "answer", "results")

    def __init__(self, key: str, label: str, answer: Any):
        self.key, self.label, self.answer = key, label, answer
        self.results: dict[int, float] = {}

    @property
    def visits(self) -> int:
        return len(self.results)

    @property
    def mean(self) -> float:
        return sum(self.results.values()) / len(self.results) if self.results else 0.0

    def on(self, seeds) -> float:
        """The summed outcome on the fork seeds ``seeds`` (all played by this arm)."""
        return sum(self.results[s] for s in seeds)


class Estimate:
    """What a search found for one question: per candidate (key, label, visits, win chance), best first."""

    def __init__(self, simulations: int, rows: list[tuple[str, str, int, float]], chosen: str, searched: bool):
        self.simulations, self.rows, self.chosen, self.searched = simulations, rows, chosen, searched

    def text(self) -> str:
        if not self.searched:
            return f"not searched: {self.rows[0][1]}"
        best = self.rows[0]
        text = f"{self.simulations} simulations: {best[1]} wins {best[3]:.0%} of {best[2]}"
        if len(self.rows) > 1 and self.rows[1][2]:  # a runner-up that was tried
            second = self.rows[1]
            text += f"; runner-up {second[1]} {second[3]:.0%} of {second[2]}"
        return text


class SearchPlayer:
    """A controller (``decide``) bound to its match (``bind``); ``simulations`` per searched question."""

    def __init__(self, simulations: int = DEFAULT_SIMULATIONS, width: int | None = None, salt: int = 0):
        if not isinstance(simulations, int) or not 1 <= simulations <= MAX_SIMULATIONS:
            raise PaperRobotError(f"the search's simulations are a whole number from 1 to {MAX_SIMULATIONS}, "
                                  f"not '{simulations}'")
        self.simulations, self.salt = simulations, salt
        # candidates weighed at the root: about PER_CANDIDATE simulations each (fewer tell nothing apart)
        self.width = width if width is not None else max(3, simulations // PER_CANDIDATE)
        self.match, self.side = None, None
        self.last: Estimate | None = None
        self.arms: list[Arm] = []  # the candidates of the last search (tests, inspection)
        self.searched = 0  # questions searched (the rest answered at once)
        self.played = 0  # simulations played in all (a search may end early: nothing told its answers apart)

    @property
    def name(self) -> str:
        return f"search:{self.simulations}"

    def bind(self, match, side: str) -> None:
        self.match, self.side = match, side
        match.checkpoints = True  # copies from the last boundary, not from the start

    def decide(self, request) -> Decision:
        if self.match is None:
            raise PaperRobotError("the search player plays inside a match: give it to match.play(controllers=...)")
        estimate = self.estimate(request)
        self.last = estimate
        if not estimate.searched:
            return Decision(estimate.chosen)
        return Decision(estimate.chosen, (Reason("SEARCH", estimate.text()),))

    # ------------------------------------------------------------------------------------ the search
    def estimate(self, request, side: str | None = None, match=None) -> Estimate:
        """Search the open ``request`` of ``match`` (the bound one) for ``side``: the answer and every candidate's
        simulations and win chance. Also the hint for a person (``hint``)."""
        match = match if match is not None else self.match
        side = side if side is not None else request.side
        options = request.options
        if len(options) == 1 or _one_action(request):  # e.g. SFB's fire question with nothing to fire
            return Estimate(0, [(options[0].key, options[0].label, 0, 0.0)], options[0].key, False)
        standing = self._standing(match, side)
        if request.kind in standing:
            answer = standing[request.kind]
            return Estimate(0, [(str(answer), f"{answer} (the policy's standing answer)", 0, 0.0)], answer, False)
        base = _seed(match.seed, request.seq, side, self.salt)
        arms: list[Arm] = []
        # the first simulation plays the policy's answer and finds the candidates (the policy answers in a fork)
        self._simulate(match, side, arms, None, 0, base)
        if len(arms) == 1:  # the policy's answer is the only legal distinct one
            arm = arms[0]
            return Estimate(0, [(arm.key, arm.label, arm.visits, arm.mean)], _answer_key(arm), False)
        alive = list(arms) if self.simulations > 1 else arms[:1]
        rounds = max(1, math.ceil(math.log2(len(alive)))) if len(alive) > 1 else 0
        spent, index = 1, 0  # simulations played (the policy's answer on seed 0); the first seed of the round
        for r in range(rounds):
            left = self.simulations - (spent if r else 0)
            per = max(1, left // ((rounds - r) * len(alive)))
            same = False
            for i in range(index, index + per):  # seed by seed: every remaining candidate on the same dice
                for arm in alive:
                    if i not in arm.results and spent < self.simulations:
                        self._simulate(match, side, arms, arm, i, base)
                        spent += 1
                common = _common(alive)
                if len(common) >= SAME_AFTER and len({tuple(a.results[s] for s in common) for a in alive}) == 1:
                    same = True  # nothing tells them apart on the same dice: the policy's answer stands
                    break
            index += per
            if same:
                alive = [arms[0]]
                break
            if r < rounds - 1:
                alive = _halve(alive, arms[0], common)
        self.arms = arms
        self.played += spent
        chosen = _best(alive, arms[0])
        rest = sorted((a for a in arms if a is not chosen), key=lambda a: (-a.visits, -a.mean, arms.index(a)))
        rows = [(a.key, a.label, a.visits, a.mean) for a in [chosen] + rest]
        self.searched += 1
        return Estimate(spent, rows, _answer_key(chosen), True)

    def _standing(self, match, side: str) -> dict:
        """The policy's standing answers (answers it gives whatever the state) of ``match``'s game."""
        cache = getattr(self, "_standing_cache", None)
        if cache is None or cache[0] != match.game:
            probe = match.clone()
            policy = probe.engine.controller(side, _rollout(match, side))
            cache = self._standing_cache = (match.game, dict(getattr(policy, "standing", {}) or {}))
        return cache[1]

    def _simulate(self, match, side: str, arms: list[Arm], arm: Arm | None, index: int, base: int) -> None:
        collected(partial(self._play_out, match, side, arms, arm, index, base))  # its garbage freed at its end

    def _play_out(self, match, side: str, arms: list[Arm], arm: Arm | None, index: int, base: int) -> None:
        """Play ``arm``'s answer to the open question on the fork of seed index ``index``, the policy after it;
        ``arm`` None: the first simulation, which finds the candidates and plays the policy's answer.

        The fork is quiet (no log: nobody reads a play-out's events; the game plays the same). After the first
        simulation the arm's answer is given to the open question (``play(first=...)``) and the engine's own policy
        (or robot) flies this side from there, in process, as in a policy game: no questions of a standing answer,
        no recorded answers (docs/search.md "Cost")."""
        fork = match.fork(_seed(base, index, side, 0), side, quiet=True)
        controllers: dict[str, Any] = {s: _other(match, s) for s in match.sides if s != side}
        if arm is not None:
            controllers[side] = _rollout(match, side)
            steps = fork.play(controllers, Decision(arm.answer))
        else:
            walker = _Walker(self, side, arms)
            controllers[side] = walker
            steps = fork.play(controllers)
            walker.policy = fork.engine.controller(side, _rollout(match, side))  # after play(): the rollout's captain
        try:
            request = next(steps)
            raise PaperRobotError(f"a fork asked {request.side} a question: every side must be flown in a fork")
        except StopIteration as stop:
            outcome = stop.value
        value = 1.0 if outcome.winner == side else 0.5 if outcome.winner is None else 0.0
        if arm is None:
            arm = arms[0]  # found by the walker: the policy's answer
        arm.results[index] = value


def _answer_key(arm: Arm) -> Any:
    return arm.answer if arm.key == POLICY else arm.key


def _common(alive: list[Arm]) -> list[int]:
    seeds = set(alive[0].results)
    for arm in alive[1:]:
        seeds &= set(arm.results)
    return sorted(seeds)


def _halve(alive: list[Arm], policy: Arm, seeds: list[int]) -> list[Arm]:
    """The better half of ``alive`` by their outcomes on the common ``seeds`` (ties: the earlier candidate); the
    policy's answer always stays (in the last place kept, if it would have been dropped)."""
    ranked = sorted(alive, key=lambda a: (-a.on(seeds), alive.index(a)))
    keep = ranked[:max(1, math.ceil(len(alive) / 2))]
    if policy in alive and policy not in keep:
        keep[-1] = policy
    return sorted(keep, key=alive.index)


def _best(alive: list[Arm], policy: Arm) -> Arm:
    """The candidate with the best outcome on the seeds every remaining candidate played; the policy's answer
    unless another scored strictly better (the prior: a tie is no reason to leave the policy's answer)."""
    seeds = _common(alive)
    best = policy if policy in alive else alive[0]
    for arm in alive:
        if arm.on(seeds) > best.on(seeds):
            best = arm
    return best


def _rollout(match, side: str) -> str:
    """Who answers for the searching side after the root: the policy; on the robot's side the robot itself (its
    ships follow the robot's rules there, which the policy does not know)."""
    return "robot" if side == getattr(match.engine, "robot_side", None) else "policy"


def _other(match, side: str) -> str:
    """Who flies another side in a fork: the match's robot or policy; a person or an outside player (another
    search, an agent) is modelled by the policy."""
    who = match.controllers.get(side)
    return who if who in ("robot", "policy") else "policy"


class _Walker:
    """Flies the searching side in the first simulation of a question: at the root it lists the candidates (the
    policy's answer first) and plays the policy's answer, then the policy answers. (The other simulations give
    their candidate with ``play(first=...)`` and let the engine's policy fly the side in process.)"""

    def __init__(self, search: SearchPlayer, side: str, arms: list[Arm]):
        self.search, self.side, self.arms = search, side, arms
        self.policy = None
        self.at_root = True

    def decide(self, request) -> Decision:
        if not self.at_root:
            return self.policy.decide(request)
        self.at_root = False
        suggestion = self.policy.decide(request).action
        for key, label, answer in _candidates(request, suggestion, self.search.width):
            self.arms.append(Arm(key, label, answer))
        if not self.arms:
            raise PaperRobotError(f"the search found no legal answer to {request!r}")
        return Decision(self.arms[0].answer)


def _one_action(request) -> bool:
    """True when every listed option is the same action (a question with one answer in effect)."""
    first = None
    for n, option in enumerate(request.options):
        try:
            action = request.parse(option.key)
        except Exception:
            return False
        if n == 0:
            first = action
        elif not _same(action, first):
            return False
    return True


def _candidates(request, suggestion: Any, width: int) -> list[tuple[str, str, Any]]:
    """(key, label, answer) of the answers worth searching: the policy's answer first (as the option it equals,
    else as POLICY), then the listed options in their order, each distinct action once, at most ``width``."""
    seen: list = []
    out: list[tuple[str, str, Any]] = []

    def action_of(answer):
        try:
            return request.parse(answer)
        except Exception:  # an option the engine refuses here is no candidate
            return _Refused

    wanted = action_of(suggestion)
    options = request.options
    first = None
    for option in options:
        if _same(action_of(option.key), wanted):
            first = (option.key, option.label, option.key)
            break
    if first is None and wanted is not _Refused:
        first = (POLICY, "the policy's answer", suggestion)
    if first is not None:
        out.append(first)
        seen.append(wanted)
    room = width - len(out)
    if len(options) > room > 0:  # too many to weigh: every k-th, spread over the list (Armada's 25 manoeuvres)
        step = len(options) / room
        options = [options[int(i * step)] for i in range(room)] + list(options)
    for option in options:
        if len(out) >= width:
            break
        action = action_of(option.key)
        if action is _Refused or any(_same(action, s) for s in seen):
            continue
        seen.append(action)
        out.append((option.key, option.label, option.key))
    return out


class _Refused:
    pass


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False


def _seed(base: int, index: int, side: str, salt: int) -> int:
    """A fork's seed: from the match's seed, the question's number, the side and the simulation's index only (never
    from the match's dice), below 2**63."""
    digest = hashlib.blake2b(f"{base}/{index}/{side}/{salt}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & 0x7FFFFFFFFFFFFFFF


def hint(match, request, simulations: int = DEFAULT_SIMULATIONS) -> Estimate:
    """What the search player would answer to ``request`` (open in ``match``, for its side), with the estimated
    win chance of each candidate: the hint for a person. The match must use the program's dice."""
    return SearchPlayer(simulations).estimate(request, request.side, match)


def _factory(arg: str | None, match=None, side: str | None = None) -> SearchPlayer:
    if arg is None or arg == "":
        return SearchPlayer(DEFAULT_SIMULATIONS)
    if not arg.isdigit() or not 1 <= int(arg) <= MAX_SIMULATIONS:
        raise PaperRobotError(f"'search:{arg}': the number after 'search:' is the simulations per decision, "
                              f"a whole number from 1 to {MAX_SIMULATIONS} (e.g. search:50)")
    return SearchPlayer(int(arg))


players.register("search", _factory, f"flat Monte Carlo on forks with sequential halving, N simulations per "
                                     f"decision (search = search:{DEFAULT_SIMULATIONS})")

__all__ = ["SearchPlayer", "Estimate", "hint", "DEFAULT_SIMULATIONS"]
