"""Kiev to Rostov's hidden choices (17.21, 14.32): an Axis air mission and a Soviet face-down
order stay out of the other side's view, its seat's messages, its saves and the journal until
they are revealed in the combat chain."""

from __future__ import annotations

import json
from pathlib import Path

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import save_game
from kiev_tui.engine.view import view
from kiev_tui.games.efs_ktr import system
from kiev_tui.games.efs_ktr.actions import AirMission, Attack, Declare, Move, SetOrder
from kiev_tui.net.replica import entry_of

PZ = ("ax-10mot-9pz", "ax-11mot-9pz", "ax-33pz-9pz", "ax-9rec-9pz")


def to_combat_on_1506() -> Game:
    """GT50: the 9th Panzer moves next to the 5+136/9 Cavalry in 1506 (four hexes from the 40th
    Army HQ, so the Soviet may give it an order, 14.34) and attacks it."""
    g = Game.new("efs_ktr/sumy", seed=7)
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    b = system.board(g)
    target = b.parse("1506")
    reach = g.reachable(PZ)
    dest = sorted(h for h, r in reach.items() if r.ok and target in b.gmap.neighbours(h))[0]
    g.apply(Move(PZ, reach[dest].path), side="axis")
    g.apply(Declare("1506", PZ), side="axis")
    g.apply(EndPhase(), side="axis")  # to the Soviet Reaction phase
    g.apply(EndPhase(), side="soviet")  # to the Axis Combat phase
    g.apply(Attack("1506", PZ, ()), side="axis")
    return g


def public_text(game: Game, side: str) -> str:
    v = view(game, side)
    return json.dumps({"units": v.units, "commitments": v.commitments, "secrets": v.secrets,
                       "events": [e.describe() for e in v.events], "pending": str(v.pending)}, sort_keys=True)


def test_17_21_axis_air_mission_hidden_until_revealed(tmp_path: Path) -> None:
    g = to_combat_on_1506()
    p = g.rules.prompt(g)
    assert (p.side, p.kind) == ("axis", "air_mission")
    g.apply(AirMission("ax-he111"), side="axis")
    salt = g.state.secrets["axis"]["air"]["salt"]
    assert g.state.secrets["axis"]["air"]["choice"] == "ax-he111"
    sov = view(g, "soviet")
    assert sov.secrets == {} and "air" in sov.commitments["axis"]
    text = public_text(g, "soviet")
    assert salt not in text and "place ax-he111" not in text and "ax-he111 on" not in text
    # the same position with another mission looks the same to the Soviet, hashes aside
    other = to_combat_on_1506()
    other.apply(AirMission(""), side="axis")
    assert view(other, "soviet").units == sov.units
    assert [e.describe() for e in view(other, "soviet").events] == [e.describe() for e in sov.events]
    # the Soviet seat's message carries the commitment only
    wire = entry_of(g, len(g.log) - 1, "soviet")
    assert "ax-he111" not in json.dumps(wire) and salt not in json.dumps(wire)
    assert "ax-he111" in json.dumps(entry_of(g, len(g.log) - 1, "axis"))
    # saves: the Soviet's file and the shared save hold no secret; the Axis side file does
    save_game(g, tmp_path / "sov.toml", viewer="soviet")
    save_game(g, tmp_path / "hot.toml")
    for f in ("sov.toml", "hot.toml"):
        body = (tmp_path / f).read_text()
        assert salt not in body and 'units = "ax-he111"' not in body
    assert salt in (tmp_path / "hot.axis.secret.toml").read_text()
    # the journal learns it at the reveal (17.31)
    while g.rules.prompt(g).kind != "reveal_air" or g.rules.prompt(g).side != "axis":
        q = g.rules.prompt(g)
        g.apply(q.options[0].action, side=q.side)
    q = g.rules.prompt(g)
    g.apply(q.options[0].action, side="axis")
    assert any("ax-he111" in e.describe() for e in g.journal)
    assert "air" not in g.state.commitments.get("axis", {})


