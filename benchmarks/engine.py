"""Engine figures: each is timed next to a rules-free floor measured in the same run."""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import tempfile
import time
import tomllib
from collections import deque
from pathlib import Path
from typing import Any, Callable

from kiev_tui.engine import registry
from kiev_tui.engine.actions import Action, EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.hexes import Hex
from kiev_tui.engine.saves import load_game, save_game

from benchmarks.report import Row, alternate, failed, judge, pair_row

CAMPAIGN = "spi_kiev/campaign"
KIEV = CAMPAIGN.split("/")[0]


def kiev_bot() -> Any:
    """Kiev's random player, found through the games registry as any face finds it."""
    return registry.get_bot(KIEV)


def timed(fn: Callable[[], Any], repeat: int, warmup: int = 1) -> float:
    """Seconds per call, best of ``repeat``: on a shared machine the fastest run is the one
    least disturbed by other work, for the figure and its floor alike."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def changed(game: Game) -> None:
    """Make the engine forget its per-position caches, as after any action (a cold query)."""
    if hasattr(game, "version"):
        game.version += 1


# -- floors -----------------------------------------------------------------------------------

def plain_bfs(gmap: Any, sources: list[Hex]) -> dict[Hex, int]:
    """Breadth-first search over the map's hex graph with no rules at all."""
    dist = {s: 0 for s in sources}
    q = deque(sources)
    while q:
        h = q.popleft()
        d = dist[h] + 1
        for n in gmap.neighbours(h):
            if n not in dist:
                dist[n] = d
                q.append(n)
    return dist


# -- positions --------------------------------------------------------------------------------

def step_game(game: Game, rng: random.Random) -> Action:
    """Play one random legal action the way the bot does (a pending answer, a move, or EndPhase)."""
    bot = kiev_bot()
    actions: list[Action] = []
    if game.state.pending is not None and hasattr(bot, "answer_pending"):
        ans = bot.answer_pending(game, rng)
        if ans is not None:
            actions.append(ans)
    elif game.state.phase in ("movement", "mechanized"):
        actions.extend(bot.movement_actions(game, rng, budget=4))
    for act in actions:
        if game.check(act) is None:
            game.apply(act)
            return act
    end = EndPhase()
    game.apply(end)
    return end


def advance_to(game: Game, player: str, phase: str, rng: random.Random, limit: int = 400) -> None:
    """End phases (doing only what the rules demand first) until ``player``'s ``phase`` begins."""
    bot = kiev_bot()
    for _ in range(limit):
        st = game.state
        if st.player == player and st.phase == phase and st.pending is None:
            return
        if game.check(EndPhase()) is None:
            game.apply(EndPhase())
            continue
        if st.pending is not None:
            step_game(game, rng)
        else:
            _forced(game, rng, bot)
    raise RuntimeError(f"never reached {player} {phase}")


def _forced(game: Game, rng: random.Random, bot: Any) -> None:
    for act in bot.movement_actions(game, rng, budget=4):
        if game.check(act) is None:
            game.apply(act)
            return
    raise RuntimeError(f"stuck at {game.phase}: {game.check(EndPhase())}")


def mechanized_stack(game: Game) -> tuple[str, ...]:
    """The phasing player's mechanized stack that reaches the most hexes (a costly, typical query)."""
    view = game.rules.position(game)
    best: tuple[int, tuple[str, ...]] = (-1, ())
    for h, ids in sorted(view.occupancy.items()):
        mine = tuple(u for u in ids if view.side(u) == game.state.player and view.udef(u).mechanized)
        if not mine:
            continue
        n = sum(1 for r in game.reachable(mine).values() if r.ok)
        if n > best[0]:
            best = (n, mine)
    if not best[1]:
        raise RuntimeError("no mechanized stack for the phasing player")
    return best[1]


# -- figures ----------------------------------------------------------------------------------

