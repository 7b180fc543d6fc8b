"""Barbarossa 1941 played the other ways two people play: two seats on a host (the network
play `kiev-tui host`/`join` and the SSH server use), a turn-file exchange by e-mail, a save
checked by `kiev-tui replay --verify`, and `kiev-tui new` naming the game's three scenarios."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.dice import DiceNeeded
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import load_game, save_game
from kiev_tui.games.barbarossa1941 import bot
from kiev_tui.pbem import protocol
from kiev_tui.pbem.files import Folder, read_record, read_secret, read_turn
from kiev_tui.pbem.protocol import digest, replay

from test_net_support import HostThread, Seat, play_through
from tests.ui.b1941_drive import move_target

SCENARIO = "barbarossa1941/historical"
runner = CliRunner()


class _Stop(Exception):
    pass


def opening_actions(seed: int = 5) -> list[tuple[str, Action]]:
    """The bot's game from the start until the first combat has been answered by both sides."""
    played: list[tuple[str, Action]] = []

    def on(game: Game, action: Action) -> None:
        played.append((game.sides[-1], action))
        sides = {s for s, a in played if a.kind not in ("move", "end_phase")}
        if game.rolls >= 1 and len(sides) == 2 and game.state.pending is None:
            raise _Stop

    with pytest.raises(_Stop):
        bot.play_game(SCENARIO, seed, on_action=on)
    return played


def test_two_seats_on_a_host_play_the_opening_in_step(tmp_path: Path) -> None:
    acts = opening_actions()
    assert {s for s, _ in acts} == {"axis", "soviet"} and any(a.kind == "attack" for _, a in acts)
    game = Game.new(SCENARIO, 5)
    with HostThread(game, tmp_path / "net.toml", tmp_path / "h.sock") as hosted:
        seats = {side: Seat(hosted.address, side) for side in ("axis", "soviet")}
        try:
            play_through(seats, acts, hosted.game)  # every seat's copy hashes as the host's after each
            g = hosted.game
            assert len(g.log) == len(acts) and g.rolls >= 1
            for seat in seats.values():
                assert seat.game.state_hash() == g.state_hash()
                assert [e.describe() for e in seat.game.journal] == [e.describe() for e in g.journal]
            saved = load_game(hosted.host.save_path)  # the host's autosave replays to the same position
            assert len(saved.log) == len(acts) and saved.state_hash() == g.state_hash()
        finally:
            for seat in seats.values():
                seat.close()


def test_a_save_of_the_opening_verifies_and_a_changed_die_is_refused(tmp_path: Path) -> None:
    game = Game.new(SCENARIO, 5)
    for side, act in opening_actions():
        game.apply(act, side=side)
    path = save_game(game, tmp_path / "b41.toml")
    res = runner.invoke(app, ["replay", "--verify", str(path)])
    assert res.exit_code == 0, res.output
    text = path.read_text()
    first = text.index("dice = [")
    end = text.index("]", first)
    digits = [c for c in text[first:end] if c.isdigit()]
    assert digits, "the opening holds a roll"
    forged = text[:first] + text[first:end].replace(digits[0], str((int(digits[0]) % 6) + 1), 1) + text[end:]
    (tmp_path / "forged.toml").write_text(forged)
    res = runner.invoke(app, ["replay", "--verify", str(tmp_path / "forged.toml")])
    assert res.exit_code == 2 and "action" in res.stderr


def test_new_names_the_three_scenarios_of_the_game() -> None:
    res = runner.invoke(app, ["new", "barbarossa1941", "--no-ui"])
    assert res.exit_code == 2
    line = res.stderr.strip()
    for name in ("historical", "hypothetical", "typhoon"):
        assert f"barbarossa1941/{name}" in line
    for name in ("historical", "hypothetical", "typhoon"):
        res = runner.invoke(app, ["new", f"barbarossa1941/{name}", "--seed", "1", "--no-ui"])
        assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["games"])
    listed = [line.split()[0] for line in res.stdout.splitlines() if line.strip().startswith("barbarossa1941/")]
    assert listed == ["barbarossa1941/historical", "barbarossa1941/hypothetical", "barbarossa1941/typhoon"]
    from kiev_tui.serve.cli import default_scenarios  # what the SSH server's lobby offers

    assert [s for s in default_scenarios() if s.startswith("barbarossa1941/")] == listed


