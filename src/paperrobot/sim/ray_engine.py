"""The Ray engine: the same chunks as the local engine, as Ray tasks, on this machine or a cluster.

``RayEngine(jobs, address)`` connects to ``address`` (or the ``RAY_ADDRESS`` environment variable, e.g.
``ray://head:10001`` or ``auto``); with neither it starts a local Ray with ``jobs`` CPUs and stops it when
closed. Each task runs ``chunks.play_chunk`` on one chunk, which carries the game's parameters with it, so a
row depends only on (play, level, seed) and equals the local engine's bit for bit. Results are consumed in
completion order with ``ray.wait``, with a bounded number of tasks in flight.

Needs the ``ray`` extra (``bash scripts/setup-ray``) here and PaperRobot installed on every node of a
cluster (docs/balance.md).
"""
from __future__ import annotations

import os
from typing import Iterator, Sequence

from ..core.errors import PaperRobotError
from ..core.extras import needs_extra
from .chunks import Chunk, Row, play_chunk


class RayEngine:
    name = "ray"

    def __init__(self, jobs: int = 1, address: str | None = None, in_flight: int | None = None):
        try:
            import ray
        except ImportError:
            raise PaperRobotError(needs_extra("--engine ray", "ray", "ray", "bash scripts/setup-ray")) from None
        self.ray = ray
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.jobs = max(1, int(jobs))
        self._started = False
        if not ray.is_initialized():
            try:
                if self.address:
                    # Ray Client (ray://) takes fewer init options; workers' output stays on their nodes
                    extra = {} if self.address.startswith("ray://") else {"log_to_driver": False}
                    ray.init(address=self.address, **extra)
                else:
                    ray.init(num_cpus=self.jobs, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError) as exc:
                where = f"reach the Ray cluster at {self.address}" if self.address else "start a local Ray"
                raise PaperRobotError(f"cannot {where}: {str(exc).splitlines()[0] if str(exc) else exc!r}") from None
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", self.jobs))
        self.in_flight = in_flight or max(4, 2 * cpus)
        self._task = ray.remote(num_cpus=1)(play_chunk)

    def map(self, chunks: Sequence[Chunk]) -> Iterator[list[Row]]:
        ray = self.ray
        queue = list(chunks)
        queue.reverse()
        pending = []
        try:
            while queue or pending:
                while queue and len(pending) < self.in_flight:
                    pending.append(self._task.remote(queue.pop()))
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    yield [Row(*row) for row in ray.get(ref)]
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise

    def close(self, abort: bool = False) -> None:
        if self._started and self.ray.is_initialized():
            self.ray.shutdown()
            self._started = False

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        self.close(abort=kind is not None)
