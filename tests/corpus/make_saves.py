"""Regenerate the save files of the bad-input corpus (run after the state format changes).

    .venv/bin/python tests/corpus/make_saves.py
"""

from __future__ import annotations

from pathlib import Path

from kiev_tui.engine.actions import EndPhase
from kiev_tui.engine.game import Game
from kiev_tui.engine.saves import save_game
from kiev_tui.games.spi_kiev.actions import Enter, Move

HERE = Path(__file__).parent


def main() -> None:
    g = Game.new("tests/fixtures/mini/scenarios/mini.toml", seed=7)
    g.apply(Move(("so-rifle-1",), ("0706",)))
    g.apply(Enter(("so-t01-rifle-1",), "1005"))
    g.apply(Enter(("so-t01-rifle-2",), "1005"))
    g.apply(EndPhase())
    good = HERE / "save_good.toml"
    save_game(g, good)
    text = good.read_text()
    (HERE / "save_truncated.toml").write_text(text[: len(text) // 2])
    (HERE / "save_tampered_log.toml").write_text(text.replace('"0706"', '"0704"', 1))
    (HERE / "save_unknown_action.toml").write_text(text.replace('kind = "enter"', 'kind = "airdrop"', 1))
    (HERE / "save_bad_format.toml").write_text(text.replace("format = 1", "format = 99", 1))
    (HERE / "save_wrong_seed_type.toml").write_text(text.replace("seed = 7", 'seed = "seven"', 1))
    hostile(text)


def hostile(text: str) -> None:
    """Saves from issue 13: each once crashed, hung or was believed."""
    (HERE / "save_scenario_dev_zero.toml").write_text(
        text.replace('scenario = "tests/fixtures/mini/scenarios/mini.toml"', 'scenario = "/dev/zero"', 1))
    (HERE / "save_scenario_unknown_game.toml").write_text(
        text.replace('scenario = "tests/fixtures/mini/scenarios/mini.toml"',
                     'scenario = "tests/corpus/scenarios/unknown_game.toml"', 1))
    (HERE / "save_seed_5000_digits.toml").write_text(text.replace("seed = 7", "seed = " + "7" * 5000, 1))
    (HERE / "save_header_turn_wrong.toml").write_text(text.replace("turn = 1", "turn = 4", 1))
    (HERE / "save_move_to_hex_with_newline.toml").write_text(text.replace('"0706"', '"0706\\n"', 1))


if __name__ == "__main__":
    main()
