"""One way to say that an optional package is missing (issue 25), for every message that says it.

PaperRobot is not on the package index, so ``pip install 'paperrobot[web]'`` finds nothing. Its real fix: the
checkout's own set-up (``bash scripts/setup``, which ``./paperrobot`` runs on its first start) installs one set of
extras for the program, the tests and the web page; another environment installs the checkout by path (or a wheel
built from it), docs/envs.md "Installing".
"""
from __future__ import annotations


def needs_extra(what: str, extra: str, missing: str = "", setup: str = "bash scripts/setup") -> str:
    """One line: ``what`` needs ``extra`` (``missing``: the packages not found), and the two ways to install it.
    ``setup``: the checkout's script that installs the extra (Ray's is scripts/setup-ray)."""
    packages = f" ({missing} not installed)" if missing else ""
    return (f"{what} needs PaperRobot's {extra} extra{packages}: run '{setup}' in the checkout (./paperrobot runs "
            f"it on its first start), or in another environment pip install -e '/path/to/paperrobot[{extra}]' "
            f"(docs/envs.md, \"Installing\")")
