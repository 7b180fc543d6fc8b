"""Kiev to Rostov's face says the game's own words: names with nationality, type, size and
division; attack-defence-movement, steps of two-, three- and four-step units, stacking points and
MP spent; boxes and markers; game-turns 50-53 and this system's segments in the tracker; glyphs
for woods over other terrain, roads and rivers; help naming the cases; the C list of declares,
attacks and the rest; and never another side's face-down air units or order."""

from __future__ import annotations

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.registry import get_adapter, get_plain
from kiev_tui.games.efs_ktr.actions import AirMission, Declare, Move, SetOrder
from kiev_tui.games.efs_ktr.face import text
from kiev_tui.games.efs_ktr.face.adapter import EfsAdapter
from kiev_tui.games.efs_ktr.face.glyphs import EFS_SYMBOLS
from kiev_tui.games.efs_ktr.face.plain import EfsPlain
from kiev_tui.games.efs_ktr.state import efs_vars

SCENARIO = "efs_ktr/sumy"


def sumy(seed: int = 7) -> Game:
    return Game.new(SCENARIO, seed=seed)


def to_phase(game: Game, phase: str, player: str) -> None:
    while (game.state.phase, game.state.player) != (phase, player):
        game.apply(EndPhase(), side=game.actor)


def test_registry_finds_the_face() -> None:
    assert isinstance(get_adapter("efs_ktr"), EfsAdapter) and isinstance(get_plain("efs_ktr"), EfsPlain)


def test_unit_names_say_nationality_type_size_and_division() -> None:
    g = sumy()
    assert text.unit_name(g, "ax-33pz-9pz") == "33rd Panzer Regiment"
    assert text.unit_kind(g, "ax-33pz-9pz") == "German armour regiment (III), 9 Pz division"
    assert text.unit_kind(g, "so-227rd") == "Soviet rifle division (XX)"
    assert text.unit_kind(g, "so-2-4gdr") == "Soviet artillery battalion (II), 1 GdM division"
    assert text.type_letter("armor", "axis") == "A" and text.type_letter("anti_aircraft", "soviet") == "k"


def test_16_22_steps_of_reduced_three_step_and_four_step_units() -> None:
    g = sumy()
    # PB 10.4: the 33rd Panzer Regiment sets up two steps down, on its reduced face
    assert text.unit_line(g, "ax-33pz-9pz") == "33rd Panzer Regiment 2-2-7 steps 1/3 SP 2"
    assert text.unit_line(g, "so-295rd") == "295th Rifle Division 5-8-4 steps 4/4 SP 4"
    g.state.units["so-295rd"].step = 1  # 16.23: a Step Loss marker takes two from attack and defence
    assert text.unit_line(g, "so-295rd") == "295th Rifle Division 3-6-4 steps 3/4 SP 4"
    assert text.unit_line(g, "so-40a-hq") == "40th Army HQ 0-1-6 steps 1/1 SP 0 command 1 range 4"
    assert text.unit_line(g, "ax-619art") == "619th Artillery Regiment 0-1-4 steps 1/1 SP 1 support 2"


def test_boxes_and_statuses() -> None:
    g = sumy()
    assert text.unit_line(g, "ax-he111") == ("He 111 bomber group bomber ACR 2 CAS 1 interdiction 2, "
                                            "in the Ready Box")
    assert text.unit_line(g, "so-mig3").endswith(", not yet arrived")
    g.state.units["so-227rd"].status, g.state.units["so-227rd"].hex = "cadre", None
    assert text.unit_line(g, "so-227rd").endswith(", in the Cadre Box")
    g.state.units["so-1tb"].status, g.state.units["so-1tb"].hex = "eliminated", None
    assert text.unit_line(g, "so-1tb").endswith(", in the Eliminated Box")
    assert text.box_lines(g) == ["Axis boxes: 2 ready", "Soviet boxes: 2 ready, 1 cadre, 1 eliminated"]


