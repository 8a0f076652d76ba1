"""The trained policies shipped for perico (see README.md here)."""
