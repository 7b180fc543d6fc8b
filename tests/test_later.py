"""kiev_tui/later.py: a method written in another module, imported on its first look-up (issue 33, round 7)."""

from __future__ import annotations

import ast
import importlib
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kiev_tui.later import check, later

#: Every class that keeps stand-ins, and the module that holds their methods.
STANDS_IN = [
    ("kiev_tui.ui.controller", "PlayControls", "kiev_tui.ui.controller_more"),
    ("kiev_tui.ui.files", "FileCommands", "kiev_tui.ui.files_more"),
    ("kiev_tui.ui.app", "KievApp", "kiev_tui.ui.app_more"),
    ("kiev_tui.ui.game_screen", "GameScreen", "kiev_tui.ui.game_screen_more"),
    ("kiev_tui.games.spi_kiev.face.screen", "KievGameScreen", "kiev_tui.games.spi_kiev.face.screen_more"),
    ("kiev_tui.ui.adapter", "DefaultAdapter", "kiev_tui.ui.adapter_more"),
    ("kiev_tui.ui.hexmap", "MapPainter", "kiev_tui.ui.hexmap_more"),
    ("kiev_tui.ui.hexmap", "HexMap", "kiev_tui.ui.hexmap_more"),
    ("kiev_tui.engine.game", "Game", "kiev_tui.engine.game_more"),
    ("kiev_tui.engine.state", "GameState", "kiev_tui.engine.state_more"),
    ("kiev_tui.engine.rules", "Counters", "kiev_tui.engine.rules_more"),
    ("kiev_tui.engine.prompts", "Prompt", "kiev_tui.engine.prompts_more"),
    ("kiev_tui.engine.dice", "RecordedDice", "kiev_tui.engine.dice_more"),
    ("kiev_tui.engine.dice", "FixedDice", "kiev_tui.engine.dice_more"),
    ("kiev_tui.engine.hexes", "Grid", "kiev_tui.engine.hexes_more"),
    ("kiev_tui.engine.hexes", "Hexside", "kiev_tui.engine.hexes_more"),
    ("kiev_tui.engine.units", "UnitState", "kiev_tui.engine.units_more"),
    ("kiev_tui.engine.actions", "Action", "kiev_tui.engine.actions_more"),
    ("kiev_tui.engine.actions", "ActionRegistry", "kiev_tui.engine.actions_more"),
    ("kiev_tui.games.spi_kiev.state", "KievVars", "kiev_tui.games.spi_kiev.state_more"),
    ("kiev_tui.games.spi_kiev.state", "Battle", "kiev_tui.games.spi_kiev.state_more"),
    ("kiev_tui.games.spi_kiev.common", "View", "kiev_tui.games.spi_kiev.common_more"),
    ("kiev_tui.games.spi_kiev.common", "Placement", "kiev_tui.games.spi_kiev.common_more"),
    ("kiev_tui.engine.crt", "CombatTable", "kiev_tui.engine.crt_more"),
    ("kiev_tui.engine.sequence", "Sequence", "kiev_tui.engine.sequence_more"),
    ("kiev_tui.games.spi_kiev.tables", "CRT", "kiev_tui.games.spi_kiev.tables_more"),
    ("kiev_tui.games.spi_kiev.face.adapter", "KievAdapter", "kiev_tui.games.spi_kiev.face.adapter_more"),
    ("kiev_tui.games.spi_kiev.untried", "UntriedPool", "kiev_tui.games.spi_kiev.untried_more"),
    ("kiev_tui.ui.wire", "ShadowScreen", "kiev_tui.ui.wire_more"),
    ("kiev_tui.ui.widgets", "KeyBar", "kiev_tui.ui.widgets_more"),
]


@pytest.mark.parametrize("module, name, more", STANDS_IN)
def test_every_stand_in_names_a_method_of_its_module(module: str, name: str, more: str) -> None:
    cls = getattr(importlib.import_module(module), name)
    space = vars(getattr(importlib.import_module(more), name))
    moved = sorted(k for k, v in space.items() if isinstance(v, (types.FunctionType, classmethod, staticmethod)))
    assert moved
    # each moved method has its stand-in in the class, or is there itself once looked up (an
    # earlier test in this process may have used it)
    assert [k for k in moved if not (isinstance(vars(cls).get(k), later) and vars(cls)[k].module == more
                                     or vars(cls).get(k) is space[k])] == []
    assert check(cls, more) == []  # and no stand-in names a method that is not there


