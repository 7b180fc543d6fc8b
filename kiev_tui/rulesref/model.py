"""The rules reference as data: cases by number, their sections, loaded from TOML.

A game's reference is `data/<game>/rules.toml` plus any `data/<game>/rules-*.toml` parts.
Parts are read in stem order (`rules`, `rules-2`, `rules-pb`, ...) so the main file comes
first, and their `[[case]]` arrays are joined in that order; that joined order is the
book order used for children and sections.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

# Nothing from kiev_tui.engine (nor tomllib) at import time: `kiev-tui rules` reads a case
# from the parsed-data cache and must not pay for the engine's imports (issue 19).

if TYPE_CHECKING:
    from kiev_tui.rulesref.search import SearchIndex

GAMES: tuple[str, ...] = ("spi_kiev", "barbarossa1941", "efs_ktr")

# A case number as people type it: "9.66", "[9.66]", "pb 3.1", "PB3.1", "14.3.4", "5.2a".
_REF_RE = re.compile(r"^(?P<pb>pb)?\s*(?P<num>\d{1,2}(?:\.\d{1,2}){0,2})(?P<letter>[a-z]?)$", re.IGNORECASE)
_GAME_RE = re.compile(r"[a-z0-9_]+")  # used with fullmatch: "$" would let a final newline in

_CASE_KEYS = {"id", "parent", "title", "text", "see", "table", "reconstructed"}
_BOOK_KEYS = {"game", "title", "source"}
_TOP_KEYS = {"book", "case"}


class RulesDataError(Exception):
    """A rules reference file that cannot be used; the message names the file and the key."""

    def __init__(self, file: str | Path, key: str, reason: str) -> None:
        self.file = str(file)
        self.key = key
        self.reason = reason
        where = f"{self.file}: {key}" if key else self.file
        super().__init__(f"{where}: {reason}")


class UnknownCaseError(KeyError):
    """A case number that is not in the book."""

    def __init__(self, game: str, ref: str) -> None:
        self.game = game
        self.ref = ref
        super().__init__(ref)

    def __str__(self) -> str:
        return f"no case {self.ref!r} in the {self.game} rules reference"


def normalize_id(ref: str) -> str:
    """Canonical form of a typed case number: "[9.66]" -> "9.66", "pb3.1" -> "PB 3.1".

    Text that does not look like a case number comes back stripped but otherwise as given.
    """
    text = " ".join(ref.split())
    text = text.strip("[]() ").strip()
    m = _REF_RE.match(text)
    if not m:
        return text
    num = m.group("num") + m.group("letter").lower()
    return f"PB {num}" if m.group("pb") else num


def id_candidates(ref: str) -> list[str]:
    """Ids to try for a typed reference, best first: "9" also finds "9.0" and "9.0" finds "9"."""
    canon = normalize_id(ref)
    out = [canon]
    num = canon[3:] if canon.startswith("PB ") else canon
    prefix = canon[: len(canon) - len(num)]
    if num and num[0].isdigit():
        if "." not in num:
            out.append(f"{prefix}{num}.0")
        elif num.endswith(".0") and num.count(".") == 1:
            out.append(prefix + num[:-2])
    return out


# a line that starts a list item keeps its line break when text is reflowed
_ITEM_RE = re.compile(r"^\s*(?:[-*\u2022]|[a-z][.)]|\d{1,2}[.)]|\([a-z0-9]\))\s")


def reflow(text: str) -> str:
    """Join lines broken only for the editor's width, keeping paragraphs and list items.

    Every kept or joined line break stays one character, so offsets into the original
    text (search spans) are offsets into the result too.
    """
    lines = text.split("\n")
    out = [lines[0]]
    for prev, line in zip(lines, lines[1:]):
        joined = prev.strip() and line.strip() and not _ITEM_RE.match(line)
        out.append((" " if joined else "\n") + line)
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Table:
    """A small table printed with a case (a chart row or a list of values)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Case:
    """One numbered rule case, in our own words."""

    id: str
    parent: str
    title: str
    text: str
    see: tuple[str, ...] = ()
    table: Table | None = None
    reconstructed: bool = False
    game: str = ""
    file: str = ""

    @property
    def flowing_text(self) -> str:
        """The text with editor line breaks joined, ready for a terminal to wrap."""
        return reflow(self.text)

    @property
    def heading(self) -> str:
        return f"{self.id} {self.title}".strip()


