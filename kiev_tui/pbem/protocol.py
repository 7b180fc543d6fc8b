"""Turn files and their replay: who sends what, and how each side checks the other's work.

A game by e-mail is a list of messages, each one plain TOML:

- message 0 (`pbem new`): the scenario, its options, the game's id, the first player's
  anchor (the last link of his hash chain);
- message 1 (`pbem join`): the second player's anchor, and his first actions if he moves first;
- every later message: the sender's actions, ending when the move passes to the other side or
  at an action that must draw dice (marked ``open``: it waits for the other player's link),
  the links the sender reveals, and the ``answer``: the outcome of the other player's open
  action, which the sender could work out only with his own link.

Each message names the one before it by a digest, and each applied action carries the random
values it drew, its state hash and its journal lines; replay recomputes them all, so a forged
roll, an edited line or an old message sent again is refused, naming the message and action.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from kiev_tui import __version__
from kiev_tui.engine.actions import Action, action_from_toml, action_key
from kiev_tui.engine.dice import DiceError, DiceNeeded
from kiev_tui.engine.errors import DataError, IllegalAction, shorten
from kiev_tui.engine.game import Game, with_options
from kiev_tui.engine.scenario import load_scenario
from kiev_tui.engine.tomlio import Reader
from kiev_tui.engine.registry import get_data, get_system
from kiev_tui.engine.view import Sealed, is_hidden, seal
from kiev_tui.pbem.chain import DEFAULT_LENGTH, MAX_LENGTH, ChainDice, anchor, new_secret

FORMAT = 1
HEX64 = re.compile(r"[0-9a-f]{64}")
HEADER_KEYS = ("format", "game", "number", "side", "prev", "program", "reveal",
               # message 0 and 1 only:
               "name", "scenario", "rules", "rules_version", "options", "anchor", "signer")
ENTRY_KEYS = ("side", "dice", "hash", "journal", "open")


class StillYourMove(DataError):
    """The actions given end while the sender still has the move: nothing can be sent yet."""


def digest(message: dict[str, Any]) -> str:
    """A message's fingerprint, independent of how its TOML is laid out."""
    text = json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class Secret:
    """One player's own chain: never sent to anybody."""

    game: str
    side: str
    seed: bytes
    length: int
    #: views and secrets: this player's hidden choices, commitment -> the full action; kept in
    #: NAME.hidden.toml beside the chain (files.read_hidden), never in a turn file
    hidden: dict[str, dict[str, Any]] = field(default_factory=dict)

    def to_toml(self) -> dict[str, Any]:
        return {"secret": {"game": self.game, "side": self.side, "seed": self.seed.hex(), "links": self.length}}

    @classmethod
    def from_toml(cls, path: Path, data: dict[str, Any]) -> "Secret":
        r = Reader(path, data).table("secret")
        r.only(["game", "side", "seed", "links"])
        seed = r.str("seed")
        if not HEX64.fullmatch(seed):
            raise r.fail("seed", "expected 64 hexadecimal digits")
        length = r.int("links")
        if not 1 <= length <= MAX_LENGTH:
            raise r.fail("links", f"a chain has 1 to {MAX_LENGTH} links")
        return cls(r.str("game"), r.str("side"), bytes.fromhex(seed), length)

    @classmethod
    def new(cls, game: str, side: str, length: int = DEFAULT_LENGTH) -> "Secret":
        return cls(game, side, new_secret(), length)

    @property
    def anchor(self) -> str:
        return anchor(self.seed, self.length).hex()


@dataclass
class Position:
    """Where a replay of messages stands."""

    messages: list[dict[str, Any]]
    sides: tuple[str, ...]  # (first player's side, second's)
    game: Game | None = None  # None until both anchors are known
    dice: ChainDice | None = None
    open: tuple[Action, str] | None = None  # the last message's action waiting for a link
    actions: int = 0  # actions applied so far, over all messages
    journal_at: list[int] = field(default_factory=list)  # journal lines after each message
    signers: dict[str, str] = field(default_factory=dict)

    @property
    def next_number(self) -> int:
        return len(self.messages)

    def waiting_for(self) -> str:
        """The side that must send the next message ("" once the game is over)."""
        if len(self.messages) == 1:
            return self.sides[1]
        return _next_sender(self, self.messages[-1]["turn"]["side"])


