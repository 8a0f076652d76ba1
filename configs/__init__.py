"""Run configurations (YAML), one folder per game: ``pokerzoo.configs`` in an installed copy.

Installed as package data so that a regular install has them too:
``importlib.resources.files("pokerzoo.configs") / "caribbean_stud" / "demo.yaml"``.
"""
