"""Saves: TOML files holding the scenario, the dice's origin and the action log with every
random value each action drew, checked by replay.

Format 2 (issue 16) records the values, so a save replays without any seed; a game whose
dice came from the OS's entropy keeps no seed or generator state a reader could use to
predict a roll still to come.  Format 1 (seeded, no values recorded) still loads.

The per-action hashes and the final hash are accident detection: they catch a damaged or
carelessly edited file, but anyone can recompute them, so they are no seal against cheating
(play by e-mail has its own, kiev_tui/pbem/).  A save is also signed with this user's key
(engine/savekey.py), which flags a save edited since kiev-tui wrote it, but proves nothing
against the key's owner.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import os
import re
from kiev_tui import nossl as hashlib  # no OpenSSL at start-up (issue 33)
from pathlib import Path
from typing import Any, ClassVar

from kiev_tui import __version__
from kiev_tui.engine.actions import action_key
from kiev_tui.engine.dice import DiceError, EntropyDice, RecordedDice, SeededDice
from kiev_tui.engine.errors import DataError, IllegalAction, shorten
from kiev_tui.engine.events import Event, Reloaded
from kiev_tui.engine.game import Game, with_options
from kiev_tui.engine.scenario import Scenario, load_scenario, resolve_scenario
from kiev_tui.engine.state import GameState
from kiev_tui.engine.tomlio import Reader, atomic_write_text, dump_toml, load_toml
from kiev_tui.engine.view import Sealed, is_hidden, seal

SAVE_FORMAT = 2
READS = (1, 2)  # format 1: before issue 16, seeded, no random values in the log
DICE_KINDS = ("entropy", "seeded", "fixed", "chain")
#: From this many actions a load hashes with OpenSSL's SHA-256 (state.fast_sha256): loading the
#: library once costs about as much as hashing some forty to fifty positions with CPython's own.
FAST_HASH_FROM = 64
RELOAD_KEYS = ("line", "file", "was_at", "back_to", "rolls_discarded", "turn", "player", "phase")


def save_dict(game: Game, viewer: str | None = None) -> dict[str, Any]:
    """The save as ``viewer`` may read it: another side's hidden choices sealed (their
    commitment only) and only the viewer's secrets in the final state.  ``viewer`` None (a
    hot-seat save) seals every hidden choice; save_game puts each owner's in a side file."""
    actions = []
    for action, side, h, values in zip(game.log, game.sides, game.hashes, game.rolled):
        entry = (action if side == viewer else seal(action)).to_toml()
        entry["side"] = side  # who acted: replay refuses the action from anybody else
        if values:
            entry["dice"] = list(values)  # what the dice gave: replay needs no seed
        entry["hash"] = h
        actions.append(entry)
    header: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "program": f"kiev-tui {__version__}",
        "rules": game.rules.id,
        "rules_version": game.rules.version,
        "scenario": game.scenario.id,
        "game_id": game.game_id,
    }
    header.update(game.origin)  # dice = "entropy" (no seed), or "seeded" with its seed
    if game.options:
        header["options"] = dict(game.options)
    if game.setup_rolled:
        header["setup_dice"] = list(game.setup_rolled)
    header.update({
        "saved_at": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
        "turn": game.state.turn,
        "player": game.state.player,
        "phase": game.state.phase,
    })
    out: dict[str, Any] = {"save": header, "action": actions}
    if game.notices:
        out["reload"] = [{"line": line, **{k: v for k, v in ev.to_dict().items() if k != "kind"}}
                         for line, ev in game.notices]
    final_state = game.state.to_dict()
    secrets = final_state.pop("secrets", {})  # the hash leaves them out: the snapshot may too
    mine = secrets.get(viewer) if viewer is not None else None
    if mine:
        final_state["secrets"] = {viewer: mine}
    out["final"] = {"hash": game.state_hash(), "rolls": game.rolls, "state": final_state}
    out["journal"] = {"lines": [e.record() for e in game.journal]}  # the words replay compares
    return out


def save_game(game: Game, path: str | Path, make_parents: bool = True, viewer: str | None = None) -> Path:
    """Write the save atomically: the previous file survives any crash mid-write.

    Raises OSError naming ``path`` when it cannot be written (full disk, no such folder...).
    """
    p = Path(path)
    if getattr(game, "unverified", False):  # a snapshot not yet replayed: its log is not in hand
        raise ValueError("a game shown from its save's snapshot cannot be saved before its replay is checked")
    data = save_dict(game, viewer)
    if game.signable:  # bound to this user's key, so an edit is flagged (engine/savekey.py)
        from kiev_tui.engine import savekey  # signing (hmac, the key file) only when a save is written

        try:
            data["signature"] = savekey.sign(data, savekey.load_key())
        except savekey.SaveKeyError:
            pass  # written unsigned; `replay --verify` then says the save is not signed, and why
    atomic_write_text(p, dump_toml(data), make_parents=make_parents)
    if viewer is None:  # hot seat: each side's hidden choices in a file of its own
        for side in sorted({s for a, s in zip(game.log, game.sides) if is_hidden(a)}):
            atomic_write_text(secret_path(p, side), dump_toml(secret_dict(game, side)), make_parents=make_parents)
    game.mark_saved()
    return p


