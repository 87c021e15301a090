"""Compiles PaperRobot's hot modules with mypyc, in place: each listed ``src/paperrobot/**/X.py`` gets an ``X.*.so``
next to it (and one shared ``paperrobot_native__mypyc.*.so`` in ``src/``), which Python imports before the ``.py``.
The ``.py`` files stay the source and the pure-Python fallback.

The modules are listed in pyproject.toml, ``[tool.paperrobot.compile] modules``. A manifest
(``src/paperrobot/_compiled.txt``: the sha256 of every compiled source) lets ``paperrobot/_native.py`` use the
compiled modules only while they match their sources; an edited source makes the whole package fall back to pure
Python until this script runs again (scripts/setup runs it).

Run: .venv/bin/python scripts/compile.py          # build if any source changed (needs mypy and a C compiler)
     .venv/bin/python scripts/compile.py --clean  # remove the compiled modules: pure Python
     .venv/bin/python scripts/compile.py --check  # exit 0 if up to date, 1 if not
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = SRC / "paperrobot"
MANIFEST = PACKAGE / "_compiled.txt"
GROUP = "paperrobot_native"  # the shared library's name (mypyc puts the runtime and all modules' code there)


def modules() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return list(config["tool"]["paperrobot"]["compile"]["modules"])


def source(module: str) -> Path:
    return SRC / (module.replace(".", "/") + ".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_text(names: list[str]) -> str:
    """One line per module, ``sha256  path`` (the path from src/, as sha256sum writes it, so scripts/setup can
    check it with ``sha256sum -c``), in the order listed: what paperrobot/_native.py checks."""
    return "".join(f"{digest(source(name))}  {source(name).relative_to(SRC)}\n" for name in names)


def built(names: list[str]) -> bool:
    """Are the compiled modules present and built from the sources as they are now?"""
    if not MANIFEST.exists() or MANIFEST.read_text() != manifest_text(names):
        return False
    return all(any(source(name).parent.glob(source(name).stem + ".*.so")) for name in names)


def clean() -> None:
    """Remove every compiled module of the package (and the manifest first, so a half-clean tree is pure)."""
    MANIFEST.unlink(missing_ok=True)
    for path in list(PACKAGE.rglob("*.so")) + list(SRC.glob("*__mypyc*.so")):
        path.unlink()


def build(names: list[str]) -> None:
    clean()
    missing = [name for name in names if not source(name).exists()]
    if missing:
        sys.exit(f"compile: no source for {', '.join(missing)} (pyproject.toml [tool.paperrobot.compile])")
    # setuptools with mypycify, run from src/ so the module names are the package's; --inplace puts each .so
    # next to its .py. A separate process: mypyc's setup() must see its own argv.
    files = [str(source(name).relative_to(SRC)) for name in names]
    options = [f"--config-file={ROOT / 'pyproject.toml'}"]  # [tool.mypy]: strict; the command line's files win
    script = (
        "import sys\nfrom setuptools import setup\nfrom mypyc.build import mypycify\n"
        f"setup(name='paperrobot-native', ext_modules=mypycify({options + files!r}, opt_level='3', group_name={GROUP!r}),"
        " script_args=['build_ext', '--inplace', '--build-temp', sys.argv[1], '--build-lib', sys.argv[1]])\n"
    )
    work = ROOT / "build" / "mypyc"
    work.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "MYPY_CACHE_DIR": str(ROOT / "build" / "mypy_cache")}
    done = subprocess.run([sys.executable, "-c", script, str(work)], cwd=SRC, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        clean()
        tail = "\n".join(done.stdout.splitlines()[-40:])
        sys.exit(f"{tail}\ncompile: mypyc failed (above); the package stays pure Python")
    shutil.rmtree(SRC / "build", ignore_errors=True)  # mypyc's generated C when run from src/
    MANIFEST.write_text(manifest_text(names))  # last: the compiled modules are used only once all are there


@contextmanager
def one_at_a_time() -> Iterator[None]:
    """Hold the build's lock (build/compile.lock): two commands started at once after an update (``./paperrobot``
    runs scripts/setup, which runs this) would otherwise build in the same folder, and the one that failed would
    remove what the other built. Without fcntl (Windows) there is no lock."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    (ROOT / "build").mkdir(exist_ok=True)
    with open(ROOT / "build" / "compile.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if this process dies
        yield


def main(argv: list[str]) -> int:
    names = modules()
    if "--check" in argv:
        return 0 if built(names) else 1
    if "--clean" not in argv and built(names):
        return 0
    with one_at_a_time():
        if "--clean" in argv:
            clean()
            return 0
        if built(names):  # another command built them while this one waited
            return 0
        print(f"compiling {len(names)} modules with mypyc (a minute or two) ...", file=sys.stderr, flush=True)
        build(names)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
