"""The browser side of pokerzoo: the scene renderer, the viewer and play pages (JavaScript, CSS, HTML).

These files are inlined into every page pokerzoo writes or serves, so a page
needs no network and no library; ``asset(name)`` reads one of them.
"""

from __future__ import annotations

from importlib import resources


def asset(name: str) -> str:
    return resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
