"""Server time per answer on the web page, with 20 games in progress.

One answer = the POST of the person's answer (checked, stored in the SQLite file, the robot's reply played
up to the person's next question) followed by the GET of the page showing that next question: what the
person waits for. Server time is measured by calling the whole ASGI app (routing, form parsing, the
game, the store, the templates) directly on one asyncio loop, as uvicorn does, without a network or
TestClient's thread hand-offs; games are answered round-robin, and a finished game is replaced by a new
one (not timed). Reports wall-clock p50/p99/max per answer and CPU time per answer (process_time), for
the POST alone and for POST + GET.

    .venv/bin/python benchmarks/web_answers.py                      # the toy game of tests/toygame.py
    .venv/bin/python benchmarks/web_answers.py --game sfb --answers 400 --scenario 6   # the game's set-up flags
    .venv/bin/python benchmarks/web_answers.py --cache 8            # fewer live games than in progress:
                                                                    # every answer rebuilds its game by replay
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def register_toy() -> str:
    from paperrobot.core import registry
    from tests.toygame import Counting
    registry.register(registry.GameInfo(
        "counting", "Counting", Counting.sides, "robot",
        (registry.SetupOption("target", "total to reach", 7, "int", low=2, high=500),), Counting, lambda: None))
    return "counting"


class Response:
    def __init__(self, status: int, headers: dict, body: bytes):
        self.status_code, self.headers, self.text = status, headers, body.decode("utf-8", "replace")


class Asgi:
    """Calls an ASGI app directly, one request at a time, on one event loop (what uvicorn does per request)."""

    def __init__(self, app):
        import asyncio
        self.app, self.loop = app, asyncio.new_event_loop()

    def post(self, path: str, data: dict, follow_redirects: bool = False) -> Response:
        from urllib.parse import urlencode
        body = urlencode(data).encode()
        return self.loop.run_until_complete(self._call("POST", path, body, [
            (b"content-type", b"application/x-www-form-urlencoded"), (b"content-length", str(len(body)).encode())]))

    def get(self, path: str) -> Response:
        return self.loop.run_until_complete(self._call("GET", path, b"", []))

    async def _call(self, method: str, path: str, body: bytes, headers: list) -> Response:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
                 "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
                 "root_path": "", "headers": [(b"host", b"127.0.0.1")] + headers,
                 "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 8000), "state": {}}
        sent = [False]
        out = {"status": 0, "headers": {}, "body": []}

        async def receive():
            if not sent[0]:
                sent[0] = True
                return {"type": "http.request", "body": body, "more_body": False}
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                out["status"] = message["status"]
                out["headers"] = {k.decode().lower(): v.decode() for k, v in message.get("headers", [])}
            elif message["type"] == "http.response.body":
                out["body"].append(message.get("body", b""))

        await self.app(scope, receive, send)
        return Response(out["status"], out["headers"], b"".join(out["body"]))


def form_fields(setup: dict) -> dict:
    """A checked set-up as the start form posts it (web/forms.py): o.NAME, a yes/no option's 'no' as b.NAME alone."""
    fields = {}
    for name, value in setup.items():
        if isinstance(value, bool):
            fields[f"o.{name}" if value else f"b.{name}"] = "on"
        else:
            fields[f"o.{name}"] = str(value)
    return fields


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False,
                                     epilog="The game's set-up flags as under every verb (--scenario 6; paperrobot "
                                            "battle GAME --help lists them).")
    parser.add_argument("--game", default="counting", help="a registered game, or 'counting' (the toy)")
    parser.add_argument("--games", type=int, default=20, help="games in progress")
    parser.add_argument("--answers", type=int, default=2000)
    parser.add_argument("--cache", type=int, default=64, help="live games kept in memory")
    args, rest = parser.parse_known_args(argv)

    from paperrobot.cli.setup_flags import setup_from_args
    from paperrobot.core.errors import PaperRobotError
    from paperrobot.web.app import create_app
    if args.game == "counting":
        register_toy()
    try:  # the same flags and checks as every verb (cli/setup_flags.py)
        setup = form_fields({**({"target": 400} if args.game == "counting" else {}),
                             **setup_from_args(args.game, rest)})
    except PaperRobotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    folder = tempfile.mkdtemp(prefix="paperrobot-web-bench-")
    app = create_app(Path(folder) / "web.sqlite", capacity=args.cache)
    client = Asgi(app)
    live_games = app.state.games
    seed = [0]

    def start() -> int:
        seed[0] += 1
        response = client.post("/games", data={"game": args.game, "seed": str(seed[0]), **setup},
                               follow_redirects=False)
        assert response.status_code == 303, response.text[-1500:]
        return int(response.headers["location"].rsplit("/", 1)[1])

    games = [start() for _ in range(args.games)]
    post_times, total_times, cpu_post, cpu_total = [], [], [], []
    done = 0
    turn = 0
    while done < args.answers:
        slot = turn % len(games)
        turn += 1
        game_id = games[slot]
        with live_games.lock:  # choose the answer (not timed): the suggested one
            request = live_games.live(game_id).request
            if request is None:
                games[slot] = start()
                continue
            default = request.default
            data = {"seq": str(request.seq)}
            if isinstance(default, dict):
                for name, value in default.items():
                    data[f"f.{name}"] = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            else:
                data["choice"] = str(default)
        if args.cache < args.games:
            live_games.forget(game_id)  # as if evicted: the answer pays the rebuild
        wall, cpu = time.perf_counter(), time.process_time()
        response = client.post(f"/games/{game_id}/answer", data=data, follow_redirects=False)
        wall_post, cpu_mid = time.perf_counter(), time.process_time()
        page = client.get(f"/games/{game_id}")
        wall_end, cpu_end = time.perf_counter(), time.process_time()
        assert response.status_code == 303, response.text[-1500:]
        assert page.status_code == 200
        post_times.append(wall_post - wall)
        total_times.append(wall_end - wall)
        cpu_post.append(cpu_mid - cpu)
        cpu_total.append(cpu_end - cpu)
        done += 1

    def ms(values, q):
        ordered = sorted(values)
        return 1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    print(f"{args.game}: {done} answers over {args.games} games in progress (live cache {args.cache}); "
          f"database {folder}/web.sqlite")
    for name, values, cpu in (("POST answer (+ robot reply + store)", post_times, cpu_post),
                              ("POST + GET next question page", total_times, cpu_total)):
        print(f"  {name:<38} p50 {ms(values, .5):6.2f} ms  p99 {ms(values, .99):6.2f} ms  "
              f"max {1000 * max(values):6.2f} ms  cpu mean {1000 * statistics.fmean(cpu):5.2f} ms "
              f"p99 {ms(cpu, .99):6.2f} ms")
    p99 = ms(total_times, .99)
    print(f"  target p99 < 50 ms: {'met' if p99 < 50 else 'NOT met'} ({p99:.2f} ms wall; {ms(cpu_total, .99):.2f} ms "
          f"CPU; wall includes waiting for the CPU on a busy machine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
