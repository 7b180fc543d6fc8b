"""Ranked full-text search over the rules reference."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiev_tui.rulesref.model import GAMES, Case, RuleBook, load_reference, rules_files
from kiev_tui.rulesref.search import SearchIndex, normalize_word, search, tokenize

FIXTURES = Path(__file__).parent / "fixtures" / "rules"


@pytest.fixture(scope="module")
def spi() -> RuleBook:
    return load_reference("spi_kiev", FIXTURES)


def ids(hits: list) -> list[str]:
    return [h.case.id for h in hits]


def test_phrase_beats_all_words_beats_some_words(spi: RuleBook) -> None:
    hits = search("major river", spi)
    kinds = {h.case.id: h.kind for h in hits}
    # 10.13 has the phrase in its title, 9.78 in its text; 10.2 has both words apart; 10.3 one
    assert kinds == {"10.13": "phrase", "9.78": "phrase", "10.2": "all", "10.3": "some"}
    assert ids(hits) == ["10.13", "9.78", "10.2", "10.3"]


def test_title_hits_weigh_more(spi: RuleBook) -> None:
    # "retreat" is the title of 9.7 and only in the text of 9.66
    hits = search("retreat", spi)
    assert ids(hits)[0] == "9.7"
    assert "9.66" in ids(hits)
    assert hits[0].score > next(h.score for h in hits if h.case.id == "9.66")


def test_plural_and_case_are_ignored(spi: RuleBook) -> None:
    assert ids(search("RIVERS", spi)) == ids(search("river", spi))
    assert normalize_word("Rivers") == "river"
    assert normalize_word("supplies") == "supply"
    assert normalize_word("Stalin's") == "stalin"
    assert normalize_word("across") == "across"
    assert normalize_word("9.66") == "9.66"


def test_case_number_query_puts_that_case_first(spi: RuleBook) -> None:
    hits = search("9.66", spi)
    assert hits[0].case.id == "9.66" and hits[0].kind == "id"
    assert search("[9.7]", spi)[0].case.id == "9.7"


def test_spans_mark_the_matching_words(spi: RuleBook) -> None:
    hit = search("major rivers", spi)[0]
    assert hit.case.id == "10.13"
    assert [hit.case.title[s:e] for s, e in hit.title_spans] == ["major river"]
    woods = next(h for h in search("major river", spi) if h.case.id == "10.2")
    marked = [woods.case.text[s:e].lower() for s, e in woods.text_spans]
    assert marked == ["river", "river", "major"]
    assert woods.matched == ("major", "river")


def test_stop_words_alone_do_not_match_everything(spi: RuleBook) -> None:
    hits = search("the river", spi)
    assert all("river" in h.matched for h in hits)


def test_unfinished_last_word_with_prefix(spi: RuleBook) -> None:
    assert search("maj", spi) == []
    hits = search("maj", spi, prefix=True)
    assert {"10.13", "9.78", "10.2"} <= set(ids(hits))
    assert ids(search("major riv", spi, prefix=True))[:2] == ["10.13", "9.78"]


def test_empty_or_unknown_query(spi: RuleBook) -> None:
    assert search("", spi) == []
    assert search("   ", spi) == []
    assert search("zeppelin", spi) == []


def test_limit(spi: RuleBook) -> None:
    assert len(search("river", spi, limit=2)) == 2
    assert len(search("river", spi, limit=None)) == 4


def test_search_across_books() -> None:
    books = [load_reference(g, FIXTURES) for g in GAMES]
    hits = search("river", books)
    assert {h.game for h in hits} == {"spi_kiev", "barbarossa1941"}
    weather = search("weather", books)
    assert ids(weather)[:2] == ["PB 3.1", "PB 3.11"]


def test_excerpt_is_one_line_around_the_match(spi: RuleBook) -> None:
    hit = next(h for h in search("bank", spi))
    line, spans = hit.excerpt(40)
    assert "\n" not in line and len(line) <= 40
    assert [line[s:e] for s, e in spans] == ["bank"]
    assert line.startswith("...")
    short, short_spans = search("streams", spi)[0].excerpt(80)
    assert short == "A small river only matters for supply."
    assert short_spans == ()


@settings(max_examples=60, deadline=None)
@given(words=st.lists(st.sampled_from(["major", "river", "rivers", "the", "step", "retreat", "woods", "supp"]), min_size=1, max_size=4), width=st.integers(20, 90))
def test_spans_are_always_inside_the_strings(spi: RuleBook, words: list[str], width: int) -> None:
    query = " ".join(words)
    for hit in search(query, spi, prefix=True):
        for s, e in hit.title_spans:
            assert 0 <= s < e <= len(hit.case.title)
        for s, e in hit.text_spans:
            assert 0 <= s < e <= len(hit.case.text)
        line, spans = hit.excerpt(width)
        assert len(line) <= max(width, 0) or len(hit.case.text) <= width
        for s, e in spans:
            assert 0 <= s < e <= len(line)


def synthetic_cases(n: int) -> list[Case]:
    rng = random.Random(1941)
    vocab = [f"w{i}" for i in range(3000)] + ["major", "river", "supply", "retreat", "zone", "control"]
    cases = []
    for i in range(n):
        text = " ".join(rng.choice(vocab) for _ in range(rng.randint(20, 140)))
        title = " ".join(rng.choice(vocab) for _ in range(4))
        cases.append(Case(id=f"{i // 50 + 1}.{i % 50 + 1}", parent="", title=title, text=text, game="synthetic"))
    return cases


@pytest.fixture(scope="module")
def big_index() -> SearchIndex:
    return SearchIndex(synthetic_cases(1200), game="synthetic")


# Speed is measured by `make bench` (rules-search rows in docs/PERFORMANCE.md), never asserted
# here: these tests only check that large indexes and the real books answer sensibly.
@pytest.mark.parametrize("query", ["major river", "supply", "zone of control", "w12 w7 river", "9.66"])
def test_a_thousand_case_index_answers_every_kind_of_query(big_index: SearchIndex, query: str) -> None:
    whole = big_index.search(query, limit=50)
    typed = big_index.search(query, limit=50, prefix=True)
    assert len(whole) <= 50 and len(typed) <= 50
    assert all(h.matched for h in whole + typed)


def test_real_books_answer_every_query_the_screen_sends() -> None:
    games = [g for g in GAMES if rules_files(g)]
    if not games:
        pytest.skip("no data/<game>/rules.toml yet")
    books = [load_reference(g) for g in games]
    for query in ("major river", "supply", "zone of control", "retreat across"):
        assert search(query, books, limit=50), query
    for typed in ("re", "sup", "major riv"):  # the screen searches on every key press
        assert search(typed, books, limit=100, prefix=True), typed


def test_tokenize_keeps_case_numbers_whole() -> None:
    assert [w for w, _, _ in tokenize("See 9.66, then [PB 3.1].")] == ["see", "9.66", "then", "pb", "3.1"]
