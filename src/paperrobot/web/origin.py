"""Refuse state-changing requests sent from another site (cross-site request forgery).

The page has no accounts, so any web page the person has open could otherwise post a form to
127.0.0.1:8000 (answer, undo, start a game) behind their back. A browser says where a request comes from:
``Origin`` on every POST (since Chrome 76, Firefox 70, Safari 12), ``Sec-Fetch-Site`` on modern browsers,
``Referer`` on older ones. A POST (or any method that is not GET, HEAD or OPTIONS) is refused when the
first of these it carries names another origin than the address it was sent to (the ``Host`` header).
A request with none of them does not come from a page in a browser (curl, scripts, the tests' client)
and is let through: it cannot be forged by another site.

Origins are compared by host and port (``Origin: http://127.0.0.1:8000`` against ``Host: 127.0.0.1:8000``);
``localhost`` and ``127.0.0.1`` are different origins to a browser, and so here.
"""
from __future__ import annotations

from urllib.parse import urlsplit

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _netloc(url: str) -> str | None:
    """``host:port`` of an origin or URL, lower case, without the default port of its scheme; None if not a URL."""
    try:
        parts = urlsplit(url.strip())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not host:
        return None
    host = f"[{host}]" if ":" in host else host
    default = 443 if parts.scheme == "https" else 80
    return host if port in (None, default) else f"{host}:{port}"


def _host(value: str) -> str:
    """The Host header as ``host[:port]``, lower case, without port 80 or 443 (browsers leave those off)."""
    value = value.strip().lower()
    for default in (":80", ":443"):
        if value.endswith(default):
            return value[: -len(default)]
    return value


def cross_site(method: str, headers) -> str | None:
    """Why a request is refused as sent from another site, in one line; None when it may go on."""
    if method.upper() in SAFE_METHODS:
        return None
    here = _host(headers.get("host", ""))
    origin = headers.get("origin")
    if origin is not None:
        if origin.strip().lower() == "null":
            return "the form was sent from a page without an origin (a sandboxed frame or a local file)"
        if _netloc(origin) != here:
            return f"the form was sent from {origin.strip()[:80]}, another site than this page ({here[:80]})"
        return None
    fetch_site = headers.get("sec-fetch-site", "").strip().lower()
    if fetch_site in ("cross-site", "same-site"):  # same-site: another port of this host is another origin
        return f"the form was sent from another site ({fetch_site}) than this page ({here[:80]})"
    referer = headers.get("referer")
    if referer:
        if _netloc(referer) != here:
            return f"the form was sent from {referer.strip()[:80]}, another site than this page ({here[:80]})"
    return None
