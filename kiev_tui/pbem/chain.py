"""Hash chains and the dice two players make from them (docs/PBEM.md).

Each player keeps a secret and publishes only the anchor c_0 = H^n(secret).  Link k is
c_k = H^(n-k)(secret); anyone can check a revealed link by H(c_k) == c_(k-1), and nobody can
find c_k from the links before it.  The k-th action that draws randomness uses link k of
both chains: its j-th value comes from H(domain, game, k, j, both links), so neither player
can predict or steer it before both links are out.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from kiev_tui.engine.dice import DiceError, DiceNeeded

CHAIN_DOMAIN = b"kiev-tui/pbem/chain/v1|"
DICE_DOMAIN = b"kiev-tui/pbem/dice/v1|"
DEFAULT_LENGTH = 4096  # actions that draw randomness; a Kiev campaign uses a few hundred
MAX_LENGTH = 1 << 20


def link_hash(link: bytes) -> bytes:
    return hashlib.sha256(CHAIN_DOMAIN + link).digest()


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def chain_link(secret: bytes, length: int, k: int) -> bytes:
    """Link k of the chain of ``length`` links grown from ``secret`` (link 0 is the anchor)."""
    if not 0 <= k <= length:
        raise DiceError(f"the chain has {length} links; link {k} does not exist (the game outlived its chain)")
    link = secret
    for _ in range(length - k):
        link = link_hash(link)
    return link


def anchor(secret: bytes, length: int) -> bytes:
    return chain_link(secret, length, 0)


def uniform(seed: bytes, n: int) -> int:
    """A value in 0..n-1 from ``seed``, without bias: 64-bit draws past the last whole multiple of n
    are thrown away and drawn again from the next counter."""
    limit = (1 << 64) - (1 << 64) % n
    attempt = 0
    while True:
        digest = hashlib.sha256(seed + attempt.to_bytes(4, "big")).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % n
        attempt += 1


class ChainDice:
    """The dice of a game by e-mail: one link of each player's chain per action that draws.

    Links come from the turn files (`reveal`, checked against the link before when used) and,
    for the player at the keyboard, from his own secret (`own`), handed out only when an action
    really draws; those are listed in `supplied`, to go into his next turn file.
    """

    kind = "chain"

    def __init__(self, game_id: str, anchors: dict[str, bytes]) -> None:
        self.game_id = game_id
        self.sides = sorted(anchors)
        self.links: dict[str, dict[int, bytes]] = {s: {0: anchors[s]} for s in self.sides}
        self.unchecked: dict[str, dict[int, bytes]] = {s: {} for s in self.sides}
        self.own: tuple[str, bytes, int] | None = None  # (side, secret, chain length)
        self.supplied: dict[int, bytes] = {}
        # While a player plays his part on a screen no value is made at all: the first action that
        # draws stops with DiceNeeded and goes into his turn file open (pbem/part.py).
        self.withhold = False
        self.k = 1  # the index the next action that draws will use
        self.j = 0  # values drawn so far by the action being applied

    def reveal(self, side: str, k: int, link: bytes) -> None:
        """A link read from a turn file; it is checked when an action uses it."""
        self.unchecked[side][k] = link

    def _checked(self, side: str, k: int, link: bytes) -> bytes:
        below = max(i for i in self.links[side] if i < k)
        x = link
        for _ in range(k - below):
            x = link_hash(x)
        if x != self.links[side][below]:
            what = "commitment (its anchor)" if below == 0 else f"link {below}"
            raise DiceError(f"the {side} link {k} does not hash to the {side} {what}: it is forged or corrupted")
        self.links[side][k] = link
        return link

    def link(self, side: str, k: int) -> bytes:
        if k in self.links[side]:
            return self.links[side][k]
        if self.own is not None and self.own[0] == side:
            _, secret, length = self.own
            link = self._checked(side, k, chain_link(secret, length, k))
            self.supplied[k] = link
            return link
        if k in self.unchecked[side]:
            return self._checked(side, k, self.unchecked[side].pop(k))
        raise DiceNeeded(k, side)

    def _value(self, n: int) -> int:
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise ValueError(f"cannot draw among {n!r} values")
        if self.withhold:
            other = next((s for s in self.sides if self.own is None or s != self.own[0]), self.sides[0])
            raise DiceNeeded(self.k, other)
        # Own link first: an action that waits for the other player has already committed ours.
        order = sorted(self.sides, key=lambda s: self.own is None or s != self.own[0])
        got = {s: self.link(s, self.k) for s in order}
        seed = DICE_DOMAIN + f"{self.game_id}|{self.k}|{self.j}|".encode() + b"".join(got[s] for s in self.sides)
        self.j += 1
        return uniform(seed, n)

    def roll(self, sides: int, purpose: str) -> int:
        return self._value(sides) + 1

    def pick(self, n: int, purpose: str) -> int:
        return self._value(n)

    def record(self) -> dict[str, Any]:
        return {"dice": self.kind}

    def mark(self) -> Any:
        return (self.k, self.j)

    def rewind(self, token: Any) -> None:
        self.k, self.j = token

    def begin_action(self) -> None:
        self.j = 0

    def end_action(self) -> None:
        if self.j:
            self.k += 1
        self.j = 0
