"""Caribbean stud: one player's boxes against the house dealer (RULES.md §5)."""