def bench_reachable(quick: bool) -> list[Row]:
    rng = random.Random(5)
    game = Game.new(CAMPAIGN, seed=1941)
    advance_to(game, "german", "movement", rng)
    stack = mechanized_stack(game)
    start = Hex.parse(game.state.units[stack[0]].hex)  # type: ignore[arg-type]
    repeat = 5 if quick else 15

    def cold() -> None:
        changed(game)
        game.reachable(stack)

    t = timed(cold, repeat)
    warm = timed(lambda: game.reachable(stack), repeat)
    floor = timed(lambda: plain_bfs(game.scenario.map, [start]), repeat * 4)
    ok_hexes = sum(1 for r in game.reachable(stack).values() if r.ok)
    row = Row("reachable(), mechanized stack, campaign map", t * 1e3, "ms", floor * 1e3,
              "plain BFS, whole map", "<= 3x", note=f"{'+'.join(stack)} at {start}: {ok_hexes} hexes")
    row.ok = row.ratio is not None and row.ratio <= 3
    def bare() -> None:
        changed(game)
        game.rules.reachable(game, stack, explain=False)

    t_bare = timed(bare, repeat)
    lean = Row("  same, legal hexes only (explain=False)", t_bare * 1e3, "ms", floor * 1e3, "plain BFS, whole map",
               "<= 3x", note="no reason built for every unreachable hex")
    lean.ok = lean.ratio is not None and lean.ratio <= 3
    again = Row("  same, position already viewed", warm * 1e3, "ms", floor * 1e3, "plain BFS, whole map", "<= 3x",
                note="zones and occupancy cached by the view")
    again.ok = again.ratio is not None and again.ratio <= 3
    return [row, lean, again]


def bench_supply(quick: bool) -> list[Row]:
    from kiev_tui.games.spi_kiev.supply import supply_sources

    rng = random.Random(6)
    game = Game.new(CAMPAIGN, seed=1941)
    advance_to(game, "soviet", "movement", rng)
    if game.state.turn == 1:  # turn 1 skips the HQ rule (19.85); measure a normal turn
        advance_to(game, "german", "movement", rng)
        advance_to(game, "soviet", "movement", rng)
    rows = []
    repeat = 3 if quick else 7
    for side in ("german", "soviet"):
        view = game.rules.position(game)
        sources = supply_sources(view, side)
        units = len(game.rules.supply(game).all_status(side))

        def cold() -> None:
            changed(game)
            game.rules.supply(game).all_status(side)

        t = timed(cold, repeat)
        floor = timed(lambda: plain_bfs(game.scenario.map, sources), repeat * 4)
        row = Row(f"supply+command, all {side} units (turn {game.state.turn})", t * 1e3, "ms", floor * 1e3,
                  "one multi-source BFS", "<= 3x", note=f"{units} units, {len(sources)} sources")
        row.ok = row.ratio is not None and row.ratio <= 3
        rows.append(row)
    return rows


def _combat_position(rng: random.Random) -> tuple[Game, tuple[str, ...], tuple[str, ...]] | None:
    """A campaign position in a combat phase with a legal attack (attackers, target hex)."""
    game = Game.new(CAMPAIGN, seed=1941)
    attack = game.rules.actions.get("attack")
    assert attack is not None
    for _ in range(6):
        advance_to(game, "german", "combat", rng)
        view = game.rules.position(game)
        for h, ids in sorted(view.occupancy.items()):
            if view.side(ids[0]) != "soviet":
                continue
            attackers = tuple(u for n in view.map.neighbours(h) for u in view.at(n)
                              if view.side(u) == "german" and not view.is_hq_like(u))
            if attackers and game.check(attack(attackers, (str(h),))) is None:  # type: ignore[call-arg]
                return game, attackers, (str(h),)
        game.apply(EndPhase())
    return None