def test_14_32_soviet_order_face_down_until_turned(tmp_path: Path) -> None:
    g = to_combat_on_1506()
    while g.rules.prompt(g).kind != "set_order":
        q = g.rules.prompt(g)
        g.apply(q.options[0].action, side=q.side)
    q = g.rules.prompt(g)
    assert q.side == "soviet" and {o.action for o in q.options} == {SetOrder(""), SetOrder("no_retreat"),
                                                                     SetOrder("additional_retreat")}
    g.apply(SetOrder("no_retreat"), side="soviet")
    salt = g.state.secrets["soviet"]["order"]["salt"]
    ax = public_text(g, "axis")
    assert salt not in ax and "no retreat" not in ax and "no_retreat" not in ax
    assert view(g, "axis").secrets == {}
    wire = json.dumps(entry_of(g, len(g.log) - 1, "axis"))
    assert "no_retreat" not in wire and salt not in wire
    save_game(g, tmp_path / "ax.toml", viewer="axis")
    assert "no_retreat" not in (tmp_path / "ax.toml").read_text()
    # the attacker's order comes next, face up; then the defender's is turned (15.58, 15.59)
    q = g.rules.prompt(g)
    assert (q.side, q.kind) == ("axis", "attacker_order")
    g.apply(q.options[0].action, side="axis")
    q = g.rules.prompt(g)
    assert (q.side, q.kind) == ("soviet", "reveal_order")
    g.apply(q.options[0].action, side="soviet")
    assert any("defender order on 1506: no retreat" in e.describe() for e in g.journal)
    # 22.12c: the 40th Army HQ spent its one command point on it
    assert g.state.vars.hq_orders == {"so-40a-hq": 1}


def test_17_31_a_forged_reveal_is_refused() -> None:
    g = to_combat_on_1506()
    g.apply(AirMission("ax-he111"), side="axis")
    while not (g.rules.prompt(g).kind == "reveal_air" and g.rules.prompt(g).side == "axis"):
        q = g.rules.prompt(g)
        g.apply(q.options[0].action, side=q.side)
    from kiev_tui.games.efs_ktr.actions import RevealAir
    bad = g.check(RevealAir("ax-bf109", g.state.secrets["axis"]["air"]["salt"]), side="axis")
    assert bad is not None and bad.case == "17.31"


