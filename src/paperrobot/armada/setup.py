"""A battle's set-up: the two fleets, the table, the rules options (the registry's set-up options)."""
from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_IMPERIAL = "victory-ii,gladiator-i,tie-fighter*4"
DEFAULT_REBEL = "cr90-a,nebulon-b-escort,assault-frigate-b,x-wing*2,a-wing"


def fleet_list(text: str) -> list[str]:
    """'tie-fighter*4,victory-ii' -> the names, one entry per unit."""
    out = []
    for item in str(text).split(","):
        name, _, count = item.strip().partition("*")
        if name.strip():
            out += [name.strip()] * (int(count) if count.strip().isdigit() and len(count.strip()) < 4 else 1)
    return out


def fleet_text(names: list[str]) -> str:
    """The inverse of fleet_list: repeats joined as 'name*N' (order kept)."""
    out: list[list] = []
    for name in names:
        if out and out[-1][0] == name:
            out[-1][1] += 1
        else:
            out.append([name, 1])
    return ",".join(n if c == 1 else f"{n}*{c}" for n, c in out)


@dataclass
class Setup:
    imperial: list[str] = field(default_factory=lambda: ["victory-ii", "gladiator-i", "tie-fighter", "tie-fighter",
                                                         "tie-fighter", "tie-fighter"])
    rebel: list[str] = field(default_factory=lambda: ["cr90-a", "nebulon-b-escort", "assault-frigate-b",
                                                      "x-wing", "x-wing", "a-wing"])
    table: str = "standard"
    evade_close: bool = True  # RRG 1.5 evade at close range (False: the 2015 rules, no effect)
    ships_dir: str | None = None
    geometry: str | None = None  # a user's measurements file (a copy of data/geometry.toml); None: the package's

    def to_dict(self) -> dict:
        return {"imperial": list(self.imperial), "rebel": list(self.rebel), "table": self.table,
                "evade_close": self.evade_close}

    def to_options(self) -> dict:
        """The registry's set-up options for this set-up (fleets as 'name,name*2' strings)."""
        return {"imperial": fleet_text(self.imperial), "rebel": fleet_text(self.rebel), "table": self.table,
                "evade_close": self.evade_close, "ships_dir": self.ships_dir or "", "geometry": self.geometry or ""}

    @classmethod
    def from_options(cls, imperial: str = DEFAULT_IMPERIAL, rebel: str = DEFAULT_REBEL, table: str = "standard",
                     evade_close: bool = True, ships_dir: str = "", geometry: str = "") -> "Setup":
        return cls(fleet_list(imperial), fleet_list(rebel), table, bool(evade_close), ships_dir or None,
                   geometry or None)

    @classmethod
    def from_dict(cls, raw: dict) -> "Setup":
        return cls(list(raw["imperial"]), list(raw["rebel"]), str(raw.get("table", "standard")),
                   bool(raw.get("evade_close", True)))
