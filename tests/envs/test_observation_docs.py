"""The observation tables of the help pages and rules pages are the ones the schemas render."""

from __future__ import annotations

import pytest

from pokerzoo.envs import ENV_NAMES, GAMES
from pokerzoo.envs.observation_docs import BEGIN, COMMAND, END, replace_table, stale, targets


def test_every_game_has_its_table_on_its_help_page_and_rules_page():
    files = [t.path for t in targets()]
    assert len(files) == len(GAMES) + len(ENV_NAMES)  # every help page; the rules pages of the five games
    for t in targets():
        assert t.table in t.current(), f"{t.path} lacks {t.game}'s generated table; run {COMMAND}"


def test_the_docs_match_the_schemas():
    old = stale()
    assert not old, f"observation tables differ from the schemas in {[str(p) for p in old]}; run {COMMAND}"


def test_replace_table_rewrites_only_between_the_markers():
    text = f"intro\n\n{BEGIN}\n| stale |\n{END}\n\nafter\n"
    assert replace_table(text, "| fresh |") == f"intro\n\n{BEGIN}\n| fresh |\n{END}\n\nafter\n"
    assert replace_table(replace_table(text, "| fresh |"), "| fresh |") == replace_table(text, "| fresh |")


@pytest.mark.parametrize("text", ["no markers", f"{BEGIN}\n{END}\n{BEGIN}\n{END}", f"{BEGIN} without an end"])
def test_missing_or_doubled_markers_are_named_with_the_fix(text):
    with pytest.raises(ValueError, match=r"page\.md: expected one line .* found \d and \d; add them .* --write"):
        replace_table(text, "| t |", "page.md")
