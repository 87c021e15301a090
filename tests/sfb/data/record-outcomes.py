"""Record outcomes and log digests of the sfb engine (run it on the old commit: PYTHONPATH=<checkout>/src).

    python tests/sfb/data/record-outcomes.py OUT.json
"""
import hashlib, json, sys
from paperrobot import sfb
from paperrobot.core.events import EventLog

CONFIGS = []
for s in range(300): CONFIGS.append(("5", "policy", None, None, {}, s))
for s in range(100): CONFIGS.append(("5", "robot", None, None, {}, s))
for sc in ("4", "6", "6k", "6kr", "6k-kr"):
    for s in range(40): CONFIGS.append((sc, "policy", None, None, {}, s))
    for s in range(20): CONFIGS.append((sc, "robot", None, None, {}, s))
for s in range(40): CONFIGS.append(("5", "policy", None, None, {"impulses": 8}, s))
for s in range(40): CONFIGS.append(("4", "policy", None, None, {"impulses": 8, "robots": 2}, s))
for s in range(40): CONFIGS.append(("5", "robot", None, None, {"tiebreak": "coin"}, s))
for s in range(30): CONFIGS.append(("6", "policy", None, None, {"plasma_f": "cth", "evade": "plasma"}, s))
ships = ("federation", "klingon", "romulan-eagle", "romulan-kr", "kzinti", "gorn", "orion")
for i, r in enumerate(ships):
    for j, p in enumerate(ships):
        for opp in ("policy", "robot"):
            CONFIGS.append(("duel", opp, r, p, {}, i * 7 + j))

def run(cfg, logged):
    sc, opp, r, p, opts, seed = cfg
    log = EventLog(enabled=logged)
    game = sfb.new_game(sc, seed=seed, robot_ship=r, player_ship=p, opponent=opp, log=log, options=opts or None)
    o = game.run()
    return o, (hashlib.sha256(log.to_jsonl().encode()).hexdigest() if logged else None)

out = []
for cfg in CONFIGS:
    o, _ = run(cfg, False)
    o2, dig = run(cfg, True)
    assert o.to_dict() == o2.to_dict(), cfg
    out.append({"cfg": list(cfg), "outcome": o.to_dict(), "log": dig})
json.dump(out, open(sys.argv[1], "w"), indent=0)
print(len(out))
