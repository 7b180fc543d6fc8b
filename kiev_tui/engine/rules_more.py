"""The methods of kiev_tui.engine.rules that a new game's first frame never calls (issue 33, round 7).

Each class here is only a namespace: the class of the same name in rules.py holds a
`later` stand-in for each method, which imports this module when first looked up (kiev_tui/later.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from kiev_tui.engine.rules import (  # noqa: F401
    BASE_STATUSES,
)

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.engine.rules import HexMarker, Layer


class Counters:
    """Methods of rules.Counters that a new game's first frame never calls."""

    def layer_of(self, unit_type: str, own: str = "") -> Layer:
        """The layer of a unit: its own ``layer`` key, else its type's, else the first."""
        return self.layer(own or self.type_layers.get(unit_type, self.layers[0].name))

    def marker(self, kind: str) -> HexMarker | None:
        return next((m for m in self.hex_markers if m.kind == kind), None)

    def problems(self, unit_types: Mapping[str, tuple[str, ...]]) -> list[tuple[str, str]]:
        """(key, reason) for each thing the declaration gets wrong; empty when sound."""
        out: list[tuple[str, str]] = []
        if len(set(self.factors)) != len(self.factors):
            out.append(("factors", "a factor is named twice"))
        if len(self.step_factors) > 2 or any(f not in self.factors for f in self.step_factors):
            out.append(("step_factors", "at most two, each one of the factors"))
        if self.ma_factor and (self.ma_factor not in self.factors or self.ma_factor in self.step_factors):
            out.append(("ma_factor", "one of the factors that steps do not give"))
        if set(self.statuses) & set(BASE_STATUSES) or len(set(self.statuses)) != len(self.statuses):
            out.append(("statuses", f"each once, none of {', '.join(BASE_STATUSES)}"))
        names = [layer.name for layer in self.layers]
        if not names or len(set(names)) != len(names):
            out.append(("layers", "at least one layer, each named once"))
        for layer in self.layers:
            for st in layer.statuses:
                if st not in self.all_statuses:
                    out.append((f"layers.{layer.name}", f"status '{st}' is not declared"))
        known_types = {t for ts in unit_types.values() for t in ts}
        for utype, lname in self.type_layers.items():
            if utype not in known_types:
                out.append((f"type_layers.{utype}", "not a unit type of the game"))
            if lname not in names:
                out.append((f"type_layers.{utype}", f"'{lname}' is not a layer"))
        kinds = [m.kind for m in self.hex_markers]
        if len(set(kinds)) != len(kinds):
            out.append(("hex_markers", "a marker kind is named twice"))
        for m in self.hex_markers:
            if len(m.glyph) != 1:
                out.append((f"hex_markers.{m.kind}", "the glyph is one character"))
        return out
