"""A decision's round trip in the browser: from the click on an option to the
redrawn page, on the Campaign, over many decisions (the aim: 100 ms at the
95th percentile).

`pogdsl serve SCENARIO --ap human --cp human` runs as a subprocess (hot-seat:
every decision is a person's, so no computer player's thinking is counted);
Debian's Chromium, driven by Playwright as in tests/browser/, opens its page.
Each decision, a legal option drawn by a seeded generator is clicked *inside
the page* (so Playwright's own messages are not timed) and the clock stops at
the first frame after the page shows the next decision: the request, the
server's answer, the JSON parsed, the board's SVG put in the page when it
changed, the option list and the log redrawn, and the frame painted.  When the
next decision is the other person's, the hand-over screen is clicked through
(timed apart: it loads the whole page for the new seat, board and log).

Printed: p50, p95 and max of the round trip, and where the time goes, from
the browser's Resource Timing of each request: the request (sent to the last
byte of the answer: the server's work and the transfer), the page (from the
last byte to the painted frame: JSON parsing and the DOM), the answer's size,
and how often the answer carried a new board.  The page's main thread's busy
time in each round trip (Chromium's own counters: all its tasks, and the
script, style and layout among them, which includes the click's own
handling and the decoded answer) is time spent working, not waiting for a
core: on a busy machine it says what the page costs where the wall-clock
figures cannot; so does the CPU time the server and Chromium's processes
(all of them: the page, the compositor, the raster threads) used in each
round trip (from /proc, on Linux; a clock tick is 10 ms, so single figures
are coarse and the percentiles of many are what to read).  The server's share alone,
in process: benchmarks/web_table.py.

    python benchmarks/web_roundtrip.py                     # campaign, 200 decisions
    python benchmarks/web_roundtrip.py --decisions 500 --seed 3 --json

Chromium is /usr/bin/chromium (POGDSL_CHROMIUM names another).  The load
average is printed before and after: on a machine busy with other work the
figures are noise; measure on a quiet one.  Timings are printed, never
asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("POGDSL_CHROMIUM", "/usr/bin/chromium")
# As tests/browser/conftest.py launches it (why the switches: see there).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# One decision, timed in the page: click the option, wait for the next
# decision on the page, then for the next frame (the page painted).
CLICK_AND_WAIT = """async (index) => {
  const decision = document.getElementById('decision');
  const old = decision.dataset.decisionId;
  const done = () => decision.dataset.decisionId !== old && !document.body.classList.contains('busy');
  const shown = new Promise((resolve) => {
    const watch = new MutationObserver(() => { if (done()) { watch.disconnect(); resolve(); } });
    watch.observe(document.body, {attributes: true, subtree: true, attributeFilter: ['data-decision-id', 'class']});
  });
  performance.clearResourceTimings();
  const boardBefore = document.getElementById('board').dataset.boardId;
  const t0 = performance.now();
  document.querySelector(`#options button[data-option="${index}"]`).click();
  const late = new Promise((resolve) => setTimeout(() => resolve('late'), 30000));
  if (await Promise.race([shown, late]) === 'late') {
    return {error: document.getElementById('message').textContent || 'no next decision within 30 s'};
  }
  await new Promise((r) => requestAnimationFrame(() => r()));
  const t1 = performance.now();
  const api = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/'));
  const last = api[api.length - 1];
  return {ms: t1 - t0, request: last ? last.responseEnd - last.startTime : null,
          page: last ? t1 - last.responseEnd : null, bytes: last ? last.decodedBodySize : null,
          requests: api.length, board: document.getElementById('board').dataset.boardId !== boardBefore};
}"""

LEGAL = "() => [...document.querySelectorAll('#options button[data-legal=\"yes\"]')].map(b => Number(b.dataset.option))"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(scenario: str, seed: int, port: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "pogdsl.cli", "serve", scenario, "--ap", "human", "--cp", "human",
               "--seed", str(seed), "--port", str(port)]
    proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server ended: {proc.stderr.read().decode(errors='replace')}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not answer within 120 s")


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile, nearest rank (a figure that was measured)."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def summary(values: list[float]) -> dict:
    return {"p50": round(percentile(values, 50), 1), "p95": round(percentile(values, 95), 1),
            "max": round(max(values), 1)}


def wait_for_options(page) -> None:
    page.wait_for_function("() => document.querySelectorAll('#options button[data-legal=\"yes\"]').length > 0 "
                           "|| !document.getElementById('handover').hidden || "
                           "!document.getElementById('result').hidden", timeout=60_000)


def hand_over(page) -> float:
    """Click through the hand-over screen; the milliseconds until the new
    seat's options are painted."""
    start = time.perf_counter()
    page.click("#handover-go")
    page.wait_for_function("() => document.getElementById('handover').hidden && "
                           "document.querySelectorAll('#options button[data-legal=\"yes\"]').length > 0",
                           timeout=60_000)
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() => r()))")
    return (time.perf_counter() - start) * 1000