# -- views and secrets: a side's hidden choices kept beside the save (issue 30) ----------------
def secret_path(save: Path, side: str) -> Path:
    """The side file holding ``side``'s hidden choices for the save ``save``."""
    return save.with_name(f"{save.stem}.{side}.secret.toml")


def secret_dict(game: Game, side: str) -> dict[str, Any]:
    """``side``'s hidden-choice actions with their log positions, to unseal its own save."""
    rows = [{"index": i, **a.to_toml()} for i, (a, s) in enumerate(zip(game.log, game.sides))
            if s == side and is_hidden(a)]
    return {"secret": {"game_id": game.game_id, "side": side}, "action": rows}


def _unsealed(path: Path, game: Game) -> dict[int, dict[str, Any]]:
    """Log position -> full action of every side file found beside the save."""
    out: dict[int, dict[str, Any]] = {}
    for side in game.rules.schema.sides:
        p = secret_path(path, side)
        try:
            if not p.is_file():
                continue
        except OSError:  # a save name near the system's limit has no room for a side file
            continue
        root = Reader(p, load_toml(p))
        if root.table("secret").str("game_id") != game.game_id:
            raise DataError(p, "secret.game_id", "this side file belongs to another game")
        for i, entry in enumerate(root.tables("action")):
            data = dict(entry.data)
            index = int(data.pop("index"))
            out[index] = {"side": side, **data}
    return out


def set_aside(path: Path, name: str) -> Path:
    """Move a save out of the way under ``name`` (or ``name-2``...: nothing is replaced); where it went.

    Raises OSError, or savepaths.BadSaveName (a ValueError) for a name no save may have.
    """
    from kiev_tui.engine import savepaths

    target = savepaths.unused_path_for(name, path.parent)
    os.replace(path, target)
    return target


def enable_autosave(game: Game, path: str | Path) -> None:
    """Save to ``path`` at the end of every phase (``Game.autosave_to``)."""
    game.autosave_to(path)


def _ints(reader: Reader, key: str) -> list[int]:
    value = reader.data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise reader.fail(key, "expected a list of whole numbers (the random values drawn)")
    return list(value)


def _reloads(root: Reader) -> list[tuple[int, Reloaded]]:
    notices: list[tuple[int, Reloaded]] = []
    for r in root.tables("reload"):
        r.only(RELOAD_KEYS)
        ev = Reloaded(r.str("file"), r.int("was_at"), r.int("back_to"), r.int("rolls_discarded"),
                      r.int("turn"), r.str("player"), r.str("phase"))
        line = r.int("line")
        if line < 0 or (notices and line <= notices[-1][0]):
            raise r.fail("line", "reload notices are listed in the order of their journal lines")
        notices.append((line, ev))
    return notices


def journal_key(i: int) -> str:
    """The key naming line ``i`` (from 0) of a save's journal: counted from 1, as the messages count lines."""
    return f"journal line {i + 1}"


class _Journal:
    """The saved journal without its reload notices, compared line by line as the replay goes."""

    def __init__(self, path: Path, lines: list[str], notices: list[tuple[int, Reloaded]]) -> None:
        self.path = path
        self.full_index: list[int] = []
        self.lines: list[str] = []
        at = {line: ev for line, ev in notices}
        for i, text in enumerate(lines):
            if i in at:
                if text != at[i].record():
                    raise DataError(path, journal_key(i), "the line does not tell the reload the save lists there")
                continue
            self.full_index.append(i)
            self.lines.append(text)
        if notices and notices[-1][0] >= len(lines):
            raise DataError(path, "reload", f"a reload notice points past the journal's {len(lines)} lines")

    def line(self, i: int) -> int:
        return self.full_index[i] if i < len(self.full_index) else len(self.full_index)

    def compare(self, told: list[str], start: int, key: str, what: str) -> None:
        """Raise naming ``key`` (the action) at the first line the replay tells otherwise.

        ``told`` holds the replay's lines from journal line ``start`` (counted without reloads) on.
        """
        for i, text in enumerate(told, start):
            if i >= len(self.lines):
                raise DataError(self.path, key, f"{what}: the replay says '{shorten(text)}', "
                                                f"the save's journal ends before (line {self.line(i) + 1})")
            if self.lines[i] != text:
                raise DataError(self.path, key, f"{what}: journal line {self.line(i) + 1} of the save says "
                                                f"'{shorten(self.lines[i])}', the replay says '{shorten(text)}'")

    def finish(self, count: int) -> None:
        if len(self.lines) > count:
            raise DataError(self.path, journal_key(self.line(count)),
                            f"the save's journal has lines no action made ('{shorten(self.lines[count])}')")


