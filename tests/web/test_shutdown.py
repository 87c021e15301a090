"""Issue 21, item 7: SIGTERM (or Ctrl-C) to `paperrobot web` leaves every game in the database file itself, not
only in its WAL: a copy of web.sqlite alone, made after the server stopped, holds every game and answer."""
from __future__ import annotations

import re
import shutil
import signal
import sqlite3

import pytest

from .server_process import Server

COUNTS = {"cases": 0, "games": 0, "lost": 0, "hangs": 0, "tracebacks": 0}


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_stopped_server_leaves_every_game_in_the_file_itself(tmp_path, sig):
    COUNTS["cases"] += 1
    db = tmp_path / "web.sqlite"
    server = Server(db)
    try:
        made = []
        for seed in (1, 2, 3):
            status, _, headers = server.request("/games", {"game": "fc", "seed": str(seed), "side.robot": "robot",
                                                           "side.player": "person"})
            assert status == 303, status
            made.append(int(headers["location"].rsplit("/", 1)[1]))
        # one answer to the first game (the suggested one): answers must reach the file too
        status, page, _ = server.get(f"/games/{made[0]}")
        seq = re.search(r'name="seq" value="(\d+)"', page).group(1)
        choice = re.search(r'name="choice" value="([^"]+)"', page)
        if choice:
            assert server.request(f"/games/{made[0]}/answer", {"seq": seq, "choice": choice.group(1)})[0] == 303
        with sqlite3.connect(db) as live:  # the server's own reading while it runs
            answers = live.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    finally:
        code, err = server.stop(sig)
    COUNTS["hangs"] += code is None
    COUNTS["tracebacks"] += "Traceback" in err
    assert code is not None, "the server did not stop within 30 s"
    assert "Traceback" not in err, err
    wal = db.with_name(db.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0, f"{wal.stat().st_size} bytes left in the WAL"
    alone = tmp_path / "copy" / "web.sqlite"  # the file alone, as a copy or a backup would take it
    alone.parent.mkdir()
    shutil.copy(db, alone)
    with sqlite3.connect(alone) as con:
        ids = [r[0] for r in con.execute("SELECT id FROM games ORDER BY id")]
        copied = con.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    COUNTS["games"] += len(made)
    COUNTS["lost"] += len(set(made) - set(ids)) + max(0, answers - copied)
    assert ids == made and copied == answers


def test_zz_counts():
    """The figures of this file for docs/robustness.md (issue 21)."""
    print(f"\nweb shutdown: {COUNTS}")
    assert COUNTS["lost"] == 0 and COUNTS["hangs"] == 0 and COUNTS["tracebacks"] == 0