def test_17_21_pbem_files_carry_the_mission_sealed(tmp_path: Path) -> None:
    """By e-mail: the Axis turn file that places the He111 over 1506 carries its commitment only;
    the He111 and the salt stay in the Axis player's own hidden file."""
    import tomli_w
    from typer.testing import CliRunner

    from kiev_tui.cli import app
    from kiev_tui.pbem.files import Folder

    runner = CliRunner()

    def cli(*args: object) -> str:
        r = runner.invoke(app, [str(a) for a in args])
        assert r.exit_code == 0, r.stdout + r.stderr
        return r.stdout

    def acts(name: str, *actions: object) -> Path:
        p = tmp_path / name
        p.write_text(tomli_w.dumps({"action": [a.to_toml() for a in actions]}))  # type: ignore[attr-defined]
        return p

    probe = Game.new("efs_ktr/sumy", seed=1)
    while probe.state.phase != "movement":
        probe.apply(EndPhase(), side=probe.actor)
    b = system.board(probe)
    reach = probe.reachable(PZ)
    dest = sorted(h for h, r in reach.items() if r.ok and b.parse("1506") in b.gmap.neighbours(h))[0]
    path = reach[dest].path
    ax, so = Folder(tmp_path / "ax", "s"), Folder(tmp_path / "so", "s")
    cli("pbem", "new", "efs_ktr/sumy", "--me", "axis", "--name", "s", "--dir", ax.dir)
    cli("pbem", "join", ax.turn(0), "--dir", so.dir)
    cli("pbem", "turn", so.turn(1), "--dir", ax.dir, "--actions", acts("a1.toml", EndPhase()))
    cli("pbem", "turn", ax.turn(2), "--dir", so.dir, "--actions", acts("s1.toml", EndPhase()))
    cli("pbem", "turn", so.turn(3), "--dir", ax.dir, "--actions", acts("a2.toml", EndPhase()))
    cli("pbem", "turn", ax.turn(4), "--dir", so.dir, "--actions", acts("s2.toml", EndPhase()))
    cli("pbem", "turn", so.turn(5), "--dir", ax.dir, "--actions", acts(
        "a3.toml", EndPhase(), Move(PZ, path), Declare("1506", PZ), EndPhase()))
    cli("pbem", "turn", ax.turn(6), "--dir", so.dir, "--actions", acts("s3.toml", EndPhase()))
    cli("pbem", "turn", so.turn(7), "--dir", ax.dir, "--actions", acts(
        "a4.toml", Attack("1506", PZ, ()), AirMission("ax-he111")))
    hidden = ax.hidden.read_text()
    salt = hidden.split('salt = "')[1].split('"')[0]
    assert len(salt) == 32 and "ax-he111" in hidden
    sent = ax.turn(8).read_text()
    assert salt not in sent and 'units = "ax-he111"' not in sent and 'kind = "sealed"' in sent
    # the Soviet plays on from it (his own air units, face down) and holds no trace of the He111's
    cli("pbem", "turn", ax.turn(8), "--dir", so.dir, "--actions", acts("s4.toml", AirMission("")))
    assert so.turn(9).exists()  # his own turn file
    for f in sorted(so.dir.iterdir()):
        assert salt not in f.read_text() and 'units = "ax-he111"' not in f.read_text(), f.name


def test_17_21_a_seat_replays_the_other_sides_choices_sealed() -> None:
    """Net play: each seat's replica takes the other side's air missions and orders as their
    commitments only and still reaches the host's position, hash for hash, action by action."""
    import random

    from kiev_tui.games.efs_ktr import bot
    from kiev_tui.net.replica import Replica, game_header

    host = Game.new("efs_ktr/sumy", seed=12)
    rng = random.Random(12)
    hidden_moves = 0
    while len(host.log) < 260 and not host.state.over:
        host.apply(bot.choose(host, rng), side=host.actor)
        hidden_moves += host.log[-1].kind in ("air_mission", "set_order")
    assert hidden_moves >= 2
    for seat in ("axis", "soviet"):
        rep = Replica.build(game_header(host))
        for i in range(len(host.log)):
            rep.apply_entry(entry_of(host, i, seat))  # WireError if the hash differs
        assert rep.game.state.to_dict()["units"] == host.state.to_dict()["units"]
        other = "soviet" if seat == "axis" else "axis"
        assert other not in rep.game.state.secrets
        sealed = [entry_of(host, i, seat)["action"] for i in range(len(host.log)) if host.sides[i] == other
                  and host.log[i].kind in ("air_mission", "set_order")]
        assert sealed and all(a["kind"] == "sealed" for a in sealed)


