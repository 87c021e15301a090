"""`paperrobot web` as a real server process on 127.0.0.1 (a free port, a throw-away database), for the tests that
need one: signals, concurrent clients. Every wait is a bounded loop; requests go to 127.0.0.1 only."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, db: Path, *args: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ, PYTHONPATH=f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")
        self.proc = subprocess.Popen([sys.executable, "-m", "paperrobot.cli.main", "web", "--port", str(self.port),
                                      "--db", str(db), *args], env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        for _ in range(300):  # up to 30 s to start (a loaded machine)
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.proc.communicate()}")
            try:
                self.get("/", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        self.stop(signal.SIGKILL)
        raise RuntimeError("the server did not answer within 30 s")

    def request(self, path: str, data: dict | bytes | None = None, headers: dict | None = None,
                timeout: float = 60) -> tuple[int, str, dict]:
        body = urllib.parse.urlencode(data).encode() if isinstance(data, dict) else data
        req = urllib.request.Request(self.base + path, data=body, headers=headers or {})
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(req, timeout=timeout) as response:
                return response.status, response.read().decode("utf-8", "replace"), dict(response.headers)
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace"), dict(exc.headers)

    def get(self, path: str, timeout: float = 60) -> tuple[int, str, dict]:
        return self.request(path, timeout=timeout)

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> tuple[int | None, str]:
        """Send ``sig`` and wait (bounded) for the process to end: (exit code or None if it hung, its stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            _, err = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate(timeout=10)
            return None, err
        return self.proc.returncode, err


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