def _fail(file: str, key: str, reason: str) -> DataError:
    return DataError(file, key, reason)


def _reader(file: str, msg: Any, i: int) -> Reader:
    if not isinstance(msg, dict):
        raise _fail(file, f"message[{i}]", "expected a table")
    root = Reader(file, msg, f"message[{i}]")
    root.only(["turn", "answer", "action"])
    return root


def _check_entry(game: Game, entry: Reader, what: str, jstart: int) -> None:
    """The recorded dice, hash and journal lines of one action against its replay."""
    dice = entry.ints("dice", [])
    if dice != game.rolled[-1]:
        raise entry.fail("dice", f"{what}: the turn file records the dice as {dice}, "
                                 f"the two players' links give {game.rolled[-1]} (a forged roll?)")
    lines = entry.strs("journal", [])
    got = [e.record() for e in game.journal[jstart:]]  # the words both players' versions record
    for n in range(max(len(lines), len(got))):
        said = lines[n] if n < len(lines) else "(nothing)"
        made = got[n] if n < len(got) else "(nothing)"
        if said != made:
            raise entry.fail(f"journal line {n + 1}", f"{what}: the turn file says '{shorten(said)}', "
                                               f"the replay says '{shorten(made)}'")
    if entry.str("hash") != game.hashes[-1]:
        raise entry.fail("hash", f"{what}: the position differs from the one the turn file records")


def _apply(game: Game, act: Action, side: str, entry: Reader, what: str) -> None:
    try:
        game.apply(act, side=side)
    except IllegalAction as exc:
        raise entry.fail("", f"{what} is refused: {exc.illegal}") from None
    except DiceNeeded as exc:
        raise entry.fail("", f"{what} draws dice with the {exc.side} link {exc.index}, which no message has "
                             "revealed: it must be sent open, to wait for that link") from None
    except DiceError as exc:
        raise entry.fail("", f"{what}: {exc}") from None
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError) as exc:
        raise entry.fail("", f"{what} failed: {type(exc).__name__} {shorten(str(exc))}") from None


def _entry(game: Game, act: Action, side: str, jstart: int) -> dict[str, Any]:
    out = act.to_toml()
    out["side"] = side
    if game.rolled[-1]:
        out["dice"] = list(game.rolled[-1])
    out["hash"] = game.hashes[-1]
    out["journal"] = [e.record() for e in game.journal[jstart:]]
    return out


def start(file: str, m0: dict[str, Any]) -> tuple[Reader, list[str], str]:
    """Check message 0; return its header, the scenario's two sides and the creator's side."""
    root = _reader(file, m0, 0)
    head = root.table("turn")
    head.only(HEADER_KEYS)
    if head.int("format") != FORMAT:
        raise head.fail("format", f"turn file format {head.int('format')} is not one this program reads ({FORMAT})")
    if head.int("number") != 0:
        raise head.fail("number", "the first message of a game is number 0")
    if root.tables("action") or "answer" in root.data:
        raise head.fail("", "message 0 carries no actions: the second player's commitment is not known yet")
    scenario = load_scenario(head.str("scenario"))
    sides = list(get_data(scenario.game).schema.sides)
    if len(sides) != 2:
        raise head.fail("scenario", "play by e-mail is for games of two sides")
    side = head.str("side")
    if side not in sides:
        raise head.fail("side", f"expected one of {', '.join(sides)}")
    if not HEX64.fullmatch(head.str("anchor")):
        raise head.fail("anchor", "expected 64 hexadecimal digits")
    return head, sides, side


