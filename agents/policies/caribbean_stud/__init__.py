"""The trained policies shipped for caribbean_stud (see README.md here)."""
