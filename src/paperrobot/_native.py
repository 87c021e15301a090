"""Compiled or pure Python: decided once, when the package is first imported (docs/speed.md, "Compiled").

scripts/compile.py (run by scripts/setup where a C compiler is found) builds the hot modules with mypyc into
``.so`` files next to their ``.py`` sources, which Python imports first, and writes ``_compiled.txt``: the sha256
of every compiled source. The compiled modules are used only while every listed source still has that digest;
otherwise, or with ``PAPERROBOT_PURE=1`` in the environment, a path hook makes the package's directories import
``.py`` only, and the package runs as pure Python (the same source, the same games).
"""
from __future__ import annotations

import hashlib
import os
import sys
from importlib.machinery import BYTECODE_SUFFIXES, SOURCE_SUFFIXES, FileFinder, SourceFileLoader, \
    SourcelessFileLoader
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SRC = PACKAGE.parent
MANIFEST = PACKAGE / "_compiled.txt"


def _current() -> bool:
    """Is there a manifest, and does every compiled module's source still match it?"""
    try:
        lines = MANIFEST.read_text().splitlines()
        for line in lines:
            sha, name = line.split()
            path = SRC / name
            if hashlib.sha256(path.read_bytes()).hexdigest() != sha:
                return False
    except (OSError, ValueError):
        return False
    return bool(lines)


def _pure_hook():
    """A path hook for the package's own directories that finds ``.py`` (and their bytecode), never ``.so``."""
    finder = FileFinder.path_hook((SourceFileLoader, SOURCE_SUFFIXES), (SourcelessFileLoader, BYTECODE_SUFFIXES))
    root = str(PACKAGE)

    def hook(path: str):
        if not (path == root or path.startswith(root + os.sep)):
            raise ImportError("not a paperrobot directory")  # every other directory: the usual finders
        return finder(path)
    return hook


COMPILED = os.environ.get("PAPERROBOT_PURE", "") in ("", "0") and _current()
if not COMPILED:
    sys.path_hooks.insert(0, _pure_hook())
    for _cached in [p for p in sys.path_importer_cache if p.startswith(str(PACKAGE))]:
        del sys.path_importer_cache[_cached]  # the package's own directory was looked up already


def compiled_modules() -> tuple[str, ...]:
    """The names of the package's modules that are running compiled now (empty under pure Python)."""
    return tuple(name for name, module in list(sys.modules.items())
                 if name.startswith("paperrobot.") and str(getattr(module, "__file__", "")).endswith(".so"))
