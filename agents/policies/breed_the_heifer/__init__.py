"""The trained policies shipped for breed_the_heifer (see README.md here)."""
