"""The Results page's routes: ``simulate``'s results files and ``balance --out`` folders, read only, with each
sweep's plot drawn as an SVG image (matplotlib, off the event loop)."""
from __future__ import annotations

from typing import Callable

from fastapi import FastAPI, Request as HttpRequest
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ..core.errors import PaperRobotError
from .results import open_results
from .sweeps import open_sweeps, sweep_folder, sweep_svg


def add_routes(app: FastAPI, page: Callable[..., HTMLResponse]) -> None:
    # ------------------------------------------------------------------ Results
    @app.get("/results", response_class=HTMLResponse)
    async def results(request: HttpRequest, path: str = ""):
        runs, sweeps, error = None, None, ""
        if path:
            try:
                folder = sweep_folder(path)
                if folder is not None:  # a balance --out folder (or its balance.sqlite): the sweeps' reports
                    sweeps = open_sweeps(folder)
                else:
                    runs = open_results(path)
            except PaperRobotError as exc:
                error = str(exc)
        return page(request, "results.html", 200 if not error else 400, path=path, runs=runs, sweeps=sweeps,
                    error=error)

    @app.get("/results/plot.svg")
    async def sweep_plot(path: str, name: str):
        folder = sweep_folder(path)
        if folder is None:
            raise PaperRobotError(f"{path[:200]}: not a folder of balance reports")
        svg = await run_in_threadpool(sweep_svg, folder, name)  # matplotlib: off the event loop
        # drawn here, but an image all the same: no scripts, no sniffing
        return Response(svg, media_type="image/svg+xml", headers={
            "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
            "X-Content-Type-Options": "nosniff"})