def replay(messages: list[dict[str, Any]], file: str, partial_last: bool = False,
           hidden: dict[str, dict[str, Any]] | None = None) -> Position:
    """Check and replay every message; the first difference is a DataError naming message and action.

    ``partial_last``: the last message is one being written (no answer, no actions yet, its
    end not checked).
    """
    if not messages:
        raise _fail(file, "message", "no messages")
    head0, sides, first = start(file, messages[0])
    game_id = head0.str("game")
    pos = Position(messages, (first, next(s for s in sides if s != first)), journal_at=[0])
    if "signer" in head0.data:
        pos.signers[first] = head0.str("signer")
    anchors = {first: head0.str("anchor")}
    options = head0.table("options", required=False).data
    for i in range(1, len(messages)):
        root = _reader(file, messages[i], i)
        head = root.table("turn")
        head.only(HEADER_KEYS)
        last = partial_last and i == len(messages) - 1
        if head.int("format") != FORMAT:
            raise head.fail("format", f"turn file format {head.int('format')} is not one this program reads")
        if head.str("game") != game_id:
            raise head.fail("game", f"this turn file is of game {shorten(head.str('game'))}, not of {game_id}")
        if head.int("number") != i:
            raise head.fail("number", f"message {head.int('number')} stands where message {i} belongs")
        if head.str("prev") != digest(messages[i - 1]):
            raise head.fail("prev", f"message {i} does not follow message {i - 1} as this game has it "
                                    "(an earlier message was changed, or this one belongs to another copy)")
        sender = head.str("side")
        expected = pos.sides[1] if i == 1 else _next_sender(pos, messages[i - 1]["turn"]["side"])
        if not expected:
            raise head.fail("number", f"the game ended with message {i - 1}: nothing may follow it")
        if sender != expected:
            raise head.fail("side", f"message {i} must come from the {expected} player, not the {shorten(sender)}")
        if i == 1:
            anchors[sender] = head.str("anchor")
            if "signer" in head.data:
                pos.signers[sender] = head.str("signer")
            for s, a in anchors.items():
                if not HEX64.fullmatch(a):
                    raise _fail(file, f"message[{0 if s == first else 1}].turn.anchor", "expected 64 hexadecimal digits")
            scenario = with_options(load_scenario(head0.str("scenario")), options, "message[0].turn.options")
            dice = ChainDice(game_id, {s: bytes.fromhex(a) for s, a in anchors.items()})
            try:
                game = Game(scenario, dice=dice, options=options)
            except DiceNeeded:
                raise head0.fail("scenario", "its set-up draws dice: it cannot be played by e-mail yet") from None
            if head0.str("rules") != game.rules.id or head0.str("rules_version") != game.rules.version:
                raise head0.fail("rules_version", f"the game was begun under rules {head0.str('rules')} "
                                                  f"{head0.str('rules_version')}; this program plays "
                                                  f"{game.rules.id} {game.rules.version}")
            game.game_id = game_id
            game.replaying = True
            pos.game, pos.dice = game, dice
        elif "anchor" in head.data:
            raise head.fail("anchor", "only messages 0 and 1 carry a commitment")
        game, dice = pos.game, pos.dice
        assert game is not None and dice is not None
        reveal = head.table("reveal", required=False)
        for key in reveal.keys():
            link = reveal.str(key)
            if not (key.isdigit() and len(key) <= 9) or not HEX64.fullmatch(link):
                raise reveal.fail(key, "a link is 64 hexadecimal digits under its number")
            dice.reveal(sender, int(key), bytes.fromhex(link))
        used: dict[int, str] = {}  # link index -> the action that draws with it
        if pos.open is not None and not last:
            act, side = pos.open
            answer = root.table("answer")
            answer.only(["dice", "hash", "journal"])
            pos.actions += 1
            what = f"message {i}: the answer to the last action of message {i - 1} ({act.kind})"
            used[dice.k] = what
            jstart = len(game.journal)
            _apply(game, act, side, answer, what)
            if not game.rolled[-1]:
                raise answer.fail("", f"{what}: the action was sent open but draws no dice")
            _check_entry(game, answer, what, jstart)
            pos.open = None
        elif "answer" in root.data:
            raise root.fail("answer", f"message {i} answers no open action")
        # each action keyed by its number in the message, from 1, as the messages below count it
        entries = [Reader(file, e.data, f"{root.path}.{action_key(a)}") for a, e in enumerate(root.tables("action"))]
        for a, entry in enumerate(entries):
            data = {k: v for k, v in entry.data.items() if k not in ENTRY_KEYS}  # the registry checks the rest
            if data.get("kind") == "sealed":  # a hidden choice: its owner's hidden file unseals it
                act = _unseal(data, hidden or {}, entry, game)
            else:
                act = action_from_toml(data, entry.path, file, registry=game.rules.actions)
            if entry.str("side") != sender:
                raise entry.fail("side", f"message {i} is the {sender} player's; it cannot play for the "
                                         f"{shorten(entry.str('side'))}")
            if entry.bool("open", False):
                if a != len(entries) - 1:
                    raise entry.fail("open", "only the last action of a message may wait for a link")
                used[dice.k] = f"message {i}, action {a + 1} ({act.kind}, sent open)"
                pos.open = (act, sender)
                break
            pos.actions += 1
            what = f"message {i}, action {a + 1} ({act.kind})"
            jstart = len(game.journal)
            _apply(game, act, sender, entry, what)
            _check_entry(game, entry, what, jstart)
        pos.journal_at.append(len(game.journal))
        if last:
            continue
        extra = sorted(set(int(k) for k in reveal.keys()) - set(used))  # keys checked above: short numbers
        if extra:
            raise reveal.fail(str(extra[0]), f"message {i} reveals the {sender} link {extra[0]}, which none of its "
                                             "actions uses (a link shown early lets the other player foresee a roll)")
        missing = sorted(k for k in used if k not in dice.links[sender] and k not in dice.unchecked[sender])
        if missing:
            raise head.fail("reveal", f"message {i} does not reveal the {sender} link {missing[0]} that its "
                                      "actions need")
        for k in sorted(used):  # checked now, so a bad link is refused before anyone answers it
            try:
                dice.link(sender, k)
            except DiceError as exc:
                raise reveal.fail(str(k), f"{used[k]}: {exc}") from None
        joined_only = i == 1 and not entries  # accepting; a second player who moves first sends 002 too
        if pos.open is None and not game.state.over and game.actor == sender and not joined_only:
            raise head.fail("", f"message {i} ends while the {sender} player still has the move ({game.phase})")
    if pos.game is not None:
        pos.game.replaying = False
    return pos


