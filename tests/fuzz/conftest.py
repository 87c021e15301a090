"""Shared pieces of the fuzz and fault suite: a snapshot of a folder, one-line error checks, the CLI."""
import hashlib
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperrobot.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
PAPERROBOT = [sys.executable, "-m", "paperrobot.cli.main"]


def snapshot(folder: Path) -> dict:
    """Every file under ``folder`` with its bytes' digest: compare before and after a command."""
    out = {}
    for path in sorted(Path(folder).rglob("*")):
        if path.is_file():
            out[str(path.relative_to(folder))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def invoke(args, input="quit\n"):
    return CliRunner().invoke(app, [str(a) for a in args], input=input)


def assert_one_line_error(result, needle=""):
    """Non-zero exit, no traceback, exactly one line on stderr, naming the problem."""
    err = result.stderr
    assert result.exit_code not in (0, None), (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output and "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert needle.lower() in lines[0].lower(), lines[0]


def subprocess_env(**extra) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["COLUMNS"] = "200"
    env.update(extra)
    return env


@pytest.fixture
def notes(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my own notes\n")
    return path
