"""Combat and overrun on screen: the preview before the roll, and answers to pending results.

Everything goes through `kiev_tui.games.spi_kiev.combat` (ENGINE-API.md); the screens only
build actions and hand them back to the game screen, which plays them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from kiev_tui.games.spi_kiev import actions as kiev_actions
from kiev_tui.games.spi_kiev import combat, overrun, strength
from kiev_tui.games.spi_kiev.actions import Advance, DeclineAdvance, Retreat, TakeLosses
from kiev_tui.engine.hexes import Hex
from kiev_tui.games.spi_kiev.face import present
from kiev_tui.games.spi_kiev.events_play import CombatResolved
from kiev_tui.games.spi_kiev.state import kiev_vars
from kiev_tui.ui.adapter import Overlay
from kiev_tui.ui.dialogs import DIALOG_CSS, KEYS_HERE, Choices, ConfirmScreen, Dialog, plain, while_open
from kiev_tui.ui.mapside import MapBeside, glyphs_of, map_side_css, path_marks

if TYPE_CHECKING:
    from kiev_tui.engine.game import Game


def unit_label(game: "Game", uid: str) -> str:
    """A unit as a person reads it: its designation, never its id (issue 20)."""
    return present.unit_name(game.rules.position(game), uid)


def _strength_lines(game: "Game", title: str, rows: Any, total: Any, typed: Any = ()) -> list[str]:
    """Each unit's printed and final value, then its modifiers as the typed preview lists them."""
    lines = [f"{title} (total {total if total is not None else 'unknown until revealed'}):"]
    for us in rows:
        value = getattr(us, "value", None)
        base = getattr(us, "base", None)
        shown = "?" if value is None else f"{value:g}"
        lines.append(f"  {unit_label(game, us.unit)}: {base if base is not None else '?'} -> {shown}")
        for m in typed:
            if m.unit == us.unit:
                lines.append(f"      [{m.case}] {m.text}")
    return lines


def net_lines(p: Any) -> list[str]:
    """The net column shift and die modifier of a typed preview, when there are any."""
    mods = tuple(getattr(p, "modifiers", ()))
    shift, die = sum(m.column_shift for m in mods), sum(m.die_modifier for m in mods)
    out = []
    if shift:
        out.append(f"Column shift: {shift:+d} ({', '.join(m.case for m in mods if m.column_shift)})")
    if die:
        out.append(f"Die modifier: {die:+d} ({', '.join(m.case for m in mods if m.die_modifier)})")
    return out


def _chance_lines(chances: dict[Any, float]) -> list[str]:
    if not chances:
        return []
    out = ["Chance of each result:"]
    for result, p in sorted(chances.items(), key=lambda kv: -kv[1]):
        out.append(f"  {str(result):<10} {p * 100:5.1f}%")
    return out


def preview_lines(game: "Game", p: Any, head: str) -> list[str]:
    """Every number of a combat preview, with the case behind each modifier."""
    lines = [head]
    if getattr(p, "column", None):
        lines.append(f"Odds column: {p.column}")
    else:
        lines.append("Odds column: not known until the untried units are revealed")
    typed = tuple(getattr(p, "modifiers", ()))
    lines.extend(_strength_lines(game, "Attackers", p.attackers, p.attack, typed))
    lines.extend(_strength_lines(game, "Defenders", p.defenders, p.defense, typed))
    lines.extend(net_lines(p))
    lines.extend(_chance_lines(dict(getattr(p, "chances", {}) or {})))
    for note in getattr(p, "notes", ()) or ():
        lines.append(f"Note: {note}")
    return lines


def attack_preview(game: "Game", attackers: tuple[str, ...], targets: tuple[str, ...],
                   integrity: str = "") -> tuple[list[str], Any]:
    """(lines, illegal) for a planned attack; illegal is None when it may go ahead."""
    p = combat.preview(game, attackers, targets, integrity=integrity)
    lines = preview_lines(game, p, f"Attack on {', '.join(targets)}")
    if integrity:
        lines.insert(1, f"GD counts with {integrity} (20.2)")
    return lines, p.illegal


def integrity_items(game: "Game", attackers: tuple[str, ...], targets: tuple[str, ...],
                    is_overrun: bool = False) -> list[tuple[str, str]]:
    """The 20.2 choice for GD as dialog items, each with the attack strength it would give."""
    view = game.rules.position(game)
    items = []
    for div in strength.integrity_choices(view, attackers):
        if is_overrun:
            p = overrun.overrun_preview(game, attackers, targets[0], integrity=div)
        else:
            p = combat.preview(game, attackers, targets, integrity=div)
        total = "?" if p.attack is None else f"{p.attack:g}"
        items.append((f"GD counts with {div}: attack strength {total}", div))
    return items


