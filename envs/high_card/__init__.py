"""Three-card high card: the teaching example of ``docs/adding_a_game.md`` (rules in ``game.py``)."""
