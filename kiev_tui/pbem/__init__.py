"""Play by e-mail: turn files in plain TOML, dice by two-party commit and reveal (docs/PBEM.md)."""