def overrun_preview(game: "Game", units: tuple[str, ...], target: str, integrity: str = "") -> tuple[list[str], Any]:
    p = overrun.overrun_preview(game, units, target, integrity=integrity)
    lines = preview_lines(game, p, f"Overrun of {target} (6.0): 3 MP, half attack strength")
    if integrity:
        lines.insert(1, f"GD counts with {integrity} (20.2)")
    return lines, p.illegal


def battle_overlay(game: "Game") -> Overlay:
    """The battle being resolved: its attackers and targets, framed as when it was planned."""
    battle = kiev_vars(game.state).battle
    if battle is None:
        return Overlay()
    units = game.state.units
    attackers = tuple(u for u in battle.attackers if u in units and units[u].status == "map")
    return Overlay(attackers=attackers, targets=tuple(str(t) for t in battle.targets))


class PreviewScreen(ConfirmScreen):
    """The odds before the roll, beside the map with the attackers and targets marked."""

    DEFAULT_CSS = map_side_css("PreviewScreen")

    def __init__(self, game: "Game", title: str, lines: list[str], question: str,
                 attackers: tuple[str, ...], targets: tuple[str, ...]) -> None:
        super().__init__(title, lines, question)
        self.game = game
        self.overlay = Overlay(attackers=attackers, targets=targets)

    def compose(self) -> ComposeResult:
        yield MapBeside(self.game, glyphs_of(self.app), id="preview-map")
        yield from super().compose()

    def on_mount(self) -> None:
        centre = Hex.parse(self.overlay.targets[0]) if self.overlay.targets else None
        self.query_one(MapBeside).show(self.overlay, centre)


def roll_line(game: "Game") -> str:
    """The die and the result of the battle being settled, in words ("" before any roll)."""
    b = kiev_vars(game.state).battle
    if b is None or b.result is None:
        return ""
    for e in reversed(game.journal):  # the battle's own roll: the newest with its units and hexes
        if (isinstance(e, CombatResolved) and list(e.targets) == list(b.targets)
                and list(e.attackers) == list(b.attackers)):
            return (f"{e.battle.capitalize()} at {', '.join(e.targets)}: {e.attack} to {e.defense}, "
                    f"column {e.column}, die {e.die}: result {e.result} ({result_words(e.result)})")
    return f"Result {b.result} ({result_words(b.result)})"


def result_words(result: str) -> str:
    """A CRT result in a player's words: attacker's part / defender's part (9.6)."""
    if result == "eng":
        return "engaged: each side loses a step, no retreat, 9.69"
    if "/" not in result:
        return "see the CRT"

    def part(p: str) -> str:
        if p == "-":
            return "nothing"
        if p == "E":
            return "eliminated"
        return f"{p} step(s) or {p} hex(es) back"

    att, dfn = result.split("/", 1)
    return f"attacker {part(att)}, defender {part(dfn)}"


def _offers(game: "Game", verb: str) -> bool:
    """Whether the rules' prompt for the choice waiting now has an option with this verb."""
    prompt = game.rules.prompt(game)
    return prompt is not None and any(o.verb == verb for o in prompt.options)


UNITS_CAPTION = "Units that may advance (space ticks, Enter: back to the ways):"
STOPS_CAPTION = "How far (Enter advances the ticked units):"
#: ahead of a caption: whether the keys go to the list under it
FOCUS_MARK = {True: KEYS_HERE, False: ""}