def _old_game_id(scenario: str, seed: int) -> str:
    # Format 1 saves carry no game id: two saves of one seeded game share scenario and seed.
    return "v1-" + hashlib.sha256(f"{scenario}|{seed}".encode()).hexdigest()[:12]


class _Header:
    """What a save's [save] table says, read and checked once for a full load and a snapshot alike."""

    def __init__(self, root: Reader) -> None:
        root.only(["save", "action", "reload", "final", "journal", "signature"])
        meta = self.meta = root.table("save")
        fmt = self.fmt = meta.int("format")
        if fmt not in READS:
            raise meta.fail("format", f"save format {fmt} is not one this program reads ({', '.join(map(str, READS))})")
        if fmt == 1:
            meta.only(["format", "program", "rules", "rules_version", "scenario", "seed", "saved_at",
                       "turn", "player", "phase"])
            kind = "seeded"
        else:
            meta.only(["format", "program", "rules", "rules_version", "scenario", "game_id", "dice", "seed",
                       "options", "setup_dice", "saved_at", "turn", "player", "phase"])
            kind = meta.str("dice")
            if kind not in DICE_KINDS:
                raise meta.fail("dice", f"unknown source of dice '{shorten(kind)}' (known: {', '.join(DICE_KINDS)})")
            if kind != "seeded" and "seed" in meta.data:
                raise meta.fail("seed", f"a game with {kind} dice has no seed")
        self.kind = kind
        self.seed: int | None = meta.int("seed") if kind == "seeded" else None
        self.scenario_ref = meta.str("scenario")
        meta.str("program", "")
        meta.str("saved_at", "")
        self.said = (meta.int("turn"), meta.str("player"), meta.str("phase"))
        self.options: dict[str, Any] = meta.table("options", required=False).data if fmt > 1 else {}
        self.setup_values = _ints(meta, "setup_dice") if fmt > 1 else []

    def new_game(self, path: Path, shared: Scenario | None = None) -> tuple[Game, RecordedDice | None]:
        """The game as its set-up leaves it (the set-up's recorded dice given back), header checked.

        ``shared``: a scenario loaded already, used if it is the one this save names and the save
        sets no options (options are set on the scenario itself: it would no longer be shared)."""
        try:
            if shared is not None and not self.options and resolve_scenario(self.scenario_ref) == (shared.path, shared.id):
                scenario = shared
            else:
                scenario = load_scenario(self.scenario_ref)
        except DataError as exc:
            raise DataError(path, "save.scenario", f"cannot load scenario '{self.scenario_ref}': {exc.line()}") from None
        try:
            scenario = with_options(scenario, self.options, "save.options")
        except DataError as exc:
            raise DataError(path, "save.options", exc.reason) from None
        seed, meta = self.seed, self.meta
        if self.fmt == 1:
            assert seed is not None
            recorded: RecordedDice | None = None
            game = Game(scenario, seed)  # as before issue 16: the seed gives every value
        else:
            check = SeededDice(seed) if seed is not None else None
            recorded = RecordedDice(check, {"dice": self.kind, **({"seed": seed} if seed is not None else {})})
            recorded.expect(self.setup_values)
            try:
                game = Game(scenario, seed, dice=recorded, options=self.options)
                recorded.finish()
            except DiceError as exc:
                raise DataError(path, "save.setup_dice", f"the set-up: {exc}") from None
        game.game_id = meta.str("game_id") if self.fmt > 1 else _old_game_id(self.scenario_ref, seed or 0)
        if meta.str("rules") != game.rules.id:
            raise meta.fail("rules", f"save is for rules '{meta.str('rules')}', scenario uses '{game.rules.id}'")
        if meta.str("rules_version") != game.rules.version:
            raise meta.fail("rules_version",
                            f"made by an older or newer version of these rules ({meta.str('rules_version')}; "
                            f"this program plays version {game.rules.version}), so it cannot be replayed")
        return game, recorded


