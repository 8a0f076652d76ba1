"""Every command, driven with bad arguments, ends with a one-line error and exit status 2, never a traceback;
Ctrl-C ends a command (its worker processes included) quietly with status 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from pokerzoo.cli.main import COMMANDS, main


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        rc = main(argv)
    except SystemExit as exc:  # argparse's usage errors
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("bad")
    (d / "a_file").write_text("not a folder")
    (d / "garbage.bin").write_bytes(os.urandom(300))
    (d / "empty.jsonl").write_text("")
    (d / "bad.yaml").write_text("game: [unclosed\n")
    (d / "nan.yaml").write_text(yaml.safe_dump({"game": "caribbean_stud", "ppo": {"gamma": float("nan")}}))
    (d / "list.yaml").write_text("- 1\n- 2\n")
    (d / "fake.json").write_text('{"format": "pokerzoo.policy/1"}')
    return {k: d / k for k in ("a_file", "garbage.bin", "empty.jsonl", "bad.yaml", "nan.yaml", "list.yaml",
                               "fake.json")} | {"dir": d}  # fmt: skip


def bad_arguments(f: dict[str, Path]) -> list[list[str]]:
    blocked = str(f["a_file"] / "x")  # a path under a file: cannot be created
    return [
        ["list", "chess"],
        ["bench", "envs", "--games", "chess", "--seconds", "0.01", "--no-references"],
        ["bench", "envs", "--seconds", "nan"],
        ["bench", "hands", "--seconds", "0.01", "--out", blocked],
        ["bench", "envs", "--config", "boxes=0", "--games", "caribbean_stud", "--no-references"],
        ["evaluate", "chess", "--agents", "random"],
        ["evaluate", "perico", "--agents", "nobody", "random"],
        ["evaluate", "perico", "--agents", "random", "--games", "0"],
        ["evaluate", "perico", "--agents", "random", "--seed", "-1"],
        ["evaluate", "raspisnoy_poker", "--agents", "random", "--config", "dark_multiplier=.nan"],
        ["evaluate", "breed_the_heifer", "--agents", "random", "--config", "small_bet=5", "big_bet=2"],
        ["evaluate", "perico", "--agents", "random", "--config", "num_players=99"],
        ["evaluate", "perico", "--agents", "random", "--config", "bogus"],
        ["evaluate", "perico", "--agents", "random", "--config", "schedule=[1"],
        ["evaluate", "caribbean_stud", "--agents", "random", "--out", blocked],
        ["pool", str(f["dir"]), str(f["a_file"])],
        ["pool", str(f["dir"])],
        ["pool", str(f["dir"]), str(f["dir"] / "missing"), "--out", blocked],
        ["evaluate", "breed_the_heifer", "--agents", "random", "--engine", "batched", "--record",
         str(f["dir"] / "h.jsonl")],
        ["evaluate", "breed_the_heifer", "--agents", "random", "nobody", "--engine", "batched"],
        ["evaluate", "breed_the_heifer", "--agents", "random", "equity(bogus=1)", "--engine", "batched"],
        ["evaluate", "breed_the_heifer", "--agents", "random", "ppo", "--engine", "batched", "--games", "0"],
        ["evaluate", "breed_the_heifer", "--agents", "random", "ppo", "--engine", "batched", "--seed", "-1"],
        ["evaluate", "breed_the_heifer", "--agents", "random", "ppo", "--engine", "batched", "--ray", "auto"],
        ["evaluate", "breed_the_heifer", "--agents", "random", "ppo", "--engine", "batched", "--config",
         "num_players=99"],
        ["evaluate", "caribbean_stud", "--agents", "random", "ppo", "--engine", "batched", "--out", blocked],
        ["evaluate", "caribbean_stud", "--agents", "random", "--out", str(f["a_file"])],
        ["evaluate", "caribbean_stud", "--agents", "random", "--record", blocked],
        ["evaluate", "caribbean_stud", "--agents", "policy:/no/such/policy"],
        ["evaluate", "caribbean_stud", "--agents", f"policy:{f['garbage.bin']}"],
        ["evaluate", "caribbean_stud", "--agents", f"policy:{f['fake.json']}"],
        ["evaluate", "caribbean_stud", "--agents", "policy:" + "x" * 5000],
        ["evaluate", "caribbean_stud", "--agents", "equity(simulations=.nan)"],
        ["evaluate", "caribbean_stud"],
        ["play", "chess"],
        ["play", "perico", "--seat", "9"],
        ["play", "perico", "--games", "0"],
        ["play", "perico", "--opponents", "nobody"],
        ["play", "perico", "--config", "num_players=1"],
        ["play", "caribbean_stud", "--record", blocked],
        ["view", str(f["dir"] / "missing.jsonl")],
        ["view", str(f["garbage.bin"])],
        ["view", str(f["empty.jsonl"]), "--out", blocked],
        ["serve", "chess"],
        ["compile", "--games", "chess"],
        ["compile", "--games", "mexican_poker", "--jobs", "-1"],
        ["serve", "perico", "--seat", "9"],
        ["serve", "perico", "--opponents", "nobody"],
        ["serve", "perico", "--config", "num_players=.inf"],
        ["serve", "perico", "--port", "-5"],
        ["replay", str(f["dir"] / "missing.jsonl")],
        ["replay", str(f["garbage.bin"])],
        ["replay", str(f["empty.jsonl"])],
        ["replay", str(f["dir"])],
        ["train"],
        ["train", str(f["dir"] / "missing.yaml")],
        ["train", str(f["bad.yaml"])],
        ["train", str(f["nan.yaml"])],
        ["train", str(f["list.yaml"])],
        ["train", str(f["garbage.bin"])],
        ["train", str(f["nan.yaml"]), "--set", "ppo.gamma=0.9", "ppo.clip_range=.nan"],
        ["train", str(f["nan.yaml"]), "--timesteps", "0"],
        ["train", "--resume", str(f["dir"])],
        ["train", "--ship", str(f["dir"])],
        ["train", "configs/caribbean_stud/ppo.yaml", "--out", blocked],
        ["demo", "--game", "chess"],
        ["demo", "--timesteps", "0"],
        ["demo", "--config", str(f["dir"] / "missing.yaml")],
        ["demo", "--scripted", "--only", "chess"],
        ["demo", "--scripted", "--budget", "nan"],
        ["policy"],
        ["policy", "convert", str(f["dir"] / "missing.zip"), "--trust"],
        ["policy", "convert", str(f["garbage.bin"]), "--trust"],
        ["policy", "show", str(f["garbage.bin"])],
        ["policy", "show", str(f["fake.json"])],
        ["nonsense"],
        [],
    ]


def test_every_command_is_driven_with_bad_arguments():
    covered = {argv[0] for argv in bad_arguments({k: Path("x") for k in ("a_file", "garbage.bin", "empty.jsonl",
               "bad.yaml", "nan.yaml", "list.yaml", "fake.json", "dir")}) if argv}  # fmt: skip
    assert covered >= set(COMMANDS)


def test_bad_arguments_give_one_line_and_status_2_never_a_traceback(files, capsys):
    for argv in bad_arguments(files):
        rc, out, err = run_cli(argv, capsys)
        assert rc == 2, (argv, rc, out[-500:], err[-500:])
        assert "Traceback" not in out + err, argv
        lines = err.strip().splitlines()
        assert lines and lines[-1].startswith("pokerzoo"), (argv, err)
        if not lines[-1].startswith("pokerzoo: error") and "usage:" not in err:  # our own errors: one line
            assert len(lines) == 1, (argv, err)


def test_the_real_entry_point_prints_no_traceback(files):
    proc = subprocess.run(
        [sys.executable, "-m", "pokerzoo.cli.main", "evaluate", "caribbean_stud", "--agents", "random",
         "--out", str(files["a_file"] / "x")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        f"pokerzoo evaluate: error: --out {files['a_file'] / 'x'}: {files['a_file']} is a file, not a folder"
    )


def group(pgid: int) -> dict[int, bool]:
    """The processes of process group ``pgid`` (Linux /proc): pid -> whether it ignores SIGINT."""
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[2]) != pgid:
                continue
            ignored = next(x for x in (stat.parent / "status").read_text().splitlines() if x.startswith("SigIgn"))
        except (OSError, StopIteration):
            continue
        found[int(stat.parent.name)] = bool(int(ignored.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    return found


def interrupt(
    argv: list[str], ready: str, after: float, tmp_path: Path, processes: int = 1
) -> subprocess.CompletedProcess:
    """Start ``pokerzoo ARGV`` as a terminal would (its own process group), wait until stdout shows
    ``ready`` and the group holds ``processes`` processes (the workers are up), then ``after`` more
    seconds, then Ctrl-C the whole group."""
    out = tmp_path / "stdout.txt"
    with open(out, "w") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pokerzoo.cli.main", *argv],
            stdout=fh,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
            # a terminal's Ctrl-C reaches it even when the test itself was started in the background
            # (`make test &` ignores SIGINT, and the ignore is inherited through exec)
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        deadline = time.monotonic() + 300
        while proc.poll() is None and time.monotonic() < deadline and (
            ready not in out.read_text() or len(group(proc.pid)) < processes
        ):
            time.sleep(0.2)
        assert proc.poll() is None, f"finished before the interrupt: {proc.stderr.read()[-2000:]}"
        time.sleep(after)
        helpers = {pid: ignores for pid, ignores in group(proc.pid).items() if pid != proc.pid}
        os.killpg(proc.pid, signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
    done = subprocess.CompletedProcess(argv, proc.returncode, out.read_text(), err)
    done.helpers = helpers  # the other processes of the group then: pid -> ignores SIGINT
    return done


def test_ctrl_c_during_an_evaluation_with_workers_exits_130_quietly(tmp_path):
    done = interrupt(
        ["evaluate", "perico", "--agents", "heuristic", "random", "--games", "100000", "--workers", "2",
         "--out", str(tmp_path / "report")],
        "evaluate perico_v0", 2.0, tmp_path, processes=3,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.stderr.strip() == "pokerzoo evaluate: interrupted"
    assert len(done.helpers) >= 2 and all(done.helpers.values()), "worker processes must leave Ctrl-C to the main one"
    assert not (tmp_path / "report").exists() and not list(tmp_path.glob(".report*"))  # no half-written report


def test_ctrl_c_during_training_with_worker_processes_exits_130_quietly(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text(yaml.safe_dump({
        "game": "perico", "engine": "aec", "n_envs": 4, "workers": 2, "vec_env": "subproc", "total_timesteps": 100_000,
        "ppo": {"n_steps": 64, "batch_size": 64, "net_arch": [16]},
        "pretrain": {"teacher": "heuristic", "samples": 10_000_000},  # workers busy recording for long
        "eval": {"every": 0},
    }))  # fmt: skip
    # main process, forkserver, two workers
    done = interrupt(["train", str(config), "--out", str(tmp_path / "run"), "--no-progress"], "training", 3.0,
                     tmp_path, processes=4)  # fmt: skip
    assert done.returncode == 130, done.stderr
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr, done.stderr
    assert done.stderr.strip().splitlines()[-1] == "pokerzoo train: interrupted"
    assert len(done.helpers) >= 3 and all(done.helpers.values()), "worker processes must leave Ctrl-C to the main one"
