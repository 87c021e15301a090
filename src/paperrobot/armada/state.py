"""Game state: ships and squadrons on the table (plain dataclasses; the hot path of simulations)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from .data import ShipSpec, SizeClass, SquadronSpec, geometry, parse_dice
from .geometry import Footprint, footprint
from .polygons import Poly, circle

ZONE_INDEX: Final[dict[str, int]] = {"front": 0, "left": 1, "right": 2, "rear": 3}


@dataclass(slots=True)
class Ship:
    uid: str
    spec: ShipSpec
    side: str
    x: float
    y: float
    a: float
    speed: int
    shields: list[int] = field(default_factory=list)
    tokens: list[list[Any]] = field(default_factory=list)  # [kind, exhausted]
    facedown: int = 0
    faceup: list[str] = field(default_factory=list)
    cmd_tokens: set[str] = field(default_factory=set)
    dial: str | None = None
    used: set[str] = field(default_factory=set)  # commands resolved this round
    activated: bool = False
    destroyed: bool = False
    slot: float = 0.0  # sideways offset in the formation (mm, + = port)
    size: SizeClass | None = None  # the base's measurements (from the game's geometry)
    _fp: Footprint | None = None
    _at: tuple[float, float, float] = (0.0, 0.0, 0.0)  # where _fp was made (read only once _fp is set)

    @classmethod
    def make(cls, uid: str, spec: ShipSpec, side: str, x: float, y: float, a: float, speed: int,
             size: SizeClass | None = None) -> "Ship":
        return cls(uid, spec, side, x, y, a, speed, list(spec.shields), [[t, False] for t in spec.tokens],
                   size=size or geometry().sizes[spec.size])

    @property
    def fp(self) -> Footprint:
        # the pose the footprint was made at, compared coordinate by coordinate: no tuple is built at each read
        # (compiled, a three-float tuple field is stored unboxed; about 2,000 reads a battle)
        x, y, a = self.x, self.y, self.a
        at = self._at
        fp = self._fp
        if fp is None or at[0] != x or at[1] != y or at[2] != a:
            size = self.size
            assert size is not None  # set by make() and kept by snapshot.restore
            fp = self._fp = footprint(size, x, y, a)
            self._at = (x, y, a)
        return fp

    @property
    def damage(self) -> int:
        return self.facedown + len(self.faceup)

    @property
    def hull_left(self) -> int:
        return self.spec.hull - self.damage

    def battery(self, zone: str) -> tuple[int, int, int]:
        return parse_dice(getattr(self.spec, zone))

    def anti(self) -> tuple[int, int, int]:
        return parse_dice(self.spec.anti_squadron)

    def zone_shields(self, zone: str) -> int:
        return self.shields[ZONE_INDEX[zone]]

    def max_speed(self) -> int:
        return len(self.spec.speed_chart)

    def has_command(self, cmd: str) -> bool:
        return cmd not in self.used and (self.dial == cmd or cmd in self.cmd_tokens)

    def to_view(self) -> dict[str, Any]:
        return {"id": self.uid, "ship": self.spec.name, "size": self.spec.size, "hull": self.spec.hull,
                "side": self.side, "x": round(self.x, 1),
                "y": round(self.y, 1), "heading": round(math.degrees(self.a), 1), "speed": self.speed,
                "shields": list(self.shields), "damage": self.damage, "faceup": list(self.faceup),
                "tokens": [f"{k}{'*' if e else ''}" for k, e in self.tokens], "destroyed": self.destroyed}


@dataclass(slots=True)
class Squad:
    uid: str
    spec: SquadronSpec
    side: str
    x: float
    y: float
    hull: int
    activated: bool = False
    destroyed: bool = False
    radius: float = 0.0  # of its base (from the game's geometry)

    @classmethod
    def make(cls, uid: str, spec: SquadronSpec, side: str, x: float, y: float, radius: float = 0.0) -> "Squad":
        return cls(uid, spec, side, x, y, spec.hull, radius=radius or geometry().squadron_base.radius)

    @property
    def poly(self) -> Poly:
        return circle(self.x, self.y, self.radius)

    def keyword(self, word: str) -> int:
        """0 when absent; the value for 'counter 2'; 1 for a plain keyword."""
        for k in self.spec.keywords:
            parts = k.split()
            if parts[0] == word:
                return int(parts[1]) if len(parts) > 1 else 1
        return 0

    def to_view(self) -> dict[str, Any]:
        return {"id": self.uid, "squadron": self.spec.name, "side": self.side, "x": round(self.x, 1),
                "y": round(self.y, 1), "hull": self.hull, "destroyed": self.destroyed}


@dataclass(slots=True)
class Obstacle:
    kind: str  # asteroid, debris, station
    x: float
    y: float
    poly: Poly
