"""``benchmarks/agreement.py``: agents' agreement with a reference on the same batched states."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "agreement.py"


def test_an_agent_agrees_with_itself_and_random_does_not():
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "breed_the_heifer", "calling_station", "calling_station", "random",
         "--rows", "32", "--steps", "4", "--seed", "5"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("128 states of breed_the_heifer")
    assert lines[1] == "  calling_station: 1.000"
    share = float(lines[2].split(": ")[1].split(";")[0])
    assert 0.05 < share < 0.8  # random picks the calling station's action only by chance
    gap = float(lines[2].split("minus it ")[1].split(" ± ")[0])
    assert abs(gap - (1.0 - share)) < 1e-9
