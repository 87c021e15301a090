"""'pip install .' (not editable) into a fresh virtual environment gives a working 'paperrobot' command,
with every data file inside the package, without the bash launcher or the source tree."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _copy_of_the_clone(target: Path) -> Path:
    """The files a clone would have (tracked, plus new files not ignored), without .venv or build output."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True)
    if listed.returncode != 0:
        shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(".venv", "*.egg-info", "__pycache__", ".git",
                                                                    ".pytest_cache", ".hypothesis", "build"))
        return target
    for name in listed.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, target / name)
    return target


@pytest.mark.slow
def test_pip_install_gives_a_working_command(tmp_path):
    source = _copy_of_the_clone(tmp_path / "clone")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(source)],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    command = venv / "bin" / "paperrobot"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args):
        return subprocess.run([str(command), *args], capture_output=True, text=True, cwd=elsewhere, timeout=300,
                              env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "COLUMNS": "120"})

    version = run("--version")
    source = re.search(r'__version__ = "([^"]+)"', (ROOT / "src" / "paperrobot" / "_version.py").read_text()).group(1)
    assert version.returncode == 0 and version.stdout.strip() == f"paperrobot {source}", version.stderr
    installed = subprocess.run([str(venv / "bin" / "python"), "-c", "from importlib.metadata import version; "
                                "print(version('paperrobot'))"], capture_output=True, text=True, cwd=elsewhere,
                               env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert installed.stdout.strip() == source  # pyproject's version is paperrobot.__version__: one source
    for args in (["ships"], ["data"], ["battle", "sfb", "--scenario", "6", "--no-maps"], ["battle", "fc"],
                 ["battle", "armada", "--quiet"], ["simulate", "sfb", "--games", "20", "--jobs", "2", "--quiet"]):
        result = run(*args)
        assert result.returncode == 0, (args, result.stderr[-2000:])
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # the installed package, not a source tree
    shipped = subprocess.run([str(venv / "bin" / "python"), "-c",
                              "import paperrobot, pathlib; print(len(list(pathlib.Path(paperrobot.__file__)"
                              ".parent.rglob('*.toml'))))"], capture_output=True, text=True, cwd=elsewhere, env=clean)
    in_tree = len(list((ROOT / "src" / "paperrobot").rglob("*.toml")))
    assert int(shipped.stdout) == in_tree
    assert "site-packages" in subprocess.run([str(venv / "bin" / "python"), "-c",
                                              "import paperrobot; print(paperrobot.__file__)"],
                                             capture_output=True, text=True, cwd=elsewhere, env=clean).stdout
