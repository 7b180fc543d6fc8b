"""Helpers for the UI tests: the screen as plain text, and games set up for a flow."""

from __future__ import annotations

from textual.app import App


def screen_text(app: App) -> str:
    """What the terminal shows now, one line per row, without styles."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)
