"""Plays Kiev to Rostov's Battle of Sumy by typed commands (no Textual here; tests/ui/efs_drive.py
drives the Textual UI with the same helpers).  Each plays one whole game-turn: a move in each movement phase,
an attack declared in the declaring phase (12.3) and made in combat (15.2) when the rules allow
one, an interdiction in the air phase, every prompt answered from its options (hidden choices
included), every hand-over taken, every phase ended.

With the face, declares and attacks come from the face's list (``C`` / ``act``); without it from
the generic list (``choose`` in plain mode, ``C`` in Textual: ui/text.py ``choices``), picked by
the words each line starts with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kiev_tui.engine.game import Game

MOVING = ("movement", "motorized", "reaction", "reinforcements")
DECLARING = {"axis": "movement", "soviet": "motorized"}  # 12.3: the phase each side declares in


@dataclass
class Played:
    """What a driven game-turn did, for the test to check."""

    phases: list[tuple[int, str, str]] = field(default_factory=list)
    moved: list[tuple[str, str, str]] = field(default_factory=list)  # (unit, from, to)
    declared: list[str] = field(default_factory=list)
    attacks: int = 0
    interdicted: int = 0
    prompts: list[str] = field(default_factory=list)  # kind:case of each prompt answered
    handoffs: int = 0
    handed_to: list[str] = field(default_factory=list)


def legal_of(game: Game, kind: str) -> list[Any]:
    return [a for a in game.rules.legal(game, game.actor) if a.kind == kind]


def move_target(game: Game, units: tuple[str, ...]) -> str | None:
    """A hex the rules let the stack reach (the cheapest, then the lowest id), or None."""
    grid = game.scenario.map.grid
    here = game.state.units[units[0]].hex
    ok = [(r.cost, grid.id(h)) for h, r in game.rules.reachable(game, units, explain=False).items()
          if r.ok and grid.id(h) != here]
    return min(ok)[1] if ok else None


def _wants(game: Game, acted: set[tuple[int, str, str, str]], what: str) -> bool:
    st = game.state
    key = (st.turn, st.player, st.phase, what)
    if key in acted:
        return False
    acted.add(key)
    return True


def plain_game_turn(session: Any, limit: int = 800, face: bool = True) -> tuple[Played, list[str]]:
    """The same game-turn in plain mode by typed commands; returns what it did and every line shown.
    With ``face`` False the declares and attacks are picked from the generic ``choose`` list."""
    game: Game = session.game
    played = Played()
    shown: list[str] = []
    start = game.state.turn
    acted: set[tuple[int, str, str, str]] = set()

    def say(line: str) -> list[str]:
        out = session.handle(line)
        shown.extend(out)
        if session.handing_over:
            played.handoffs += 1
            shown.extend(session.release())
        return out

    def typed(kind: str) -> str:
        if face:
            return f"{ {'to_cadre': 'cadre'}.get(kind, kind)} 1"
        listed = say("choose")  # the generic list: "  N. declare hex=1506 units=..."
        n = next(line.split(".")[0].strip() for line in listed[1:] if line.split(". ", 1)[1].startswith(f"{kind} "))
        return f"choose {n}"

    for _ in range(limit):
        st = game.state
        if st.turn != start or st.over:
            return played, shown
        p = game.rules.prompt(game)
        if p is not None:
            played.prompts.append(f"{p.kind}:{p.case}")
            listed = say("options")
            assert any(line.lstrip().startswith("1.") for line in listed), listed
            say("pick 1")
            continue
        if st.phase == "air_interdiction" and legal_of(game, "interdict") and _wants(game, acted, "i"):
            before = len(game.log)
            say(typed("interdict"))
            assert len(game.log) == before + 1, shown[-4:]
            played.interdicted += 1
            continue
        if st.phase in MOVING and st.player == game.actor and _wants(game, acted, "m"):
            played.phases.append((st.turn, st.player, st.phase))
            for uid in game.rules.actable(game):
                if game.state.units[uid].status != "map":
                    continue
                to = move_target(game, (uid,))
                if to is None:
                    continue
                frm = str(game.state.units[uid].hex)
                n = session.face.stack_order(game, [u for u, s in game.state.units.items()
                                                    if s.status == "map" and s.hex == frm]).index(uid) + 1
                if face:
                    say(f"move {frm}:{n} {to}")  # the face takes the end hex alone
                else:  # the generic face passes the typed hexes as the path, which starts at the stack (10.4)
                    grid = game.scenario.map.grid
                    reach = game.rules.reachable(game, (uid,))[grid.parse(to)]
                    say(f"move {frm}:{n} {' '.join(reach.path)}")
                assert game.state.units[uid].hex == to, shown[-5:]
                played.moved.append((uid, frm, to))
                break
            continue
        if st.phase == DECLARING.get(st.player) and legal_of(game, "declare") and _wants(game, acted, "d"):
            before = len(game.log)
            say(typed("declare"))
            assert len(game.log) == before + 1, shown[-4:]
            played.declared.append(game.log[-1].hex)  # type: ignore[attr-defined]
            continue
        if st.phase == "combat" and legal_of(game, "attack"):
            before = len(game.log)
            say(typed("attack"))
            assert len(game.log) == before + 1, shown[-4:]
            played.attacks += 1
            continue
        before = (st.turn, st.player, st.phase, len(game.log))
        say("end")
        assert (game.state.turn, game.state.player, game.state.phase, len(game.log)) != before, shown[-4:]
    raise AssertionError(f"the game-turn did not end in {limit} commands: {game.phase}")
