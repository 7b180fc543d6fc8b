"""Prompts with options (engine/prompts.py): the stack in the state, typed prompts, legal
actions, set-up choices, and Tiny's two-step town choice answered with no game code."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Iterator

import pytest

from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.errors import DataError
from kiev_tui.engine.game import Game
from kiev_tui.engine.prompts import Option, Prompt, random_answer, setup_frames
from kiev_tui.engine.scenario import SetupChoice, load_scenario
from kiev_tui.engine.state import GameState
from kiev_tui.games.spi_kiev.actions import Attack, Enter
from kiev_tui.plain.session import PlainSession

from tests.conftest import MINI
from tests.tiny_game import (MUSTER, TINY_DIR, Forage, ForageAt, Fortify, Place, TinyMove, register_tiny,
                             unregister_tiny)


@pytest.fixture
def muster() -> Iterator[Path]:
    register_tiny()
    try:
        yield MUSTER
    finally:
        unregister_tiny()


def _game(muster: Path) -> Game:
    return Game.new(muster, seed=1)


# -- the stack in the state ---------------------------------------------------------------------

def test_one_frame_is_written_as_pending_as_every_older_save() -> None:
    st = GameState(1, "german", "combat")
    assert "pending" not in st.to_dict() and "prompts" not in st.to_dict()
    empty = st.canonical_json()
    st.push_prompt({"kind": "retreat", "side": "soviet"})
    assert st.to_dict()["pending"] == {"kind": "retreat", "side": "soviet"} and "prompts" not in st.to_dict()
    assert st.canonical_json() == empty[:-1].replace('"over":false,', '"over":false,"pending":{"kind":"retreat","side":"soviet"},') + "}"
    back = GameState.from_dict(st.to_dict())
    assert back.prompts == [{"kind": "retreat", "side": "soviet"}] and back.hash() == st.hash()


def test_a_deeper_stack_has_its_own_key_and_pops_back_to_the_old_form() -> None:
    st = GameState(1, "axis", "movement")
    st.push_prompt({"kind": "town"})
    st.push_prompt({"kind": "forage"})
    d = st.to_dict()
    assert d["prompts"] == [{"kind": "town"}, {"kind": "forage"}] and "pending" not in d
    assert '"player":"axis","prompts":[{"kind":"town"},{"kind":"forage"}],"turn":1' in st.canonical_json()
    back = GameState.from_dict(d)
    assert back.prompts == st.prompts and back.pending == {"kind": "forage"} and back.hash() == st.hash()
    assert back.pop_prompt() == {"kind": "forage"}
    assert back.to_dict()["pending"] == {"kind": "town"}
    copy = st.copy()
    copy.pop_prompt()
    assert len(st.prompts) == 2  # a copy's stack is its own


def test_a_malformed_stack_is_refused() -> None:
    base = GameState(1, "axis", "movement").to_dict()
    with pytest.raises(ValueError, match="not both"):
        GameState.from_dict({**base, "pending": {"a": 1}, "prompts": [{}, {}]})
    with pytest.raises(ValueError, match="two or more"):
        GameState.from_dict({**base, "prompts": [{}]})


# -- typed prompts ------------------------------------------------------------------------------

def test_a_multi_pick_prompt_is_answered_by_one_combined_action() -> None:
    opts = tuple(Option("lose", f"lose {u}", TinyMove((u,), ("0101",)), unit=u) for u in ("a", "b", "c"))
    p = Prompt("axis", "losses", "T9", "lose two", opts, pick=(2, 2),
               combine=lambda chosen: TinyMove(tuple(o.unit for o in chosen), ("0101",)))
    assert p.answer([0, 2]) == TinyMove(("a", "c"), ("0101",))
    assert list(p.actions()) == [TinyMove(("a", "b"), ("0101",)), TinyMove(("a", "c"), ("0101",)),
                                 TinyMove(("b", "c"), ("0101",))]
    with pytest.raises(ValueError, match="pick 2 option"):
        p.answer([0])
    with pytest.raises(ValueError, match="once"):
        p.answer([1, 1])
    assert p.lines()[-1] == "  Answer: pick 2 of the numbers above (e.g. 'pick 1 2')."
    assert random_answer(p, random.Random(3)) in set(p.actions())


# -- set-up choices in the scenario -------------------------------------------------------------

def test_the_muster_scenario_reads_its_setup_choice(muster: Path) -> None:
    sc = load_scenario(muster)
    grid = sc.map.grid
    assert sc.setup_choices == [SetupChoice("axis", ("ax-2",), (grid.parse("0102"), grid.parse("0101")))]
    assert setup_frames(sc) == [{"kind": "setup", "side": "axis", "unit": "ax-2", "hexes": ["0102", "0101"]}]


@pytest.mark.parametrize("table, key, words", [
    ('side = "nobody"\nunits = ["ax-2"]\nhexes = ["0102", "0101"]', "side", "side must be"),
    ('side = "axis"\nunits = ["zz"]\nhexes = ["0102", "0101"]', "units[0]", "no unit 'zz'"),
    ('side = "axis"\nunits = ["al-1"]\nhexes = ["0102", "0101"]', "units[0]", "is not axis"),
    ('side = "axis"\nunits = ["ax-1"]\nhexes = ["0102", "0101"]', "units[0]", "already placed"),
    ('side = "axis"\nunits = ["ax-2"]\nhexes = ["0102"]', "hexes", "two hexes or more"),
    ('side = "axis"\nunits = ["ax-2"]\nhexes = ["0102", "0909"]', "hexes[1]", "off the map"),
    ('side = "axis"\nunits = ["ax-2"]\narea = "west"', "area", "no area 'west'"),
    ('side = "axis"\nunits = ["ax-2"]\narea = "west"\nhexes = ["0102", "0101"]', "hexes", "not both"),
    ('side = "axis"\nunits = ["ax-2"]\nhexes = ["0102", "0101"]\ncolour = 1', "colour", ""),
])
def test_a_bad_setup_choice_names_file_and_key(muster: Path, tmp_path: Path, table: str, key: str, words: str) -> None:
    text = MUSTER.read_text().split("[[setup_choice]]")[0] + "[[setup_choice]]\n" + table + "\n"
    (tmp_path / "tiny").mkdir()
    for name in ("map.toml", "units.toml", "tables.toml"):
        (tmp_path / "tiny" / name).write_text((TINY_DIR / name).read_text())
    bad = tmp_path / "x" / "bad.toml"
    bad.parent.mkdir()
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_scenario(bad)
    assert str(bad) in str(err.value) and f"setup_choice[0].{key}" in str(err.value) and words in str(err.value)


# -- Tiny: the set-up prompt and the two-step town choice, through options only ----------------

def _answer(game: Game, pick: str) -> None:
    """Answer the waiting prompt by the label of an option, as any face would."""
    p = game.rules.prompt(game)
    assert p is not None
    chosen = [o for o in p.options if o.label == pick]
    assert len(chosen) == 1, [o.label for o in p.options]
    game.apply(chosen[0].action, side=p.side)


def test_the_game_opens_with_the_setup_prompt_of_its_side(muster: Path) -> None:
    g = _game(muster)
    p = g.rules.prompt(g)
    assert (p.side, p.kind, p.case, p.text) == ("axis", "setup", "T6", "axis player: where does ax-2 start?")
    assert [(o.label, o.action, o.hex, o.unit) for o in p.options] == [
        ("ax-2 starts in 0102", Place("ax-2", "0102"), "0102", "ax-2"),
        ("ax-2 starts in 0101", Place("ax-2", "0101"), "0101", "ax-2")]
    assert g.state.units["ax-2"].status == "pending" and g.actor == "axis"
    wrong = g.check(Place("ax-2", "0101"), side="allies")
    assert (wrong.case, wrong.why) == ("T1", "the axis player must answer now, not the allies player")
    assert g.check(Place("ax-2", "0303"), side="axis").case == "T6"
    assert g.check(TinyMove(("ax-1",), ("0201",)), side="axis").case == "T6"  # the choice comes first
    assert g.check(EndPhase(), side="axis").case == "T6"
    _answer(g, "ax-2 starts in 0101")
    assert (g.state.units["ax-2"].status, g.state.units["ax-2"].hex, g.state.prompts) == ("map", "0101", [])


def test_the_town_choice_chains_into_the_forage_choice(muster: Path) -> None:
    g = _game(muster)
    _answer(g, "ax-2 starts in 0102")
    assert g.rules.prompt(g) is None
    g.apply(TinyMove(("ax-1",), ("0301",)), side="axis")
    p = g.rules.prompt(g)
    assert (p.kind, p.case, [o.action for o in p.options]) == ("town", "T5", [Fortify(), Forage()])
    assert g.check(Fortify(), side="allies").case == "T1"
    _answer(g, "forage a neighbouring hex")
    assert [f["kind"] for f in g.state.prompts] == ["town", "forage"]  # the second prompt sits on the first
    p = g.rules.prompt(g)
    assert (p.kind, p.case) == ("forage", "T5.1")
    assert [o.label for o in p.options] == ["forage 0201", "forage 0202", "forage 0302", "forage 0401", "forage 0402"]
    assert g.check(ForageAt("0505"), side="axis").case == "T5.1"
    _answer(g, "forage 0402")
    assert (g.state.prompts, g.state.vars.foraged) == ([], ["0402"])
    assert g.journal[-1].describe() == "axis forages 0402 (T5.1)"
    g.undo()  # undo steps back onto the deeper stack
    assert [f["kind"] for f in g.state.prompts] == ["town", "forage"]


def test_fortify_answers_the_town_choice_at_once(muster: Path) -> None:
    g = _game(muster)
    _answer(g, "ax-2 starts in 0102")
    g.apply(TinyMove(("ax-1",), ("0301",)), side="axis")
    _answer(g, "fortify 0301")
    assert (g.state.prompts, g.state.units["ax-1"].markers) == ([], {"fortified"})


def test_legal_is_the_prompt_options_and_every_legal_action_passes_check(muster: Path) -> None:
    g = _game(muster)
    assert list(g.rules.legal(g, "allies")) == []
    assert set(g.rules.legal(g, "axis")) == {o.action for o in g.rules.prompt(g).options}
    _answer(g, "ax-2 starts in 0101")
    moves = list(g.rules.legal(g, "axis"))
    assert moves[0] == EndPhase() and TinyMove(("ax-1",), ("0301",)) in moves and len(moves) == 28
    assert all(g.check(a, side="axis") is None for a in moves)
    g.apply(TinyMove(("ax-1",), ("0301",)), side="axis")
    assert set(g.rules.legal(g, "axis")) == {Fortify(), Forage()}


def test_a_random_bot_plays_muster_to_the_end_through_options_alone(muster: Path) -> None:
    rng = random.Random(5)
    for seed in range(6):
        g = Game.new(muster, seed=seed)
        answered = set()
        while not g.state.over:
            p = g.rules.prompt(g)
            if p is not None:
                answered.add(p.kind)
                g.apply(random_answer(p, rng), side=p.side)
                continue
            acts = list(g.rules.legal(g, g.actor))
            g.apply(rng.choice(acts) if rng.random() < 0.6 else EndPhase(), side=g.actor)
        assert "setup" in answered
    assert g.state.over


def test_plain_mode_answers_every_tiny_prompt_by_number(muster: Path) -> None:
    g = _game(muster)
    s = PlainSession(g, 72)
    assert s.prompt() == "T1 Axis movement, Axis to answer (setup)> "
    assert s.handle("options") == ["axis player: where does 2 infantry start? (T6)", "  1. 2 infantry starts in 0102",
                                   "  2. 2 infantry starts in 0101",
                                   "  Answer: pick 1 of the numbers above (e.g. 'pick 1')."]
    assert s.handle("pick 3") == ["Refused: options are numbered 1 to 2"]
    assert s.handle("pick x") == ["Usage: pick N [N...] (the numbers 'options' lists)"]
    assert s.handle("pick 2") == ["2 infantry starts in 0101 (T6)"]
    assert s.handle("pick 1") == ["No choice is waiting: 'pick' answers one ('options' lists them)."]
    assert s.handle("move 0202 0301") == [
        "1 infantry march 0301 (1 MP)", "The Axis player must answer: axis player: fortify 0301 or forage?",
        "  1. fortify 0301", "  2. forage a neighbouring hex", "(answer with 'pick N'; 'options' lists them again)"]
    assert s.prompt() == "T1 Axis movement, Axis to answer (town)> "
    assert s.handle("end")[0].startswith("Refused [T5]")
    out = s.handle("pick 2")
    assert out[1:4] == ["  1. forage 0201", "  2. forage 0202", "  3. forage 0302"]
    assert s.handle("pick 4") == ["axis forages 0401 (T5.1)"]
    assert (g.state.prompts, g.state.vars.foraged) == ([], ["0401"])


# -- Kiev's battle choices, answered through options alone --------------------------------------

def test_kiev_battle_prompts_answered_by_options_reach_the_same_final_hash() -> None:
    from kiev_tui.games.spi_kiev.bot import play_game

    played: list[Game] = []
    play_game("spi_kiev/campaign", 2, combat=True, on_action=lambda g, a: played.append(g) if not played else None)
    original = played[0]
    assert original.state.over
    replay = Game.new("spi_kiev/campaign", 2)
    kinds: list[str] = []
    for action in original.log:
        p = replay.rules.prompt(replay)
        if p is None:
            replay.apply(action)
            continue
        kinds.append(p.kind)
        options = [o.action for o in p.options]
        assert p.side == replay.actor and p.case == {"loss_or_retreat": "9.66", "retreat": "9.7", "advance": "9.8",
                                                       "integrity": "20.2"}[p.kind]
        assert set(replay.rules.legal(replay, p.side)) == set(options)
        assert list(replay.rules.legal(replay, replay.rules.schema.other_side(p.side))) == []
        assert all(replay.check(a, side=p.side) is None for a in options)
        chosen = options.index(action)  # the bot's own answer is one of the options
        wrong = replay.check(options[chosen], side=replay.rules.schema.other_side(p.side))
        assert wrong is not None and wrong.case == "4.1"
        replay.apply(p.answer([chosen]), side=p.side)
    assert {k: kinds.count(k) for k in set(kinds)} == {"loss_or_retreat": 61, "advance": 26, "retreat": 25}
    assert replay.state_hash() == original.state_hash()


@pytest.mark.parametrize("seed", [1, 4])
def test_the_kiev_bot_can_answer_every_battle_from_the_options(seed: int) -> None:
    from kiev_tui.games.spi_kiev.bot import answer_from_options, play_game

    asked: list[str] = []

    def note(game: Game, action: object) -> None:
        if game.state.pending is not None:
            asked.append(game.state.pending["kind"])

    result = play_game("spi_kiev/campaign", seed, combat=True, on_action=note, answer=answer_from_options)
    assert result.over and result.turns == 13
    assert {"loss_or_retreat", "retreat", "advance"} <= set(asked)


def test_kiev_legal_in_a_movement_phase_all_pass_check(mini: Game) -> None:
    acts = list(mini.rules.legal(mini, mini.actor))
    # 23.0: the two reinforcements due must enter before the phase may end; by road at two
    # hexes and by rail at one (19.3), and rail rides for the units on friendly rail
    assert Counter(a.kind for a in acts) == {"move": 555, "enter": 6, "rail": 6}
    assert acts[0] == Enter(("so-t01-rifle-1",), "1005", False)
    assert all(mini.check(a, side=mini.actor) is None for a in acts)
    assert list(mini.rules.legal(mini, mini.rules.schema.other_side(mini.actor))) == []


def _bot_positions(seed: int, at: set[int]) -> dict[int, list[Action]]:
    """Kiev's legal actions (of the actor) at the given action counts of a random bot's game."""
    from kiev_tui.games.spi_kiev import bot

    class Enough(Exception):
        pass

    seen: dict[int, list[Action]] = {}

    def look(game: Game, _action: object) -> None:
        if len(game.log) in at:
            seen[len(game.log)] = list(game.rules.legal(game, game.actor))
            assert all(game.check(a, side=game.actor) is None for a in seen[len(game.log)])
            if len(seen) == len(at):
                raise Enough

    with pytest.raises(Enough):
        bot.play_game(MINI, seed, on_action=look)
    return seen


def test_kiev_legal_lists_stack_moves_attacks_and_stacking_removals() -> None:
    seen = _bot_positions(2, {4, 8, 53})
    assert any(a.kind == "move" and len(a.units) > 1 for a in seen[4])  # a whole stack moves together
    attacks = [a for a in seen[8] if isinstance(a, Attack)]
    assert Counter(a.kind for a in seen[8]) == {"end_phase": 1, "attack": 4}  # 9.0: the combat phase
    assert any(len(a.attackers) > 1 for a in attacks)  # all the units next to a target, together
    assert Counter(a.kind for a in seen[53]) == {"remove_excess": 4}  # 8.0: nothing else until it is done


def test_a_free_setup_in_an_area_offers_its_hexes_not_yet_taken(muster: Path, tmp_path: Path) -> None:
    (tmp_path / "tiny").mkdir()
    for name in ("units.toml", "tables.toml"):
        (tmp_path / "tiny" / name).write_text((TINY_DIR / name).read_text())
    (tmp_path / "tiny" / "map.toml").write_text((TINY_DIR / "map.toml").read_text()
                                                + '\n[areas.west]\nside = "axis"\nhexes = ["0302", "0202", "0101"]\n')
    text = MUSTER.read_text().split("[[setup_choice]]")[0] + '[[setup_choice]]\nside = "axis"\nunits = ["ax-2"]\narea = "west"\n'
    path = tmp_path / "x" / "free.toml"
    path.parent.mkdir()
    path.write_text(text, encoding="utf-8")
    sc = load_scenario(path)
    assert [sc.map.grid.id(h) for h in sc.setup_choices[0].hexes] == ["0101", "0202", "0302"]
    assert sc.setup_choices[0].area == "west"
    g = Game.new(path, seed=1)
    p = g.rules.prompt(g)
    assert [o.action for o in p.options] == [Place("ax-2", "0101"), Place("ax-2", "0302")]  # ax-1 holds 0202