def _space(tmp_module: str) -> types.ModuleType:
    """A module holding the methods of the classes below, as a *_more.py module does."""
    mod = types.ModuleType(tmp_module)

    class Base:
        def hello(self, who: str) -> str:
            return f"hello {who} from {type(self).__name__}"

    class Frozen:
        def total(self) -> int:
            return self.a + self.b  # type: ignore[attr-defined,no-any-return]

    mod.Base, mod.Frozen = Base, Frozen  # type: ignore[attr-defined]
    sys.modules[tmp_module] = mod
    return mod


def test_the_first_look_up_puts_the_method_in_place(monkeypatch: pytest.MonkeyPatch) -> None:
    mod = _space("kiev_tui_test_later_more")
    monkeypatch.setitem(sys.modules, "kiev_tui_test_later_more", mod)

    class Base:
        hello = later("kiev_tui_test_later_more")

    class Sub(Base):
        pass

    assert isinstance(vars(Base)["hello"], later)
    assert Sub().hello("you") == "hello you from Sub"
    # put in the class that held the stand-in, not in the subclass it was asked through
    assert vars(Base)["hello"] is vars(mod.Base)["hello"]
    assert "hello" not in vars(Sub)
    assert Base.hello is vars(mod.Base)["hello"]  # asked of the class: the function itself
    assert Base().hello("me") == "hello me from Base"


def test_a_slotted_frozen_dataclass_finds_its_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    mod = _space("kiev_tui_test_later_more2")
    monkeypatch.setitem(sys.modules, "kiev_tui_test_later_more2", mod)

    @dataclass(frozen=True, slots=True)
    class Frozen:  # dataclasses makes a new class for the slots: the stand-in is found in it
        a: int
        b: int
        total = later("kiev_tui_test_later_more2")

    assert Frozen(2, 3).total() == 5
    assert vars(Frozen)["total"] is vars(mod.Frozen)["total"]


def test_a_stand_in_asked_on_the_class_first(monkeypatch: pytest.MonkeyPatch) -> None:
    mod = _space("kiev_tui_test_later_more3")
    monkeypatch.setitem(sys.modules, "kiev_tui_test_later_more3", mod)

    class Base:
        hello = later("kiev_tui_test_later_more3")

    assert Base.hello(Base(), "all") == "hello all from Base"


