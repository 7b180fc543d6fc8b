"""Play by e-mail (issue 16): two players in two folders exchange turn files; dice come from
both players' hash chains; every exchange is verified and every forgery refused in one line."""

from __future__ import annotations

import hashlib
import random
import shutil
import subprocess
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from typer.testing import CliRunner

from kiev_tui.cli import app
from kiev_tui.engine.actions import Action
from kiev_tui.engine.dice import DiceError, DiceNeeded
from kiev_tui.engine.errors import DataError
from kiev_tui.pbem import chain, protocol, sign
from kiev_tui.pbem.chain import ChainDice, anchor, chain_link, link_hash, uniform
from kiev_tui.pbem.files import Folder, read_record, read_secret, read_turn, write_record
from kiev_tui.pbem.protocol import digest, replay

from tests.conftest import MINI
from tests.test_dice import first_roll
from tests.test_properties import random_step

runner = CliRunner()


# -- the chains -----------------------------------------------------------------------------------

def test_a_chain_link_hashes_to_the_one_before_and_the_anchor_is_link_0() -> None:
    secret = bytes(range(32))
    assert anchor(secret, 5) == chain_link(secret, 5, 0)
    for k in range(1, 6):
        assert link_hash(chain_link(secret, 5, k)) == chain_link(secret, 5, k - 1)
    assert chain_link(secret, 5, 5) == secret
    with pytest.raises(DiceError, match="link 6 does not exist"):
        chain_link(secret, 5, 6)


def test_values_from_two_links_are_uniform_and_unbiased() -> None:
    counts = Counter(uniform(hashlib.sha256(str(i).encode()).digest(), 6) for i in range(12000))
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    assert sum((c - 2000) ** 2 / 2000 for c in counts.values()) < 30.0
    # 2**64 is no multiple of 3: the top draws are thrown away, never folded onto low values
    assert uniform(b"x", 1) == 0


def _dice(length: int = 8) -> tuple[ChainDice, bytes, bytes]:
    a, b = b"a" * 32, b"b" * 32
    return ChainDice("g", {"german": anchor(a, length), "soviet": anchor(b, length)}), a, b


def test_chain_dice_wait_for_both_links_and_refuse_a_forged_one() -> None:
    d, a, b = _dice()
    d.reveal("german", 1, chain_link(a, 8, 1))
    with pytest.raises(DiceNeeded) as need:
        d.roll(6, "x")
    assert (need.value.index, need.value.side) == (1, "soviet")
    d.reveal("soviet", 1, chain_link(b, 8, 2))  # the wrong link: it hashes to link 1, not to the anchor
    with pytest.raises(DiceError, match="the soviet link 1 does not hash to the soviet commitment"):
        d.roll(6, "x")
    d.reveal("soviet", 1, chain_link(b, 8, 1))
    d.begin_action()
    first = (d.roll(6, "x"), d.roll(6, "y"))
    d.end_action()
    assert d.k == 2  # one pair of links per action that draws, however many values it draws
    again, _, _ = _dice()
    again.own = ("soviet", b, 8)
    again.reveal("german", 1, chain_link(a, 8, 1))
    assert (again.roll(6, "x"), again.roll(6, "y")) == first
    assert again.supplied == {1: chain_link(b, 8, 1)}


# -- a game between two folders ---------------------------------------------------------------------

class Player:
    """One player: his folder, and how he picks his actions (the script first, then at random)."""

    def __init__(self, folder: Folder, script: list[tuple[Action, str]], rng: random.Random) -> None:
        self.folder = folder
        self.script = script
        self.rng = rng

    def choose(self, incoming: Path | None, scratch: Path) -> list[Action]:
        me, messages = read_record(self.folder.record)
        if incoming is not None:
            messages = [*messages, read_turn(incoming)]
        pos = replay(messages, "scratch")
        game, dice = pos.game, pos.dice
        assert game is not None and dice is not None
        secret = read_secret(self.folder, messages[0]["turn"]["game"])
        dice.own = (me, secret.seed, secret.length)
        if pos.open is not None:
            game.apply(pos.open[0], side=pos.open[1])
        tried: list[Action] = []
        real = game.apply

        def apply(act: Action, side: str | None = None) -> Any:
            tried.append(act)
            return real(act, side)

        game.apply = apply  # type: ignore[method-assign]
        chosen: list[Action] = []
        while not game.state.over and game.actor == me:
            try:
                if self.script and self.script[0][1] == me and game.check(self.script[0][0], me) is None:
                    act = self.script.pop(0)[0]
                    game.apply(act, side=me)
                    chosen.append(act)
                else:
                    self.script.clear()
                    chosen.append(random_step(game, self.rng))
            except DiceNeeded:
                chosen.append(tried[-1])  # it draws: the turn file ends with it, open
                break
        return chosen