@dataclass(slots=True)
class RuleBook:
    """Every case of one game's rulebook, with lookup by case number and by section."""

    game: str
    title: str
    source: str
    cases: tuple[Case, ...]
    files: tuple[Path, ...] = ()
    _by_id: dict[str, Case] = field(default_factory=dict, repr=False)
    _order: dict[str, int] = field(default_factory=dict, repr=False)
    _children: dict[str, list[Case]] = field(default_factory=dict, repr=False)
    _index: SearchIndex | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._by_id = {c.id: c for c in self.cases}
        self._order = {c.id: i for i, c in enumerate(self.cases)}
        self._children = {}
        for case in self.cases:
            # a parent that is not in the book leaves the case at the top level
            parent = case.parent if case.parent in self._by_id and case.parent != case.id else ""
            self._children.setdefault(parent, []).append(case)

    # -- lookup -------------------------------------------------------------------------
    def resolve(self, ref: str) -> str | None:
        """The id of the case a typed reference means, or None."""
        for cand in id_candidates(ref):
            if cand in self._by_id:
                return cand
        return None

    def get(self, ref: str) -> Case | None:
        cid = self.resolve(ref)
        return self._by_id[cid] if cid is not None else None

    def __getitem__(self, ref: str) -> Case:
        case = self.get(ref)
        if case is None:
            raise UnknownCaseError(self.game, ref)
        return case

    def __contains__(self, ref: object) -> bool:
        return isinstance(ref, str) and self.resolve(ref) is not None

    def __iter__(self) -> Iterator[Case]:
        return iter(self.cases)

    def __len__(self) -> int:
        return len(self.cases)

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.cases]

    def position(self, case_id: str) -> int:
        """Where a case stands in book order (0 for the first)."""
        return self._order[case_id]

    # -- structure ----------------------------------------------------------------------
    def top_level(self) -> list[Case]:
        return list(self._children.get("", []))

    def children(self, ref: str) -> list[Case]:
        """Direct children of a case, in book order."""
        return list(self._children.get(self[ref].id, []))

    def section(self, ref: str) -> list[Case]:
        """The case and all its descendants, depth first in book order."""
        root = self[ref]
        out: list[Case] = []
        seen: set[str] = set()
        stack = [root]
        while stack:
            case = stack.pop()
            if case.id in seen:  # a parent cycle in bad data must not loop forever
                continue
            seen.add(case.id)
            out.append(case)
            stack.extend(reversed(self._children.get(case.id, [])))
        return out

    def depth(self, ref: str) -> int:
        """How many ancestors a case has in the book (0 for a top-level section)."""
        case = self[ref]
        depth = 0
        seen = {case.id}
        while case.parent and case.parent in self._by_id and case.parent not in seen:
            seen.add(case.parent)
            case = self._by_id[case.parent]
            depth += 1
        return depth

    def dangling(self) -> list[tuple[str, str, str]]:
        """References that point nowhere: (case id, "parent" or "see", the missing id)."""
        out: list[tuple[str, str, str]] = []
        for case in self.cases:
            if case.parent and case.parent not in self._by_id:
                out.append((case.id, "parent", case.parent))
            for ref in case.see:
                if self.resolve(ref) is None:
                    out.append((case.id, "see", ref))
        return out

    # -- search -------------------------------------------------------------------------
    @property
    def index(self) -> SearchIndex:
        """The full-text index, built once on first use (load_reference builds it eagerly
        unless told not to); its plain form comes from the data cache."""
        if self._index is None:
            from kiev_tui.rulesref.search import SearchIndex

            self._index = SearchIndex(self.cases, game=self.game, cache=True)
        return self._index


# -- loading --------------------------------------------------------------------------------

def project_root() -> Path:
    return Path(__file__).resolve().parents[2]


def default_data_dir() -> Path:
    """`data/` beside the package, unless KIEV_TUI_DATA points elsewhere."""
    env = os.environ.get("KIEV_TUI_DATA")
    return Path(env) if env else project_root() / "data"


def default_rulebooks_dir() -> Path:
    """`../shared/rulebooks` from the project root, unless KIEV_TUI_RULEBOOKS says otherwise."""
    env = os.environ.get("KIEV_TUI_RULEBOOKS")
    return Path(env) if env else project_root().parent / "shared" / "rulebooks"


def rules_files(game: str, data_dir: Path | None = None) -> list[Path]:
    """The game's rules TOML files in load order: rules.toml, then rules-*.toml by name."""
    folder = (data_dir or default_data_dir()) / game
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob("rules*.toml") if p.stem == "rules" or p.stem.startswith("rules-")]
    return sorted(files, key=lambda p: p.stem)


