"""SPI Kiev's presentation for the Textual face: the adapter, the game screen with Kiev's
commands, the panels' text, the combat dialogs and the help.  Only this package of the game
may import Textual; the rules modules never import it."""
