"""The functions of strength.py that a new game's first frame never calls (issue 33, round 7).

strength.py hands them out on first use (its module ``__getattr__``), so ``strength.integrity_candidates`` and
``from kiev_tui.games.spi_kiev.strength import integrity_candidates`` work as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiev_tui.games.spi_kiev.strength import GERMAN, Illegal, _is_gd

if TYPE_CHECKING:  # names read by annotations only
    from kiev_tui.games.spi_kiev.strength import View


def integrity_candidates(view: View, attackers: list[str] | tuple[str, ...]) -> list[str]:
    """Every mechanized division GD could count with in this attack or overrun (20.2)."""
    for uid in attackers:
        d = view.udef(uid)
        h = view.hex_of(uid)
        if d.side != GERMAN or h is None or d.leader or d.size != "III" or not _is_gd(d.division, d.designation):
            continue
        return sorted({view.udef(u).division for u in view.at(h)
                       if u != uid and view.side(u) == GERMAN and view.udef(u).size == "III"
                       and view.udef(u).mechanized and view.udef(u).division and not view.udef(u).leader
                       and not _is_gd(view.udef(u).division, view.udef(u).designation)})
    return []


def integrity_choices(view: View, attackers: list[str] | tuple[str, ...]) -> list[str]:
    """The divisions GD could count with, when there is a real choice (20.2).

    GD joins one mechanized division's regiment in its hex; with regiments of two or more such
    divisions there, the German player names one (the `integrity` of an Attack or Overrun).
    Empty when GD is not among the attackers or only one division is on offer.
    """
    divs = integrity_candidates(view, attackers)
    return divs if len(divs) > 1 else []


def check_integrity(view: View, attackers: list[str] | tuple[str, ...], integrity: str) -> Illegal | None:
    """A named division must be one GD can join here (20.2); naming none takes the default."""
    if not integrity:
        return None
    divs = integrity_candidates(view, attackers)
    if integrity not in divs:
        offer = ", ".join(divs) if divs else "none: GD is not attacking beside a mechanized regiment"
        return Illegal("20.2", f"GD cannot count with {integrity} here (it can join: {offer})")
    return None
