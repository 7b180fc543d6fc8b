"""Barbarossa: Kiev to Rostov (GMT East Front Series): the Battle of Sumy's data, no rules yet.

Its data (the Sumy map section, the scenario's counters, the CRT and terrain chart, the
scenario) is here and in ``data/efs_ktr/``; its rule system is not written yet, so the game
can be validated and its map drawn but not played.
"""