def _str(file: Path, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise RulesDataError(file, key, f"expected a string, found {type(value).__name__}")
    return value


# What a parsed, checked rules file set is kept as in the data cache: plain tuples only.
# Bump when the layout of that value changes, so an entry of the old layout is never read.
_PLAIN_FORMAT = 1

# The same cap as the engine's data reader (engine/tomlio.py MAX_FILE_BYTES).
_MAX_FILE_BYTES = 8 * 1024 * 1024

PlainTable = tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]
# id, parent, title, text, see, table, reconstructed, file name
PlainCase = tuple[str, str, str, str, tuple[str, ...], PlainTable | None, bool, str]


def _parse_table(file: Path, key: str, value: Any) -> PlainTable:
    if not isinstance(value, dict):
        raise RulesDataError(file, key, "expected an inline table with header and rows")
    extra = set(value) - {"header", "rows"}
    if extra:
        raise RulesDataError(file, f"{key}.{sorted(extra)[0]}", "unknown key")
    header = value.get("header", [])
    rows = value.get("rows", [])
    if not isinstance(header, list):
        raise RulesDataError(file, f"{key}.header", "expected a list of column names")
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise RulesDataError(file, f"{key}.rows", "expected a list of rows, each a list")
    for i, row in enumerate(rows):
        if header and len(row) != len(header):
            raise RulesDataError(
                file, f"{key}.rows[{i}]", f"has {len(row)} cells but the header has {len(header)}"
            )
    return tuple(str(h) for h in header), tuple(tuple(str(c) for c in r) for r in rows)


def _parse_case(file: Path, n: int, raw: Any) -> PlainCase:
    key = f"case[{n}]"
    if not isinstance(raw, dict):
        raise RulesDataError(file, key, "expected a [[case]] table")
    if "id" in raw and isinstance(raw["id"], str):
        key = f"case[{n}] (id {raw['id']!r})"
    extra = set(raw) - _CASE_KEYS
    if extra:
        raise RulesDataError(file, f"{key}.{sorted(extra)[0]}", "unknown key")
    for required in ("id", "title", "text"):
        if required not in raw:
            raise RulesDataError(file, f"{key}.{required}", "missing")
    cid = normalize_id(_str(file, f"{key}.id", raw["id"]))
    if not cid:
        raise RulesDataError(file, f"{key}.id", "empty")
    parent = normalize_id(_str(file, f"{key}.parent", raw.get("parent", "")))
    see_raw = raw.get("see", [])
    if not isinstance(see_raw, list) or not all(isinstance(s, str) for s in see_raw):
        raise RulesDataError(file, f"{key}.see", "expected a list of case ids (strings)")
    reconstructed = raw.get("reconstructed", False)
    if not isinstance(reconstructed, bool):
        raise RulesDataError(file, f"{key}.reconstructed", "expected true or false")
    table = _parse_table(file, f"{key}.table", raw["table"]) if "table" in raw else None
    return (
        cid,
        parent,
        _str(file, f"{key}.title", raw["title"]).strip(),
        _str(file, f"{key}.text", raw["text"]).strip(),
        tuple(normalize_id(s) for s in see_raw),
        table,
        reconstructed,
        file.name,
    )


def _case(game: str, plain: PlainCase) -> Case:
    cid, parent, title, text, see, table, reconstructed, file = plain
    return Case(
        id=cid,
        parent=parent,
        title=title,
        text=text,
        see=see,
        table=Table(*table) if table is not None else None,
        reconstructed=reconstructed,
        game=game,
        file=file,
    )


