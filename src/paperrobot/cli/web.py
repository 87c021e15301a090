"""``paperrobot web``: the web page on 127.0.0.1:8000, every game kept in one SQLite file.

The web page's packages are an extra (scripts/setup installs it); this command installs nothing and says how to get
them (core/extras.py).
"""
from __future__ import annotations

import os
from importlib.util import find_spec
from pathlib import Path
from typing import Optional

import typer

from ..core.extras import needs_extra
from .common import fail, say

NEEDED = ("fastapi", "uvicorn", "jinja2", "multipart")


def default_db() -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "paperrobot"
    return base / "web.sqlite"


def missing_packages() -> list[str]:
    return [name for name in NEEDED if find_spec(name) is None]


def web(host: str = typer.Option("127.0.0.1", help="Address to listen on (127.0.0.1: this computer only)."),
        port: int = typer.Option(8000, min=1, max=65535, help="Port to listen on."),
        db: Optional[Path] = typer.Option(None, "--db", help="The SQLite file of the web page's games "
                                          "(default: $XDG_DATA_HOME/paperrobot/web.sqlite)."),
        cache: int = typer.Option(64, min=1, max=10_000, help="Games kept live in memory (others are rebuilt "
                                  "from the database when opened)."),
        allow_paths: bool = typer.Option(False, "--allow-paths", help="Let the start forms take paths on this "
                                         "computer (ships_dir, tables_dir, handicap_prices, geometry), not only "
                                         "uploads: for a server only you can reach.")):
    """Play, watch and consult the robots in the browser."""
    missing = missing_packages()
    if missing:
        fail(needs_extra("the web page", "web", ", ".join(missing)))
    import uvicorn

    from ..web.app import create_app
    from ..web.hosts import allowed_hosts
    path = db or default_db()
    if path.is_dir():
        fail(f"{path}: is a folder; --db takes a file name")
    try:
        app = create_app(path, capacity=cache, hosts=allowed_hosts(host, port),  # DNS rebinding: web/hosts.py
                         allow_paths=allow_paths)  # paths on this disk in the forms: web/setup_files.py
    except OSError as exc:
        fail(f"{path}: cannot be opened or created ({exc.strerror or exc}); choose another file with --db")
    shown = f"[{host}]" if ":" in host else host
    say(f"PaperRobot web page: http://{shown}:{port}/  (games kept in {path}; Ctrl-C stops it, nothing is lost)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        say("warning: listening beyond this computer; the page has no accounts, anyone who reaches it can play.")
    uvicorn.run(app, host=host, port=port, log_level="warning")


def register(app: typer.Typer) -> None:
    app.command(name="web")(web)
