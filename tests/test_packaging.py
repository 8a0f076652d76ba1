"""The distribution maps envs/, agents/, evaluation/, training/, cli/ into `pokerzoo` for both install kinds."""

import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_editable_install_imports_from_the_source_tree():
    import importlib

    for folder in ("envs", "agents", "evaluation", "training", "cli", "configs"):
        module = importlib.import_module(f"pokerzoo.{folder}")
        assert Path(module.__file__).resolve().parent == ROOT / folder


def test_code_imports_only_the_pokerzoo_namespace():
    offenders = []
    for folder in ("envs", "agents", "evaluation", "training", "cli", "tests", "benchmarks"):
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
                        "from evaluation",
                        "import evaluation",
                        "from cli",
                        "import cli",
                    )
                ):
                    offenders.append(f"{path.relative_to(ROOT)}: {stripped}")
    assert not offenders, offenders


def test_engine_has_no_pettingzoo_import():
    for path in (ROOT / "envs" / "engine").rglob("*.py"):
        assert "pettingzoo" not in path.read_text(), path


IGNORED = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "runs", "__pycache__", ".*cache")


def readme_python_snippets() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```python\n(.*?)```", text, flags=re.S)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A wheel built from a clean copy of the checkout, installed into a fresh venv; returns its bin/.

    The fresh venv reuses the test venv's third-party packages through a ``.pth`` line (torch
    alone would take minutes to install); ``.pth`` files are not run from a folder added that way,
    so the test venv's editable pokerzoo stays out of it.
    """
    tmp = tmp_path_factory.mktemp("install")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=IGNORED)
    dist = tmp / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", dist, src],
        check=True,
        capture_output=True,
    )
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    site = next(venv.glob("lib/python*/site-packages"))
    # Every site-packages folder this interpreter sees (a venv layered over another reaches the lower
    # one's packages through a .pth line of its own, which is not followed from here).
    folders = dict.fromkeys([sysconfig.get_paths()["purelib"], *(p for p in sys.path if p.endswith("site-packages"))])
    (site / "_test_venv_packages.pth").write_text("".join(f"{p}\n" for p in folders))
    wheel = next(dist.glob("pokerzoo-*.whl"))
    subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel],
        check=True,
        capture_output=True,
    )
    return venv / "bin"


def run_outside(bin_dir: Path, tmp_path: Path, *args: str | Path) -> str:
    """Run a command of the installed copy from a folder outside the checkout; returns stdout."""
    result = subprocess.run(
        [str(a) for a in args],
        cwd=tmp_path,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), "MPLBACKEND": "Agg"},
        capture_output=True,
        text=True,
        timeout=1500,  # a fresh install compiles its kernels first: minutes on a slow or loaded 2-core machine
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    return result.stdout


def test_the_wheel_holds_the_packages_and_nothing_else(installed):
    site = next(installed.parent.glob("lib/python*/site-packages"))
    package = site / "pokerzoo"
    for module in ("envs/engine/hands/standard.py", "agents/base.py", "evaluation/tournament.py",
                   "training/train.py", "cli/main.py", "configs/caribbean_stud/demo.yaml",
                   "configs/raspisnoy_poker/demo.yaml",
                   "evaluation/web/scene.js", "evaluation/web/viewer.html", "evaluation/web/style.css"):
        assert (package / module).is_file(), module
    assert list((package / "agents" / "policies").glob("*/ppo.*")), "shipped policies missing"
    assert not any((site / top).exists() for top in ("envs", "agents", "training", "cli", "evaluation", "tests"))


def test_regular_install_runs_the_readme_outside_the_checkout(installed, tmp_path):
    python = installed / "python"
    where = run_outside(installed, tmp_path, python, "-c", "import pokerzoo.envs as e; print(e.__file__)")
    assert where.startswith(str(installed.parent)), where
    listing = run_outside(installed, tmp_path, installed / "pokerzoo", "list")
    assert "raspisnoy_poker_v0" in listing and "ppo" in listing
    table = run_outside(
        installed, tmp_path, installed / "pokerzoo", "evaluate", "caribbean_stud", "--agents", "ppo", "random",
        "--games", "200", "--workers", "1", "--out", tmp_path / "eval",
    )
    assert "ppo" in table and "random" in table
    for snippet in readme_python_snippets():
        run_outside(installed, tmp_path, python, "-c", snippet)


def test_regular_install_runs_the_demo(installed, tmp_path):
    """The demo's whole path (its config from the installed package data, batched training, the tournament)
    outside the checkout. On Caribbean stud: a fresh install compiles the kernels the demo needs first, about
    25 s of a core for Caribbean's against 4.5 min for the default Raspisnoy demo's, the same code path
    otherwise (the default's config is checked in the wheel above)."""
    out = run_outside(
        installed, tmp_path, installed / "pokerzoo", "demo", "--game", "caribbean_stud", "--timesteps", "256",
        "--games", "30", "--workers", "1", "--out", tmp_path / "demo", "--no-progress",
    )
    assert "Paired differences" in out


def test_cli_stops_quietly_when_its_reader_goes_away():
    """`pokerzoo list | true`: the reader has gone before the first write; no BrokenPipeError traceback."""
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


def test_regular_install_writes_a_viewer_outside_the_checkout(installed, tmp_path):
    """The viewer's page is built from the web assets shipped in the wheel (``pokerzoo.evaluation.web``)."""
    pokerzoo = installed / "pokerzoo"
    run_outside(installed, tmp_path, pokerzoo, "evaluate", "caribbean_stud", "--agents", "random", "--games", "1",
                "--workers", "1", "--no-plot", "--out", "report", "--record", "h.jsonl")  # fmt: skip
    said = run_outside(installed, tmp_path, pokerzoo, "view", "h.jsonl")
    assert "viewer: h.html (1 game" in said
    page = (tmp_path / "h.html").read_text()
    assert "const PZ = " in page and 'id="pz-blob-0"' in page and "{{" not in page
