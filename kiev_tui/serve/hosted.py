"""Networked games at the server: one `kiev-tui host` per game, each login a `kiev-tui join` seat.

Every game has a folder `<state>/games/<id>/` holding `table.toml` (the scenario and who holds
which side, by key fingerprint), the host's autosave `save.toml`, its socket `host.sock` (a
relative path: the host and its seats run in that folder, so a long state path never meets the
108-byte limit of a socket's name) and its log `host.log`.  The host is a child of the server,
not of any login: a login that drops leaves the game running, and the player who logs in
again takes his side back.  A host that is not running (the server restarted, the host
died) is started again from its autosave the next time someone sits down at that game.

Each host runs in a process group of its own and holds a lifeline (`host --lifeline FD`): a
pipe whose other end only this server holds, so a server killed with SIGKILL takes its hosts
with it (each saves and stops), and the ledger (ledger.py) lets the next server end any that
lingers.  The limits (limits.Limits) are checked here: games per player and in all, hosts
running at once, and the idle stop of a host no login sits at.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w

from kiev_tui.engine.errors import DataError
from kiev_tui.engine.tomlio import Reader, atomic_write_text, load_toml
from kiev_tui.serve.console import Console
from kiev_tui.serve.keys import Player
from kiev_tui.serve.ledger import Ledger
from kiev_tui.serve.lobby import QUIT_KEYS, Choice, Offer, Row, banner, pick
from kiev_tui.serve.limits import Limits
from kiev_tui.serve.rooms import Rooms, kiev_argv

log = logging.getLogger("kiev_tui.serve")

SOCKET = "host.sock"
SAVE = "save.toml"
TABLE = "table.toml"
HOST_LOG = "host.log"
SPECTATOR = "spectator"  # join's --side for a seat that watches (docs/NETPLAY.md)
START_TIMEOUT = 30.0  # seconds a host has to say it is listening
STOP_GRACE = 10.0
RESTARTS_PER_MINUTE = 3
LOBBY_REFRESH = 1.0  # seconds between an idle lobby's looks at the list of games
ENDED = "ended"  # <state>/ended/<id>/: a game its player ended, kept for its save


@dataclass
class Seat:
    fingerprint: str
    name: str


@dataclass
class Table:
    """One hosted game as the server keeps it: scenario, sides, who sits where, its host."""

    gid: str
    folder: Path
    ref: str
    title: str
    sides: tuple[str, ...]
    created: str
    seats: dict[str, Seat] = field(default_factory=dict)
    host: asyncio.subprocess.Process | None = None
    restarts: list[float] = field(default_factory=list)  # when the server restarted a dead host
    _progress: tuple[tuple[int, int], str] = ((0, 0), "")  # the save's (mtime, size) and its line
    starting: asyncio.Lock = field(default_factory=asyncio.Lock)
    seated: int = 0  # logins at this game now (players and spectators)
    idle_since: float = 0.0  # time.monotonic() when the last login left (or the host started)
    halting: bool = False  # the server stops this host on purpose: it is not restarted

    def running(self) -> bool:
        return self.host is not None and self.host.returncode is None

    def side_of(self, player: Player) -> str | None:
        return next((s for s, seat in self.seats.items() if seat.fingerprint == player.fingerprint), None)

    def free_sides(self) -> list[str]:
        return [s for s in self.sides if s not in self.seats]

    def row(self, before: str = "") -> Row:
        """The game in a lobby list: `before` and its title (shortened first in a narrow window),
        then who holds each side ("open" for a free one) and where it stands."""
        held = [f"{s}: {self.seats[s].name}" if s in self.seats else f"{s}: open" for s in self.sides]
        seats = [f"{text}," for text in held[:-1]] + held[-1:]  # joined: "[german: alice, soviet: open]"
        seats[0] = f"[{seats[0]}"
        seats[-1] = f"{seats[-1]}]"
        return Row(f"{before}{self.title}", (*seats, self.progress() or f"since {self.created}"))

    def progress(self) -> str:
        """Where the game stands by its autosave's header ("turn 3, german combat"), or ""."""
        try:
            st = (self.folder / SAVE).stat()
        except OSError:
            return ""
        stamp = (st.st_mtime_ns, st.st_size)
        if self._progress[0] != stamp:
            text = ""
            try:
                head = Reader(self.folder / SAVE, load_toml(self.folder / SAVE)).table("save")
                turn, player, phase = head.data.get("turn"), head.data.get("player"), head.data.get("phase")
                if isinstance(turn, int) and isinstance(player, str) and isinstance(phase, str):
                    text = f"turn {turn}, {player} {phase}"[:60]
            except DataError:
                pass  # a save being replaced, or broken: the host says so in its log
            self._progress = (stamp, text)
        return self._progress[1]

    def write(self) -> None:
        data = {"table": {"id": self.gid, "scenario": self.ref, "title": self.title, "sides": list(self.sides),
                          "created": self.created},
                "seats": {s: {"key": seat.fingerprint, "name": seat.name} for s, seat in self.seats.items()}}
        atomic_write_text(self.folder / TABLE, tomli_w.dumps(data))

    @classmethod
    def read(cls, folder: Path) -> "Table":
        path = folder / TABLE
        root = Reader(path, load_toml(path))
        root.only(["table", "seats"])
        meta = root.table("table")
        meta.only(["id", "scenario", "title", "sides", "created"])
        sides = meta.data.get("sides")
        if not isinstance(sides, list) or not all(isinstance(s, str) for s in sides) or len(sides) != 2:
            raise meta.fail("sides", "expected the game's two sides")
        table = cls(meta.str("id"), folder, meta.str("scenario"), meta.str("title"), tuple(sides),
                    meta.str("created"))
        seats = root.table("seats", required=False)
        for side in seats.data:
            if side not in table.sides:
                raise seats.fail(side, f"not a side of this game ({', '.join(table.sides)})")
            one = seats.table(side)
            one.only(["key", "name"])
            table.seats[side] = Seat(one.str("key"), one.str("name"))
        return table


