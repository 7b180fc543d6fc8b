"""Unit ids in engine text replaced by names (kiev_tui/ui/names.py): the quick way taken when
every id is a run of word characters and hyphens finds exactly what the full alternation finds."""

from __future__ import annotations

import re
from types import SimpleNamespace

from kiev_tui.ui import names

TEXT = ("so-rd-22 and so-rd-226 attack; x-so-rd-22, so-rd-22-b, (so-rd-226). so-rd-22\n"
        "so_rd_22 so-rd-2 gd-1/so-rd-22 ge-pz-3é ge-pz-3 é")


def _alternation(ids: list[str], text: str) -> str:
    ordered = sorted(ids, key=len, reverse=True)
    rx = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ordered)) + r")(?![\w-])")
    return rx.sub(lambda m: f"<{m.group(1)}>", text)


def test_runs_of_word_characters_are_replaced_as_the_alternation_would() -> None:
    ids = ["so-rd-22", "so-rd-226", "gd-1", "ge-pz-3", "so-rd-2"]
    got = names.replace_ids(SimpleNamespace(units=dict.fromkeys(ids)), TEXT, lambda uid: f"<{uid}>")
    assert got == _alternation(ids, TEXT)
    assert got == ("<so-rd-22> and <so-rd-226> attack; x-so-rd-22, so-rd-22-b, (<so-rd-226>). <so-rd-22>\n"
                   "so_rd_22 <so-rd-2> <gd-1>/<so-rd-22> ge-pz-3é <ge-pz-3> é")


def test_ids_with_other_characters_use_the_alternation() -> None:
    ids = ["a.1", "so-rd-22"]
    catalog = SimpleNamespace(units=dict.fromkeys(ids))
    assert names.replace_ids(catalog, "a.1 and so-rd-22", lambda uid: f"<{uid}>") == "<a.1> and <so-rd-22>"
    assert names._pattern(catalog)[0] is not names._RUN
    assert names.replace_ids(SimpleNamespace(units={}), "so-rd-22", lambda uid: "x") == "so-rd-22"
