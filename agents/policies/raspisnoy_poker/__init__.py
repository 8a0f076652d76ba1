"""The trained policies shipped for raspisnoy_poker (see README.md here)."""