def test_17_33a_the_initiative_side_pairs_its_firers() -> None:
    """The Bf109 alone fires over 1506 against two Soviet SBs (made Ready by hand): the Axis, with
    the initiative (17.32a: the only firing side; a 3 lets air combat happen), picks its target."""
    from kiev_tui.engine.dice import FixedDice
    from kiev_tui.games.efs_ktr.actions import AirPairs, AirRoles, RevealAir

    g = Game.new("efs_ktr/sumy", dice=FixedDice([3, 1, 9, 9, 9, 9, 9, 9]))
    for uid in ("ax-bf109", "so-sb-2"):
        g.state.units[uid].status = "air_ready"
    while g.state.phase != "movement":
        g.apply(EndPhase(), side=g.actor)
    b = system.board(g)
    reach = g.reachable(PZ)
    dest = sorted(h for h, r in reach.items() if r.ok and b.parse("1506") in b.gmap.neighbours(h))[0]
    g.apply(Move(PZ, reach[dest].path), side="axis")
    g.apply(Declare("1506", PZ), side="axis")
    g.apply(EndPhase(), side="axis")
    g.apply(EndPhase(), side="soviet")
    g.apply(Attack("1506", PZ, ()), side="axis")
    g.apply(AirMission("ax-bf109"), side="axis")
    g.apply(AirMission("so-sb-1,so-sb-2"), side="soviet")
    for side in ("axis", "soviet"):
        sec = g.state.secrets[side]["air"]
        g.apply(RevealAir(sec["choice"], sec["salt"]), side=side)
    g.apply(AirRoles(()), side="axis")  # 17.31b2: the dual-purpose Bf109 fires
    p = g.rules.prompt(g)
    assert (p.kind, p.side, p.case) == ("air_pairs", "axis", "17.33")
    assert {o.action for o in p.options} == {AirPairs(("ax-bf109>so-sb-1",)), AirPairs(("ax-bf109>so-sb-2",))}
    assert g.check(AirPairs(("ax-bf109>ax-he111",)), side="axis") is not None
    g.apply(AirPairs(("ax-bf109>so-sb-2",)), side="axis")
    text = [e.describe() for e in g.journal]
    # ACR 4 less 1: a 1 destroys the SB (17.33d); the other meets the 9th Panzer's AA and aborts (17.4)
    assert "air combat: ax-bf109 at so-sb-2 (1); results: so-sb-2 X (17.33)" in text
    assert "AA fire at so-sb-1: roll 9, A (17.4)" in text
    assert (g.state.units["so-sb-2"].status, g.state.units["so-sb-1"].status) == ("air_destroyed", "air_flown")


def test_14_32_axis_order_face_down_until_turned(tmp_path: Path) -> None:
    """The other way round: the 5+136/9 Cavalry attacks the 16th Motorized in 1507 (GT50 as the
    tutorial plays it); the Axis order on 1507 stays out of the Soviet's view, wire and save."""
    from kiev_tui.engine.dice import FixedDice

    from tests.test_efs_tutorial import ROLLS, gt50_axis_movement_and_combat

    g = Game.new("efs_ktr/sumy", dice=FixedDice([*ROLLS[:5], 4]))
    gt50_axis_movement_and_combat(g)
    g.apply(EndPhase(), side="axis")
    g.apply(Move(("ax-60mot-16m", "ax-156mot-16m"), ("1409", "1408", "1507")), side="axis")
    while g.phase.segment != "soviet":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Declare("1507", ("so-5-136-9c",)), side="soviet")
    g.apply(Declare("1407", ("so-5-136-9c",)), side="soviet")  # 12.7: 1407's zone reaches 1506 too
    while g.phase.name != "combat":
        g.apply(EndPhase(), side=g.actor)
    g.apply(Attack("1507", ("so-5-136-9c",)), side="soviet")
    while g.rules.prompt(g).kind != "set_order":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    g.apply(SetOrder("additional_retreat"), side="axis")
    salt = g.state.secrets["axis"]["order"]["salt"]
    text = public_text(g, "soviet")
    assert salt not in text and "additional" not in text and view(g, "soviet").secrets == {}
    wire = json.dumps(entry_of(g, len(g.log) - 1, "soviet"))
    assert "additional" not in wire and salt not in wire
    save_game(g, tmp_path / "so.toml", viewer="soviet")
    assert "additional_retreat" not in (tmp_path / "so.toml").read_text()
    while g.rules.prompt(g).kind != "reveal_order":
        p = g.rules.prompt(g)
        g.apply(p.options[0].action, side=p.side)
    g.apply(g.rules.prompt(g).options[0].action, side="axis")
    assert "defender order on 1507: additional retreat (15.59)" in [e.describe() for e in g.journal]
