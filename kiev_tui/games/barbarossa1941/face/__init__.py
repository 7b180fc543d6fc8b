"""Barbarossa 1941's faces: names, glyphs and help for the Textual UI (``adapter.py``) and plain
mode (``plain.py``), both reading the Textual-free words of ``text.py``.  The game plays without
this package (the generic faces); it only says things better."""