def main_thread_ms(cdp) -> dict[str, float]:
    """The page's main thread's busy time so far (Chromium's Performance
    domain): all its tasks, and the script, style and layout among them."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {k: metrics.get(k, 0.0) * 1000 for k in ("TaskDuration", "ScriptDuration", "RecalcStyleDuration",
                                                     "LayoutDuration")}


def cpu_ms(server_pid: int) -> dict[str, float] | None:
    """CPU time used so far (user + system, /proc: Linux only) by the server
    and by Chromium's processes (this process's descendants named chrom*),
    None where /proc is not there: time spent working, whatever the load."""
    stats = {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = entry.read_text()
        except OSError:
            continue  # a process that ended meanwhile
        name = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()
        stats[int(entry.parent.name)] = (name, int(fields[1]), (int(fields[11]) + int(fields[12])))
    if not stats:
        return None

    def tree(pid: int) -> set[int]:
        found, todo = set(), [pid]
        while todo:
            p = todo.pop()
            found.add(p)
            todo += [c for c, (_, parent, _) in stats.items() if parent == p and c not in found]
        return found

    tick = os.sysconf("SC_CLK_TCK")
    server = tree(server_pid)
    browser = {p for p in tree(os.getpid()) - server if stats[p][0].startswith("chrom")}
    return {"server": sum(stats[p][2] for p in server if p in stats) * 1000 / tick,
            "browser": sum(stats[p][2] for p in browser) * 1000 / tick}


def play(url: str, decisions: int, seed: int, viewport: tuple[int, int], server_pid: int) -> dict:
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed)
    rows, handovers = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto(url)
        wait_for_options(page)
        while len(rows) < decisions:
            if page.is_visible("#handover"):
                handovers.append(hand_over(page))
                continue
            if page.is_visible("#result"):
                break  # the game is over
            legal = page.evaluate(LEGAL)
            if not legal:
                raise SystemExit(f"no option to click: {page.inner_text('#message')}")
            before, cpu_before = main_thread_ms(cdp), cpu_ms(server_pid)
            row = page.evaluate(CLICK_AND_WAIT, rng.choice(legal))
            if "error" in row:
                raise SystemExit(f"decision {len(rows) + 1}: {row['error']}")
            after, cpu_after = main_thread_ms(cdp), cpu_ms(server_pid)
            row["main_thread"] = {k: after[k] - before[k] for k in after}
            row["cpu"] = {k: cpu_after[k] - cpu_before[k] for k in cpu_after} if cpu_before else None
            rows.append(row)
            wait_for_options(page)
        browser.close()
    return {"rows": rows, "handovers": handovers}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="campaign")
    ap.add_argument("--decisions", type=int, default=200, help="decisions clicked and timed (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="the game's seed and the option picker's (default 1)")
    ap.add_argument("--viewport", default="1600x1000", help="the page's size, WIDTHxHEIGHT (default 1600x1000)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if not os.access(CHROMIUM, os.X_OK):
        raise SystemExit(f"no Chromium at {CHROMIUM}: apt-get install chromium, or set POGDSL_CHROMIUM")
    viewport = tuple(int(v) for v in args.viewport.lower().split("x"))

    port = free_port()
    before = load()
    proc = start_server(args.scenario, args.seed, port)
    try:
        played = play(f"http://127.0.0.1:{port}/", args.decisions, args.seed, viewport, proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    rows = played["rows"]
    with_board = [r for r in rows if r["board"]]
    result = {
        "scenario": args.scenario, "seed": args.seed, "decisions": len(rows), "viewport": args.viewport,
        "round_trip_ms": summary([r["ms"] for r in rows]),
        "request_ms": summary([r["request"] for r in rows if r["request"] is not None]),
        "page_ms": summary([r["page"] for r in rows if r["page"] is not None]),
        "page_main_thread_ms": summary([r["main_thread"]["TaskDuration"] for r in rows]),
        "page_script_ms": summary([r["main_thread"]["ScriptDuration"] for r in rows]),
        "page_style_and_layout_ms": summary([r["main_thread"]["RecalcStyleDuration"] + r["main_thread"]["LayoutDuration"]
                                             for r in rows]),
        "answer_kb": summary([r["bytes"] / 1024 for r in rows if r["bytes"] is not None]),
        "with_new_board": len(with_board),
        "round_trip_ms_with_new_board": summary([r["ms"] for r in with_board]) if with_board else None,
        "round_trip_ms_same_board": summary([r["ms"] for r in rows if not r["board"]])
        if len(with_board) < len(rows) else None,
        "server_cpu_ms": summary([r["cpu"]["server"] for r in rows]) if rows[0]["cpu"] else None,
        "chromium_cpu_ms": summary([r["cpu"]["browser"] for r in rows]) if rows[0]["cpu"] else None,
        "hand_overs": len(played["handovers"]),
        "hand_over_ms": summary(played["handovers"]) if played["handovers"] else None,
        "load_before": before, "load_after": load(),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{args.scenario}, seed {args.seed}: {len(rows)} decisions clicked in Chromium ({args.viewport})")
    for key, label in [("round_trip_ms", "round trip (click to painted page), ms"),
                       ("round_trip_ms_with_new_board", f"  of which with a new board ({len(with_board)}), ms"),
                       ("round_trip_ms_same_board", "  of which with the same board, ms"),
                       ("request_ms", "request (to the answer's last byte), ms"),
                       ("page_ms", "page (last byte to painted frame), ms"),
                       ("page_main_thread_ms", "  the page's main thread busy, ms"),
                       ("page_script_ms", "    of which script, ms"),
                       ("page_style_and_layout_ms", "    of which style and layout, ms"),
                       ("server_cpu_ms", "CPU time of the server, ms"),
                       ("chromium_cpu_ms", "CPU time of Chromium (all processes), ms"),
                       ("answer_kb", "answer size, KiB"),
                       ("hand_over_ms", f"hand-over to the other seat ({result['hand_overs']}), ms")]:
        figures = result[key]
        if figures:
            print(f"  {label:<44} p50 {figures['p50']:>8}  p95 {figures['p95']:>8}  max {figures['max']:>8}")
    print(f"  load average before: {before}; after: {result['load_after']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