class PendingScreen(Dialog):
    """Answer the combat result waiting in game.state.pending; returns the answering action."""

    DEFAULT_CSS = """
    PendingScreen #pending-msg { color: $warning; }
    PendingScreen #pending-list { max-height: 100%; }
    """ + DIALOG_CSS + map_side_css("PendingScreen")
    BINDINGS = [
        Binding("escape", "later", "Later", key_display="Esc"),
        Binding("R", "retreat", "Retreat instead", key_display="R"),
        Binding("backspace", "unpick", "Take back", key_display="Bksp"),
        Binding("n", "decline", "Do not advance"),
    ]

    def __init__(self, game: "Game") -> None:
        super().__init__()
        self.game = game
        self.pending: dict[str, Any] = dict(game.state.pending or {})
        self.kind = str(self.pending.get("kind", ""))
        self.units: list[str] = list(self.pending.get("units", []))
        self.losses: list[str] = []
        self.paths: list[tuple[str, ...]] = []
        self.options: dict[str, list[tuple[str, ...]]] = {}
        self.stops: list[tuple[str, ...]] = []
        # R is offered only when the rules offer a retreat (not when engaged, 9.69, nor 25.11)
        self.may_retreat = self.kind == "loss_or_retreat" and _offers(game, "retreat")

    def compose(self) -> ComposeResult:
        side = str(self.pending.get("side", "")).upper()
        yield MapBeside(self.game, glyphs_of(self.app), id="pending-map")
        with Vertical(classes="dialog"):
            prompt = str(self.pending.get("prompt", "answer the combat result"))
            if prompt.lower().startswith(f"{side.lower()} player: "):
                prompt = prompt[len(side) + len(" player: "):]
            prompt = present.name_ids(self.game.rules.position(self.game), prompt)  # names, never ids
            yield Static(plain(f"{side} PLAYER to answer: {prompt}"), classes="dialog-title")
            roll = roll_line(self.game)
            if roll:
                yield Static(plain(roll), id="pending-roll")
            yield Static("", id="pending-head")
            if self.kind == "advance":
                yield Static(UNITS_CAPTION, id="units-caption")
                yield Choices([unit_label(self.game, u) for u in self.units], multi=True,
                              ticked=set(range(len(self.units))), id="pending-units")
                yield Static(STOPS_CAPTION, id="stops-caption")
            yield Choices([], id="pending-list")
            yield Static("", id="pending-msg")
            yield Static(plain(self._foot()), classes="dialog-foot")

    def _foot(self) -> str:
        if self.kind == "loss_or_retreat":
            foot = "Enter takes a step from the highlighted unit; Bksp takes it back"
            return foot + ("; R retreats instead" if self.may_retreat else "") + "; Esc later"
        if self.kind == "retreat":
            return "Enter picks the highlighted path for the unit named above; Bksp goes back; Esc later"
        if self.kind == "advance":
            return "Enter advances along the highlighted way; Tab to (un)tick units; n stays put; Esc later"
        if self.kind == "integrity":
            return "Enter picks the highlighted division; Esc later"
        return "Esc close"

    def on_mount(self) -> None:
        if self.kind == "retreat":
            raw = combat.retreat_options(self.game)
            self.options = {u: [tuple(p) for p in raw.get(u, [])] for u in self.units}
        if self.kind == "advance":
            self.stops = [tuple(p) for p in combat.advance_options(self.game).get("paths", [])]
        self._show()
        # the ways to go take the keys first: every unit is ticked, so Enter on the highlighted
        # (first) way advances at once; Tab goes to the units to untick some
        self.query_one("#pending-list", Choices).focus()
        self.watch(self.query_one("#pending-list", Choices), "index", self._highlight, init=False)

    def highlighted(self) -> tuple[str, ...]:
        """The path (retreat or advance) under the list cursor: what the map marks."""
        index = self.query_one("#pending-list", Choices).index
        if self.kind == "retreat" and len(self.paths) < len(self.units):
            opts = self.options.get(self.units[len(self.paths)], [])
            return opts[index] if index < len(opts) else ()
        if self.kind == "advance" and index < len(self.stops):
            return self.stops[index]
        return ()

    def _highlight(self, *_: Any) -> None:
        """Mark the battle and the path under the list cursor on the map beside the list."""
        if self.dismissed:
            return  # a key typed ahead moved the list of a closing dialog
        overlay = battle_overlay(self.game)
        path = self.highlighted()
        centre: Hex | None = None
        if path:
            overlay.marks = path_marks(path, glyphs_of(self.app))
            centre = Hex.parse(path[-1])
        elif self.pending.get("hex"):
            overlay.targets = (str(self.pending["hex"]),)
        if centre is None and overlay.targets:
            centre = Hex.parse(overlay.targets[0])
        self.query_one(MapBeside).show(overlay, centre)

    def say(self, text: str) -> None:
        self.query_one("#pending-msg", Static).update(plain(text))

    def _show(self) -> None:
        head = self.query_one("#pending-head", Static)
        lst = self.query_one("#pending-list", Choices)
        if self.kind == "loss_or_retreat":
            steps = int(self.pending.get("steps", 1))
            may = self.pending.get("may_lose_steps", True)
            hexes = int(self.pending.get("hexes", steps))
            if hexes:
                text = f"Lose {steps} step(s), or retreat every unit {hexes} hex(es) (9.66)."
            elif self.pending.get("no_retreat"):
                text = f"Lose {steps} step(s); an asterisk unit bars the retreat ({self.pending['no_retreat']})."
            else:
                text = f"Engaged: lose {steps} step(s); no retreat (9.69)."
            head.update(plain(text + ("" if may or not self.may_retreat else " These units cannot lose enough steps: retreat (R).")
                              + f"\nSteps taken so far: {', '.join(self.losses) or 'none'}"))
            lst.set_items([unit_label(self.game, u) for u in self.units])
        elif self.kind == "retreat":
            n = len(self.paths)
            if n < len(self.units):
                uid = self.units[n]
                head.update(plain(f"Retreat path for {unit_label(self.game, uid)} ({n + 1} of {len(self.units)}):"))
                opts = self.options.get(uid, [])
                lst.set_items([" > ".join(p) if p else "(no path: the unit is lost)" for p in opts] or ["(no path: the unit is lost)"])
        elif self.kind == "advance":
            head.update(plain(f"Advance up to {self.pending.get('max', '?')} hex(es) (9.8); each line is one way to go."))
            lst.set_items([" > ".join(s) for s in self.stops])
        elif self.kind == "integrity":
            head.update("GD defends beside regiments of two divisions: it doubles with one of them (20.2).")
            lst.set_items([str(c) for c in self.pending.get("choices", [])])
        else:
            head.update(plain(f"Unknown kind of pending choice: {self.kind!r}"))
        self._highlight()

    @on(Choices.Chosen, "#pending-units")
    @while_open
    def _units_done(self) -> None:
        self.query_one("#pending-list", Choices).focus()

    def on_descendant_focus(self) -> None:
        self._captions()

    def on_descendant_blur(self) -> None:
        self._captions()

    def _captions(self) -> None:
        """Name the list the keys go to: beside two lists, the focus must read without colour."""
        if self.kind != "advance" or self.dismissed:
            return
        units = self.query_one("#pending-units", Choices).has_focus
        stops = self.query_one("#pending-list", Choices).has_focus
        self.query_one("#units-caption", Static).update(FOCUS_MARK[units] + UNITS_CAPTION)
        self.query_one("#stops-caption", Static).update(FOCUS_MARK[stops] + STOPS_CAPTION)

    @on(Choices.Chosen, "#pending-list")
    @while_open
    def _chosen(self, event: Choices.Chosen) -> None:
        if self.kind == "loss_or_retreat":
            if not self.units:
                return
            self.losses.append(self.units[event.index])
            if len(self.losses) >= int(self.pending.get("steps", 1)):
                self.dismiss(TakeLosses(tuple(self.losses)))
                return
            self._show()
        elif self.kind == "retreat":
            uid = self.units[len(self.paths)]
            opts = self.options.get(uid, [])
            self.paths.append(opts[event.index] if event.index < len(opts) else ())
            if len(self.paths) == len(self.units):
                self.dismiss(Retreat(tuple(self.units), tuple(self.paths)))
                return
            self._show()
        elif self.kind == "advance":
            ticks = self.query_one("#pending-units", Choices).ticked
            units = tuple(u for i, u in enumerate(self.units) if i in ticks)
            if not units:
                self.say("Tick at least one unit, or press n to stay put.")
                return
            self.dismiss(Advance(units, self.stops[event.index]))
        elif self.kind == "integrity":
            self.dismiss(kiev_actions.ChooseIntegrity(str(self.pending["choices"][event.index])))

    @while_open
    def action_retreat(self) -> None:
        if self.may_retreat:
            self.dismiss(kiev_actions.ChooseRetreat())
        elif self.kind == "loss_or_retreat":
            why = self.pending.get("no_retreat") or "9.69"
            self.say(f"No retreat here ({why}): the result must be taken as step losses")

    @while_open
    def action_decline(self) -> None:
        if self.kind == "advance":
            self.dismiss(DeclineAdvance())

    @while_open
    def action_unpick(self) -> None:
        if self.kind == "loss_or_retreat" and self.losses:
            self.losses.pop()
        elif self.kind == "retreat" and self.paths:
            self.paths.pop()
        self._show()

    def action_later(self) -> None:
        self.dismiss(None)
