"""Phase bookkeeping in system.py (5.3 rail moves, 7.0 removals) that mutation testing found
unpinned."""

from __future__ import annotations

from kiev_tui.engine.game import Game
from kiev_tui.games.spi_kiev.actions import RailMove, RemoveExcess
from kiev_tui.games.spi_kiev.events import Eliminated, Railed

from tests.conftest import position


def refusal(game: Game, action: object) -> str:
    illegal = game.check(action)  # type: ignore[arg-type]
    assert illegal is not None, f"{action} should be refused"
    return str(illegal)


def overstacked(game: Game, **kw: object) -> Game:
    return position(game, {"so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904",
                           "so-rifle-4": "0904", "ge-inf-1": "0203"}, turn=2, reinforcements=False, **kw)  # type: ignore[arg-type]


def test_7_0_removing_an_excess_unit_eliminates_it_citing_7_0(mini: Game) -> None:
    overstacked(mini)
    mini.apply(RemoveExcess("so-rifle-4"))
    u = mini.state.units["so-rifle-4"]
    assert (u.status, u.hex) == ("eliminated", None)
    last = [e for e in mini.journal if isinstance(e, Eliminated)][-1]
    assert (last.unit, last.case, last.reason) == ("so-rifle-4", "7.0", "removed from an overstacked hex")


def test_7_0_removal_refusals_cite_7_0(mini: Game) -> None:
    overstacked(mini)
    assert refusal(mini, RemoveExcess("nope")) == "[7.0] nope is not on the map"
    assert refusal(mini, RemoveExcess("so-cav-1")) == "[7.0] so-cav-1 is not on the map"
    assert refusal(mini, RemoveExcess("ge-inf-1")) == \
        "[7.0] only the owner removes excess units, at the end of his own movement phase"
    position(mini, {"so-rifle-1": "0904", "so-rifle-2": "0904"}, turn=2, reinforcements=False)
    assert refusal(mini, RemoveExcess("so-rifle-1")) == "[7.0] so-rifle-1's hex is within the stacking limit"


def test_7_0_no_removal_in_the_combat_phase(mini: Game) -> None:
    overstacked(mini, phase="combat")
    assert refusal(mini, RemoveExcess("so-rifle-4")) == \
        "[7.0] overstacking is settled at the end of a movement phase"


def test_7_0_no_removal_while_a_combat_result_waits(mini: Game) -> None:
    overstacked(mini)
    mini.state.pending = {"kind": "retreat"}
    assert refusal(mini, RemoveExcess("so-rifle-4")) == "[9.6] settle the pending combat result first"


def test_5_33_a_rail_move_ends_the_units_move_and_counts_against_capacity(mini: Game) -> None:
    position(mini, {"so-rifle-1": "1007", "so-hq-army": "1007"}, turn=2, reinforcements=False)
    mini.state.vars.rail_used = 0
    mini.apply(RailMove(("so-rifle-1", "so-hq-army"), ("0907", "0807")))
    v = mini.state.vars
    assert v.rail_used == 1  # 11.21: the HQ rides free
    assert mini.state.units["so-rifle-1"].hex == "0807" and mini.state.units["so-hq-army"].hex == "0807"
    for key in ("railed", "moved", "stopped"):
        assert set(getattr(v, key)) >= {"so-rifle-1", "so-hq-army"}, key
    assert v.stop_case["so-rifle-1"] == "5.33" and v.stop_case["so-hq-army"] == "5.33"
    assert v.active == []
    ev = [e for e in mini.journal if isinstance(e, Railed)][-1]
    assert (ev.units, ev.path) == (("so-rifle-1", "so-hq-army"), ("0907", "0807"))


def test_23_1_a_reinforcement_going_on_by_rail_is_counted_once(mini: Game) -> None:
    from kiev_tui.games.spi_kiev.actions import Enter
    position(mini, {"so-rifle-1": "0905"}, turn=1)
    mini.state.vars.rail_used = 3
    mini.apply(Enter(("so-t01-rifle-1",), "1007", rail=True))
    assert mini.state.vars.rail_used == 4
    mini.apply(RailMove(("so-t01-rifle-1",), ("0907", "0807")))
    assert mini.state.vars.rail_used == 4
    assert mini.state.units["so-t01-rifle-1"].hex == "0807"


# -- what the phase object reports (4.2: what must happen before the phase may end) -----------

def test_23_0_7_0_the_phase_lists_reinforcements_due_and_overstacks(mini: Game) -> None:
    from kiev_tui.engine.actions import EndPhase
    from kiev_tui.engine.game import Phase
    position(mini, {"so-rifle-1": "0904", "so-rifle-2": "0904", "so-rifle-3": "0904", "so-rifle-4": "0904",
                    "so-hq-army": "0905"}, turn=1)
    assert mini.phase == Phase(1, "soviet", "movement", ("movement", "combat"), (
        "bring on 2 reinforcement(s): so-t01-rifle-1, so-t01-rifle-2 (23.0)",
        "0904 holds 4 combat units (limit 3): remove the excess (7.0)"), "", False)
    assert refusal(mini, EndPhase()) == \
        "[23.0] reinforcements may not be held back: so-t01-rifle-1, so-t01-rifle-2 must enter first"


def test_9_6_a_pending_result_comes_first_and_names_who_answers(mini: Game) -> None:
    from kiev_tui.engine.actions import EndPhase
    position(mini, {"so-rifle-1": "0904", "so-hq-army": "0905"}, turn=2, reinforcements=False)
    mini.state.pending = {"side": "german", "prompt": "german player: lose 1 step"}
    mini.touch()
    ph = mini.phase
    assert (ph.todo, ph.pending) == (("german player: lose 1 step",), "german")
    assert refusal(mini, EndPhase()) == "[9.6] german player: lose 1 step"
    mini.state.pending = {"kind": "x"}
    mini.touch()
    ph = mini.phase
    assert (ph.todo, ph.pending) == (("settle the pending combat result",), "")
    assert refusal(mini, EndPhase()) == "[9.6] a combat result must be settled first"
