"""Issue 20 on a real terminal: keys sent in one read, as a fast typist or a paste sends them."""

from __future__ import annotations

from pathlib import Path

from tests.test_pty_hardening import ENTER, new_mini_app, quit_cleanly


def test_goto_keys_never_fall_through_to_the_map(tmp_path: Path) -> None:
    app = new_mini_app(tmp_path)
    try:
        # g, four digits, Enter, Enter in one read: the prompt takes both, the map neither
        app.send(b"g0703" + ENTER + ENTER)
        assert app.wait_for(r"Hex 0703", 30), app.text()  # the inspector names the hex under the cursor
        app.settle(0.5)
        assert "Selected" not in app.text() and "Selection dropped" not in app.text(), app.text()
        app.send(ENTER)  # a deliberate Enter on the map selects the stack there
        assert app.wait_for(r"Selected", 30), app.text()
        # the stack selected: g, four digits, Enter, Enter move the cursor and nothing else
        app.send(b"g0702" + ENTER + ENTER)
        assert app.wait_for(r"\n 0702", 30), app.text()
        app.settle(0.5)
        text = app.text()
        assert "move 0702" not in text and "moved" not in text and "MP" in text, text
        # nothing was played, so ctrl+q leaves at once (it would ask about an unsaved move)
        assert quit_cleanly(app) == 0
    finally:
        app.close()
