"""Armada's squadron phase: each side activates two squadrons at a time, which move and attack; a part of the engine
(after table.Measures in the chain of game.py's Game)."""
from __future__ import annotations

import math
from typing import Any

from ..core.contract import Option
from .base import Steps
from .measure import ShotOpt, shot_label
from .requests import PASS_SQUADRON, pick
from .state import Squad
from .table import Measures


class SquadronPhase(Measures):
    # ------------------------------------------------------------------ squadrons
    def squadron_phase(self) -> Steps:
        """Each side in turn activates two squadrons, from the first player, until neither has one left. The
        position is state (a boundary before each squadron activation): whose turn (squad_turn), how many turns
        in a row found nothing to activate (squad_passes), the turn's activations made so far (squad_step)."""
        while self.squad_passes < 2:
            side = self.squad_turn
            if self.squad_step == 0:
                if not any(not q.activated for q in self.live_squads(side)):
                    self.squad_passes += 1
                    self.squad_turn = self.enemy(side)
                    continue
                self.squad_passes = 0
            while self.squad_step < 2:
                waiting = [q for q in self.live_squads(side) if not q.activated]
                if not waiting or self.over():
                    break
                if self.boundary is not None:
                    self.boundary()
                opts = tuple(Option(q.uid, f"{q.uid} ({q.spec.title}, hull {q.hull})", q) for q in waiting)
                dec = yield self._ask("squadron-pick", side, state=self, subject=waiting, options=opts,
                                    check=pick(opts, "an unactivated squadron of yours", "RRG Squadron Phase"),
                                    prompt="Activate which squadron")
                self.squad_step += 1
                yield from self.squadron_activation(dec.action.value, ordered=False)
            if self.over():
                return
            self.squad_turn, self.squad_step = self.enemy(side), 0

    def squadron_activation(self, q: Squad, ordered: bool) -> Steps:
        """Squadron phase: move or attack. Ordered by a Squadron command: move and attack."""
        q.activated = True
        engaged = bool(self.engaged_with(q))
        did_attack = did_move = False
        for _ in range(2 if ordered else 1):
            opts: list[Option] = []
            if not did_attack:
                opts += [Option(o.key, shot_label(o), o) for o in self.squad_shots(q)]
            if not did_move and not (engaged and not q.keyword("heavy") and self._pinned(q)):
                opts += self.squad_moves(q)
            if not opts:
                return
            view: dict[str, Any] = {"squad": q, "ordered": ordered, "did_move": did_move, "did_attack": did_attack, "game": self}
            choices = tuple(opts) + (PASS_SQUADRON,)
            dec = yield self._ask("squadron", q.side, state=self, subject=view, options=choices, default="pass",
                                check=pick(choices, "a legal squadron action now", "RRG Squadron Activation"),
                                prompt=f"{q.uid}: move or attack")
            chosen = dec.action
            if chosen.key == "pass":
                return
            if isinstance(chosen.value, ShotOpt):
                did_attack = True
                yield from self.attack(chosen.value)
                if q.destroyed or self.over():
                    return
            elif chosen.key == "stay":
                did_move = True
            else:
                did_move = True
                x, y = chosen.value
                dx, dy = x - q.x, y - q.y
                step = math.hypot(dx, dy)
                while step > 0 and self._crowded(q, x, y):  # cannot end overlapping a ship or squadron
                    back = max(0.0, step - 5.0)
                    x, y = q.x + dx * back / step, q.y + dy * back / step
                    dx, dy, step = x - q.x, y - q.y, back
                q.x, q.y = x, y
                self.touch()
                if self.logging():
                    self.emit("squadron-move", q.side, unit=q.uid, x=round(q.x, 1), y=round(q.y, 1))
            if not ordered:
                return

    def status_phase(self) -> None:
        for s in self.live_ships():
            for t in s.tokens:
                t[1] = False
            s.activated = False
            s.used.clear()
            s.dial = None
        for q in self.live_squads():
            q.activated = False
        self.emit("status", score=dict(self.score))