def load_reference(game: str, data_dir: Path | None = None, *, index: bool = True) -> RuleBook:
    """Read and check a game's rules reference; raise RulesDataError naming file and key.

    The result is kept while its files are unchanged, so reopening the reference is free;
    the parsed files come from the data cache (kiev_tui/datacache.py) while they are
    unchanged.  With `index=False` the search index is left to be built on first use.
    """
    base = data_dir or default_data_dir()
    if not _GAME_RE.fullmatch(game):
        raise RulesDataError(base, "", f"not a game name: {game!r}")
    files = rules_files(game, base)
    if not files:
        raise RulesDataError(base / game / "rules.toml", "", "file not found")
    try:
        stamp = tuple((str(p.resolve()), p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    except OSError:
        stamp = ()
    cached = _CACHE.get((game, stamp)) if stamp else None
    if cached is None:
        cached = _read_reference(game, files)
        if stamp:
            if len(_CACHE) >= _CACHE_SIZE:
                _CACHE.pop(next(iter(_CACHE)))
            _CACHE[(game, stamp)] = cached
    if index:
        _ = cached.index  # build the search index now so the first query is fast
    return cached


_CACHE: dict[tuple[str, tuple[tuple[str, int, int], ...]], RuleBook] = {}
_CACHE_SIZE = 8


def _cacheable(path: Path) -> bool:
    """A regular file under the size cap: the data cache may hash it without hanging on it."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and st.st_size <= _MAX_FILE_BYTES


def _read_bytes(path: Path) -> bytes:
    """The file's bytes; an odd file (missing, a FIFO, too large) fails as the engine's reader says."""
    try:
        # non-blocking, so a FIFO swapped in after _cacheable looked cannot hang the open
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):
        fd = -1
    if fd >= 0:
        try:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and st.st_size <= _MAX_FILE_BYTES:
                chunks: list[bytes] = []
                size = 0
                while size <= _MAX_FILE_BYTES:
                    chunk = os.read(fd, min(1 << 20, _MAX_FILE_BYTES + 1 - size))
                    if not chunk:
                        break
                    chunks.append(chunk)
                    size += len(chunk)
                if size <= _MAX_FILE_BYTES:
                    return b"".join(chunks)
        except OSError:
            pass
        finally:
            os.close(fd)
    # The rare failure: the engine's reader words the reason the same way for every data file.
    from kiev_tui.engine.errors import DataError
    from kiev_tui.engine.tomlio import read_regular

    try:
        return read_regular(path)
    except DataError as exc:
        raise RulesDataError(path, "", exc.reason) from None


def _read_reference(game: str, files: list[Path]) -> RuleBook:
    kind = f"rulesref-book/{_PLAIN_FORMAT}/{game}/" + ",".join(p.name for p in files)
    if all(_cacheable(p) for p in files):
        from kiev_tui.datacache import cached

        title, source, plain = cached(kind, files, lambda: _parse_book(game, files))
    else:  # let the reader name what is wrong with the file
        title, source, plain = _parse_book(game, files)
    return RuleBook(game=game, title=title, source=source, cases=tuple(_case(game, c) for c in plain),
                    files=tuple(files))


def _parse_book(game: str, files: list[Path]) -> tuple[str, str, list[PlainCase]]:
    """Parse and check every file: the book's title and source, and its cases as plain tuples."""
    import tomllib

    book: dict[str, Any] | None = None
    book_file: Path | None = None
    cases: list[PlainCase] = []
    where: dict[str, Path] = {}
    for path in files:
        try:
            # Regular files under the size cap only: a FIFO or /dev/zero must not hang us.
            doc = tomllib.loads(_read_bytes(path).decode("utf-8"))
        except UnicodeDecodeError:
            raise RulesDataError(path, "", "not UTF-8 text") from None
        except OSError as exc:
            raise RulesDataError(path, "", f"cannot read ({exc.strerror})") from None
        except tomllib.TOMLDecodeError as exc:
            raise RulesDataError(path, "(syntax)", f"malformed TOML: {exc}") from None
        extra = set(doc) - _TOP_KEYS
        if extra:
            raise RulesDataError(path, sorted(extra)[0], "unknown key (expected [book] or [[case]])")
        if "book" in doc:
            if book_file is not None:
                raise RulesDataError(path, "book", f"a second [book] table (the first is in {book_file.name})")
            if not isinstance(doc["book"], dict):
                raise RulesDataError(path, "book", "expected a table")
            book, book_file = doc["book"], path
        raw_cases = doc.get("case", [])
        if not isinstance(raw_cases, list):
            raise RulesDataError(path, "case", "expected an array of tables, [[case]]")
        for n, raw in enumerate(raw_cases):
            case = _parse_case(path, n, raw)
            if case[0] in where:
                raise RulesDataError(path, f"case[{n}].id", f"duplicate id {case[0]!r} (also in {where[case[0]].name})")
            where[case[0]] = path
            cases.append(case)
    if book is None or book_file is None:
        raise RulesDataError(files[0], "book", f"missing: no [book] table in {', '.join(p.name for p in files)}")
    extra = set(book) - _BOOK_KEYS
    if extra:
        raise RulesDataError(book_file, f"book.{sorted(extra)[0]}", "unknown key")
    for required in ("game", "title", "source"):
        if required not in book:
            raise RulesDataError(book_file, f"book.{required}", "missing")
        _str(book_file, f"book.{required}", book[required])
    if book["game"] != game:
        raise RulesDataError(book_file, "book.game", f"says {book['game']!r} but the folder is {game!r}")
    return book["title"], book["source"], cases


def load_all(games: list[str] | tuple[str, ...] | None = None, data_dir: Path | None = None) -> list[RuleBook]:
    """Load several games' references (all known games by default), in the given order."""
    return [load_reference(g, data_dir) for g in (games or GAMES)]
