"""What one finished game reports to simulations: who won, how, and a few measures."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: str | None  # the winning side's label ("robot", "player", ...); None for a draw
    result: str  # how it ended: "destroyed", "disengaged", "time", "points", ...
    turns: int
    metrics: dict[str, float] = field(default_factory=dict)  # e.g. damage each side took

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "result": self.result, "turns": self.turns, "metrics": dict(self.metrics)}
