"""Views and secrets (issue 30): Tiny's hidden target town (T7) leaks to no one before its reveal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.errors import IllegalAction
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game, secret_path
from kiev_tui.engine.view import Sealed, commitment, view
from tests.tiny_game import ALLIES, AXIS, TinyMove, TinyReveal, TinyTarget, tiny  # noqa: F401

TOWN, NAME = "0301", "Northby"  # the axis's hidden target
OTHER = "0404"


def picked(duel: Path) -> tuple[Game, str]:
    """A duel where the axis has secretly picked Northby; returns the game and its salt."""
    game = Game.new(duel, seed=1)
    events = game.apply(TinyTarget(TOWN), side=AXIS)
    salt = game.state.secrets[AXIS]["target"]["salt"]
    # the owner's face is told its choice; the journal (public) is not
    assert [e.kind for e in events] == ["committed", "secret_noted"]
    assert events[1].audience() == frozenset({AXIS})
    return game, salt


def leaks(text: str, salt: str) -> list[str]:
    """Which of the town's id, its name and the salt the text holds (the id as a word of its
    own: hashes and digests are hex and may hold any four digits by chance)."""
    found = [TOWN] if re.search(rf"(?<![0-9a-f]){TOWN}(?![0-9a-f])", text) else []
    return found + [w for w in (NAME, salt) if w in text]


def test_the_other_side_sees_the_commitment_and_nothing_else(tiny: Path) -> None:
    game, salt = picked(tiny)
    assert len(salt) == 32
    digest = commitment(TOWN, salt)
    theirs = view(game, ALLIES)
    assert theirs.commitments == {AXIS: {"target": digest}}
    assert theirs.secrets == {}
    assert theirs.options == ()  # not the allies' turn
    assert leaks(repr(theirs), salt) == []
    mine = view(game, AXIS)
    assert mine.secrets == {"target": {"choice": TOWN, "salt": salt}}
    assert mine.options == ()  # T7: nothing to pick or reveal until the axis's next phase
    game.apply(EndPhase(), side=AXIS)
    theirs = view(game, ALLIES)
    assert theirs.actor == ALLIES  # every town is offered to the allies' own pick, the axis's still hidden
    assert theirs.options == (TinyTarget(TOWN), TinyTarget(OTHER))
    assert theirs.secrets == {} and salt not in repr(theirs)
    game.apply(EndPhase(), side=ALLIES)
    assert view(game, AXIS).options == (TinyReveal(TOWN, salt),)  # the generic face offers the reveal
    # the journal and the undo history hold nothing secret
    assert leaks("\n".join(e.describe() for e in game.journal), salt) == []
    assert game.can_undo is False  # a commitment is an undo barrier


def test_the_salt_is_fresh_even_for_the_same_seed(tiny: Path) -> None:
    _, a = picked(tiny)
    _, b = picked(tiny)
    assert a != b  # from the OS, not the seeded dice: a save's seed does not give it away


def test_saves_keep_the_secret_out_of_the_other_players_files(tiny: Path, tmp_path: Path) -> None:
    game, salt = picked(tiny)
    game.apply(TinyMove(("ax-2",), ("0202", "0203")), side=AXIS)  # play goes on, nowhere near the target
    hot = save_game(game, tmp_path / "hot.toml")  # hot seat: the secret goes to the axis's side file
    theirs = save_game(game, tmp_path / "allies.toml", viewer=ALLIES)
    ours = save_game(game, tmp_path / "axis.toml", viewer=AXIS)
    assert leaks(hot.read_text(), salt) == []
    assert leaks(theirs.read_text(), salt) == []
    assert not secret_path(theirs, AXIS).exists()
    assert leaks(secret_path(hot, AXIS).read_text(), salt) == [TOWN, salt]
    assert not secret_path(hot, ALLIES).exists()
    assert TOWN in ours.read_text() and salt in ours.read_text()
    # the other side's copy replays to the same public position, without the secret
    other = load_game(theirs)
    assert other.state_hash() == game.state_hash()
    assert other.log[0] == Sealed("target", commitment(TOWN, salt))
    assert other.state.secrets == {}
    assert view(other, AXIS).options == ()  # this copy cannot reveal for the axis
    # the hot-seat save with its side file gives the owner back its secret
    back = load_game(hot)
    assert back.state.secrets == {AXIS: {"target": {"choice": TOWN, "salt": salt}}}
    assert back.state_hash() == game.state_hash()
    # without the side file it loads, sealed
    secret_path(hot, AXIS).unlink()
    assert load_game(hot).state.secrets == {}


def test_a_side_file_that_does_not_match_the_commitment_is_refused(tiny: Path, tmp_path: Path) -> None:
    game, salt = picked(tiny)
    hot = save_game(game, tmp_path / "hot.toml")
    side = secret_path(hot, AXIS)
    side.write_text(side.read_text().replace(TOWN, OTHER))
    with pytest.raises(Exception, match="does not match the commitment"):
        load_game(hot)


def test_the_reveal_is_checked_against_the_commitment(tiny: Path) -> None:
    game, salt = picked(tiny)
    with pytest.raises(IllegalAction) as early:
        game.apply(TinyReveal(TOWN, salt), side=AXIS)
    assert early.value.illegal.case == "T7"
    game.apply(TinyMove(("ax-1",), (TOWN,)), side=AXIS)
    game.apply(EndPhase(), side=AXIS)
    game.apply(EndPhase(), side=ALLIES)
    with pytest.raises(IllegalAction) as ended:
        game.apply(EndPhase(), side=AXIS)
    assert ended.value.illegal.case == "T7"
    for forged in (TinyReveal(OTHER, salt), TinyReveal(TOWN, "0" * 32)):
        with pytest.raises(IllegalAction) as refused:
            game.apply(forged, side=AXIS)
        assert refused.value.illegal.case == "T7"
        assert "does not match the commitment" in refused.value.illegal.why
    with pytest.raises(IllegalAction) as again:
        game.apply(TinyTarget(OTHER), side=AXIS)
    assert again.value.illegal.case == "T7"
    events = game.apply(TinyReveal(TOWN, salt), side=AXIS)
    assert [e.describe() for e in events] == [f"axis reveals target: {TOWN}"]
    assert game.state.secrets == {} and game.state.commitments == {}
    assert game.state.vars.bonus == {AXIS: 1}  # T7: the target is held
    assert game.state.vars.picked == {}
    assert game.rules.score(game).points == {AXIS: 2, ALLIES: 1}
    game.apply(EndPhase(), side=AXIS)
    assert game.state.player == ALLIES


def test_an_unheld_target_scores_nothing(tiny: Path) -> None:
    game = Game.new(tiny, seed=1)
    game.apply(TinyTarget(OTHER), side=AXIS)
    salt = game.state.secrets[AXIS]["target"]["salt"]
    game.apply(EndPhase(), side=AXIS)
    game.apply(EndPhase(), side=ALLIES)
    game.apply(TinyReveal(OTHER, salt), side=AXIS)
    assert game.state.vars.bonus == {}
    assert game.rules.score(game).points == {AXIS: 0, ALLIES: 1}


def test_a_position_without_secrets_hashes_as_before(tiny: Path) -> None:
    game = Game.new(tiny, seed=1)
    d = game.state.to_dict()
    assert "secrets" not in d and "commitments" not in d and "bonus" not in d["vars"]


def test_no_target_in_the_last_turn(tiny: Path) -> None:
    game = Game.new(tiny, seed=1)
    game.apply(EndPhase(), side=AXIS)
    game.apply(EndPhase(), side=ALLIES)
    with pytest.raises(IllegalAction) as late:
        game.apply(TinyTarget(TOWN), side=AXIS)
    assert late.value.illegal.case == "T7"


def test_plain_mode_offers_the_pick_and_the_reveal_to_the_side_at_the_keyboard_only(tiny: Path) -> None:
    from tests.test_plain import session

    game = Game.new(tiny, seed=1)
    s = session(game, 72)
    assert s.handle("choose") == ["Choices ('choose N'):", "  1. target town=0301", "  2. target town=0404"]
    out = s.handle("choose 1")
    salt = game.state.secrets[AXIS]["target"]["salt"]
    assert out == ["axis made a hidden choice (target)", "Your hidden choice (target): 0301"]
    assert s.handle("choose") == ["Nothing to choose now."]
    seen = s.handle("end")  # hot seat: the allies take the keyboard; everything they read from here on
    seen += s.handle("log 20") + s.handle("score") + s.handle("units axis")
    assert len(seen) > 10 and leaks("\n".join(seen), salt) == []
    # the allies are offered their own pick of every town, nothing of the axis's
    assert s.handle("choose") == ["Choices ('choose N'):", "  1. target town=0301", "  2. target town=0404"]
    s.handle("end")
    assert s.handle("choose") == ["Choices ('choose N'):", f"  1. reveal town=0301 salt={salt}"]
    assert s.handle("choose 1")[0] == "axis reveals target: 0301"
    assert s.handle("choose") == ["Nothing to choose now."] and game.state.commitments == {}


def _plain_on_a_pty(game: Game, lines: list[str]) -> str:
    """Plain mode on a real terminal (a pty), fed ``lines``; everything it wrote, as text."""
    import os
    import threading

    from kiev_tui.plain import loop

    master, slave = os.openpty()
    inp, out = os.fdopen(slave, "r", closefd=False), os.fdopen(os.dup(slave), "w")
    done = threading.Event()
    worker = threading.Thread(target=lambda: (loop.run(game, stdin=inp, stdout=out, width=72), done.set()),
                              daemon=True)
    worker.start()
    for line in lines:
        os.write(master, (line + "\n").encode())
    # end of input on a terminal: the loop stops; with moves unsaved it asks first, and a
    # second end of input at that question quits (issue 36)
    os.write(master, b"\x04\x04")
    seen = b""
    while not done.is_set() or _readable(master):
        if _readable(master, 0.2):
            seen += os.read(master, 65536)
    worker.join(30)
    os.close(master)
    os.close(slave)
    out.close()
    return seen.decode(errors="replace")


def _readable(fd: int, timeout: float = 0.0) -> bool:
    import select

    return bool(select.select([fd], [], [], timeout)[0])


def test_hot_seat_plain_clears_the_terminal_when_the_leaving_side_holds_a_secret(tiny: Path) -> None:
    game = Game.new(tiny, seed=1)
    text = _plain_on_a_pty(game, ["choose 1", "end", "", "end", ""])
    salt = game.state.secrets[AXIS]["target"]["salt"] if game.state.secrets else ""
    assert "Your hidden choice (target): 0301" in text
    cleared = text.index("\x1b[3J")  # screen and scrollback, before the allies sit down
    assert text.index("Your hidden choice (target): 0301") < cleared < text.index("Press Enter")
    assert text.count("\x1b[3J") == 1  # the allies hold no secret: their hand-over keeps the screen
    assert "The screen was cleared" in text[cleared:] and (salt == "" or salt not in text[cleared:])


def test_hot_seat_plain_keeps_the_screen_when_nothing_is_hidden(tiny: Path) -> None:
    text = _plain_on_a_pty(Game.new(tiny, seed=1), ["end", "", "end", ""])
    assert "Press Enter" in text and "\x1b[3J" not in text
