"""How long `pogdsl check` takes on the project's own sources.

Three figures, each the median of several fresh processes:
  * cold, nothing cached: the grammar is analysed and every file parsed;
  * cold AST cache: the LALR tables are cached (as after the first run on a
    machine), every file is parsed;
  * warm: tables and parsed files are cached, only checking runs.
Also the in-process time of check alone (no interpreter start-up).

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


def run_check(cache: str) -> float:
    env = dict(os.environ, POGDSL_CACHE_DIR=cache)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pogdsl.cli", "check", "-q"], cwd=ROOT, env=env, check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
    files = sum(1 for d in ("rules", "cards", "scenarios") for _ in (ROOT / d).rglob("*.pog"))
    lines = sum(len(p.read_text().splitlines()) for d in ("rules", "cards", "scenarios")
                for p in (ROOT / d).rglob("*.pog"))
    cold, cold_ast, warm = [], [], []
    for _ in range(args.runs):
        cache = tempfile.mkdtemp(prefix="pogdsl-bench-")
        try:
            cold.append(run_check(cache))
            for stale in Path(cache).glob("ast-*.pickle"):
                stale.unlink()
            cold_ast.append(run_check(cache))
            warm.append(run_check(cache))
        finally:
            shutil.rmtree(cache, ignore_errors=True)
    cache = tempfile.mkdtemp(prefix="pogdsl-bench-")
    median_in, best_in = in_process(cache)
    shutil.rmtree(cache, ignore_errors=True)
    base = statistics.median(startup() for _ in range(args.runs))
    print(f"sources: {files} files, {lines} lines")
    print(f"python start-up alone:            {base * 1000:7.0f} ms")
    print(f"check, cold (nothing cached):      {statistics.median(cold) * 1000:7.0f} ms")
    print(f"check, cold (LALR tables cached):  {statistics.median(cold_ast) * 1000:7.0f} ms")
    print(f"check, warm (tables + ASTs):       {statistics.median(warm) * 1000:7.0f} ms")
    print(f"check in-process, warm:            {median_in * 1000:7.0f} ms (best {best_in * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
