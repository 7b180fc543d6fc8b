"""Benchmarks for kiev-tui: run ``python -m benchmarks`` (or ``make bench``).

Every figure is printed next to a floor measured in the same run on the same machine
(a rules-free BFS, a bare Textual app, a plain file write ...), so the ratios mean the
same on a fast laptop and on a loaded two-core box.  See docs/PERFORMANCE.md.
"""
