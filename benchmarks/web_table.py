"""The server's share of a decision's round trip in the browser (`pogdsl
serve`, pogdsl/web/table.py): the time from an answer received to the next
view built, on the Campaign, hot-seat, with seeded random picks among the
legal options — the same requests the page makes (POST /api/decide with the
board it has and the log it has), called in process, so the figures are the
server's alone (benchmarks/web_roundtrip.py measures the whole round trip in
Chromium).

Prints the 50th and 95th percentiles and the slowest of the decide calls,
how often the board had to be drawn again and the answers' sizes, and the
same for the hand-over (a seat's first view, which carries the whole board).

    python benchmarks/web_table.py [--scenario campaign] [--decisions N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout's pogdsl, not an installed one

from pogdsl.opening import open_scenario  # noqa: E402
from pogdsl.runtime.record import Session  # noqa: E402
from pogdsl.sim.stats import quantile  # noqa: E402
from pogdsl.web.table import Table  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenario", default="campaign")
    p.add_argument("--decisions", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)

    opened = open_scenario(args.scenario, ROOT)
    table = Table(Session.new(opened, args.seed), {s.key: "human" for s in opened.world.sides})
    picks = random.Random(args.seed)
    data = table.view()
    decide, handover, sizes, drawn = [], [], [], 0
    while len(decide) < args.decisions and data["decision"] is not None:
        d = data["decision"]
        if d["side"] != data["seat"]:  # the hand-over: the next seat's first view
            start = time.perf_counter()
            data = table.view(d["side"])
            handover.append(time.perf_counter() - start)
            d = data["decision"]
        legal = [o for o in d["options"] if o["legal"]]
        start = time.perf_counter()
        data = table.decide(d["id"], picks.choice(legal)["index"], d["side"], data["log_total"], data["board"]["id"])
        decide.append(time.perf_counter() - start)
        sizes.append(len(json.dumps(data)))
        drawn += data["board"]["svg"] is not None

    def line(name, times):
        ms = sorted(t * 1000 for t in times)
        return (f"{name}: {len(ms)} calls, p50 {quantile(ms, 0.5):.1f} ms, p95 {quantile(ms, 0.95):.1f} ms, "
                f"max {ms[-1]:.1f} ms")

    print(f"{args.scenario}, seed {args.seed}, hot-seat, random legal picks")
    print(line("decide (answer to next view)", decide))
    print(f"  the board drawn again after {drawn} of {len(decide)} decisions; answers p50 "
          f"{quantile(sorted(sizes), 0.5) / 1024:.0f} KiB, p95 {quantile(sorted(sizes), 0.95) / 1024:.0f} KiB")
    if handover:
        print(line("hand-over (a seat's first view)", handover))
    return 0


if __name__ == "__main__":
    sys.exit(main())