def cli(*args: Any) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.stderr
    return result.stdout


def refused(*args: Any) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def actions_file(acts: list[Action], path: Path) -> Path:
    path.write_text(tomli_w.dumps({"action": [a.to_toml() for a in acts]}))
    return path


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Anna (German) and Boris (Soviet) play two game-turns of the mini scenario by e-mail."""
    root = tmp_path_factory.mktemp("pbem")
    anna, boris = Folder(root / "anna", "kiev"), Folder(root / "boris", "kiev")
    mp = pytest.MonkeyPatch()
    seeds = iter([b"\x01" * 32, b"\x02" * 32])  # fixed secrets: the same game on every run
    mp.setattr(protocol, "new_secret", lambda: next(seeds))
    prefix, attack, attacker = first_roll(1)  # a Soviet attack in turn 2: the German answers it
    script = [*prefix, (attack, attacker)]  # one list: its head is always the game's next action
    rng = random.Random(8)
    players = {"german": Player(anna, script, rng), "soviet": Player(boris, script, rng)}
    cli("pbem", "new", MINI, "--me", "german", "--name", "kiev", "--dir", anna.dir)
    sent = [anna.turn(0)]
    cli("pbem", "join", sent[0], "--dir", boris.dir)
    sent.append(boris.turn(1))
    cli("pbem", "turn", sent[1], "--dir", anna.dir)  # Anna reads the acceptance: the Soviet moves first
    checks = 0
    sender = "soviet"
    while True:
        player = players[sender]
        me, messages = read_record(player.folder.record)
        incoming = sent[-1] if len(messages) < len(sent) else None
        if incoming is not None:
            assert "every link, roll, journal line and hash checks" in cli("pbem", "verify", incoming,
                                                                           "--dir", player.folder.dir)
            checks += 1
        acts = player.choose(incoming, root)
        path = actions_file(acts, player.folder.dir / "part.toml")
        cli("pbem", "turn", *([incoming] if incoming else []), "--dir", player.folder.dir, "--actions", path)
        me, messages = read_record(player.folder.record)
        sent.append(player.folder.turn(len(messages) - 1))
        pos = replay(messages, "x")
        assert pos.game is not None
        if pos.game.state.turn >= 3 or pos.game.state.over:
            break
        sender = pos.waiting_for()
        assert len(sent) < 60
    other = players["soviet" if sender == "german" else "german"]
    cli("pbem", "verify", sent[-1], "--dir", other.folder.dir)
    checks += 1
    cli("pbem", "turn", sent[-1], "--dir", other.folder.dir)  # the last file reaches the other player
    mp.undo()
    return {"anna": anna, "boris": boris, "sent": sent, "checks": checks, "root": root}


def test_two_turns_by_e_mail_end_with_the_same_verified_record_on_both_sides(played: dict[str, Any]) -> None:
    anna, boris = played["anna"], played["boris"]
    _, a_msgs = read_record(anna.record)
    _, b_msgs = read_record(boris.record)
    assert [digest(m) for m in a_msgs] == [digest(m) for m in b_msgs]
    assert played["checks"] == len(a_msgs) - 2  # every file after the acceptance was verified on arrival
    pos = replay(a_msgs, "a")
    assert pos.game is not None and pos.game.state.turn == 3 and pos.game.rolls >= 1
    for folder in (anna, boris):
        assert "every link, roll, journal line and hash checks" in cli("pbem", "verify", folder.record)
    # the secrets never travel: no turn file holds a seed
    for path in played["sent"]:
        assert "seed" not in path.read_text()


def test_a_roll_comes_from_both_players_links(played: dict[str, Any]) -> None:
    _, messages = read_record(played["anna"].record)
    answered = next(i for i, m in enumerate(messages) if "answer" in m and m["answer"].get("dice"))
    k = int(next(iter(messages[answered]["turn"]["reveal"])))
    links = {m["turn"]["side"]: bytes.fromhex(m["turn"]["reveal"][str(k)])
             for m in messages[answered - 1:answered + 1]}
    seed = chain.DICE_DOMAIN + f"{messages[0]['turn']['game']}|{k}|0|".encode() + links["german"] + links["soviet"]
    opened = messages[answered - 1]["action"][-1]
    assert opened["open"] is True and "dice" not in opened  # the roller sent it before anyone knew the die
    assert messages[answered]["answer"]["dice"][0] == uniform(seed, 6) + 1


def _answered(played: dict[str, Any]) -> int:
    _, messages = read_record(played["anna"].record)
    return next(i for i, m in enumerate(messages) if "answer" in m and m["answer"].get("dice"))


def _replant(played: dict[str, Any], tmp_path: Path, upto: int) -> tuple[Folder, Path]:
    """A copy of the receiver's folder as it was just before message ``upto`` arrived."""
    _, messages = read_record(played["anna"].record)
    receiver = "anna" if messages[upto]["turn"]["side"] == "soviet" else "boris"
    src: Folder = played[receiver]
    me, _ = read_record(src.record)
    folder = Folder(tmp_path / receiver, "kiev")
    folder.dir.mkdir()
    shutil.copy(src.secret, folder.secret)
    write_record(folder, me, messages[:upto])
    return folder, played["sent"][upto]