class HostedRooms(Rooms):
    """The lobby of networked games: new, resume, join an open side, watch."""

    def __init__(self, root: Path, scenarios: list[Offer], limits: Limits = Limits(),
                 ledger: Ledger | None = None) -> None:
        super().__init__(root, scenarios)
        self.limits = limits
        self.ledger = ledger
        self._reaper: asyncio.Future[None] | None = None
        self.games_dir = root / "games"
        self.games_dir.mkdir(parents=True, exist_ok=True)
        self.tables: dict[str, Table] = {}
        self.stopping = False
        self.version = 0  # counts changes to the tables: an idle lobby redraws when it moves
        for folder in sorted(self.games_dir.iterdir()):
            if (folder / TABLE).exists():
                try:
                    table = Table.read(folder)
                except DataError as exc:  # one broken game folder costs that game, not the server
                    log.warning("game skipped: %s", exc.line())
                    continue
                self.tables[table.gid] = table

    def saves_for(self, player: Player) -> Path:
        folder = self.root / "copies" / player.name  # `S` in a seat writes a copy here
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    # -- the lobby ---------------------------------------------------------------------------
    async def lobby(self, console: Console, player: Player, title: str) -> Choice | None:
        while True:
            banner(console, player, title)
            mine = [t for t in self.tables.values() if t.side_of(player)]
            open_ = [t for t in self.tables.values() if t.free_sides() and not t.side_of(player)]
            console.write("\n  n  new game: pick a scenario and a side, a friend takes the other\n")
            if mine:
                console.write(f"  r  resume one of your games ({len(mine)})\n")
                console.write("  e  end one of your games\n")
            if open_:
                console.write(f"  j  join an open game ({len(open_)})\n")
            if self.tables:
                console.write(f"  w  watch a game ({len(self.tables)})\n")
            console.write("  q  log out\n")
            seen = self.version
            key = ""
            while not key and self.version == seen:
                key = await console.key(timeout=LOBBY_REFRESH)  # a friend's new game shows up here
            if key in QUIT_KEYS:
                return None
            choice: Choice | None = None
            if key == "n":
                choice = await self._new(console, player)
            elif key == "r" and mine:
                at = await pick(console, "Resume which game?", [t.row(f"as {t.side_of(player)}: ") for t in mine])
                if at is not None:
                    choice = await self._seat(console, mine[at], str(mine[at].side_of(player)))
            elif key == "e" and mine:
                at = await pick(console, "End which game? (its save is kept on the server)",
                                [t.row(f"as {t.side_of(player)}: ") for t in mine])
                if at is not None:
                    await self._end(console, player, mine[at])
            elif key == "j" and open_:
                at = await pick(console, "Join which game?", [t.row() for t in open_])
                if at is not None:
                    choice = await self._take(console, player, open_[at])
            elif key == "w" and self.tables:
                every = list(self.tables.values())
                at = await pick(console, "Watch which game?", [t.row() for t in every])
                if at is not None:
                    choice = await self._seat(console, every[at], SPECTATOR)
            if choice is not None:
                return choice

    async def _refuse(self, console: Console, player: Player, why: str) -> None:
        """A limit says no: the player reads why, the log gets a line."""
        log.warning("refused: %s: %s", player.name, why)
        console.write(f"\n{why} (any key)\n")
        await console.key()

    async def _full(self, console: Console, player: Player) -> bool:
        """Whether a limit stops this player from taking a side in one more game (he is told so)."""
        held = sum(1 for t in self.tables.values() if t.side_of(player))
        if held >= self.limits.games_per_player:
            await self._refuse(console, player, f"You hold a side in as many games as this server allows a "
                               f"player ({self.limits.games_per_player}): end one with e first.")
            return True
        return False

    async def _new(self, console: Console, player: Player) -> Choice | None:
        if len(self.tables) >= self.limits.max_games:
            await self._refuse(console, player, f"This server keeps as many games as it may ({self.limits.max_games}): "
                               "one must end before another starts.")
            return None
        if await self._full(console, player):
            return None
        offer = await self.pick_scenario(console)
        if offer is None:
            return None
        at = await pick(console, f"Which side will you play?\n({offer.title})", list(offer.sides))
        if at is None:
            return None
        gid = secrets.token_hex(4)
        folder = self.games_dir / gid
        folder.mkdir()
        table = Table(gid, folder, offer.ref, offer.title, offer.sides,
                      time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
        table.seats[offer.sides[at]] = Seat(player.fingerprint, player.name)
        table.write()
        self.tables[gid] = table
        self.version += 1
        log.info("%s starts game %s (%s) as %s", player.name, gid, offer.ref, offer.sides[at])
        return await self._seat(console, table, offer.sides[at])

    async def _take(self, console: Console, player: Player, table: Table) -> Choice | None:
        free = table.free_sides()
        if not free:
            return None
        side = free[0]
        if len(free) > 1:
            at = await pick(console, "Which side?", free)
            if at is None:
                return None
            side = free[at]
        if side not in table.free_sides():  # taken while this player was choosing
            return None
        if await self._full(console, player):
            return None
        table.seats[side] = Seat(player.fingerprint, player.name)
        table.write()
        self.version += 1
        log.info("%s takes %s in game %s", player.name, side, table.gid)
        return await self._seat(console, table, side)

    async def _seat(self, console: Console, table: Table, side: str) -> Choice | None:
        if table.gid not in self.tables:  # ended while this login was choosing
            return None
        console.write("\nStarting the game's host...\n" if not table.running() else "")
        if not table.running() and not await self._room_for_a_host():
            log.warning("refused: game %s: %d hosts run, each with a login at it (--max-running %d)",
                        table.gid, self.running(), self.limits.max_running)
            console.write(f"\nAll {self.limits.max_running} games this server runs at once have players "
                          "at them now; try again later. (any key)\n")
            await console.key()
            return None
        if not await self.ensure_host(table):
            console.write(f"\nThe game's host did not start (see {table.folder / HOST_LOG}). (any key)\n")
            await console.key()
            return None
        return Choice(kiev_argv("join", f"unix:{SOCKET}", "--side", side), f"join {table.gid} as {side}",
                      cwd=str(table.folder), game=table.gid)

    async def _end(self, console: Console, player: Player, table: Table) -> None:
        """The player ends a game he holds a side in: its host stops, it leaves the lobby, and its
        folder moves to <state>/ended/ (the save is kept)."""
        console.write(f"\nEnd {table.title} for both sides? It leaves the lobby for good. (y/n)\n")
        if await console.key() not in ("y", "Y"):
            return
        if table.seated or table.gid not in self.tables:
            console.write("\nSomeone is at that game now; it was not ended. (any key)\n")
            await console.key()
            return
        del self.tables[table.gid]
        self.version += 1
        await self.halt(table)
        ended = self.root / ENDED
        ended.mkdir(exist_ok=True)
        try:
            table.folder.rename(ended / table.gid)
        except OSError as exc:
            log.warning("game %s ended but its folder stays (%s)", table.gid, exc.strerror or exc)
        log.info("%s ends game %s (%s)", player.name, table.gid, table.ref)

    # -- who sits where; idle hosts --------------------------------------------------------------
    def running(self) -> int:
        return sum(1 for t in self.tables.values() if t.running())

    def sat_down(self, choice: Choice) -> None:
        table = self.tables.get(choice.game)
        if table is not None:
            table.seated += 1

    def stood_up(self, choice: Choice) -> None:
        table = self.tables.get(choice.game)
        if table is not None:
            table.seated -= 1
            if not table.seated:
                table.idle_since = time.monotonic()

    async def _room_for_a_host(self) -> bool:
        """Whether one more host may start: under --max-running, or once the host idle longest
        with nobody at it has been stopped (saved; it comes back when someone sits down)."""
        if self.running() < self.limits.max_running:
            return True
        idle = [t for t in self.tables.values() if t.running() and not t.seated]
        if not idle:
            return False
        oldest = min(idle, key=lambda t: t.idle_since)
        log.info("game %s: its host stops to make room for another (saved; resumable)", oldest.gid)
        await self.halt(oldest)
        return self.running() < self.limits.max_running

    async def halt(self, table: Table) -> None:
        """Stop the game's host on purpose (its save is current: it saves every action); no restart."""
        async with table.starting:
            if table.host is not None and table.host.returncode is None:
                table.halting = True
                await _stop(table.host)

    async def _reap(self) -> None:
        """Now and then: stop every host no login has sat at for --idle-minutes."""
        limit = self.limits.idle_minutes * 60
        while not self.stopping:
            await asyncio.sleep(max(0.2, min(30.0, limit / 4)))
            now = time.monotonic()
            for table in list(self.tables.values()):
                if table.running() and not table.seated and now - table.idle_since >= limit:
                    log.info("game %s: nobody at it for %g minutes; its host stops (saved; resumable)",
                             table.gid, self.limits.idle_minutes)
                    await self.halt(table)

    # -- the hosts -----------------------------------------------------------------------------
    async def ensure_host(self, table: Table) -> bool:
        """The game's host is running (started, or restarted from its autosave); False if it
        would not start."""
        async with table.starting:
            table.idle_since = time.monotonic()  # a login is about to sit down
            if table.host is not None and table.host.returncode is None:
                return True
            if self._reaper is None and self.limits.idle_minutes > 0:
                self._reaper = asyncio.ensure_future(self._reap())
            save = table.folder / SAVE
            args = (SAVE,) if save.exists() else (table.ref, "--save", SAVE)
            logfile = open(table.folder / HOST_LOG, "ab")
            # the lifeline: the host holds the read end; the write end stays here alone (not
            # inheritable), so the host sees end of file when this server dies, however it dies
            life_r, life_w = os.pipe()
            try:
                proc = await asyncio.create_subprocess_exec(
                    *kiev_argv("host", *args, "--listen", f"unix:{SOCKET}", "--lifeline", str(life_r)),
                    cwd=str(table.folder), stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                    stderr=logfile, start_new_session=True, pass_fds=(life_r,))
            except BaseException:
                os.close(life_w)
                raise
            finally:
                logfile.close()
                os.close(life_r)
            if self.ledger is not None:
                self.ledger.add("host", proc.pid, table.gid, str(table.folder / SOCKET))
            assert proc.stdout is not None
            ready = False
            deadline = time.monotonic() + START_TIMEOUT
            with open(table.folder / HOST_LOG, "ab") as out:
                while time.monotonic() < deadline:
                    try:
                        line = await asyncio.wait_for(proc.stdout.readline(), deadline - time.monotonic())
                    except asyncio.TimeoutError:
                        break
                    if not line:
                        break
                    out.write(line)
                    if line.startswith(b"listening on "):
                        ready = True
                        break
            if not ready:
                await _stop(proc)
                os.close(life_w)
                if self.ledger is not None:
                    self.ledger.remove(proc.pid)
                return False
            table.host = proc
            table.halting = False
            asyncio.ensure_future(self._drain(table, proc, life_w))
            log.info("host of game %s: pid %d", table.gid, proc.pid)
            return True

    async def _drain(self, table: Table, proc: asyncio.subprocess.Process, lifeline: int) -> None:
        """Keep the host's stdout flowing into its log until it ends."""
        assert proc.stdout is not None
        try:
            with open(table.folder / HOST_LOG, "ab") as out:
                while line := await proc.stdout.readline():
                    out.write(line)
                    out.flush()
            code = await proc.wait()
        finally:
            os.close(lifeline)
            if self.ledger is not None:
                self.ledger.remove(proc.pid)
        if table.host is proc:
            table.host = None
        if self.stopping or table.halting:
            log.info("host of game %s stopped (status %s)", table.gid, code)
            return
        # A host that died: its seats keep dialling for a minute, so bring it back from its
        # autosave now, but not in a loop if it dies at once each time.
        now = time.monotonic()
        table.restarts = [t for t in table.restarts if now - t < 60] + [now]
        log.warning("host of game %s ended (status %s)", table.gid, code)
        if len(table.restarts) <= RESTARTS_PER_MINUTE:
            await asyncio.sleep(0.5)
            if not self.stopping:
                await self.ensure_host(table)

    def after(self, player: Player, choice: Choice, code: int) -> None:
        if code:
            log.info("%s: %s ended with status %d", player.name, choice.label, code)

    async def close(self) -> None:
        """Logins' seats first, then every host (each has saved its game after every action)."""
        self.stopping = True
        if self._reaper is not None:
            self._reaper.cancel()
        await super().close()
        await asyncio.gather(*(_stop(t.host) for t in self.tables.values() if t.host is not None),
                             return_exceptions=True)


async def _stop(proc: asyncio.subprocess.Process) -> None:
    """SIGTERM (the host closes its seats and stops), SIGKILL if it will not."""
    if proc.returncode is None:
        try:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), STOP_GRACE)
        except ProcessLookupError:
            pass
        except asyncio.TimeoutError:
            proc.kill()
            await proc.wait()