@dataclasses.dataclass(frozen=True, slots=True)
class SavedLine(Event):
    """A journal line of a save shown as written, before the replay has told it again (a snapshot)."""

    kind: ClassVar[str] = "saved_line"
    text: str

    def describe(self) -> str:
        return self.text


def read_save(path: str | Path) -> dict[str, Any]:
    """A save file parsed (DataError naming the file if it cannot be), for load_snapshot then load_game."""
    return load_toml(Path(path))


#: The start of every line that opens with "[" (a table header in what save_game writes).
_LINE_OPENS_TABLE = re.compile(r"^\[", re.MULTILINE)


def _acting_header(text: str, at: int) -> bool:
    """Whether the line starting at ``at`` heads an action's table (``[[action]]``, ``[action.x]``)."""
    end = text.find("\n", at)
    line = text[at:end] if end >= 0 else text[at:]
    return line.rstrip() == "[[action]]" or line.startswith("[action.")


def read_save_front(path: str | Path) -> tuple[dict[str, Any], bool]:
    """What ``load_snapshot`` reads of a save (its header, final snapshot and journal), parsed
    without the actions, which are most of a long save's text (issue 33: a resumed game shows
    sooner); and whether the whole file was parsed after all.

    The actions are the run of ``[[action]]`` tables that ``save_game`` writes between the
    header and the final snapshot (a line opening with ``[`` is a table header in what it
    writes).  A file not laid out so, or whose remainder does not parse, is parsed whole, so a
    damaged file gets the same error as from ``read_save``.  The part is for the snapshot only:
    ``load_game`` must parse the whole file itself (never give it this value as ``data``).
    """
    from kiev_tui.engine.tomlio import parse_toml_text, read_regular

    p = Path(path)
    raw = read_regular(p)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return read_save(p), True
    # the lines opening with "[" found by one search, not by splitting all the lines (issue 33)
    starts = [m.start() for m in _LINE_OPENS_TABLE.finditer(text)]
    acting = [_acting_header(text, at) for at in starts]
    if True not in acting:
        return read_save(p), True
    first = acting.index(True)
    last = len(acting) - 1 - acting[::-1].index(True)
    if last + 1 == len(starts) or not all(acting[first:last + 1]):
        return read_save(p), True  # no table after the actions, or another table among them
    front = text[:starts[first]] + text[starts[last + 1]:]
    try:
        return parse_toml_text(p, front), False
    except DataError:
        return read_save(p), True


def load_snapshot(path: str | Path, data: dict[str, Any] | None = None) -> Game:
    """The game a save ends in, rebuilt from its final snapshot without replaying the log (issue 33).

    For showing a resumed game at once: the header is checked as by ``load_game`` and the
    snapshot against its own hash, but nothing proves the snapshot is where the log leads, so
    the game is marked ``unverified`` (it has no log, refuses every action its dice would
    need and cannot be saved) until ``load_game`` on the same file has replayed and checked it.
    """
    path = Path(path)
    root = Reader(path, data if data is not None else load_toml(path))
    header = _Header(root)
    game, _ = header.new_game(path)
    final = root.table("final")
    final.only(["hash", "rolls", "state"])
    rolls, want = final.int("rolls"), final.str("hash")
    snap = final.get("state", dict)
    try:
        state = GameState.from_dict(snap, game.rules.vars_from_dict)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(path, "final.state", f"malformed snapshot ({exc})") from None
    if state.hash(extra=game.state_hash_extra(rolls)) != want:
        raise DataError(path, "final.state", "the saved snapshot does not match its hash (edited by hand?)")
    game.state, game.rolls = state, rolls
    game.touch()
    game.journal = [SavedLine(text) for text in root.table("journal").strs("lines")]
    game.signable = False
    game.unverified = True
    return game