def _unseal(data: dict[str, Any], hidden: dict[str, dict[str, Any]], entry: Reader, game: Game) -> Action:
    """A sealed entry as the sender's own copy plays it (the full action), else sealed."""
    sealed = Sealed(str(data.get("key", "")), str(data.get("digest", "")))
    full = hidden.get(sealed.digest)
    if full is None:
        return sealed
    act = action_from_toml(dict(full), entry.path, entry.file, registry=game.rules.actions)
    if seal(act) != sealed:
        raise entry.fail("", "the hidden file's choice does not match the commitment in the record")
    return act


def _next_sender(pos: Position, previous: str) -> str:
    """Who sends the next message: the other player when an action waits for his link, else whoever
    has the move (only the second player's acceptance, message 1, can leave the move with him)."""
    if pos.open is not None:
        return next(s for s in pos.sides if s != previous)
    assert pos.game is not None
    if pos.game.state.over:
        return ""
    return pos.game.actor


def header(pos: Position, side: str) -> dict[str, Any]:
    turn = {"format": FORMAT, "game": pos.messages[0]["turn"]["game"], "number": pos.next_number,
            "side": side, "prev": digest(pos.messages[-1]), "program": f"kiev-tui {__version__}"}
    return {"turn": turn}


def offer(scenario_ref: str, side: str, name: str, options: dict[str, Any], secret: Secret,
          signer: str = "") -> dict[str, Any]:
    """Message 0: the game and the first player's commitment."""
    scenario = with_options(load_scenario(scenario_ref), options)
    data = get_data(scenario.game)
    sides = data.schema.sides
    if side not in sides:
        raise DataError(scenario_ref, "--me", f"{shorten(side)} is not a side of {scenario.game} ({', '.join(sides)})")
    system = get_system(scenario.game)
    turn: dict[str, Any] = {"format": FORMAT, "game": secret.game, "number": 0, "side": side, "prev": "",
                            "program": f"kiev-tui {__version__}", "name": name, "scenario": scenario.id,
                            "rules": system.id, "rules_version": system.version, "anchor": secret.anchor}
    if options:
        turn["options"] = dict(options)
    if signer:
        turn["signer"] = signer
    return {"turn": turn}


