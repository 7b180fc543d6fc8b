"""Barbarossa 1941: the strategic game of the whole front, June 1941 to January 1942.

Its data (map, counters, tables, scenarios) is here and in ``data/barbarossa1941/``; its rule
system is ``system.py`` (actions in ``actions.py``, each combat's prompt chain in ``chain.py``,
aviation in ``air.py``, the random player in ``bot.py``), built on the pure rule modules that
take a ``Board``.
"""
