"""The shadow screen reads Textual's output a piece at a time (issue 33): the tokens must be
exactly those of the whole string, wherever the pieces end."""

from __future__ import annotations

import random

import pytest

from kiev_tui.ui import wire


@pytest.fixture
def tiny_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "_PIECE", 1)  # a cut after nearly every character


def test_an_escape_before_a_csi_is_not_cut_from_it(tiny_pieces: None) -> None:
    # "ESC ESC" is one token, so the "[1m" after it is text, not a pen change
    data = "ab\x1b\x1b[1mcd\x1b[2;3Hxy\x1b]0;title\x1b\\z\x1b[m"
    assert list(wire._tokens(data)) == wire._TOKEN.findall(data)
    assert ("", "", "", "", "", "\x1b\x1b") in list(wire._tokens(data))


def test_pieces_give_the_tokens_of_the_whole(tiny_pieces: None) -> None:
    rng = random.Random(33)
    alphabet = ["\x1b", "[", "]", "1", ";", "m", "H", "a", " ", "\x07", "\\", "\n", "\u2248", "\x9b"]
    for _ in range(2000):
        data = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
        assert list(wire._tokens(data)) == wire._TOKEN.findall(data), repr(data)


def test_a_long_write_is_cut_into_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    spans: list[tuple[int, int]] = []
    pattern = wire._TOKEN

    class Recording:
        def findall(self, data: str, pos: int, endpos: int) -> list[tuple[str, ...]]:
            spans.append((pos, endpos))
            return pattern.findall(data, pos, endpos)

    monkeypatch.setattr(wire, "_TOKEN", Recording())
    row = "\x1b[1;31m" + "x" * 100
    frame = "".join(f"\x1b[{y + 1};1H" + row for y in range(40))
    assert list(wire._tokens(frame)) == pattern.findall(frame)
    assert len(spans) > 1 and spans[0][0] == 0 and spans[-1][1] == len(frame)
    assert all(b - a <= wire._PIECE + len(row) + 8 for a, b in spans)  # pieces, not the whole frame
    assert all(spans[i][1] == spans[i + 1][0] for i in range(len(spans) - 1))
