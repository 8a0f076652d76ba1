"""The distribution maps envs/, agents/, training/ into `pokerzoo` for both install kinds."""

import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_editable_install_imports_from_the_source_tree():
    import pokerzoo.agents
    import pokerzoo.envs
    import pokerzoo.training

    for module, folder in (
        (pokerzoo.envs, "envs"),
        (pokerzoo.agents, "agents"),
        (pokerzoo.training, "training"),
    ):
        assert Path(module.__file__).resolve().parent == ROOT / folder


def test_code_imports_only_the_pokerzoo_namespace():
    offenders = []
    for folder in ("envs", "agents", "training", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            for line in path.read_text().splitlines():
                stripped = line.strip()
                if stripped.startswith(
                    (
                        "from envs",
                        "import envs",
                        "from agents",
                        "import agents",
                        "from training",
                        "import training",
                    )
                ):
                    offenders.append(f"{path.relative_to(ROOT)}: {stripped}")
    assert not offenders, offenders


def test_engine_has_no_pettingzoo_import():
    for path in (ROOT / "envs" / "engine").rglob("*.py"):
        assert "pettingzoo" not in path.read_text(), path


def test_regular_wheel_install_works(tmp_path):
    """Build the wheel, then import a game from it with the editable install out of the way."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(tmp_path.glob("pokerzoo-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "pokerzoo/envs/engine/hands/standard.py" in names
    assert "pokerzoo/training/cli.py" in names and "pokerzoo/agents/base.py" in names
    assert not any(n.startswith(("envs/", "agents/", "training/", "tests/")) for n in names)
    target = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(target)
    # -S skips site-packages' .pth files, so the editable finder cannot answer; the
    # dependencies still come from the venv's site-packages on the path.
    site = sysconfig.get_paths()["purelib"]
    code = (
        "import pokerzoo.envs as e, pokerzoo.agents.registry as r;"
        "print(e.__file__);"
        "env = e.make('caribbean_stud_v0'); env.reset(seed=0); print(r.agent_names('caribbean_stud'))"
    )
    result = subprocess.run(
        [sys.executable, "-S", "-c", code],
        env={"PYTHONPATH": f"{target}:{site}"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.splitlines()[0].startswith(str(target))
    assert "rules_of_thumb" in result.stdout


def test_cli_stops_quietly_when_its_reader_goes_away():
    """`pokerzoo list | true`: the reader has gone before the first write; no BrokenPipeError traceback."""
    import shutil

    exe = shutil.which("pokerzoo", path=str(Path(sys.executable).parent))
    assert exe is not None
    result = subprocess.run(
        f"'{exe}' list | true; echo ${{PIPESTATUS[0]}}",
        shell=True,
        capture_output=True,
        text=True,
        check=True,
        executable="/bin/bash",
    )
    assert "Traceback" not in result.stderr and "BrokenPipe" not in result.stderr
    assert result.stdout.strip() == "141"
