"""Kiev to Rostov, Battle of Sumy: every numbered case of the rules booklet that Sumy plays has a test.

The issue's "done when" asks for a test `test_<case>` (dots as underscores) for each case the
Battle of Sumy (PB 10.4) uses. This test reads the case numbers from the booklet's headings
(sections 1-25, the playbook left out: it numbers from 1.0 again), and looks for a test function
named `test_<case>` or `test_<case>_<words>` / `test_<case><letter>...` in the EFS test files.

Granularity:
- a numbered case (x.y or x.yz) with numbered cases under it is a heading; its cases are checked,
  not the heading itself (10.7 is checked through 10.71-10.79);
- a case is covered by a test of the case or of any of its lettered parts (`test_15_61b_...`
  covers 15.61), never by a longer number (`test_9_21` does not cover 9.2);
- a lettered part (15.61b, 16.41b2) needs a test of its own when the engine's code names it (a
  refusal `Illegal("14.34a", ...)` or a comment `# 11.42c1` in kiev_tui/games/efs_ktr/): the code
  says it enforces that part, so a test must hold it to it.

Each case Sumy does not play is listed with why (NOT_IN_SUMY), as is each case that changes
nothing in play (NO_PLAY) and each one Sumy plays that the engine does not enforce yet
(NOT_ENFORCED). PENDING_OTHER_BRANCHES holds the cases other branches are building now; empty it
when they are merged. Sumy's own rules in the playbook (PB 10.41-10.45) are checked the same way,
as `test_pb_<case>`.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOOK = Path("/work/shared/rulebooks/efs-kiev-to-rostov.txt")
if not BOOK.exists():  # the checkout's copy, when the shared folder is elsewhere
    BOOK = ROOT.parent.parent / "shared" / "rulebooks" / "efs-kiev-to-rostov.txt"
ENGINE = ROOT / "kiev_tui" / "games" / "efs_ktr"
EFS_TESTS = ("test_efs_*.py",)

# Cases being built on other branches at the same time (non-operational HQs, Local Tactical
# Advantage and dual-purpose fighters, attacks on and retreats from several hexes).
PENDING_OTHER_BRANCHES: set[str] = set()

SUPPLY = "supply is switched off in Sumy (PB 10.44a)"
RAIL = "rail movement and conversion are ignored in Sumy (PB 10.44b)"
REPL = "there are no replacements in Sumy (PB 10.44c)"
STRONG = "Sumy builds no Strongpoints (PB 10.44d) and its map has none and no fortified line"
AIRLIFT = "there are no air transport missions in Sumy (PB 10.44e)"
SURRENDER = "Soviet surrender is switched off in Sumy (PB 10.44a)"
DRY = "the weather is Dry on every Sumy turn (PB 10.41)"
NO_VP = "Sumy is won on stars and Axis steps lost (PB 10.45), not on a Victory Point total"


def _none(what: str) -> str:
    return f"no {what} in the Sumy counter mix (PB 10.4)"


# Cases Sumy never plays, each with why.
NOT_IN_SUMY: dict[str, str] = {
    **{c: DRY for c in ("3.43", "5.11", "5.12", "5.13", "5.14", "5.15", "10.75", "11.35", "15.53")},
    **{c: SUPPLY for c in ("6.11", "6.12", "6.13", "6.21", "6.22", "6.31", "6.32", "6.4", "6.51", "6.52",
                            "6.53", "6.54", "6.61", "6.62", "6.63", "6.64", "6.71", "6.72", "6.73", "6.74",
                            "6.75", "6.76", "6.81", "6.82", "6.83", "6.84", "6.85", "8.15", "11.94", "15.31",
                            "15.33", "15.56")},
    **{c: "Axis Base Units belong to the long scenarios' supply (PB 5.14); " + SUPPLY
       for c in ("6.91", "6.92", "6.93", "6.94", "6.95")},
    **{c: REPL for c in ("7.11", "7.12", "7.21", "7.22", "7.23", "7.24", "7.25", "7.26", "7.31", "7.32", "7.33",
                          "7.41", "7.42", "7.43", "8.4", "10.12", "10.22", "20")},
    **{c: RAIL for c in ("3.23", "10.73", "11.11", "11.12", "11.13", "11.14", "11.15", "13.21", "19.11",
                          "19.12", "19.13", "19.21", "19.22", "19.23", "19.3", "19.4")},
    **{c: STRONG for c in ("18.11", "18.12", "18.13", "18.14", "18.15", "18.21", "18.22", "18.23", "18.24",
                            "18.31", "18.32", "18.33", "18.34", "18.35", "18.36", "18.37", "18.38", "11.56")},
    **{c: AIRLIFT for c in ("11.71", "11.72", "11.73", "11.74", "11.75", "11.76", "13.25", "17.5")},
    **{c: SURRENDER for c in ("21.11", "21.12", "22.43")},
    **{c: NO_VP for c in ("8.22", "8.73", "16.25", "25.12", "25.13", "25.14")},
    "8.31": "Soviet pool groups come with the replacement table's R results; " + REPL,
    "8.32": "Sumy's set-up lists no Axis pool group (PB 10.4)",
    "8.14": "Sumy's reinforcements all enter at the map edge hex 2202, none is placed on the map (PB 10.4)",
    "8.16": "Sumy's only HQ (40th Army) starts on the map (PB 10.4)",
    **{c: "Sumy withdraws no unit (PB 10.4)" for c in ("8.71", "8.72")},
    **{c: _none("militia") for c in ("8.51", "8.52", "8.53", "8.54", "22.61", "22.62", "22.63", "22.64", "22.65")},
    **{c: _none("UR/MG units") for c in ("8.61", "8.62", "8.63", "8.64", "11.61", "11.62", "11.63",
                                         "22.51", "22.52", "22.53", "22.54")},
    **{c: _none("armored trains") for c in ("10.14", "22.31", "22.32")},
    **{c: _none("flotillas") for c in ("11.21", "11.22", "11.23", "11.24", "11.25", "11.26", "11.27", "13.22",
                                       "23.31", "23.32", "23.33", "23.34")},
    "11.33": _none("armored trains, railroad artillery or flotillas"),
    "11.8": "naval transport is not part of Kiev to Rostov (PB 8.0) nor of Sumy's land-locked map",
    "10.56": "Sumy forbids no unit or area a move (PB 10.41-10.44); its map edge is the only limit (10.55)",
    **{c: "Mandated Attacks come with the replacement table's M results; " + REPL for c in ("12.41", "12.42")},
    "14.35": _none("NKVD units"),
    "22.42": _none("NKVD units"),
    "22.44": _none("NKVD units"),
    "15.64": _none("super-heavy artillery"),
    "22.14": "the 2nd Guards rocket battalion is Sumy's only Soviet artillery: no HQ needed for a second",
    **{c: _none("Zap units") for c in ("22.71", "22.72", "22.73")},
    **{c: _none("garrisons") for c in ("22.81", "22.82")},
    "22.9": _none("partisans"),
    **{c: _none("engineers") for c in ("23.11", "23.12", "23.13", "23.14")},
    **{c: _none("bridge units") for c in ("23.21", "23.22", "23.23", "23.24", "23.25")},
    **{c: _none("super-heavy artillery") for c in ("23.41", "23.42", "23.43", "23.44")},
    **{c: "Sumy's Axis are motorized and panzer regiments: no infantry division sheds regiment counters"
       for c in ("24.1", "24.21", "24.22", "24.31", "24.32", "24.33", "24.34", "24.35", "24.4", "24.5")},
    "17.22": "every Sumy hex is in range of every air unit (PB 10.44f)",
    **{c: "the Sumy map has only minor rivers" for c in ("10.76c", "10.76d")},
    "10.77a": "the Sumy map has no lake, and its weather is always Dry (PB 10.41)",
    **{c: SUPPLY for c in ("11.32c", "11.42e", "15.32b", "15.66a", "15.66b", "15.68c1")},
    "13.24d": "with one Soviet artillery counter an HQ never lets several fire (22.14)",
    "22.23a": "Sumy's set-up puts its one HQ, the 40th Army's, on the map Operational (PB 10.4)",
    "22.25a": STRONG,
    "22.25b": _none("bridge units"),
    "22.25e": _none("NKVD units"),
}

# Headings and cases that state no rule of play, each with why.
NO_PLAY: dict[str, str] = {
    "1": "the introduction: what the series is and how to read the booklet",
    "2.1": "describes the map grid and hex numbers; the board's geometry is tested with movement",
    "2.2": "names the player aid cards",
    "2.31": "points at the counter guide; the printed values are the units file's",
    "2.32": "unit designations are names only",
    "2.33": "names the counter categories; what each category may do is ruled where it is used",
    "2.33a": "defines a combat unit; the board's is_combat reads it for 3.41, 12.11 and 15.21",
    "2.4": "points at the counter guide",
    "2.52": "defines the word DRM; each modifier is its own case",
    "3.11": "defines friendly and enemy units",
    "3.12": "defines friendly and enemy phases",
    "3.22": "defines the word contiguous",
    "4.1": "points at the playbook's set-up instructions",
    "10.11": "points at the movement phase chart, tested as 10.1",
    "10.21": "points at the movement phase chart, tested as 10.1",
    "17.12": "the air boxes' capacity is unlimited: there is nothing to refuse",
}

# Cases Sumy plays that the engine does not enforce yet, each with why. Must be exact.
NOT_ENFORCED: dict[str, str] = {}


def book() -> tuple[list[str], dict[str, list[str]]]:
    """The booklet's case numbers in order, and each case's lettered parts (15.61 -> 15.61a ...).

    The booklet ends where the playbook starts numbering again at 1.0. A heading "12.0" is "12".
    """
    cases: list[str] = []
    parts: dict[str, list[str]] = {}
    intro = 0
    case: str | None = None
    letter: str | None = None
    for line in BOOK.read_text(encoding="utf-8").splitlines():
        if line.startswith("1.0 Introduction"):
            intro += 1
            if intro == 2:
                break
        if not intro:  # the contents list
            continue
        m = re.match(r"^(?:>>)?(\d+)\.(\d+) ", line)  # ">>" marks a change from Army Group North
        if m:
            case = m.group(1) if m.group(2) == "0" else f"{m.group(1)}.{m.group(2)}"
            cases.append(case)
            letter = None
            continue
        m = re.match(r"^([a-z])\. ", line)
        if m and case:
            letter = case + m.group(1)
            parts.setdefault(case, []).append(letter)
            continue
        m = re.match(r"^(\d)\. ", line)
        if m and letter and case:
            parts.setdefault(case, []).append(letter + m.group(1))
    return cases, parts


def _parent(case: str) -> str | None:
    if "." not in case:
        return None
    section, rest = case.split(".")
    return section if len(rest) == 1 else f"{section}.{rest[0]}"


def book_cases() -> list[str]:
    """The cases that carry rules: every numbered case with no numbered case under it."""
    cases, _ = book()
    headings = {_parent(c) for c in cases}
    return [c for c in cases if c not in headings]


def cited_parts() -> list[str]:
    """Lettered parts of the booklet the engine's code names (a refusal, Illegal("16.41b2", ...),
    or the comment at the line that enforces it, # 11.42c1); "PB 10.44a" is the playbook's."""
    _, parts = book()
    lettered = {p for ps in parts.values() for p in ps}
    cited: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        cited |= set(re.findall(r"(?<![\w.])(?<!PB )(\d+\.\d+[a-z]\d?)(?!\w)", path.read_text(encoding="utf-8")))
    return sorted(cited & lettered)


