"""Victory points (24.0-24.3): towns and cities held, enemy units destroyed, the 133-point margin."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev.common import GERMAN, SOVIET, View
from kiev_tui.games.spi_kiev.supply import Supply


@dataclass
class Score:
    german: int = 0
    soviet: int = 0
    margin: int = 133
    lines: list[tuple[str, str, int]] = field(default_factory=list)  # (side, what, points)
    #: each line's words with unit ids where ``what`` has designations, for a face to name the units
    #: (issue 35); not in ``to_dict``, so a finished game's recorded score stays as it was
    named: list[str] = field(default_factory=list)

    def add(self, side: str, what: str, points: int, named: str = "") -> None:
        if points:
            self.lines.append((side, what, points))
            self.named.append(named or what)
            if side == GERMAN:
                self.german += points
            else:
                self.soviet += points

    @property
    def winner(self) -> str:
        # 24.0: the German needs a lead of at least the margin; anything less is a Soviet win.
        return GERMAN if self.german - self.soviet >= self.margin else SOVIET

    def summary(self) -> str:
        return (f"German {self.german} VP, Soviet {self.soviet} VP; the German needed a lead of "
                f"{self.margin} and has {self.german - self.soviet}.")

    def to_dict(self) -> dict[str, Any]:
        return {"german": self.german, "soviet": self.soviet, "margin": self.margin,
                "winner": self.winner,
                "lines": [{"side": s, "what": w, "points": p} for s, w, p in self.lines]}


def score(view: View, final: bool = True) -> Score:
    """The score as it would stand if the game ended now (24.0)."""
    vic = view.game.scenario.victory
    sc = Score(margin=int(vic.get("margin", 133)))
    special = {k: int(v) for k, v in vic.get("special_hexes", {"0319": 25}).items()}
    city, town = int(vic.get("city", 10)), int(vic.get("town", 5))
    for key, side in sorted(view.state.control.items()):
        h = Hex.parse(key)
        kind = view.map.settlement(h)
        if kind is None:
            continue
        pts = special.get(key, city if kind == "city" else town)
        sc.add(side, f"holds {view.map.name(h) or key} ({key}, {kind})", pts)  # 24.1

    units = view.state.units
    gone = {uid for uid, u in units.items() if u.status == "eliminated"}
    counted: set[str] = set()
    for f in vic.get("formation", []):
        members = list(f.get("units", []))
        if members and all(m in gone for m in members):
            sc.add(SOVIET, f"destroyed {f.get('name', '?')} entirely", int(f.get("points", 0)))  # 24.2
            counted.update(members)
    reg = vic.get("regiment_points", {})  # 24.2: each missing value is the book's (below)
    for uid in sorted(gone - counted):
        d = view.catalog.units[uid]
        if d.side != GERMAN or d.replacement:
            continue
        if d.leader:
            continue  # leaders score only through their own formation entry
        pts = int(reg.get("panzer", 8)) if d.type == "panzer" else int(reg.get("other", 5))
        sc.add(SOVIET, f"eliminated {d.designation} {d.type}", pts, f"eliminated {uid}")

    front = vic.get("soviet_front_hq", "so-hq-agsw")
    per_unit = int(vic.get("soviet_unit_points", 1))
    out_of_supply: set[str] = set()
    if final:
        sup = view.supply
        out_of_supply = {uid for uid, s in sup.all_status(SOVIET).items() if not s.in_supply}
    for uid in sorted(gone | out_of_supply):
        d = view.catalog.units[uid]
        if d.side != SOVIET:
            continue
        how = "eliminated" if uid in gone else "out of supply at the end"
        if uid == front:
            sc.add(GERMAN, f"{how}: the front HQ {d.designation}", int(vic.get("soviet_front_hq_points", 10)),
                   f"{how}: {uid} (the front HQ)")
        else:
            sc.add(GERMAN, f"{how}: {d.designation}", per_unit, f"{how}: {uid}")  # 24.3
    return sc
