"""kiev-tui: rules-enforcing terminal versions of the 1941 Kiev board wargames."""

__version__ = "0.1.0"

# The shipped games are registered whatever module of the package is imported first
# (kiev_tui/games/__init__.py imports only the engine's registry: nothing heavy).
import kiev_tui.games  # noqa: E402,F401