def _edited(path: Path, tmp_path: Path, change: Any) -> Path:
    data = tomllib.loads(path.read_text())
    change(data)
    out = tmp_path / path.name
    out.write_text(tomli_w.dumps(data))
    return out


def test_a_forged_roll_is_refused_naming_the_action(played: dict[str, Any], tmp_path: Path) -> None:
    i = _answered(played)
    folder, good = _replant(played, tmp_path, i)
    die = tomllib.loads(good.read_text())["answer"]["dice"][0]
    forged = _edited(good, tmp_path, lambda d: d["answer"].update(dice=[die % 6 + 1]))
    line = refused("pbem", "turn", forged, "--dir", folder.dir)
    assert f"message[{i}].answer.dice: message {i}: the answer to the last action of message {i - 1}" in line
    assert f"the turn file records the dice as [{die % 6 + 1}], the two players' links give [{die}]" in line
    assert len(read_record(folder.record)[1]) == i  # nothing was added


def test_a_changed_journal_line_is_refused_naming_the_action(played: dict[str, Any], tmp_path: Path) -> None:
    i = _answered(played)
    folder, good = _replant(played, tmp_path, i)

    def change(d: dict[str, Any]) -> None:
        d["answer"]["journal"][0] = d["answer"]["journal"][0][:-1] + "9"

    line = refused("pbem", "verify", _edited(good, tmp_path, change), "--dir", folder.dir)
    assert f"message[{i}].answer.journal line 1: message {i}: the answer to the last action of message {i - 1}" in line
    assert "9', the replay says" in line


def test_a_replayed_old_turn_is_refused(played: dict[str, Any]) -> None:
    anna: Folder = played["anna"]
    n = len(read_record(anna.record)[1])
    old = played["sent"][2]
    assert refused("pbem", "turn", old, "--dir", anna.dir).endswith(
        f"turn.number: message 2 is already in this game (the next is {n}): an old turn file sent again")
    rewritten = _edited(old, anna.dir.parent, lambda d: d["turn"].update(program="kiev-tui 9"))
    assert "and this one differs from it (a rewritten turn)" in refused("pbem", "turn", rewritten, "--dir", anna.dir)


def test_a_changed_commitment_is_refused(played: dict[str, Any], tmp_path: Path) -> None:
    _, messages = read_record(played["anna"].record)
    other = chain.anchor(b"\x09" * 32, 4096).hex()
    changed = [dict(m) for m in messages]
    changed[1] = {**messages[1], "turn": {**messages[1]["turn"], "anchor": other}}
    folder = Folder(tmp_path, "kiev")
    write_record(folder, "german", changed)
    assert "message[2].turn.prev: message 2 does not follow message 1" in refused("pbem", "verify", folder.record)
    # Re-chaining every digest does not help: the first Soviet link no longer hashes to the anchor.
    for i in range(2, len(changed)):
        changed[i] = {**changed[i], "turn": {**changed[i]["turn"], "prev": digest(changed[i - 1])}}
    write_record(folder, "german", changed)
    line = refused("pbem", "verify", folder.record)
    assert "the soviet link 1 does not hash to the soviet commitment (its anchor): it is forged or corrupted" in line
    assert f"message[{_answered(played) - 1}].turn.reveal.1: message {_answered(played) - 1}, action" in line
    assert "(attack, sent open)" in line


def test_a_link_shown_early_and_a_message_out_of_turn_are_refused(played: dict[str, Any], tmp_path: Path) -> None:
    i = _answered(played)
    folder, good = _replant(played, tmp_path, i)
    data = tomllib.loads(good.read_text())
    side = data["turn"]["side"]
    k = int(next(iter(data["turn"]["reveal"])))
    sender: Folder = played["anna" if side == "german" else "boris"]
    secret = read_secret(sender, data["turn"]["game"])
    later = chain_link(secret.seed, secret.length, k + 1).hex()  # a true link, shown before its time
    early = _edited(good, tmp_path, lambda d: d["turn"]["reveal"].update({str(k + 1): later}))
    assert f"reveals the {side} link {k + 1}, which none of its actions uses" in refused(
        "pbem", "verify", early, "--dir", folder.dir)
    mine = _edited(good, tmp_path, lambda d: d["turn"].update(side="german" if side == "soviet" else "soviet"))
    assert f"turn.side: message {i} must come from the {side} player" in refused("pbem", "verify", mine, "--dir", folder.dir)


