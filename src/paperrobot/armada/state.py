"""Game state: ships and squadrons on the table (plain dataclasses; the hot path of simulations)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from .data import ShipSpec, SizeClass, SquadronSpec, geometry, parse_dice
from .dice import pool_at
from .geometry import Footprint, footprint
from .polygons import Poly, circle

ZONE_INDEX: Final[dict[str, int]] = {"front": 0, "left": 1, "right": 2, "rear": 3}
_BANDS: Final[tuple[str | None, ...]] = ("close", "medium", "long", None)


def _pools(dice: tuple[int, int, int]) -> dict[str | None, list[str]]:
    """dice.pool_at(dice, band) for every band (None: beyond long range, no dice)."""
    return {band: pool_at(dice, band) for band in _BANDS}


class Armament:
    """A ship card's dice, worked out once per card (Ship.arms): each hull zone's battery in ZONES order, its number
    of dice, and the dice it gathers at each range band (dice.pool_at; shared lists, never to be changed: copy one
    to keep it); the same for the anti-squadron armament. The measuring reads a zone's dice at a band many times a
    decision: reading the card (a pydantic model) and parsing its dice code at each read was a measurable cost."""

    def __init__(self, spec: ShipSpec) -> None:
        self.spec = spec
        self.batteries = [parse_dice(spec.front), parse_dice(spec.left), parse_dice(spec.right), parse_dice(spec.rear)]
        self.totals = [sum(b) for b in self.batteries]
        self.pools = [_pools(b) for b in self.batteries]
        self.anti = parse_dice(spec.anti_squadron)
        self.anti_pools = _pools(self.anti)


_ARMS: Final[dict[int, Armament]] = {}  # id(card) -> its Armament


def armament(spec: ShipSpec) -> Armament:
    """The Armament of a ship card (made once; keyed by the card object, as geometry's per-size tables)."""
    arms = _ARMS.get(id(spec))
    if arms is None or arms.spec is not spec:
        if len(_ARMS) > 4096:  # bounded: cards loaded again and again (a ships directory per game)
            _ARMS.clear()
        arms = _ARMS[id(spec)] = Armament(spec)
    return arms


@dataclass(slots=True, init=False)
class Ship:
    """A ship on the table. (Its __init__ is written out: compiled, a dataclass's generated __init__ runs as
    interpreted code, and every fork of a search builds each ship anew, snapshot.restore.)"""
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
    _arms: Armament | None = field(default=None, compare=False, repr=False)  # its card's dice (arms())

    def __init__(self, uid: str, spec: ShipSpec, side: str, x: float, y: float, a: float, speed: int,
                 shields: list[int] | None = None, tokens: list[list[Any]] | None = None, facedown: int = 0,
                 faceup: list[str] | None = None, cmd_tokens: set[str] | None = None, dial: str | None = None,
                 used: set[str] | None = None, activated: bool = False, destroyed: bool = False, slot: float = 0.0,
                 size: SizeClass | None = None, _fp: Footprint | None = None,
                 _at: tuple[float, float, float] = (0.0, 0.0, 0.0)) -> None:
        self.uid, self.spec, self.side, self.x, self.y, self.a, self.speed = uid, spec, side, x, y, a, speed
        self.shields = [] if shields is None else shields
        self.tokens = [] if tokens is None else tokens
        self.facedown = facedown
        self.faceup = [] if faceup is None else faceup
        self.cmd_tokens = set() if cmd_tokens is None else cmd_tokens
        self.dial = dial
        self.used = set() if used is None else used
        self.activated, self.destroyed, self.slot, self.size, self._fp, self._at = \
            activated, destroyed, slot, size, _fp, _at
        self._arms = None

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

    def arms(self) -> Armament:
        """Its card's dice (armament: looked up once per ship, then kept)."""
        arms = self._arms
        if arms is None:
            arms = self._arms = armament(self.spec)
        return arms

    def battery(self, zone: str) -> tuple[int, int, int]:
        return self.arms().batteries[ZONE_INDEX[zone]]

    def anti(self) -> tuple[int, int, int]:
        return self.arms().anti

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


@dataclass(slots=True, init=False)
class Squad:
    """A squadron on the table (its __init__ written out, as Ship's)."""
    uid: str
    spec: SquadronSpec
    side: str
    x: float
    y: float
    hull: int
    activated: bool = False
    destroyed: bool = False
    radius: float = 0.0  # of its base (from the game's geometry)
    _poly: Poly | None = field(default=None, compare=False, repr=False)  # its polygon, made at _at
    _at: tuple[float, float] = field(default=(0.0, 0.0), compare=False, repr=False)

    def __init__(self, uid: str, spec: SquadronSpec, side: str, x: float, y: float, hull: int, activated: bool = False,
                 destroyed: bool = False, radius: float = 0.0) -> None:
        self.uid, self.spec, self.side, self.x, self.y, self.hull = uid, spec, side, x, y, hull
        self.activated, self.destroyed, self.radius = activated, destroyed, radius
        self._poly, self._at = None, (0.0, 0.0)

    @classmethod
    def make(cls, uid: str, spec: SquadronSpec, side: str, x: float, y: float, radius: float = 0.0) -> "Squad":
        return cls(uid, spec, side, x, y, spec.hull, radius=radius or geometry().squadron_base.radius)

    @property
    def poly(self) -> Poly:
        """Its base as a polygon (circle), made again only when it has moved: read it, never change it (a hull
        zone's attack on it reads it once per zone, as Ship.fp's base)."""
        x, y = self.x, self.y
        at = self._at
        poly = self._poly
        if poly is None or at[0] != x or at[1] != y:
            poly = self._poly = circle(x, y, self.radius)
            self._at = (x, y)
        return poly

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


class Place:
    """Where a live ship was when ship_memo's measurements were made (its key: one per live ship, in order). A plain
    class of float fields: compiled, compared unboxed (a tuple of the uid and three floats was unpacked and its
    items type-checked at each of ~180 checks a simulation)."""
    __slots__ = ("ship", "x", "y", "a")
    ship: Ship
    x: float
    y: float
    a: float

    def __init__(self, ship: Ship) -> None:
        self.ship, self.x, self.y, self.a = ship, ship.x, ship.y, ship.a


@dataclass(slots=True)
class Obstacle:
    kind: str  # asteroid, debris, station
    x: float
    y: float
    poly: Poly
