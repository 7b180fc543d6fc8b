"""Computer players: the candidate-action AI for SPI Kiev, the arena that measures it, and the
link that seats a human against it on the game screen (docs/AI.md)."""