def test_pbem_new_switches_on_scenario_options(tmp_path: Path) -> None:
    cli("pbem", "new", MINI, "--me", "soviet", "--name", "v", "--dir", tmp_path, "--option", "pbm_asterisk=true")
    offer = tomllib.loads((tmp_path / "v-000.toml").read_text())
    assert offer["turn"]["options"] == {"pbm_asterisk": True}
    assert "not an option of spi_kiev scenarios" in refused("pbem", "new", MINI, "--me", "soviet", "--name", "w",
                                                            "--dir", tmp_path, "--option", "cheat=true")
    joiner = tmp_path / "j"
    said = cli("pbem", "join", tmp_path / "v-000.toml", "--dir", joiner)
    assert f"game v: {MINI}, with pbm_asterisk = True" in said  # the joiner sees what he accepts
    pos = replay(read_record(joiner / "v.pbem.toml")[1], "x")
    assert pos.game is not None and pos.game.scenario.params["pbm_asterisk"] is True
    assert (tmp_path / "v.secret.toml").stat().st_mode & 0o077 == 0  # the secret is its owner's alone


@pytest.mark.skipif(not sign.available(), reason="ssh-keygen is not installed")
def test_turn_files_signed_with_ssh_keys(tmp_path: Path) -> None:
    keys = {}
    for who in ("anna", "boris"):
        key = tmp_path / who
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", who, "-f", str(key)], check=True)
        keys[who] = key
    allowed = tmp_path / "allowed_signers"
    allowed.write_text("".join(f"{who}@example.org {(tmp_path / f'{who}.pub').read_text().split()[0]} "
                               f"{(tmp_path / f'{who}.pub').read_text().split()[1]}\n" for who in keys))
    a, b = tmp_path / "a", tmp_path / "b"
    cli("pbem", "new", MINI, "--me", "german", "--name", "s", "--dir", a, "--signer", "anna@example.org",
        "--key", keys["anna"])
    offer = a / "s-000.toml"
    assert Path(f"{offer}.sig").exists()
    cli("pbem", "join", offer, "--dir", b, "--signer", "boris@example.org", "--key", keys["boris"],
        "--allowed-signers", allowed)
    cli("pbem", "verify", b / "s-001.toml", "--dir", a, "--allowed-signers", allowed)
    # Anna's key cannot pass for Boris's
    shutil.copy(b / "s-001.toml", tmp_path / "s-001.toml")
    sign.sign(tmp_path / "s-001.toml", keys["anna"])
    assert "the signature is not boris@example.org's" in refused("pbem", "verify", tmp_path / "s-001.toml",
                                                                 "--dir", a, "--allowed-signers", allowed)
    Path(f"{tmp_path / 's-001.toml'}.sig").unlink()
    assert "no signature" in refused("pbem", "verify", tmp_path / "s-001.toml", "--dir", a,
                                     "--allowed-signers", allowed)


def test_an_action_sent_open_that_draws_nothing_gets_no_link(played: dict[str, Any], tmp_path: Path) -> None:
    # Were it answered, the sender would hold both links of a draw still to come and foresee it.
    _, messages = read_record(played["anna"].record)
    i = next(n for n in range(2, len(messages)) if messages[n].get("action")
             and messages[n]["action"][-1]["kind"] == "end_phase" and not messages[n]["turn"].get("reveal"))
    folder, good = _replant(played, tmp_path, i)
    sender: Folder = played["anna" if messages[i]["turn"]["side"] == "german" else "boris"]
    secret = read_secret(sender, messages[0]["turn"]["game"])
    k = 1 + sum(1 for m in messages[:i] for key in m["turn"].get("reveal", {}) if m["turn"]["side"] == secret.side)

    def change(d: dict[str, Any]) -> None:
        d["action"][-1] = {"kind": "end_phase", "side": secret.side, "open": True}
        d["turn"]["reveal"] = {str(k): chain_link(secret.seed, secret.length, k).hex()}

    bogus = _edited(good, tmp_path, change)
    assert refused("pbem", "turn", bogus, "--dir", folder.dir).endswith(
        f"message[{i}]: its open action (end_phase) draws no dice: no link of yours is revealed for it")
    # and an answer made by hand to such an action does not pass the replay either
    sent = read_turn(bogus)
    other = "soviet" if secret.side == "german" else "german"
    answer = {"turn": {"format": 1, "game": sent["turn"]["game"], "number": i + 1, "side": other,
                       "prev": digest(sent)}, "answer": {"hash": "0" * 16}}
    with pytest.raises(DataError) as err:
        replay([*messages[:i], sent, answer], "hand-made")
    assert err.value.key == f"message[{i + 1}].answer"
    assert err.value.reason.endswith("(end_phase): the action was sent open but draws no dice")
