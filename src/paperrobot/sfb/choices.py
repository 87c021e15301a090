"""What the player side is asked: a Choice of Options, and the JSON form of every answer (saves)."""
from __future__ import annotations

from dataclasses import dataclass

from .energy import EnergyAllocation


@dataclass(frozen=True, slots=True)
class Option:
    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Choice:
    prompt: str
    items: tuple[Option, ...]
    multi: bool = False
    default: tuple[str, ...] = ()

    def keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.items)


def encode_answer(kind: str, action):
    """An answer as JSON: energy as an object, a key as a string, several keys as a list."""
    if kind == "energy":
        out = {"speed": action.speed, "phasers": action.phasers, "arm": [[k, v] for k, v in action.arm],
               "recharge": action.recharge}
        if action.cloak:
            out["cloak"] = action.cloak
        return out
    if isinstance(action, tuple):
        return list(action)
    return action


def decode_answer(kind: str, raw):
    if kind == "energy":
        return EnergyAllocation(int(raw["speed"]), float(raw["phasers"]),
                                tuple((str(k), int(v)) for k, v in raw["arm"]), int(raw["recharge"]),
                                int(raw.get("cloak", 0)))
    if isinstance(raw, list):
        return tuple(str(k) for k in raw)
    if not isinstance(raw, str):
        raise ValueError(f"expected an option key, got {raw!r}")
    return raw
