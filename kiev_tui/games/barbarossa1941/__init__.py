"""Barbarossa 1941: the strategic game of the whole front, June 1941 to January 1942.

Its data (map, counters, tables, scenarios) is here and in ``data/barbarossa1941/``; its rule
system is not written yet, so the game can be validated and its map drawn but not played.
"""