def _code_names(tree: ast.AST) -> set[str]:
    """The names a piece of code reads when it runs (annotations are never evaluated here)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        notes = [a.annotation for a in ast.walk(node) if isinstance(a, ast.arg) and a.annotation is not None]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None:
            notes.append(node.returns)
        if isinstance(node, ast.AnnAssign):
            notes.append(node.annotation)
        skip |= {id(x) for note in notes for x in ast.walk(note)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in skip}


@pytest.mark.parametrize("more", sorted({more for _, _, more in STANDS_IN}))
def test_no_method_reads_a_namespace_class_for_the_real_one(more: str) -> None:
    # In a *_more.py module the name of a namespace class hides the real class of that name: a
    # method that builds or checks one must reach it through its module (hexes.Hex).
    path = importlib.import_module(more).__file__
    assert path is not None
    tree = ast.parse(Path(path).read_text())
    spaces = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    assert spaces
    code = [n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))]  # methods and functions
    assert {n.name: sorted(_code_names(n) & spaces) for n in code} == {n.name: [] for n in code}


def test_a_named_tuple_finds_its_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    from typing import NamedTuple

    mod = _space("kiev_tui_test_later_more4")
    monkeypatch.setitem(sys.modules, "kiev_tui_test_later_more4", mod)

    class Frozen(NamedTuple):  # typing makes this class without calling __set_name__
        a: int
        b: int
        total = later("kiev_tui_test_later_more4")

    assert Frozen(4, 5).total() == 9
    assert vars(Frozen)["total"] is vars(mod.Frozen)["total"]


#: Modules that hand out functions written in another module (their ``__getattr__``).
HANDED_OUT = [
    ("kiev_tui.engine.tomlio", "kiev_tui.engine.tomltext"),
    ("kiev_tui.games.spi_kiev.movement", "kiev_tui.games.spi_kiev.movement_more"),
    ("kiev_tui.games.spi_kiev.rail", "kiev_tui.games.spi_kiev.rail_more"),
    ("kiev_tui.games.spi_kiev.prompting", "kiev_tui.games.spi_kiev.prompting_more"),
    ("kiev_tui.ui.text", "kiev_tui.ui.text_more"),
    ("kiev_tui.ui.adapter", "kiev_tui.ui.adapter_more"),
    ("kiev_tui.games.spi_kiev.tables", "kiev_tui.games.spi_kiev.tables_more"),
    ("kiev_tui.games.spi_kiev.untried", "kiev_tui.games.spi_kiev.untried_more"),
    ("kiev_tui.games.spi_kiev.reinforcements", "kiev_tui.games.spi_kiev.reinforcements_more"),
    ("kiev_tui.games.spi_kiev.strength", "kiev_tui.games.spi_kiev.strength_more"),
    ("kiev_tui.engine.registry", "kiev_tui.engine.registry_more"),
    ("kiev_tui.engine.view", "kiev_tui.engine.view_more"),
    ("kiev_tui.engine.state", "kiev_tui.engine.state_more"),
]


@pytest.mark.parametrize("module, more", HANDED_OUT)
def test_a_module_hands_out_the_functions_written_elsewhere(module: str, more: str) -> None:
    mod, other = importlib.import_module(module), importlib.import_module(more)
    names = mod._TEXT if hasattr(mod, "_TEXT") else mod._LATER
    # every name listed is defined there, and everything defined there is listed
    defined = {n for n, v in vars(other).items() if isinstance(v, types.FunctionType) and v.__module__ == more or (
        not callable(v) and n in names)}
    assert sorted(names) == sorted(defined)
    for name in sorted(names):
        assert getattr(mod, name) is getattr(other, name)
        assert vars(mod)[name] is getattr(other, name)  # kept in the module once asked for
    with pytest.raises(AttributeError, match="no_such_name"):
        mod.no_such_name  # noqa: B018


def test_the_hash_reads_states_own_encoder_and_sha256(monkeypatch: pytest.MonkeyPatch) -> None:
    """state.py puts the JSON encoder in ``_dump``'s place on first use and OpenSSL's hash in
    ``_sha256``'s for a long replay; the hash form, written in state_more.py, reads both from
    state.py at each call, not the stand-ins it would have copied when imported."""
    import hashlib

    from kiev_tui.engine import state
    from kiev_tui.engine.game import Game

    game = Game.new("spi_kiev/campaign", seed=1)
    expected = game.state.hash()
    dump = state._dump
    assert type(dump) is not types.FunctionType  # the encoder's method, not the stand-in
    game.state.hash()
    assert state._dump is dump  # built once
    used: list[bytes] = []

    def openssl(data: bytes) -> Any:
        used.append(data)
        return hashlib.sha256(data)

    monkeypatch.setattr(state, "_sha256", openssl)  # what fast_sha256 does
    assert game.state.hash() == expected
    assert len(used) == 1


def test_a_class_method_and_a_static_method_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    mod = types.ModuleType("kiev_tui_test_later_more5")

    class Made:
        @classmethod
        def make(cls, n: int) -> Any:
            return cls(n)  # type: ignore[call-arg]

        @staticmethod
        def double(n: int) -> int:
            return 2 * n

    mod.Base = Made  # type: ignore[attr-defined]  (the namespace of Base below)
    monkeypatch.setitem(sys.modules, "kiev_tui_test_later_more5", mod)

    class Base:
        def __init__(self, n: int) -> None:
            self.n = n

        make = later("kiev_tui_test_later_more5")
        double = later("kiev_tui_test_later_more5")

    class Made2(Base):
        pass

    made = Made2.make(3)  # bound to the class it is asked through, as a class method is
    assert type(made) is Made2 and made.n == 3
    assert isinstance(vars(Base)["make"], classmethod)
    assert Base(1).double(4) == 8 and Base.double(5) == 10
    assert check(Base, "kiev_tui_test_later_more5") == []
