"""The trained policies shipped for mexican_poker (see README.md here)."""
