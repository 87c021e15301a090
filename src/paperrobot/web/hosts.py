"""Refuse requests whose ``Host`` header is not an address this server was started on (DNS rebinding).

The Origin check (web/origin.py) compares a request's origin with its own Host header. A site that points its
own name at 127.0.0.1 (DNS rebinding) makes the browser send ``Host: evil.example:8000`` with
``Origin: http://evil.example:8000``: the two agree, so the Origin check passes, and the site's script could
read pages and post forms. Every request (pages, static files, refusals) must therefore name one of the
addresses the server was started on, with its port: 127.0.0.1, localhost and [::1], plus the ``--host`` given
to ``paperrobot web``. Anything else gets a 400 of one line before the app sees it.
"""
from __future__ import annotations

from typing import Iterable

from .origin import _host


def allowed_hosts(host: str, port: int) -> frozenset[str]:
    """The Host header values (lower case, port 80 left off as browsers do) of a server on ``host:port``."""
    names = {"127.0.0.1", "localhost", "[::1]", f"[{host}]" if ":" in host and not host.startswith("[") else host}
    return frozenset(_host(f"{name.lower()}:{port}") for name in names)


class HostAllowlist:
    """ASGI middleware: HTTP and websocket requests whose Host is not in ``hosts`` are refused with a 400."""

    def __init__(self, app, hosts: Iterable[str]):
        self.app = app
        self.hosts = frozenset(_host(h) for h in hosts)

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        raw = next((v for k, v in scope.get("headers", ()) if k == b"host"), b"")
        host = _host(raw.decode("latin-1"))
        if host in self.hosts:
            return await self.app(scope, receive, send)
        line = (f"Refused: this page is served as {' or '.join(sorted(self.hosts))}, not '{host[:80]}' "
                "(another site's name pointing here); open it at its own address.\n").encode()
        if scope["type"] == "websocket":
            return await send({"type": "websocket.close", "code": 1008})
        await send({"type": "http.response.start", "status": 400,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(line)).encode())]})
        await send({"type": "http.response.body", "body": line})
