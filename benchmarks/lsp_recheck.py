"""How long `pogdsl lsp` takes to check the project again after a keystroke.

What the server does on each change (after its 0.3 s pause): the whole
project compiled with the edited buffer's text in place of its file, and
the analysis its answers come from (pogdsl/lsp/server.py).  Measured in
process, the parse cache warm (as it is after the first check): each run
edits one card's text (a new comment, so its parse is not cached), then
compiles and analyses.  Printed: the median and the best, split into the
compilation and the analysis, and the CPU time (what a busy machine's wall
clock hides).

    python benchmarks/lsp_recheck.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # (this checkout's pogdsl, not an installed one)


def main() -> None:
    from pogdsl.lsp.analysis import analyse
    from pogdsl.lsp.server import compile_with_buffers

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    card = (ROOT / "cards" / "cp" / "01-guns-of-august.pog").resolve()
    text = card.read_text()
    compile_with_buffers(ROOT, {card: text})  # (the parse cache filled)
    compiled, analysed, cpu = [], [], []
    for run in range(args.runs):
        edited = text + f"\n# edit {run} {time.time()}\n"
        cpu_started = time.process_time()
        started = time.perf_counter()
        comp = compile_with_buffers(ROOT, {card: edited})
        middle = time.perf_counter()
        analyse(comp)
        compiled.append(middle - started)
        analysed.append(time.perf_counter() - middle)
        cpu.append(time.process_time() - cpu_started)
    total = [a + b for a, b in zip(compiled, analysed)]
    print(f"{len(comp.loaded.files)} files, {args.runs} runs")
    for name, times in (("recheck (compile + analyse)", total), ("  compile", compiled), ("  analyse", analysed),
                        ("recheck, CPU time", cpu)):
        print(f"{name:28} median {statistics.median(times):.2f} s, best {min(times):.2f} s")


if __name__ == "__main__":
    main()