def test_mp_spent_and_markers_show_on_the_unit() -> None:
    g = sumy()
    to_phase(g, "movement", "axis")
    reach = g.rules.reachable(g, ("ax-9rec-9pz",))
    to = min((r.cost, h) for h, r in reach.items() if r.ok and r.cost >= 2)[1]
    g.apply(Move(("ax-9rec-9pz",), reach[to].path), side="axis")
    spent = efs_vars(g.state).spent["ax-9rec-9pz"]
    assert text.unit_line(g, "ax-9rec-9pz") == f"9th Reconnaissance Battalion 2-2-9 steps 2/2 SP 1 MP spent {spent}"
    g.apply(Declare("1506", ("ax-20mot-10m",)), side="axis")
    assert text.unit_line(g, "ax-20mot-10m").endswith("[declared attacker]")
    assert "Markers: Declared Attack (12.35)" in text.hex_lines(g, g.scenario.map.grid.parse("1506"))


def test_stack_lines_total_stacking_points() -> None:
    g = sumy()
    lines = text.inspector_lines(g, g.scenario.map.grid.parse("1208"))
    assert lines[0] == "Hex 1208, clear"
    assert lines[1] == "Axis stack of 4, 7 stacking points (keys 1-4 pick):"
    assert lines[2] == "1 10th Motorized Infantry Regiment 3-3-7 steps 2/2 SP 2"
    assert lines[3] == "    German motorized infantry regiment (III), 9 Pz division"


def test_tracker_shows_game_turns_50_to_53_and_the_segments() -> None:
    g = sumy()
    lines = text.tracker_lines(g)
    assert lines[0] == "Game-turn 50 (GT50-GT53), Dry"
    assert lines[1] == "Axis stars 0/5; steps lost: Axis 0/6, Soviet 0"
    assert "Axis: movement > reaction (Soviet) > combat > motorized > engineering" in lines
    assert "Soviet: motorized > reaction (Axis) > combat > movement > engineering > surrender" in lines
    assert "then: game-turn record interphase" in lines
    assert lines[4].startswith("Strategic segment: [REINFORCEMENTS]")
    g.state.turn = 4
    assert text.turn_head(g) == "Game-turn 53 (GT50-GT53), Dry"


def test_glyphs_cover_every_terrain_and_feature_of_the_map() -> None:
    g = sumy()
    gmap = g.scenario.map
    terrains = {gmap.terrain(h) for h in gmap.hexes()} - {"clear"}
    assert terrains <= set(EFS_SYMBOLS.fills)
    assert EFS_SYMBOLS.fills["hill_woods"].ascii != EFS_SYMBOLS.fills["woods"].ascii  # woods on hill differ
    features = set().union(*(f for f in gmap.features.values()))
    assert features <= set(EFS_SYMBOLS.sides)
    assert EFS_SYMBOLS.mark(frozenset({"minor_river", "main_road"})).label.startswith("river")


def test_phase_help_names_the_cases() -> None:
    g = sumy()
    to_phase(g, "combat", "axis")
    assert text.phase_help(g).startswith("Combat (15.0)") and "15.58" in text.phase_help(g)
    assert text.rules_cases(g)[0] == "15.0"
    to_phase(g, "motorized", "soviet")
    assert "10.24c" in text.phase_help(g) and "12.3" in text.phase_help(g)


def test_choices_list_declares_and_only_for_the_actor() -> None:
    g = sumy()
    to_phase(g, "movement", "axis")
    listed = text.choices(g, "axis")
    declares = [a for _, a in listed if a.kind == "declare"]
    assert declares and all(lbl.endswith("(12.35)") for lbl, a in listed if a.kind == "declare")
    assert [a for a in g.rules.legal(g, "axis") if a.kind == "declare"] == declares
    assert text.choices(g, "soviet") == []  # the Soviet does not act in the Axis movement phase


def _to_air_mission(seed: int) -> Game:
    g = sumy(seed)
    to_phase(g, "air_interdiction", "axis")
    g.apply(next(a for a in g.rules.legal(g, "axis") if a.kind == "interdict"), side="axis")
    assert g.state.pending is not None and g.state.pending["kind"] == "air_mission"
    return g


def _soviet_sees(g: Game) -> list[str]:
    gmap = g.scenario.map
    lines = text.tracker_lines(g) + [str(text.choices(g, "soviet"))]
    for h in gmap.hexes():
        lines += text.inspector_lines(g, h)
    lines += [text.unit_line(g, u) for u in g.state.units]
    return lines


