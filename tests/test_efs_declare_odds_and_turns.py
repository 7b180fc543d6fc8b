"""Kiev to Rostov, Battle of Sumy: the odds preview while an attack is being declared (12.3), and
the log's phase lines in the game's own turn numbers (Sumy is game-turns 50 to 53, PB 10.4),
while Kiev and Barbarossa 1941 keep "Turn N" and saves keep the words they always had."""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.events import PhaseBegan, PhaseEnded
from kiev_tui.engine.game import Game
from kiev_tui.engine.rules import Modifier, turn_label
from kiev_tui.games.efs_ktr.actions import Declare
from kiev_tui.ui import text as ui_text

TWO = ("ax-10mot-9pz", "ax-11mot-9pz")
NOTE = ("declared at 6 to 8 (1-2, 12.33-12.35); the odds above are the battle as it stands now: "
        "artillery, air and orders are added in the Combat phase (12.12)")
SWAMP_AND_RIVER = (
    Modifier("15.52a", "ax-10mot-9pz attacks out of swamp: halved", factor=0.5, unit="ax-10mot-9pz"),
    Modifier("15.52a", "ax-11mot-9pz attacks out of swamp: halved", factor=0.5, unit="ax-11mot-9pz"),
    Modifier("15.61b", "every attacker attacks across a river", die_modifier=1),
)
#: column 1-3, die 1-10 plus 1: boxes 2-4 1*/-, 5-6 2/-, 7-8 2*/-, 9-10 3/-, 11 e/-
CHANCES_1_3_PLUS_1 = {"1*/-": 0.3, "2/-": 0.2, "2*/-": 0.2, "3/-": 0.2, "e/-": 0.1}


def _to(game: Game, player: str, phase: str) -> None:
    while (game.state.player, game.state.phase) != (player, phase):
        game.apply(EndPhase(), side=game.actor)


def _swamp_attack() -> Game:
    """A made-up position in the Axis Movement phase: the 295th Rifle (8) alone in clear 1512; the
    10th and 11th Motorized of the 9th Panzer (3 each) in the swamp of 1613, across a minor river."""
    g = Game.new("efs_ktr/sumy", seed=1)
    _to(g, "axis", "movement")
    g.state.units["so-295rd"].hex = "1512"
    for u in TWO:
        g.state.units[u].hex = "1613"
    g.memo.clear()  # the position was edited by hand
    return g


def test_12_32_the_odds_are_previewed_while_the_axis_declares() -> None:
    g = _swamp_attack()
    p = g.rules.preview(g, TWO, ("1512",))
    assert p is not None and p.illegal is None
    # the battle: 6 halved out of the swamp (15.52a) is 3 to 8, column 1-3, +1 for the river (15.61b)
    assert (p.attack, p.defense, p.column) == (3, 8, "1-3")
    assert p.modifiers == SWAMP_AND_RIVER
    assert (p.column_shift, p.die_modifier) == (0, 1)
    assert dict(p.chances) == CHANCES_1_3_PLUS_1
    # the declaration itself counts the printed strengths, 6 to 8 (12.33-12.34): 1-2
    assert p.notes == (NOTE,)
    # in the Combat phase the same attack shows the same battle, without the declaration's note
    g.apply(Declare("1512", TWO), side="axis")
    _to(g, "axis", "combat")
    q = g.rules.preview(g, TWO, ("1512",))
    assert q is not None and q.illegal is None
    assert (q.attack, q.defense, q.column, q.modifiers, dict(q.chances), q.notes) == (
        3, 8, "1-3", SWAMP_AND_RIVER, CHANCES_1_3_PLUS_1, ())


def test_12_32_the_soviet_previews_in_its_motorized_phase_and_nowhere_else() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    assert g.rules.preview(g, ("ax-20mot-10m",), ("1506",)) is None  # reinforcements: nothing is declared
    _to(g, "axis", "motorized")
    assert g.rules.preview(g, ("ax-20mot-10m",), ("1506",)) is None  # the Axis declared in its Movement phase
    _to(g, "soviet", "motorized")
    p = g.rules.preview(g, ("so-5-136-9c",), ("1407",))
    assert p is not None and p.illegal is None
    assert (p.attack, p.defense, p.column, p.modifiers) == (2, 3, "1-2", ())
    assert dict(p.chances) == {"1*/R": 0.3, "1*/-": 0.3, "2/-": 0.2, "2*/-": 0.2}
    assert p.notes == ("declared at 2 to 3 (1-2, 12.33-12.35); the odds above are the battle as it stands now: "
                       "artillery, air and orders are added in the Combat phase (12.12)",)


def test_12_35_the_preview_says_when_no_attack_can_be_declared() -> None:
    g = Game.new("efs_ktr/sumy", seed=1)
    _to(g, "axis", "movement")
    g.state.units["so-295rd"].hex = g.state.units["so-11-96-5c"].hex = "1512"
    g.state.units["ax-9rec-9pz"].hex = "1613"
    g.memo.clear()
    p = g.rules.preview(g, ("ax-9rec-9pz",), ("1512",))
    assert p is not None and p.illegal is not None
    assert (p.illegal.case, p.illegal.why) == ("12.35", "2 to 10 is worse than 1-4: no attack can be declared")
    assert (p.attack, p.defense, p.column, dict(p.chances)) == (1, 10, "under 1-4", {"e/-": 1.0})
    assert p.notes[-1].startswith("declared at 2 to 10 (worse than 1-4, 12.33-12.35)")
    # a hex already declared is refused as the Declare would be
    g.state.units["so-11-96-5c"].hex = "1511"
    g.memo.clear()
    g.apply(Declare("1512", ("ax-9rec-9pz",)), side="axis")
    again = g.rules.preview(g, ("ax-9rec-9pz",), ("1512",))
    assert again is not None and again.illegal is not None and again.illegal.case == "15.23"


def test_pb_10_4_sumy_logs_its_phases_in_game_turns() -> None:
    g = Game.new("efs_ktr/sumy", seed=7)
    assert g.journal[0].describe() == "Game-turn 50: axis reinforcements phase begins"
    assert turn_label(g) == "Game-turn 50" and ui_text.turn_line(g) == "Game-turn 50 (turn 1 of 4)"
    while g.state.turn == 1:
        g.apply(EndPhase(), side=g.actor)
    lines = [e.describe() for e in g.journal if isinstance(e, (PhaseBegan, PhaseEnded))]
    assert lines[-2:] == ["Game-turn 50: soviet surrender phase ends",
                          "Game-turn 51: soviet reinforcements phase begins"]
    # the save keeps the words it always kept, so saves made before the label still replay
    assert g.journal[0].record() == "Turn 1: axis reinforcements phase begins"
    assert g.journal[0].to_dict() == {"kind": "phase_began", "turn": 1, "player": "axis",
                                      "phase": "reinforcements", "label": "Game-turn 50"}


def test_kiev_and_barbarossa_keep_turn_n() -> None:
    kiev = Game.new("spi_kiev/campaign", seed=1)
    b41 = Game.new("barbarossa1941/historical", seed=1)
    began = [e.describe() for g in (kiev, b41) for e in g.journal if isinstance(e, PhaseBegan)]
    assert began[0] == "Turn 1: soviet movement phase begins"
    assert began[-1] == "Turn 1: axis movement phase begins"
    first = next(e for e in b41.journal if isinstance(e, PhaseBegan))
    assert first.to_dict() == {"kind": "phase_began", "turn": 1, "player": "axis", "phase": "movement"}
    assert turn_label(kiev) == "Turn 1" and ui_text.turn_line(b41) == f"Turn 1 of {b41.scenario.turns}"