def _test_names() -> set[str]:
    names: set[str] = set()
    for pattern in EFS_TESTS:
        for path in (ROOT / "tests").glob(pattern):
            names |= set(re.findall(r"^\s*def (test_\w+)\s*\(", path.read_text(encoding="utf-8"), re.M))
    return names


def has_test(case: str, names: set[str]) -> bool:
    stem = "test_" + case.replace(".", "_")
    # test_9_2 must not be satisfied by test_9_21_...: the case's number ends at the name's end,
    # before a word or before its own letter, never before another digit
    return any(n.startswith(stem) and not n[len(stem):][:1].isdigit() for n in names)


def missing_cases() -> list[str]:
    names = _test_names()
    skip = set(NO_PLAY) | set(NOT_IN_SUMY) | PENDING_OTHER_BRANCHES
    return [c for c in book_cases() + cited_parts() if c not in skip and not has_test(c, names)]


# Sumy's own rules in the playbook (PB 10.41-10.45, each lettered part), tested as test_pb_<case>;
# the ones with nothing to play, each with why.
PB_NO_PLAY: dict[str, str] = {
    "10.43a": "the set-up is the scenario file's, so who sets up first changes nothing",
}


def sumy_cases() -> list[str]:
    """PB 10.41-10.45 as the playbook numbers them: a case, or its lettered parts where it has them."""
    text = BOOK.read_text(encoding="utf-8")
    start = text.index("\n10.4 Scenario 4: Battle of Sumy")
    part = text[start:text.index("\n10.5 Scenario 5", start)]
    out: list[str] = []
    case = ""
    for line in part.splitlines():
        m = re.match(r"^(10\.4\d) ", line)
        if m:
            case = m.group(1)
            out.append(case)
            continue
        m = re.match(r"^([a-z])\. ", line)
        if m and case:
            if out and out[-1] == case:
                out.pop()  # a lettered case is checked part by part
            out.append(case + m.group(1))
    return out


