"""Where the kernels' numba cache goes: never into the package (it may be read-only), never stale."""

import os
import subprocess
import sys
from pathlib import Path

from pokerzoo.envs.batched import compile as compile_lib

ROOT = Path(__file__).resolve().parents[3]


def unusable(tmp_path: Path) -> str:
    """A folder no one can create, root included: its parent is a file."""
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    return str(blocker / "cache")


def test_the_cache_base_falls_back_in_the_documented_order(tmp_path):
    bad = unusable(tmp_path)
    good = tmp_path / "numba"
    assert compile_lib.cache_base({"NUMBA_CACHE_DIR": str(good), "HOME": bad}) == good
    assert compile_lib.cache_base({"NUMBA_CACHE_DIR": bad, "POKERZOO_NUMBA_CACHE": str(good)}) == good
    assert compile_lib.cache_base({"XDG_CACHE_HOME": str(tmp_path)}) == tmp_path / "pokerzoo" / "numba"
    assert compile_lib.cache_base({"HOME": str(tmp_path)}) == tmp_path / ".cache" / "pokerzoo" / "numba"
    fallback = compile_lib.cache_base({"HOME": bad, "NUMBA_CACHE_DIR": bad})
    assert fallback.name.startswith("pokerzoo-numba-")


def test_the_stamp_changes_with_any_kernel_source():
    sources = compile_lib.kernel_sources()
    names = {p.name for p in sources}
    assert {"rng.py", "chance.py", "core.py", "compile.py", "kernel.py"} <= names
    assert compile_lib.CACHE_DIR.name == compile_lib.sources_stamp()


def test_an_installed_copy_without_a_writable_home_caches_in_the_temporary_folder(tmp_path):
    """A copy of the package outside the source tree, HOME unusable: kernels compile, cache in TMPDIR, run."""
    import shutil

    site = tmp_path / "site" / "pokerzoo"
    shutil.copytree(ROOT / "envs", site / "envs", ignore=shutil.ignore_patterns("__pycache__"))
    temp = tmp_path / "tmp"
    temp.mkdir()
    code = (
        "import numpy as np; from pokerzoo.envs.batched import rng, compile as c;"
        "w = rng.words_from_seed(3)[None].copy(); out = np.empty(52, np.int64); rng.permutation(w, 0, out, 52);"
        "assert out.tolist() == np.random.default_rng(3).permutation(52).tolist(); print(c.CACHE_DIR)"
    )
    env = {
        # -S skips .pth files (the editable install's finder among them), so name every site folder
        "PYTHONPATH": ":".join([str(tmp_path / "site"), *(p for p in sys.path if p.endswith("site-packages"))]),
        "HOME": unusable(tmp_path),
        "TMPDIR": str(temp),
        "PATH": os.environ.get("PATH", ""),
    }
    result = subprocess.run([sys.executable, "-S", "-c", code], env=env, capture_output=True, text=True, check=True)
    cache = Path(result.stdout.strip())
    assert cache.is_relative_to(temp) and any(cache.rglob("*.nbi"))
    assert not [p for p in site.rglob("*") if p.suffix in (".nbi", ".nbc")]
