"""Ranked full-text search over rules references.

Each book gets an inverted index when it is loaded: for every normalized word, the cases
that hold it and where (title or text, token positions). A query ranks cases in tiers:
the case number itself > the whole query as a phrase > every word > some words; inside a
tier, rarer words and words in the title count for more. Hits carry the character spans
that matched so a face can highlight them.
"""

from __future__ import annotations

import bisect
import math
import re
from array import array
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from kiev_tui.rulesref.model import Case, RuleBook

Span = tuple[int, int]

# case numbers stay whole ("9.66"); words may carry an apostrophe ("Stalin's")
_TOKEN_RE = re.compile(r"\d+(?:\.\d+)+[a-z]?|[^\W_]+(?:['\u2019][^\W_]+)*", re.IGNORECASE)

# words too common to decide a match alone; they still count inside a phrase
STOP_WORDS = frozenset(
    "a an and are as at be by for from if in is it of on or pb that the this to with".split()
)

TITLE_WEIGHT = 3.0

TIER_NAMES = {4: "id", 3: "phrase", 2: "all", 1: "some"}


def normalize_word(word: str) -> str:
    """Lowercase and strip a plural or possessive ending: "Rivers" -> "river"."""
    found = _NORMALIZED.get(word)
    if found is None:
        found = _NORMALIZED[word] = _normalize(word)
    return found


# a rulebook has a few thousand distinct words and many repeats: normalize each one once
_NORMALIZED: dict[str, str] = {}