def bench_combat(quick: bool) -> list[Row]:
    from kiev_tui.games.spi_kiev import combat  # the CRT of the floor: these figures are Kiev's

    rng = random.Random(7)
    found = _combat_position(rng)
    if found is None:
        return [Row("combat resolution", None, "us", note="n/a (no legal attack found)"),
                Row("odds preview", None, "us", note="n/a (no legal attack found)")]
    game, attackers, targets = found
    repeat = 10 if quick else 40
    die = random.Random(1)
    table = combat.crt(game)
    columns = list(table.columns)

    def lookup() -> str:  # the floor: one die roll and one table cell
        return table.result(columns[die.randrange(len(columns))], die.randint(1, 6))

    floor = timed(lookup, repeat * 50)

    def cold_preview() -> None:
        changed(game)
        game.rules.preview(game, attackers, targets)

    t_prev = timed(cold_preview, repeat)
    snap = (game.state.copy(), game.rng.getstate(), game.rolls, len(game.journal), len(game.log),
            list(game._undo))
    attack = game.rules.actions.get("attack")
    assert attack is not None
    act = attack(attackers, targets)  # type: ignore[call-arg]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        game.apply(act)
        times.append(time.perf_counter() - t)
        state, rng_state, rolls, jlen, llen, undo = snap
        game.state = state.copy()
        game.rng.setstate(rng_state)
        game.rolls = rolls
        del game.journal[jlen:], game.log[llen:], game.hashes[llen:]
        game._undo = list(undo)
        changed(game)
    t_res = min(times)
    p = game.rules.preview(game, attackers, targets)
    note = f"{len(attackers)} attacker(s) on {targets[0]}, column {p.column if p is not None else '?'}"
    return [Row("combat resolution (apply Attack)", t_res * 1e6, "us", floor * 1e6, "die roll + CRT cell",
                note=note),
            Row("odds preview (rules.preview)", t_prev * 1e6, "us", floor * 1e6, "die roll + CRT cell",
                note=note)]


def bench_campaign(quick: bool, games: int = 1) -> tuple[list[Row], Path | None]:
    """Whole random legal campaigns, headless; keeps the last one's final save for the save figures."""
    bot = kiev_bot()
    seconds: list[float] = []
    actions = 0
    final_save: Path | None = None
    count = 1 if quick else games
    for k in range(count):
        holder: dict[str, Game] = {}

        def keep(game: Game, _act: Action) -> None:
            holder["game"] = game

        t = time.perf_counter()
        result = bot.play_game(CAMPAIGN, seed=1 + k, on_action=keep)
        seconds.append(time.perf_counter() - t)
        actions += result.actions
        if "game" in holder:
            final_save = Path(tempfile.mkdtemp(prefix="kiev-bench-")) / "late.toml"
            save_game(holder["game"], final_save)
    total = sum(seconds)
    per_game = total / count
    game = Game.new(CAMPAIGN, seed=1941)
    floor = timed(lambda: plain_bfs(game.scenario.map, [Hex(1, 1)]), 20)
    per_action = total / max(actions, 1)
    combat_note = "with combat" if bot.EXTRA_GENERATORS else "movement only"
    return [
        Row(f"random legal campaign ({combat_note})", per_game, "s/game", note=f"{count} game(s), {actions} actions"),
        Row("  time per action", per_action * 1e3, "ms", floor * 1e3, "plain BFS, whole map",
            note=f"{actions / total:.1f} actions/s"),
    ], final_save


