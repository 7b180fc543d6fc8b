"""Saves: TOML files holding the scenario, the seed and the action log, checked by replay."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

from kiev_tui import __version__
from kiev_tui.engine.errors import DataError, IllegalAction, shorten
from kiev_tui.engine.game import Game
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.engine.state import GameState
from kiev_tui.engine.tomlio import Reader, atomic_write_text, dump_toml, load_toml

SAVE_FORMAT = 1


def save_dict(game: Game) -> dict[str, Any]:
    actions = []
    for action, side, h in zip(game.log, game.sides, game.hashes):
        entry = action.to_toml()
        entry["side"] = side  # who acted: replay refuses the action from anybody else
        entry["hash"] = h
        actions.append(entry)
    return {
        "save": {
            "format": SAVE_FORMAT,
            "program": f"kiev-tui {__version__}",
            "rules": game.rules.id,
            "rules_version": game.rules.version,
            "scenario": game.scenario.id,
            "seed": game.seed,
            "saved_at": _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat(),
            "turn": game.state.turn,
            "player": game.state.player,
            "phase": game.state.phase,
        },
        "action": actions,
        "final": {"hash": game.state_hash(), "rolls": game.rolls, "state": game.state.to_dict()},
        "journal": {"lines": [e.describe() for e in game.journal]},
    }


def save_game(game: Game, path: str | Path, make_parents: bool = True) -> Path:
    """Write the save atomically: the previous file survives any crash mid-write.

    Raises OSError naming ``path`` when it cannot be written (full disk, no such folder...).
    """
    p = Path(path)
    atomic_write_text(p, dump_toml(save_dict(game)), make_parents=make_parents)
    game.mark_saved()
    return p


def enable_autosave(game: Game, path: str | Path) -> None:
    """Save to ``path`` at the end of every phase."""
    target = Path(path)
    game.autosave_path = target
    def autosave(g: Game) -> None:
        save_game(g, target)

    game.on_phase_end = autosave


def load_game(path: str | Path, verify: bool = True) -> Game:
    """Rebuild a game by replaying its log; refuse a save whose replay does not match."""
    path = Path(path)
    root = Reader(path, load_toml(path))
    root.only(["save", "action", "final", "journal"])
    meta = root.table("save")
    meta.only(["format", "program", "rules", "rules_version", "scenario", "seed", "saved_at",
               "turn", "player", "phase"])
    fmt = meta.int("format")
    if fmt != SAVE_FORMAT:
        raise meta.fail("format", f"save format {fmt} is not one this program reads ({SAVE_FORMAT})")
    seed = meta.int("seed")
    scenario_ref = meta.str("scenario")
    meta.str("program", "")
    meta.str("saved_at", "")
    said = (meta.int("turn"), meta.str("player"), meta.str("phase"))
    try:
        scenario = load_scenario(scenario_ref)
    except DataError as exc:
        raise DataError(path, "save.scenario", f"cannot load scenario '{scenario_ref}': {exc.line()}") from None
    game = Game(scenario, seed)
    if meta.str("rules") != game.rules.id:
        raise meta.fail("rules", f"save is for rules '{meta.str('rules')}', scenario uses '{game.rules.id}'")
    if meta.str("rules_version") != game.rules.version:
        raise meta.fail("rules_version",
                        f"made by an older or newer version of these rules ({meta.str('rules_version')}; "
                        f"this program plays version {game.rules.version}), so it cannot be replayed")
    game.replaying = True
    for i, entry in enumerate(root.tables("action")):
        where = f"action[{i}]"
        data = dict(entry.data)
        expected = data.pop("hash", None)
        side = data.pop("side", None)  # saves from before issue 20 do not say who acted
        if side is not None and not isinstance(side, str):
            raise DataError(path, f"{where}.side", f"expected a side's name, found {shorten(repr(side))}")
        act = game.rules.actions.from_toml(data, where, str(path))  # the log holds this game's actions
        try:
            game.apply(act, side=side)
        except IllegalAction as exc:
            raise DataError(path, where, f"replay refused action {i + 1} ({act.kind}): {exc.illegal}") from None
        except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
            # Values no legal game produces reached the rules: still one line, never a traceback.
            raise DataError(path, where, f"replay failed at action {i + 1} ({act.kind}): "
                                         f"{type(exc).__name__} {shorten(str(exc))}") from None
        if verify and expected is not None and expected != game.hashes[-1]:
            raise DataError(path, where,
                            f"replay diverges at action {i + 1} ({act.kind}): the position differs from the one saved")
    game.replaying = False
    game.mark_saved()  # what was just read is on disk: quitting now loses nothing
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
        want = final.str("hash")
        if want != game.state_hash():
            raise DataError(path, "final.hash", "the replayed game does not match the saved final position")
        snap = final.get("state", dict)
        try:
            saved_state = GameState.from_dict(snap, game.rules.vars_from_dict)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise DataError(path, "final.state", f"malformed snapshot ({exc})") from None
        if saved_state.hash(extra=f"|rolls={final.int('rolls')}|seed={seed}") != want:
            raise DataError(path, "final.state", "the saved snapshot does not match its hash (edited by hand?)")
    return game