def test_every_sumy_special_rule_has_its_test() -> None:
    names = _test_names()
    cases = sumy_cases()
    assert cases == ["10.41", "10.42", "10.43a", "10.43b", "10.44a", "10.44b", "10.44c", "10.44d", "10.44e",
                     "10.44f", "10.45a", "10.45b"]
    missing = [c for c in cases if c not in PB_NO_PLAY and not has_test("pb." + c, names)]
    assert missing == [], f"Sumy rules without a test_pb_<case>: {missing}"


def test_the_book_headings_are_read() -> None:
    cases, parts = book()
    assert cases[:6] == ["1", "2", "2.1", "2.2", "2.3", "2.31"]
    assert {"6.9", "6.95", "15.81", "22.9", "25.14"} <= set(cases)  # 6.9 is marked ">>"
    assert cases[-1] == "25.14" and len(cases) == 487
    assert len(book_cases()) == 379
    assert parts["15.61"] == ["15.61a", "15.61b", "15.61c", "15.61d", "15.61e"]
    assert parts["16.41"] == ["16.41a", "16.41a1", "16.41a2", "16.41b", "16.41b1", "16.41b2", "16.41b3", "16.41b4"]


def test_every_case_sumy_plays_has_its_test() -> None:
    missing = missing_cases()
    assert set(missing) == set(NOT_ENFORCED), f"cases without a test_<case>: {missing}"


def test_the_lists_are_exact() -> None:
    cases = set(book_cases()) | set(cited_parts())
    listed = [*NOT_IN_SUMY, *NO_PLAY, *NOT_ENFORCED]
    assert len(listed) == len(set(listed)), "a case is in two lists"
    assert set(listed) <= cases, sorted(set(listed) - cases)
    assert PENDING_OTHER_BRANCHES <= cases | {p for ps in book()[1].values() for p in ps}
    # a case listed as not enforced must still lack its test; once tested, take it off the list
    names = _test_names()
    assert [c for c in NOT_ENFORCED if has_test(c, names)] == []


def test_has_test_reads_case_boundaries() -> None:
    assert has_test("9.2", {"test_9_2_replenish"})
    assert not has_test("9.2", {"test_9_21_book_example"})
    assert has_test("15.61", {"test_15_61b_river_halves"})
    assert has_test("16.41b2", {"test_16_41b2"})
    assert not has_test("16.41b", {"test_16_41b2_no_path"})
    assert not has_test("11.4", {"test_11_42a_odds"})
