"""kiev-tui: rules-enforcing terminal versions of the 1941 Kiev board wargames."""

__version__ = "0.1.0"
