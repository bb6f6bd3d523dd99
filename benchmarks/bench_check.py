"""How long `pogdsl check` takes on the project's own sources.

Each figure is the median and the best of several fresh processes
(`pogdsl check -q`):

  * cold: an empty cache folder — nothing parsed, nothing checked before.  The
    LALR tables ship with the package, so this is every file parsed (by two
    processes where there are two cores) and the whole project checked;
  * one file edited: the result cache misses, the parsed files are cached,
    the edited file is parsed again and everything is checked;
  * warm: nothing changed since the last check, the result is replayed;
  * --no-cache: the result cache bypassed, parsed files cached.

Also the bare interpreter start-up (`python -c pass`), which every figure
includes, and the in-process time of the whole check with the parsed files
cached (no start-up, no imports).

    python benchmarks/bench_check.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_check(cache: str, *extra: str, root: Path = ROOT) -> float:
    env = dict(os.environ, POGDSL_CACHE_DIR=cache)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pogdsl.cli", "check", "-q", "--root", str(root), *extra],
                   cwd=ROOT, env=env, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def startup() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def in_process(cache: str) -> tuple[float, float]:
    os.environ["POGDSL_CACHE_DIR"] = cache
    from pogdsl.compiler import compile_paths

    compile_paths(root=ROOT)  # warm every cache and import
    times = []
    for _ in range(5):
        start = time.perf_counter()
        compile_paths(root=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sources = [p for d in ("rules", "cards", "scenarios") for p in (ROOT / d).rglob("*.pog")]
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in sources)
    figures: dict[str, list[float]] = {"cold": [], "edited": [], "warm": [], "no_cache": []}
    for _ in range(args.runs):
        cache = tempfile.mkdtemp(prefix="pogdsl-bench-")
        work = Path(tempfile.mkdtemp(prefix="pogdsl-bench-src-"))
        try:
            for sub in ("rules", "cards", "scenarios"):
                shutil.copytree(ROOT / sub, work / sub)
            figures["cold"].append(run_check(cache, root=work))
            edited = work / "rules" / "12-combat.pog"
            edited.write_text(edited.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
            figures["edited"].append(run_check(cache, root=work))
            figures["warm"].append(run_check(cache, root=work))
            figures["no_cache"].append(run_check(cache, "--no-cache", root=work))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
            shutil.rmtree(work, ignore_errors=True)
    cache = tempfile.mkdtemp(prefix="pogdsl-bench-")
    median_in, best_in = in_process(cache)
    shutil.rmtree(cache, ignore_errors=True)
    base = statistics.median(startup() for _ in range(args.runs))

    def show(label: str, key: str) -> None:
        value, best = statistics.median(figures[key]), min(figures[key])
        print(f"{label:<38}{value * 1000:7.0f} ms  best {best * 1000:5.0f} ms   "
              f"(median without start-up {max(0.0, value - base) * 1000:5.0f} ms)")

    # The machines are shared: the best of several runs is the figure least
    # disturbed by other work; the median says what a user usually waits.
    print(f"sources: {len(sources)} files, {lines} lines; {os.cpu_count()} cores; {args.runs} runs")
    print(f"{'python start-up alone':<38}{base * 1000:7.0f} ms")
    show("check, cold (empty cache)", "cold")
    show("check, one file edited", "edited")
    show("check, warm (nothing changed)", "warm")
    show("check --no-cache (parsed files cached)", "no_cache")
    print(f"{'check in-process, parsed files cached':<38}{median_in * 1000:7.0f} ms  best {best_in * 1000:5.0f} ms")


if __name__ == "__main__":
    main()