def _normalize(word: str) -> str:
    w = word.lower().replace("\u2019", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 3 and not w[0].isdigit():
        if w.endswith("ies") and len(w) > 4:
            w = w[:-3] + "y"
        elif w.endswith(("ches", "shes", "sses", "xes", "zes")):
            w = w[:-2]
        elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
    return w


def tokenize(text: str) -> list[tuple[str, int, int]]:
    """(normalized word, start, end) for every word of a text."""
    return [(normalize_word(m.group()), m.start(), m.end()) for m in _TOKEN_RE.finditer(text)]


def _merge(spans: Iterable[Span]) -> tuple[Span, ...]:
    out: list[list[int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([start, end])
    return tuple((s, e) for s, e in out)


_SPACE_RE = re.compile(r"\s+")


def _collapse(text: str) -> tuple[str, list[int]]:
    """Text with every whitespace run made one space, and old index -> new index.

    Leading whitespace is dropped; a run's first character maps to where its space goes,
    the rest of the run to just after it.  Built run by run, not character by character:
    the excerpt of every hit needs it.
    """
    parts: list[str] = []
    mapping: list[int] = []
    n = 0  # characters written so far
    pos = 0
    for m in _SPACE_RE.finditer(text):
        start, end = m.span()
        mapping.extend(range(n, n + start - pos))
        parts.append(text[pos:start])
        n += start - pos
        kept = 1 if start > 0 else 0  # runs are maximal: anything before this one is a word
        mapping.append(n)
        mapping.extend([n + kept] * (end - start - 1))
        if kept:
            parts.append(" ")
        n += kept
        pos = end
    mapping.extend(range(n, n + len(text) - pos))
    parts.append(text[pos:])
    n += len(text) - pos
    mapping.append(n)
    return "".join(parts).rstrip(), mapping


@dataclass(frozen=True, slots=True)
class Hit:
    """One case that matches a query, with what matched and where."""

    case: Case
    score: float
    kind: str  # "id", "phrase", "all" or "some"
    matched: tuple[str, ...]  # the normalized query words found in the case
    title_spans: tuple[Span, ...]
    text_spans: tuple[Span, ...]

    @property
    def game(self) -> str:
        return self.case.game

    def excerpt(self, width: int = 72) -> tuple[str, tuple[Span, ...]]:
        """One line of the case text around the first match, and the spans inside it."""
        flat, mapping = _collapse(self.case.text)
        spans = [(mapping[s], mapping[e]) for s, e in self.text_spans]
        spans = [(s, min(e, len(flat))) for s, e in spans if s < len(flat)]
        if len(flat) <= width:
            return flat, tuple(spans)
        first = spans[0][0] if spans else 0
        # keep some words before the match so the line reads as a sentence
        start = self._word_start(flat, max(0, first - width // 4), first)
        if len(flat) - start < width - 3:  # near the end: fill the line from the left
            start = self._word_start(flat, max(0, len(flat) - (width - 3)), first)
        lead = "..." if start > 0 else ""
        room = width - len(lead)
        if len(flat) - start <= room:
            end, tail = len(flat), ""
        else:
            end, tail = start + room - 3, "..."
            space = flat.rfind(" ", start, end + 1)
            if space > start + room // 2:
                end = space
        body = flat[start:end].rstrip()
        end = start + len(body)
        shift = len(lead) - start
        inside = tuple(
            (max(s, start) + shift, min(e, end) + shift) for s, e in spans if e > start and s < end
        )
        return f"{lead}{body}{tail}", inside

    @staticmethod
    def _word_start(flat: str, start: int, limit: int) -> int:
        """Move `start` to the beginning of a word, not past `limit` (the first match)."""
        if start <= 0 or flat[start - 1] == " ":
            return max(0, start)
        space = flat.find(" ", start, limit)
        return space + 1 if space != -1 else start


# Bump when the layout of the cached index (SearchIndex._plain) changes.
_INDEX_FORMAT = 1

Postings = dict[int, tuple[list[int], list[int]]]


class SearchIndex:
    """Inverted index over one book's cases (titles and texts).

    Its plain form (sorted vocabulary, each word's postings packed in an int array, the title
    words of each case) is what the data cache keeps; a word's postings are unpacked the first
    time a query needs them, and a case's token spans when it is a hit.
    """

    def __init__(self, cases: Sequence[Case], game: str = "", cache: bool = False) -> None:
        self.game = game
        self.cases = list(cases)
        self._ids = {c.id: i for i, c in enumerate(self.cases)}
        if cache:
            import hashlib

            from kiev_tui.datacache import cached

            # keyed by what is indexed, not by the files: they may have changed since the cases were read
            digest = hashlib.sha256("\0".join(f"{c.title}\0{c.text}" for c in self.cases).encode()).hexdigest()
            vocab, packed, titles = cached(f"rulesref-index/{_INDEX_FORMAT}/{digest}", (), self._plain)
        else:
            vocab, packed, titles = self._plain()
        self._vocab: list[str] = vocab  # sorted
        self._packed: dict[str, bytes] = dict(zip(vocab, packed))
        self._title_words: list[tuple[str, ...]] = titles
        # word -> case number -> (positions in title, positions in text), unpacked on demand
        self._postings: dict[str, Postings] = {}
        self._tokens: dict[int, tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]] = {}
        self._idf_memo: dict[str, float] = {}
        self._present: dict[int, frozenset[str]] = {}  # the words of each case that has been a hit

    def _plain(self) -> tuple[list[str], list[bytes], list[tuple[str, ...]]]:
        """Tokenize every case: the index as plain data (what the cache stores)."""
        postings: dict[str, dict[int, tuple[list[int], list[int]]]] = {}
        titles: list[tuple[str, ...]] = []
        for doc, case in enumerate(self.cases):
            title_toks = tokenize(case.title)
            titles.append(tuple(w for w, _, _ in title_toks))
            for field_no, toks in enumerate((title_toks, tokenize(case.text))):
                for pos, (word, _, _) in enumerate(toks):
                    entry = postings.setdefault(word, {}).setdefault(doc, ([], []))
                    entry[field_no].append(pos)
        vocab = sorted(postings)
        packed: list[bytes] = []
        for word in vocab:
            flat = array("i")
            for doc, (in_title, in_text) in postings[word].items():
                flat.extend((doc, len(in_title), len(in_text)))
                flat.extend(in_title)
                flat.extend(in_text)
            packed.append(flat.tobytes())
        return vocab, packed, titles

    def _post(self, word: str) -> Postings:
        """Which cases hold `word`, and where: case number -> (title positions, text positions)."""
        found = self._postings.get(word)
        if found is None:
            found = {}
            blob = self._packed.get(word)
            if blob is not None:
                flat = array("i")
                flat.frombytes(blob)
                i = 0
                while i < len(flat):
                    doc, n_title, n_text = flat[i], flat[i + 1], flat[i + 2]
                    i += 3
                    found[doc] = (flat[i : i + n_title].tolist(), flat[i + n_title : i + n_title + n_text].tolist())
                    i += n_title + n_text
            self._postings[word] = found
        return found

    def _idf(self, word: str) -> float:
        value = self._idf_memo.get(word)
        if value is None:
            value = math.log(1 + max(1, len(self.cases)) / len(self._post(word)))
            self._idf_memo[word] = value
        return value

    def _doc_tokens(self, doc: int) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:
        """A case's tokens with their character spans, for highlighting a hit."""
        toks = self._tokens.get(doc)
        if toks is None:
            case = self.cases[doc]
            toks = self._tokens[doc] = (tokenize(case.title), tokenize(case.text))
        return toks

    def _expand(self, word: str) -> frozenset[str]:
        """Indexed words that begin with `word` (for the word still being typed)."""
        if len(word) < 2:
            return frozenset({word})
        out = {word}
        i = bisect.bisect_left(self._vocab, word)
        while i < len(self._vocab) and self._vocab[i].startswith(word):
            out.add(self._vocab[i])
            i += 1
        return frozenset(out)

    def _slots(self, query: str, prefix: bool) -> list[frozenset[str]]:
        """One set of acceptable indexed words per query word, in query order."""
        q_tokens = tokenize(query)
        slots = [frozenset({w}) for w, _, _ in q_tokens]
        if prefix and slots and q_tokens[-1][2] == len(query.rstrip()) and query[-1:].strip():
            raw_word = query[q_tokens[-1][1] : q_tokens[-1][2]].lower()
            slots[-1] = self._expand(q_tokens[-1][0]) | self._expand(raw_word)
        return slots

    def rank(self, query: str, prefix: bool = False) -> Ranking:
        """Every matching case as (tier, score, case number), best first; no spans yet."""
        slots = self._slots(query, prefix)
        ranking = Ranking(self, slots, [])
        if not slots:
            return ranking
        words = [next(iter(sl)) if len(sl) == 1 else "" for sl in slots]
        content = [sl for sl, w in zip(slots, words) if w not in STOP_WORDS] or slots
        unique: list[frozenset[str]] = []  # one slot per distinct query word
        for sl in content:
            if sl not in unique:
                unique.append(sl)

        exact_id = self._id_for(query)
        # each slot's score in each case that holds one of its words: the best word's idf * tf
        # (word by word over its postings: a prefix slot may hold hundreds of words)
        slot_scores: list[dict[int, float]] = []
        for sl in unique:
            best: dict[int, float] = {}
            for word in sl:
                idf = None
                for doc, (in_title, in_text) in self._post(word).items():
                    if idf is None:
                        idf = self._idf(word)
                    title_n, text_n = len(in_title), len(in_text)
                    tf = TITLE_WEIGHT * min(title_n, 2) + (1 + math.log(text_n) if text_n else 0)
                    value = idf * tf
                    if value > best.get(doc, 0.0):
                        best[doc] = value
            slot_scores.append(best)
        docs: set[int] = set().union(*slot_scores)
        if exact_id is not None:
            docs.add(exact_id)

        for doc in docs:
            score = 0.0
            found = 0
            for best in slot_scores:
                slot_score = best.get(doc, 0.0)
                if slot_score:
                    found += 1
                    score += slot_score
            title_words = self._title_words[doc]
            if len(title_words) == len(slots) and all(w in sl for w, sl in zip(title_words, slots)):
                score += TITLE_WEIGHT * 3  # the query is the whole title: this case is about it
            if doc == exact_id:
                tier = 4
            elif len(slots) > 1 and found == len(unique) and (
                self._phrase_starts(doc, 0, slots) or self._phrase_starts(doc, 1, slots)
            ):
                tier = 3
                if self._phrase_starts(doc, 0, slots):
                    score += TITLE_WEIGHT * 2
            elif found == len(unique):
                tier = 2
            elif found:
                tier = 1
            else:
                continue
            ranking.ranked.append((tier, score, doc))
        ranking.ranked.sort(key=lambda t: (-t[0], -t[1], t[2]))
        return ranking

    def search(self, query: str, limit: int | None = 50, prefix: bool = False) -> list[Hit]:
        """Cases matching `query`, best first. With `prefix`, the last word may be unfinished."""
        ranking = self.rank(query, prefix)
        top = ranking.ranked if limit is None else ranking.ranked[:limit]
        return [ranking.hit(entry) for entry in top]

    def _id_for(self, query: str) -> int | None:
        from kiev_tui.rulesref.model import id_candidates

        for cand in id_candidates(query):
            if cand in self._ids:
                return self._ids[cand]
        return None

    def _positions(self, doc: int, field_no: int, slot: frozenset[str]) -> set[int]:
        out: set[int] = set()
        for word in slot:
            entry = self._post(word).get(doc)
            if entry is not None:
                out.update(entry[field_no])
        return out

    def _phrase_starts(self, doc: int, field_no: int, slots: list[frozenset[str]]) -> list[int]:
        """Token positions in one field (0 title, 1 text) where the whole query stands in order."""
        starts = self._positions(doc, field_no, slots[0])
        for k in range(1, len(slots)):
            if not starts:
                break
            following = self._positions(doc, field_no, slots[k])
            starts = {p for p in starts if p + k in following}
        return sorted(starts)

    def _spans(self, doc: int, field_no: int, slots: list[frozenset[str]], words: frozenset[str]) -> tuple[Span, ...]:
        toks = self._doc_tokens(doc)[field_no]
        spans: list[Span] = []
        n = len(slots)
        if n > 1:
            for i in self._phrase_starts(doc, field_no, slots):
                spans.append((toks[i][1], toks[i + n - 1][2]))
        content = {w for w in words if w not in STOP_WORDS} or set(words)
        spans.extend((s, e) for w, s, e in toks if w in content)
        return _merge(spans)

    def _hit(self, doc: int, tier: int, score: float, slots: list[frozenset[str]]) -> Hit:
        words = frozenset().union(*slots)
        present = self._present.get(doc)
        if present is None:
            title_toks, text_toks = self._doc_tokens(doc)
            present = self._present[doc] = frozenset(w for w, _, _ in title_toks) | {w for w, _, _ in text_toks}
        matched = tuple(sorted(w for w in words if w in present and w not in STOP_WORDS))
        return Hit(
            case=self.cases[doc],
            score=score,
            kind=TIER_NAMES[tier],
            matched=matched,
            title_spans=self._spans(doc, 0, slots, words),
            text_spans=self._spans(doc, 1, slots, words),
        )


@dataclass(slots=True)
class Ranking:
    """One book's ranked matches for a query; hits (with spans) are built only when asked."""

    index: SearchIndex
    slots: list[frozenset[str]]
    ranked: list[tuple[int, float, int]]  # (tier, score, case number), best first

    def hit(self, entry: tuple[int, float, int]) -> Hit:
        tier, score, doc = entry
        return self.index._hit(doc, tier, score, self.slots)


def search(
    query: str, books: RuleBook | Sequence[RuleBook], limit: int | None = 50, prefix: bool = False
) -> list[Hit]:
    """Search one book or several; hits from all of them ranked together, best first."""
    from kiev_tui.rulesref.model import RuleBook

    book_list = [books] if isinstance(books, RuleBook) else list(books)
    merged: list[tuple[int, float, int, int, Ranking, tuple[int, float, int]]] = []
    for order, book in enumerate(book_list):
        ranking = book.index.rank(query, prefix)
        for pos, entry in enumerate(ranking.ranked if limit is None else ranking.ranked[:limit]):
            merged.append((-entry[0], -entry[1], order, pos, ranking, entry))
    # ties keep book order, then each book's own order
    merged.sort(key=lambda m: m[:4])
    if limit is not None:
        merged = merged[:limit]
    return [m[4].hit(m[5]) for m in merged]
