"""The compiled modules and their pure-Python fallback (scripts/compile.py, paperrobot/_native.py; docs/speed.md
"Compiled"), and mypy --strict on the typed modules ([tool.mypy] in pyproject.toml)."""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from paperrobot import _native

ROOT = Path(__file__).resolve().parents[2]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())
LISTED = CONFIG["tool"]["paperrobot"]["compile"]["modules"]


def _run(code: str, **env: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, **env})
    return done.stdout.strip()


def test_the_manifest_decides_whether_compiled_modules_are_used(tmp_path, monkeypatch):
    module = tmp_path / "paperrobot" / "core" / "thing.py"
    module.parent.mkdir(parents=True)
    module.write_text("X = 1\n")
    manifest = tmp_path / "paperrobot" / "_compiled.txt"
    monkeypatch.setattr(_native, "SRC", tmp_path)
    monkeypatch.setattr(_native, "MANIFEST", manifest)
    assert not _native._current()  # no manifest: nothing compiled
    manifest.write_text(f"{hashlib.sha256(b'X = 1' + bytes([10])).hexdigest()}  paperrobot/core/thing.py\n")
    assert _native._current()
    module.write_text("X = 2\n")  # the source edited after the build: the compiled module is stale
    assert not _native._current()
    manifest.write_text("")
    assert not _native._current()


def test_pure_python_when_asked():
    names = _run("import paperrobot, paperrobot.sfb, paperrobot.fc, paperrobot.armada\n"
                 "from paperrobot import _native\nprint(_native.COMPILED, _native.compiled_modules())",
                 PAPERROBOT_PURE="1")
    assert names == "False ()"
    where = _run("import paperrobot.core.hexgrid as h; print(h.__file__)", PAPERROBOT_PURE="1")
    assert where.endswith("hexgrid.py")


def test_every_listed_module_is_a_typed_one():
    strict = {str(ROOT / path) for path in CONFIG["tool"]["mypy"]["files"]}
    for name in LISTED:
        assert str(ROOT / "src" / (name.replace(".", "/") + ".py")) in strict, f"{name} compiled but not in mypy's files"


@pytest.mark.skipif(os.environ.get("PAPERROBOT_EXPECT_COMPILED") != "1",
                    reason="CI's compiled run sets PAPERROBOT_EXPECT_COMPILED=1 (.ci/run)")
def test_the_listed_modules_run_compiled():
    assert _native.COMPILED
    for name in LISTED:
        module = importlib.import_module(name)
        assert str(module.__file__).endswith(".so"), f"{name} runs as {module.__file__}"


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None and not os.environ.get("CI"),
                    reason="mypy is in the build extra (scripts/test installs it)")
def test_mypy_strict_on_the_typed_modules():
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def _compile_script(monkeypatch, tmp_path):
    spec = importlib.util.spec_from_file_location("compile_script", ROOT / "scripts" / "compile.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    monkeypatch.setattr(script, "ROOT", tmp_path)  # the lock file goes to tmp_path/build
    monkeypatch.setattr(script, "modules", lambda: list(LISTED))
    return script


def test_a_build_finished_by_another_command_is_not_built_again(tmp_path, monkeypatch):
    """Two commands started at once after an update: the second waits for the build's lock, then finds the
    modules built (by the first) and builds nothing (it would have removed them on the way)."""
    script = _compile_script(monkeypatch, tmp_path)
    answers = iter([False, True])  # stale when it starts; built once it holds the lock
    monkeypatch.setattr(script, "built", lambda names: next(answers))
    monkeypatch.setattr(script, "build", lambda names: pytest.fail("built twice"))
    assert script.main([]) == 0
    assert (tmp_path / "build" / "compile.lock").exists()


@pytest.mark.skipif(sys.platform == "win32", reason="no fcntl")
def test_the_build_lock_shuts_out_another_process(tmp_path, monkeypatch):
    script = _compile_script(monkeypatch, tmp_path)
    probe = ("import fcntl, sys\nf = open(sys.argv[1], 'w')\ntry:\n    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
             "    print('free')\nexcept BlockingIOError:\n    print('held')\n")
    lock = str(tmp_path / "build" / "compile.lock")
    with script.one_at_a_time():
        inside = subprocess.run([sys.executable, "-c", probe, lock], capture_output=True, text=True).stdout.strip()
    after = subprocess.run([sys.executable, "-c", probe, lock], capture_output=True, text=True).stdout.strip()
    assert (inside, after) == ("held", "free")