def _begin(messages: list[dict[str, Any]], file: str, secret: Secret,
           extra: dict[str, Any] | None) -> tuple[dict[str, Any], Position, int]:
    """The head of the next message from ``secret.side`` and the position it starts from: the record
    replayed and the other player's open action answered with this player's link (its outcome is
    put in the message).  Also returns where the journal stood before the answer."""
    me = secret.side
    msg = header(Position(messages, ()), me)
    msg["turn"].update(extra or {})
    pos = replay([*messages, msg], file, partial_last=True, hidden=secret.hidden)
    game, dice = pos.game, pos.dice
    if game is None or dice is None:
        raise DataError(file, "message", "the game has not begun: the second player must join first")
    dice.own = (me, secret.seed, secret.length)
    dice.supplied = {}
    told_from = len(game.journal)
    if pos.open is not None:
        act, side = pos.open
        jstart = len(game.journal)
        before = dice.k
        where = f"message[{len(messages) - 1}]"
        try:
            game.apply(act, side=side)
        except IllegalAction as exc:
            raise DataError(file, where, f"its open action ({act.kind}) is refused: {exc.illegal}") from None
        except (DiceNeeded, DiceError) as exc:
            raise DataError(file, where, f"its open action ({act.kind}) cannot draw: {exc}") from None
        if dice.k == before:
            raise DataError(file, where, f"its open action ({act.kind}) draws no dice: "
                                         "no link of yours is revealed for it")
        msg["answer"] = {k: v for k, v in _entry(game, act, side, jstart).items() if k in ("dice", "hash", "journal")}
        pos.open = None
    return msg, pos, told_from


def prepare(messages: list[dict[str, Any]], file: str, secret: Secret) -> tuple[Position, list[str]]:
    """The position ``secret.side`` plays his part from, on a screen, and what led to it (journal lines).

    The other player's open action is answered first, as `compose` will answer it.  From then on
    the dice make no value: the first action that draws raises DiceNeeded, so it can only go into
    the turn file open; the die is made when the other player's link arrives (commit-reveal).
    """
    _, pos, told_from = _begin(messages, file, secret, None)
    assert pos.game is not None and pos.dice is not None
    pos.dice.withhold = True
    return pos, [e.describe() for e in pos.game.journal[told_from:]]


def compose(messages: list[dict[str, Any]], file: str, secret: Secret, actions: Iterable[Action],
            extra: dict[str, Any] | None = None) -> tuple[dict[str, Any], Position, list[str]]:
    """The next message from ``secret.side``: answer the other's open action, play ``actions``.

    Returns the message, the position after it (checked by a full replay) and what happened,
    as journal lines.  Refuses (DataError) an illegal action, actions past one that must wait
    for the other's link, and a message that would leave the move with its sender.
    """
    me = secret.side
    msg, pos, told_from = _begin(messages, file, secret, extra)
    game, dice = pos.game, pos.dice
    assert game is not None and dice is not None
    entries: list[dict[str, Any]] = []
    todo = list(actions)
    for n, act in enumerate(todo):
        what = f"this {act.kind} action"  # the key says which: action N, counted from 1
        illegal = game.check(act, me)
        if illegal is not None:
            raise DataError(file, action_key(n), f"{what} is refused: {illegal}")
        jstart = len(game.journal)
        try:
            game.apply(act, side=me)
        except DiceNeeded:
            if n != len(todo) - 1:
                raise DataError(file, action_key(n), f"{what} draws dice, so your turn file ends with it "
                                                          "(it waits for the other player's link); send the "
                                                          f"{len(todo) - n - 1} action(s) after it next time") from None
            entry = act.to_toml()
            entry["side"] = me
            entry["open"] = True
            entries.append(entry)
            break
        played = game.log[-1]  # salted by the engine if it is a hidden choice
        entry = _entry(game, seal(played), me, jstart)  # the other player gets the commitment only
        if is_hidden(played):
            secret.hidden[entry["digest"]] = played.to_toml()
        entries.append(entry)
    if entries:
        msg["action"] = entries
    if dice.supplied:
        msg["turn"]["reveal"] = {str(k): v.hex() for k, v in sorted(dice.supplied.items())}
    told = [e.describe() for e in game.journal[told_from:]]
    joined_only = len(messages) == 1 and not entries
    if not joined_only and (not entries or not entries[-1].get("open")):
        if not game.state.over and game.actor == me:
            raise StillYourMove(file, "action", f"the move is still yours ({game.phase}): give the rest of your "
                                                "actions, up to the end of your part or to an action that draws dice")
    final = replay([*messages, msg], file, hidden=secret.hidden)  # the message must pass the check the other player will make
    return msg, final, told
