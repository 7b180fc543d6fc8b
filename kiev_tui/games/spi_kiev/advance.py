"""Advance after combat (9.8): who may follow into the hexes the beaten side left, and how far.

``offer_advance`` is a stage of the battle's result (battle.run queues it); the winner then
advances along a legal path or declines, and the battle goes on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiev_tui.engine.errors import Illegal
from kiev_tui.engine.hexes import Hex

from kiev_tui.games.spi_kiev import changes
from kiev_tui.games.spi_kiev.actions import Advance, DeclineAdvance
from kiev_tui.games.spi_kiev.battle import battle, battle_of_view, involved, run
from kiev_tui.games.spi_kiev.common import SOVIET, View, enemy_of
from kiev_tui.games.spi_kiev.events_play import Advanced
from kiev_tui.games.spi_kiev.state import added, kiev_vars

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def _all_eliminated_in(game: "Game", beaten: list[str], h: str) -> bool:
    """9.84: every unit that stood in this hex when the battle began was eliminated."""
    st = game.state
    here = [u for u in beaten if battle(game).origin.get(u) == h]
    return bool(here) and all(st.units[u].status == "eliminated" for u in here)


def offer_advance(game: "Game", part: str) -> bool:
    """Queue the winner's optional advance (9.8); return True if a decision is now pending."""
    st = game.state
    b = battle(game)
    if b.kind == "overrun":
        return False  # 9.86: no advance after an overrun (its own rule moves the stack in)
    view = View(game)
    vacated = [t for t in b.targets if not view.at(Hex.parse(t))]
    # Attackers still in the hex they attacked from (a lost or retreated unit has left it); an
    # attack has no passengers, those ride only in overruns (6.17).
    attackers = [u for u in b.attackers if st.units[u].hex == b.origin[u]]
    # (An engaged result queues no advance at all, 9.69.)
    if vacated and attackers:
        wiped = any(_all_eliminated_in(game, b.defenders, t) for t in vacated)
        hexes = 2 if part == "E" or wiped else int(part)  # 9.84, 9.85
        st.push_prompt({"kind": "advance", "side": st.player, "units": attackers, "max": hexes,
                      "vacated": vacated, "prompt": f"{st.player} player: advance up to {hexes} hex(es) with "
                      f"{', '.join(attackers)}, or decline"})
        return True
    # A defender may follow a beaten attacker only when its own part of the result is "-", never
    # after a split result (9.68); attackers whose part is "-" as well keep their hexes (gone is empty).
    result = str(b.result)
    if "/" in result and result.split("/")[1] == "-":
        defenders = [u for u in involved(game, "defender") if st.units[u].hex == b.origin[u]
                     and u not in kiev_vars(st).retreated_into]  # 9.76, 9.81: they did not fight
        gone = [b.origin[u] for u in b.attackers if st.units[u].hex != b.origin[u]]
        gone = sorted({h for h in gone if not view.at(Hex.parse(h))})
        if defenders and gone:
            side = enemy_of(st.player)
            att = result.split("/")[0]
            wiped = any(_all_eliminated_in(game, b.attackers, h) for h in gone)
            hexes = 2 if att == "E" or wiped else int(att)  # 9.84, 9.85
            st.push_prompt({"kind": "advance", "side": side, "units": defenders, "max": hexes,
                          "vacated": gone, "prompt": f"{side} player: advance up to {hexes} hex(es) "
                          f"with {', '.join(defenders)}, or decline"})
            return True
    return False


def advance_options(game: "Game") -> dict[str, Any]:
    """The units that may advance and every legal path for them (9.8)."""
    p = game.state.pending
    if p is None or p["kind"] != "advance":
        return {}
    view = View(game)
    return {"units": list(p["units"]), "paths": _advance_paths(view, p)}


def _advance_paths(view: View, p: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every path the advance may take: the vacated hex, then (9.84) any open neighbour where
    the whole hex was eliminated, or else (9.81, 9.85) on along that hex's path of retreat."""
    st = view.state
    b = battle_of_view(view)
    side = p["side"]
    enemy = enemy_of(side)
    limit = int(p["max"])
    beaten = b.defenders if side == st.player else b.attackers
    # 9.82: Soviet advances halt on entering a German zone; German ones ignore Soviet zones.
    halts = view.side_zones(enemy)[0] if side == SOVIET else frozenset()
    out: list[tuple[str, ...]] = []
    for first in p["vacated"]:
        out.append((first,))
        if limit < 2 or Hex.parse(first) in halts:
            continue
        here = [u for u in beaten if b.origin.get(u) == first]
        if here and all(st.units[u].status == "eliminated" for u in here):
            # 9.84: after an elimination, the second hex is any vacant or friendly hex next to it.
            f = Hex.parse(first)
            for n in view.map.neighbours(f):
                if view.occupied_by(n, enemy) or view.map.is_impassable_side(f, n):
                    continue  # an impassable side or hex: a lake (10.16)
                if view.map.has(f, n, "major_river") and view.river_guarded(n, side):
                    continue  # 10.13: not across a major river into the zone of a unit on its bank
                out.append((first, str(n)))
            continue
        for u in here:
            seq = [first] + list(b.retreat_paths.get(u, []))
            for k in range(2, min(limit, len(seq)) + 1):
                cand = tuple(seq[:k])
                if view.occupied_by(Hex.parse(cand[-1]), enemy):
                    break
                out.append(cand)
                if Hex.parse(cand[-1]) in halts:
                    break
    return sorted(set(out))


def check_advance(view: View, a: Advance) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "advance":
        return Illegal("9.8", "no advance is on offer")
    if not a.units or any(u not in p["units"] for u in a.units) or len(set(a.units)) != len(a.units):
        return Illegal("9.81", f"only {', '.join(p['units'])} may advance")
    if tuple(a.path) not in _advance_paths(view, p):
        return Illegal("9.82", f"{' > '.join(a.path)} is not along the path of retreat (or is too long)")
    end = Hex.parse(a.path[-1])
    side = p["side"]
    here = sum(1 for u in view.at(end) if view.side(u) == side and not view.is_hq_like(u))
    moving = sum(1 for u in a.units if not view.is_hq_like(u))
    if here + moving > 3:
        return Illegal("7.0", f"advancing would put more than three combat units in {end}")
    return None


def apply_advance(game: "Game", a: Advance) -> None:
    st = game.state
    p = st.pending
    assert p is not None  # check_advance refuses an advance with nothing on offer
    side = p["side"]
    start = st.units[a.units[0]].hex or ""
    for h in a.path:
        changes.claim(game, Hex.parse(h), side)
    for u in a.units:
        st.units[u].hex = a.path[-1]
    v = kiev_vars(st)
    v.advanced = added(v.advanced, a.units)  # 9.83
    game.emit(Advanced(a.units, a.path, start))
    st.pop_prompt()  # the offer is answered
    run(game)  # the advance is the battle's last part: run ends the battle


def check_decline(view: View, a: DeclineAdvance) -> Illegal | None:
    p = view.state.pending
    if p is None or p["kind"] != "advance":
        return Illegal("9.83", "no advance is on offer")
    return None


def apply_decline(game: "Game", a: DeclineAdvance) -> None:
    game.state.pop_prompt()  # the offer is answered
    run(game)  # the advance is the battle's last part: run ends the battle