def load_game(path: str | Path, verify: bool = True, data: dict[str, Any] | None = None,
              scenario: Scenario | None = None) -> Game:
    """Rebuild a game by replaying its log; refuse a save whose replay does not match it.

    With ``verify`` every recorded random value, every journal line, every hash and the header
    are compared with the replay; the first difference is a DataError naming the action.
    ``data``: the file as ``read_save`` parsed it already (a snapshot was shown from it).
    ``scenario``: the scenario of the snapshot shown from this file, shared by the replay if the
    save names it (a resumed game's check: 10 ms less, and one copy of the map in memory).
    """
    path = Path(path)
    root = Reader(path, data if data is not None else load_toml(path))
    header = _Header(root)
    meta, fmt, said = header.meta, header.fmt, header.said
    game, recorded = header.new_game(path, scenario)
    notices = _reloads(root) if fmt > 1 else []
    journal_table = root.table("journal")
    saved_lines = journal_table.strs("lines")
    journal = _Journal(path, saved_lines, notices) if verify else None
    if journal is not None:
        journal.compare([e.record() for e in game.journal], 0, "journal.lines", "the set-up")
    game.replaying = True
    unsealed = _unsealed(path, game)
    entries = root.tables("action")
    if len(entries) >= FAST_HASH_FROM:  # a long replay hashes hundreds of positions: OpenSSL's SHA-256
        from kiev_tui.engine.state import fast_sha256

        fast_sha256()
    for i, entry in enumerate(entries):
        where = action_key(i)  # counted from 1, as the messages below count it
        data = dict(entry.data)
        expected = data.pop("hash", None)
        side = data.pop("side", None)  # saves from before issue 20 do not say who acted
        values = data.pop("dice", None) if fmt > 1 else None
        if side is not None and not isinstance(side, str):
            raise DataError(path, f"{where}.side", f"expected a side's name, found {shorten(repr(side))}")
        if recorded is not None:
            recorded.expect(_ints(entry, "dice") if values is not None else [])
        if data.get("kind") == "sealed":  # another side's hidden choice: its side file unseals it
            full = unsealed.get(i)
            if full is not None and full.get("side") == side:
                act = game.rules.actions.from_toml({k: v for k, v in full.items() if k != "side"}, where, str(path))
                if seal(act).to_toml() != data:
                    raise DataError(path, where, "the side file's hidden choice does not match the commitment")
            else:
                act = Sealed(str(data.get("key", "")), str(data.get("digest", "")))
        else:
            act = game.rules.actions.from_toml(data, where, str(path))  # the log holds this game's actions
        before = len(game.journal)
        try:
            game.apply(act, side=side)
            if recorded is not None:
                recorded.finish()
        except IllegalAction as exc:
            raise DataError(path, where, f"the replay refuses this {act.kind} action: {exc.illegal}") from None
        except DiceError as exc:
            raise DataError(path, f"{where}.dice", f"{act.kind}: {exc}") from None
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
            # Values no legal game produces reached the rules: still one line, never a traceback.
            raise DataError(path, where, f"the replay fails on this {act.kind} action: "
                                         f"{type(exc).__name__} {shorten(str(exc))}") from None
        if verify and expected is not None and expected != game.hashes[-1]:
            raise DataError(path, where,
                            f"the replay diverges at this {act.kind} action: the position differs from the one saved")
        if journal is not None:
            # Only this action's lines are told: describing the whole journal each time was quadratic.
            journal.compare([e.record() for e in game.journal[before:]], before, where, act.kind)
    game.replaying = False
    if journal is not None:
        journal.finish(len(game.journal))
    for line, ev in notices:  # the reloads told in the journal go back where they were
        game.journal.insert(line, ev)
    game.notices = list(notices)
    if recorded is not None:  # play on: a seeded game with its generator, any other with fresh entropy
        game.dice = recorded.check if isinstance(recorded.check, SeededDice) else EntropyDice()
    game.mark_saved()  # what was just read is on disk: quitting now loses nothing
    # A flag, never a refusal: only a save this user's key signed gives signed saves again, so
    # an edited or foreign save saved again from here stays unsigned.
    from kiev_tui.engine import savekey

    game.signature = savekey.check(root.data)
    game.signable = game.signature.status == savekey.SIGNED
    if verify:  # the header is what the load dialog shows: it must tell the truth
        st = game.state
        if said[0] != st.turn:
            raise meta.fail("turn", f"the save says turn {said[0]}, its replay ends in turn {st.turn}")
        if said[1] != st.player:
            raise meta.fail("player", f"the save says {shorten(said[1])}, its replay ends with {st.player} to play")
        if said[2] != st.phase:
            raise meta.fail("phase", f"the save says the {shorten(said[2])} phase, its replay ends in the {st.phase} phase")
    final = root.table("final")
    final.only(["hash", "rolls", "state"])
    if verify:
        if final.int("rolls") != game.rolls:
            raise final.fail("rolls", f"the save says {final.int('rolls')} random draws, its replay made {game.rolls}")
        want = final.str("hash")
        if want != game.state_hash():
            raise DataError(path, "final.hash", "the replayed game does not match the saved final position")
        snap = final.get("state", dict)
        try:
            saved_state = GameState.from_dict(snap, game.rules.vars_from_dict)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise DataError(path, "final.state", f"malformed snapshot ({exc})") from None
        extra = game.state_hash_extra(final.int("rolls"))
        if saved_state.hash(extra=extra) != want:
            raise DataError(path, "final.state", "the saved snapshot does not match its hash (edited by hand?)")
    return game

