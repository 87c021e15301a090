"""Uploaded files, read with bounded memory: the request body is counted as it arrives and refused with a 413 the
moment it passes its cap (a declared ``Content-Length`` over the cap is refused before anything is read). The
multipart parser keeps each file in memory up to 1 MB and on disk after that (Starlette's spooled files), so a
request holds at most about 1 MB of memory while it arrives; the work on it is done off the event loop, at most
``REPLAYS`` at once (web/app.py, web/watch_pages.py).
"""
from __future__ import annotations

from typing import AsyncIterator

from starlette.datastructures import FormData
from starlette.formparsers import MultiPartException, MultiPartParser
from starlette.requests import Request

from .live import Refused

OVERHEAD = 64 * 1024  # the multipart headers and boundaries around the files, and a few small fields
CHUNK = 64 * 1024     # a file is read back in pieces of this size
DRAIN = 64_000_000    # a refused body up to this size is read to its end and dropped (see _drain)


class _TooLarge(Exception):
    pass


async def _counted(stream: AsyncIterator[bytes], cap: int) -> AsyncIterator[bytes]:
    total = 0
    async for chunk in stream:
        total += len(chunk)
        if total > cap:
            raise _TooLarge
        yield chunk


async def upload_form(request: Request, cap: int, what: str, max_files: int = 1, max_fields: int = 10) -> FormData:
    """The multipart form of ``request``, its body at most ``cap`` bytes plus the multipart overhead; else Refused
    (413 naming ``what`` and the cap; 400 for a body that is not a multipart form)."""
    limit = cap + OVERHEAD
    too_large = Refused(413, f"{what} is larger than {_size(cap)}, the most this page takes; nothing was stored",
                        title="Too large")
    declared = request.headers.get("content-length", "")
    stream = request.stream()
    if declared.isdigit() and int(declared) > limit:
        await _drain(stream, int(declared))
        raise too_large
    if not request.headers.get("content-type", "").startswith("multipart/form-data"):
        raise Refused(400, f"the request holds no file: choose {what} in the form and send it")
    parser = MultiPartParser(request.headers, _counted(stream, limit), max_files=max_files, max_fields=max_fields)
    try:
        return await parser.parse()
    except _TooLarge:
        await _drain(stream, DRAIN)
        raise too_large from None
    except MultiPartException as exc:
        raise Refused(400, f"the form could not be read ({exc})") from None


async def _drain(stream: AsyncIterator[bytes], declared: int) -> None:
    """Read and drop the rest of a refused body, up to ``DRAIN`` bytes: a browser still sending its file reads the
    413 page instead of a reset connection. Past that the connection is closed on the sender (a reset)."""
    if declared > DRAIN:
        return
    total = 0
    async for chunk in stream:
        total += len(chunk)
        if total > DRAIN:
            return


def read_file(upload, cap: int, what: str) -> bytes:
    """An uploaded file's bytes, read in ``CHUNK`` pieces from its spooled file (blocking: call it off the loop);
    Refused(413) past ``cap``."""
    handle = upload.file
    handle.seek(0)
    parts, total = [], 0
    while True:
        chunk = handle.read(CHUNK)
        if not chunk:
            return b"".join(parts)
        total += len(chunk)
        if total > cap:
            raise Refused(413, f"{what} is larger than {_size(cap)}, the most this page takes; nothing was stored",
                          title="Too large")
        parts.append(chunk)


def _size(n: int) -> str:
    return f"{n / 1_000_000:g} MB" if n >= 1_000_000 else f"{n // 1000} kB"
