"""How long `pogdsl lsp` takes to check the project again after a keystroke.

What the server does on each change (after its 0.3 s pause): the whole
project compiled with the edited buffer's text in place of its file, and
the analysis its answers come from (pogdsl/lsp/server.py).  Measured in
process, the parse cache warm (as it is after the first check): each run
edits one card's text (a new comment, so its parse is not cached), then
compiles and analyses.  Printed: the median and the best, split into the
compilation and the analysis, and the CPU time (what a busy machine's wall
clock hides).  With --server, also what an editor waits: `python -m
pogdsl.cli lsp` started, the card opened, then each run's change sent and
the time until its diagnostics arrive (the 0.3 s pause included).

    python benchmarks/lsp_recheck.py [--runs N] [--server]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
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
    parser.add_argument("--server", action="store_true", help="also time each change through `pogdsl lsp`")
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
    if args.server:
        times = through_server(card, text, args.runs)
        print(f"{'change → diagnostics (server)':28} median {statistics.median(times):.2f} s, best {min(times):.2f} s")


def through_server(card: Path, text: str, runs: int) -> list[float]:
    """Seconds from each didChange to its publishDiagnostics, over stdio."""
    server = subprocess.Popen([sys.executable, "-m", "pogdsl.cli", "lsp"], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    uri = card.as_uri()

    def send(message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    def until_diagnostics() -> None:
        while True:
            length = 0
            while (line := server.stdout.readline().strip()):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(server.stdout.read(length))
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
                return

    try:
        send({"id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None}})
        send({"method": "initialized", "params": {}})
        send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "pog", "version": 1, "text": text}}})
        until_diagnostics()
        times = []
        for run in range(runs):
            started = time.perf_counter()
            send({"method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": run + 2},
                "contentChanges": [{"text": text + f"\n# edit {run}\n"}]}})
            until_diagnostics()
            times.append(time.perf_counter() - started)
        return times
    finally:
        server.kill()
        server.wait()


if __name__ == "__main__":
    main()