def bench_save_load(save_path: Path | None, quick: bool) -> list[Row]:
    if save_path is None or not save_path.exists():
        return [Row("save / load of a late-game save", None, "ms", note="n/a (no campaign game was played)")]
    game = load_game(save_path)
    size = save_path.stat().st_size
    text = save_path.read_text()
    repeat = 3 if quick else 7
    out = save_path.with_name("again.toml")
    t_save = timed(lambda: save_game(game, out), repeat)

    def raw_write() -> None:  # the floor: the same bytes, written and fsynced
        with open(out.with_suffix(".raw"), "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())

    f_save = timed(raw_write, repeat)
    t_load = timed(lambda: load_game(save_path), max(1, repeat // 2), warmup=0)
    f_load = timed(lambda: tomllib.loads(save_path.read_text()), repeat)
    shutil.rmtree(save_path.parent, ignore_errors=True)
    return [
        Row("save a late-game save", t_save * 1e3, "ms", f_save * 1e3, "write+fsync same bytes",
            note=f"{size} bytes, {len(game.log)} actions, turn {game.state.turn}"),
        Row("load it (replay + verify)", t_load * 1e3, "ms", f_load * 1e3, "TOML parse only"),
        Row("  save file size", float(size), "bytes", float(len(json.dumps(game.state.to_dict()))),
            "JSON of final state"),
    ]


def bench_rules_search(quick: bool) -> list[Row]:
    """Searching the rules reference of all three books, as the rules screen does per key press."""
    from kiev_tui.rulesref.model import load_reference
    from kiev_tui.rulesref.search import search

    books = [load_reference(g) for g in ("spi_kiev", "barbarossa1941", "efs_ktr")]
    for b in books:
        search("warm", [b], limit=1)  # build each book's index once, as the app does at start
    texts = [(c.title + " " + c.text).lower() for b in books for c in b]
    repeat = 5 if quick else 20
    rows: list[Row] = []
    for query, prefix in (("major river", False), ("zone of control", False), ("sup", True)):
        t = timed(lambda: search(query, books, limit=50, prefix=prefix), repeat)
        floor = timed(lambda: [x for x in texts if query in x], repeat)
        rows.append(Row(f"rules search '{query}'{' (as typed)' if prefix else ''}, 3 books", t * 1e3, "ms",
                        floor * 1e3, "substring scan of every case", "< 100 ms", t < 0.1,
                        f"{sum(len(b) for b in books)} cases"))
    return rows


# The bot's campaign with this seed ends after 581 actions: of the seeds 1-70 the nearest to the
# 573-action save of issue 19 (8: 583, 15: 563).  The row names how many the save really has.
LOAD_SEED = 52


def bot_save(seed: int, folder: Path) -> Path:
    """The final save of the random bot's whole campaign with `seed` (deterministic)."""
    holder: dict[str, Game] = {}

    def keep(game: Game, _act: Action) -> None:
        holder["game"] = game

    kiev_bot().play_game(CAMPAIGN, seed=seed, on_action=keep)
    return save_game(holder["game"], folder / f"bot-{seed}.toml")


def load_from_snapshot(path: Path) -> Game:
    """The floor of a load: the position rebuilt from the save's final state, with no replay.

    The file is parsed, the scenario set up and the final state read from its dict; the
    state's hash is checked against the saved one, as a load checks it.
    """
    from kiev_tui.engine.state import GameState

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    meta, final = data["save"], data["final"]
    game = Game.new(meta["scenario"], seed=meta.get("seed"))
    game.state = GameState.from_dict(final["state"], game.rules.vars_from_dict)
    if game.state.hash(extra=game.state_hash_extra(final["rolls"])) != final["hash"]:
        raise RuntimeError("the snapshot does not match its hash")
    return game


def bench_load_long(quick: bool, pairs: int = 5) -> list[Row]:
    """Load a late save of about 573 actions (replay and verify) next to a load from its final snapshot."""
    name, goal = "load a ~573-action save (replay + verify)", "<= 0.15 s"
    folder = Path(tempfile.mkdtemp(prefix="kiev-bench-"))
    try:
        path = bot_save(LOAD_SEED, folder)
        game = load_game(path)  # untimed: the first load also fills the per-process caches
        actions = len(game.log)

        def load() -> float:
            t = time.perf_counter()
            load_game(path)
            return time.perf_counter() - t

        def snap() -> float:
            t = time.perf_counter()
            load_from_snapshot(path)
            return time.perf_counter() - t

        runs = alternate(load, snap, max(3, pairs // 2) if quick else pairs)
        row = pair_row(name.replace("~573", str(actions)), "s", runs, "load from the final snapshot", goal,
                       f"bot seed {LOAD_SEED}, turn {game.state.turn}, {path.stat().st_size:,} bytes; in-process")
        return [judge(row, 0.15)]
    except Exception as exc:
        return [failed(name, "s", exc, goal)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