def test_17_21_the_axis_air_units_face_down_are_not_shown() -> None:
    a, b = _to_air_mission(7), _to_air_mission(7)
    opts = [o.action for o in a.rules.prompt(a).options]
    assert len(opts) >= 2
    a.apply(AirMission(opts[0].units), side="axis")  # type: ignore[attr-defined]
    b.apply(AirMission(opts[-1].units), side="axis")  # type: ignore[attr-defined]
    assert a.state.secrets != b.state.secrets  # different hidden choices
    assert _soviet_sees(a) == _soviet_sees(b)


def test_14_31_the_face_down_order_is_not_shown_before_its_reveal() -> None:
    games = []
    for order in ("", "no_retreat"):
        g = sumy(7)
        to_phase(g, "movement", "axis")
        g.apply(Declare("1506", ("ax-20mot-10m",)), side="axis")
        to_phase(g, "combat", "axis")
        g.apply(next(x for x in g.rules.legal(g, "axis") if x.kind == "attack"), side="axis")
        while g.state.pending is not None and g.state.pending["kind"] != "set_order":
            p = g.rules.prompt(g)
            g.apply(p.options[0].action, side=p.side)
        g.apply(SetOrder(order), side="soviet")
        games.append(g)
    assert games[0].state.pending == games[1].state.pending  # the attacker's order comes next
    axis_view = [text.tracker_lines(g) + [line for h in g.scenario.map.hexes() for line in text.inspector_lines(g, h)]
                 for g in games]
    assert axis_view[0] == axis_view[1]


def test_3_32_the_cadre_box_send_is_listed_and_played_by_plain_cadre() -> None:
    from kiev_tui.plain.session import PlainSession

    g = sumy(1)
    to_phase(g, "movement", "axis")
    pile = ("ax-10mot-9pz", "ax-11mot-9pz", "ax-33pz-9pz", "ax-9rec-9pz", "ax-60mot-16m", "ax-156mot-16m")
    for u in pile:
        g.state.units[u].hex = "1208"
    g.memo.clear()  # the position was edited by hand
    s = PlainSession(g, 100, pause=True)
    listed = s.handle("cadre")
    assert listed[0] == "Allowed now ('cadre [N|UNIT]'):"
    assert "Send 60th Motorized Infantry Regiment to the Cadre Box (3.32)" in " ".join(listed)
    s.handle("cadre ax-60mot-16m")
    assert g.state.units["ax-60mot-16m"].status == "cadre"
    assert text.unit_line(g, "ax-60mot-16m").endswith(", in the Cadre Box")


def test_10_24c_activation_is_listed_in_the_soviet_motorized_phase_and_marks_the_unit() -> None:
    g = sumy(1)
    to_phase(g, "motorized", "soviet")
    acts = [(label, a) for label, a in text.choices(g, "soviet") if a.kind == "activate"]
    assert acts and all(label.startswith("Activate ") and label.endswith("by 40th Army HQ (10.24c)")
                        for label, _ in acts)
    g.apply(acts[0][1], side="soviet")
    assert "[activated" in text.unit_line(g, acts[0][1].unit)  # type: ignore[attr-defined]
    assert not any(a.kind == "activate" for _, a in text.choices(g, "axis"))


def test_each_listed_kind_is_named_with_its_case() -> None:
    from kiev_tui.games.efs_ktr.actions import Attack, Interdict, Overrun

    g = sumy()
    assert text.describe(g, Overrun(("ax-20mot-10m",), "1506")) == \
        "Overrun 1506 with 20th Motorized Infantry Regiment (11.4)"
    assert text.describe(g, Interdict("1503")) == "Fly interdiction over 1503 (13.12)"
    assert text.describe(g, Attack("1506", ("ax-20mot-10m",), ("ax-619art",))) == \
        "Attack 1506 with 20th Motorized Infantry Regiment, artillery 619th Artillery Regiment (15.2)"
    assert text.describe(g, Attack("1506", ("ax-20mot-10m",))).endswith(", no artillery (15.2)")
