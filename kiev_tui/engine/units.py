"""Counter definitions (what is printed on a piece) and per-game unit state."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiev_tui.engine.errors import shorten
from kiev_tui.engine.tomlio import Reader, load_toml

SIDES = ("german", "soviet")
UNIT_TYPES = {
    "german": ("infantry", "jaeger", "mountain", "panzer", "motorized", "leader", "security"),
    "soviet": ("rifle", "mountain_rifle", "nkvd", "airborne", "cavalry", "tank", "motorized",
               "mechanized", "hq"),
}
DRAW_TYPES = ("rifle", "cavalry", "armor")


@dataclass(frozen=True, slots=True)
class UnitDef:
    """A counter as printed: identity, strengths per step, movement, flags."""

    id: str
    side: str
    type: str
    size: str
    designation: str
    division: str
    steps: tuple[tuple[int, int], ...]
    ma: int
    mechanized: bool = False
    leadership: int = 0
    hq: bool = False
    leader: bool = False
    replacement: bool = False
    rpl_step: int = 0  # 1-based step that needs an rpl counter (19.24); 0 = none
    untried_draw: str = ""  # set for unrevealed Soviet reinforcements: their draw pile
    reconstructed: bool = False
    note: str = ""

    @property
    def is_combat(self) -> bool:
        """HQs and leaders do not count as combat units for stacking (11.22)."""
        return not (self.hq or self.leader)

    @property
    def cavalry(self) -> bool:
        return self.type == "cavalry"

    def strength(self, step: int) -> tuple[int, int]:
        return self.steps[step]

    @property
    def label(self) -> str:
        return f"{self.designation} {self.type}".strip()


@dataclass(frozen=True, slots=True)
class UntriedFace:
    """The hidden true side of an untried Soviet counter (13.0, 19.6)."""

    id: str
    draw: str
    type: str
    size: str
    designation: str
    attack: int
    defense: int
    ma: int
    asterisk: bool = False
    reconstructed: bool = False

    @property
    def no_strength(self) -> bool:
        return self.attack == 0 and self.defense == 0


@dataclass(frozen=True, slots=True)
class UntriedType:
    draw: str
    ma: int
    size: str
    mechanized: bool


@dataclass
class UnitCatalog:
    units: dict[str, UnitDef]
    faces: dict[str, UntriedFace]
    untried_types: dict[str, UntriedType]

    def faces_of(self, draw: str) -> list[UntriedFace]:
        return [f for f in self.faces.values() if f.draw == draw]


@dataclass
class UnitState:
    """Where a unit is and what has happened to it this game."""

    id: str
    status: str = "pending"  # pending | map | eliminated
    hex: str | None = None
    step: int = 0
    face: str | None = None  # untried units: the face drawn at reveal
    markers: set[str] = field(default_factory=set)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"status": self.status, "step": self.step}
        if self.hex is not None:
            d["hex"] = self.hex
        if self.face is not None:
            d["face"] = self.face
        if self.markers:
            d["markers"] = sorted(self.markers)
        return d

    @classmethod
    def from_dict(cls, uid: str, d: dict[str, Any]) -> "UnitState":
        return cls(uid, d["status"], d.get("hex"), d.get("step", 0), d.get("face"), set(d.get("markers", ())))


def load_units(path: str | Path) -> UnitCatalog:
    """Read and check units.toml (see docs/DATA-SCHEMA.md)."""
    path = Path(path)
    root = Reader(path, load_toml(path))
    root.only(["unit", "untried", "untried_types", "note"])
    units: dict[str, UnitDef] = {}
    folded: dict[str, str] = {}
    for u in root.tables("unit", required=True):
        u.only(["id", "side", "type", "size", "designation", "division", "steps", "ma", "mechanized",
                "leadership", "hq", "leader", "replacement", "rpl_step", "reconstructed", "note"])
        uid = u.str("id")
        if uid in units:
            raise u.fail("id", f"unit id '{shorten(uid)}' is used twice")
        twin = folded.get(uid.casefold())
        if twin is not None:  # players type ids; two that differ only in case are one too many
            raise u.fail("id", f"unit id '{shorten(uid)}' differs from '{twin}' only in case")
        folded[uid.casefold()] = uid
        side = u.str("side")
        if side not in SIDES:
            raise u.fail("side", f"side must be german or soviet, not '{side}'")
        utype = u.str("type")
        if utype not in UNIT_TYPES[side]:
            raise u.fail("type", f"'{utype}' is not a {side} unit type ({', '.join(UNIT_TYPES[side])})")
        raw_steps = u.get("steps", list)
        steps: list[tuple[int, int]] = []
        for i, st in enumerate(raw_steps):
            if (not isinstance(st, list) or len(st) != 2
                    or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in st)):
                raise u.fail(f"steps[{i}]", "each step is [attack, defense], two whole numbers >= 0")
            steps.append((st[0], st[1]))
        if not steps:
            raise u.fail("steps", "a unit needs at least one step")
        ma = u.int("ma")
        if ma < 0:
            raise u.fail("ma", "movement allowance cannot be negative")
        rpl_step = u.int("rpl_step", 0)
        if rpl_step and not (1 <= rpl_step <= len(steps)):
            raise u.fail("rpl_step", f"rpl_step must name one of the {len(steps)} steps")
        units[uid] = UnitDef(
            id=uid, side=side, type=utype, size=u.str("size", ""), designation=u.str("designation"),
            division=u.str("division", ""), steps=tuple(steps), ma=ma,
            mechanized=u.bool("mechanized", False), leadership=u.int("leadership", 0),
            hq=u.bool("hq", False), leader=u.bool("leader", False),
            replacement=u.bool("replacement", False), rpl_step=rpl_step,
            reconstructed=u.bool("reconstructed", False), note=u.str("note", ""),
        )
    types: dict[str, UntriedType] = {}
    tt = root.table("untried_types", required=False)
    for draw in tt.keys():
        if draw not in DRAW_TYPES:
            raise tt.fail(draw, f"unknown draw type (expected {', '.join(DRAW_TYPES)})")
        t = tt.table(draw)
        t.only(["ma", "size", "mechanized", "note"])
        types[draw] = UntriedType(draw, t.int("ma"), t.str("size", ""), t.bool("mechanized", False))
    faces: dict[str, UntriedFace] = {}
    for i, f in enumerate(root.tables("untried")):
        f.only(["id", "draw", "type", "size", "designation", "attack", "defense", "ma", "asterisk",
                "reconstructed", "note"])
        draw = f.str("draw")
        if draw not in types:
            raise f.fail("draw", f"draw type '{draw}' has no [untried_types.{draw}] table")
        ftype = f.str("type")
        if ftype not in UNIT_TYPES["soviet"]:
            raise f.fail("type", f"'{ftype}' is not a Soviet unit type")
        fid = f.str("id", f"{draw}-{f.str('designation')}")
        if fid in faces:
            raise f.fail("id", f"untried face '{fid}' is listed twice")
        faces[fid] = UntriedFace(fid, draw, ftype, f.str("size", ""), f.str("designation"),
                                 f.int("attack"), f.int("defense"), f.int("ma"),
                                 f.bool("asterisk", False), f.bool("reconstructed", False))
    return UnitCatalog(units, faces, types)
