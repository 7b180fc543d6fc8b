"""Kiev to Rostov's faces (EFS; Battle of Sumy): names, glyphs and help for the Textual UI
(``adapter.py``) and plain mode (``plain.py``), both reading the Textual-free words of
``text.py``.  The game plays without this package (the generic faces); with it a player also
declares, attacks, activates, overruns, interdicts and sends units to the Cadre Box from a list
(``text.choices``) instead of typing ``do KIND key=value``."""