# -- by e-mail ---------------------------------------------------------------------------------------

def cli(*args: Any) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def my_part(folder: Folder, incoming: Path | None, rng: random.Random) -> list[Action]:
    """One player's part from his record (and the file just in): a move in each movement phase,
    the first attack in a combat phase, each prompt answered from its options, else the phase
    ended; up to the action that draws dice, or until the other side must act."""
    me, messages = read_record(folder.record)
    if incoming is not None:
        messages = [*messages, read_turn(incoming)]
    pos = replay(messages, "scratch")
    game, dice = pos.game, pos.dice
    assert game is not None and dice is not None
    secret = read_secret(folder, messages[0]["turn"]["game"])
    dice.own = (me, secret.seed, secret.length)
    if pos.open is not None:
        game.apply(pos.open[0], side=pos.open[1])
    chosen: list[Action] = []
    moved: set[tuple[int, str, str]] = set()
    while not game.state.over and game.actor == me:
        act: Action | None = None
        here = (game.state.turn, game.state.player, game.state.phase)
        if game.state.pending is not None:
            act = bot.answer_from_options(game, rng)
        elif here not in moved:
            moved.add(here)
            if game.state.phase == "movement":
                for uid in game.rules.actable(game):
                    to = move_target(game, (uid,))
                    if to is not None:
                        path = game.rules.reachable(game, (uid,))[game.scenario.map.grid.parse(to)].path
                        act = bot.Move((uid,), tuple(path))
                        break
            elif game.state.phase == "combat":
                act = next(iter(game.rules.options(game, me)), None)
        act = act or EndPhase()
        try:
            game.apply(act, side=me)
        except DiceNeeded:
            chosen.append(act)  # it draws: the turn file ends with it, open
            break
        chosen.append(act)
    return chosen


def test_turn_files_by_e_mail_reach_a_verified_roll(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seeds = iter([b"\x03" * 32, b"\x04" * 32])  # fixed secrets: the same game on every run
    monkeypatch.setattr(protocol, "new_secret", lambda: next(seeds))
    anna, boris = Folder(tmp_path / "anna", "b41"), Folder(tmp_path / "boris", "b41")
    folders = {"axis": anna, "soviet": boris}
    rng = random.Random(4)
    cli("pbem", "new", SCENARIO, "--me", "axis", "--name", "b41", "--dir", anna.dir)
    sent = [anna.turn(0)]
    cli("pbem", "join", sent[0], "--dir", boris.dir)
    sent.append(boris.turn(1))
    cli("pbem", "turn", sent[1], "--dir", anna.dir)  # Anna reads the acceptance: the Axis moves first
    sender, verified = "axis", 0
    while True:
        folder = folders[sender]
        _, messages = read_record(folder.record)
        incoming = sent[-1] if len(messages) < len(sent) else None
        if incoming is not None:
            assert "every link, roll, journal line and hash checks" in cli("pbem", "verify", incoming,
                                                                           "--dir", folder.dir)
            verified += 1
        acts = my_part(folder, incoming, rng)
        part = folder.dir / "part.toml"
        part.write_text(tomli_w.dumps({"action": [a.to_toml() for a in acts]}))
        cli("pbem", "turn", *([incoming] if incoming else []), "--dir", folder.dir, "--actions", part)
        _, messages = read_record(folder.record)
        sent.append(folder.turn(len(messages) - 1))
        pos = replay(messages, "x")
        assert pos.game is not None
        if pos.game.rolls >= 1 and pos.open is None:
            break
        sender = pos.waiting_for()
        assert len(sent) < 40, "no roll after 40 turn files"
    other = folders["soviet" if sender == "axis" else "axis"]
    assert "every link, roll, journal line and hash checks" in cli("pbem", "verify", sent[-1], "--dir", other.dir)
    cli("pbem", "turn", sent[-1], "--dir", other.dir)
    _, a_msgs = read_record(anna.record)
    _, b_msgs = read_record(boris.record)
    assert [digest(m) for m in a_msgs] == [digest(m) for m in b_msgs] and verified >= 2
    assert any(a.kind == "attack" for a in replay(a_msgs, "a").game.log)  # type: ignore[union-attr]
