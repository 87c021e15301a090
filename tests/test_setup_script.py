"""scripts/setup (issue 25, first run): one line on stderr saying what is set up and roughly how long, ONE set of
extras for the program, the tests and the web page, and a re-run that installs nothing. pip is a stand-in here
(a fake .venv/bin/python that records its arguments), so the test is fast and needs no network."""
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ONE_SET = "test,rl,balance,web,build"


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    tree = tmp_path / "clone"
    (tree / "scripts").mkdir(parents=True)
    for name in ("scripts/setup", "scripts/test", "scripts/setup-ray", "paperrobot"):
        shutil.copy2(ROOT / name, tree / name)
    shutil.copy2(ROOT / "pyproject.toml", tree / "pyproject.toml")
    calls = tmp_path / "calls.txt"
    fake = tree / ".venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    fake.chmod(0o755)
    return tree, calls


def _setup(tree: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PAPERROBOT_EXTRAS",)}
    env["PAPERROBOT_COMPILE"] = "0"
    return subprocess.run(["bash", str(tree / "scripts" / "setup"), *args], capture_output=True, text=True, env=env,
                          timeout=60)


def test_first_run_says_what_and_how_long_then_reruns_are_silent(tmp_path):
    tree, calls = _tree(tmp_path)
    first = _setup(tree)
    assert first.returncode == 0, first.stderr
    lines = first.stderr.strip().splitlines()
    assert len(lines) == 1 and ONE_SET in lines[0] and "minutes" in lines[0], first.stderr
    assert f'-e .[{ONE_SET}]' in calls.read_text()
    calls.write_text("")
    again = _setup(tree)
    assert again.returncode == 0 and again.stderr == "" and calls.read_text() == ""


def test_ray_adds_to_the_one_set(tmp_path):
    tree, calls = _tree(tmp_path)
    assert _setup(tree, "ray").returncode == 0
    assert f"-e .[{ONE_SET},ray]" in calls.read_text()


def test_every_front_door_uses_the_one_set():
    """The launcher, the tests and the Ray set-up name no extras of their own (the web page used to install a
    different set, and scripts/test another)."""
    for name in ("paperrobot", "scripts/test", "scripts/setup-ray"):
        text = (ROOT / name).read_text()
        assert "PAPERROBOT_EXTRAS=" not in text and "scripts/setup" in text, name
