"""The README's main job, run as a newcomer runs it, and the README kept true to it.

    python benchmarks/readme.py             # run the job, write benchmarks/results/readme.json
    python benchmarks/readme.py --update    # rewrite README.md and docs/quickstart.rst from that record
    python benchmarks/readme.py --check     # exit 1 if they do not say what the record says

A run reads the commands out of README.md, as written there (the code line
after each `<!-- readme.py: command NAME -->`), copies the checkout as a
fresh clone would be (no build products, no caches), makes a fresh virtual
environment with this interpreter (or `--python`), and runs each part of
each command (split at ` && `) with bash in the copy: the main job (install,
check, simulate), then the opt-in compile step (`--no-native` leaves it
out).  pogdsl's cache and matplotlib's are empty, as on a fresh machine;
pip's cache is used unless `--no-pip-cache` (then pip fetches every package
again from its indexes).  It records each part's wall time, the output of
the main job after its install, the machine (cores, CPU, the Python build,
whether the runtime ran compiled, the load average before and after, pip's
cache) and, to tell when the record is stale, the digest of the job's first
two games (`simulate ... --games 2 --json`: the final state of each).

`--update` then rewrites, in README.md and docs/quickstart.rst, the block
after `readme.py: output main-job` (the recorded output) and the paragraph
after `readme.py: timing` (the figures, rounded, with the machine).
tests/test_readme.py checks that both files say what the record says, that
the record was made from the commands as written, that no other timing is
written in them by hand, and that the job's first two games still end as
recorded: after a change to the rules, the players or the command, run this
again, then `--update`.

Timings are recorded, never asserted: the test checks only that the text
says what the record says.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
QUICKSTART = ROOT / "docs" / "quickstart.rst"
RECORD = ROOT / "benchmarks" / "results" / "readme.json"

COMMANDS = ("main-job", "native-step", "test-suite")  # the commands marked in README.md
RUN = ("main-job", "native-step")  # the ones a run times (the test suite takes minutes and is CI's)
PREFIX_GAMES = 2  # games replayed to tell whether the record is stale


class ReadmeError(Exception):
    """A marker missing or misplaced, a command that failed: one line."""


# ------------------------------------------------------------------ the marked regions
class Page:
    """README.md or docs/quickstart.rst: the same markers, each file's own
    syntax (an HTML comment or an rst comment; code indented by 4, or in a
    code-block indented by 3; `x` or ``x`` for code in a sentence)."""

    def __init__(self, path: Path):
        self.path = path
        self.rst = path.suffix == ".rst"
        self.lines = path.read_text(encoding="utf-8").split("\n")

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def marker(self, what: str) -> str:
        return f".. readme.py: {what}" if self.rst else f"<!-- readme.py: {what} -->"

    def code(self, text: str) -> str:
        return f"``{text}``" if self.rst else f"`{text}`"

    def _after(self, what: str) -> int:
        """The index of the first non-blank line after the marker."""
        found = [i for i, line in enumerate(self.lines) if line.strip() == self.marker(what)]
        if len(found) != 1:
            raise ReadmeError(f"{self.path.name}: expected one line `{self.marker(what)}`, found {len(found)}")
        i = found[0] + 1
        while i < len(self.lines) and not self.lines[i].strip():
            i += 1
        return i

    def _code_block(self, what: str) -> tuple[int, int]:
        """The [start, end) lines of the indented block after the marker (in
        rst, after its `.. code-block::` line), trailing blank lines left out."""
        i = self._after(what)
        if self.rst:
            if not self.lines[i].startswith(".. code-block::"):
                raise ReadmeError(f"{self.path.name}: `{self.marker(what)}` must be followed by a code-block")
            i += 1
            while i < len(self.lines) and not self.lines[i].strip():
                i += 1
        start = end = i
        while end < len(self.lines) and (not self.lines[end].strip() or self.lines[end].startswith(" ")):
            end += 1
        while end > start and not self.lines[end - 1].strip():
            end -= 1
        if end == start:
            raise ReadmeError(f"{self.path.name}: no indented block after `{self.marker(what)}`")
        return start, end

    def command(self, name: str) -> str:
        start, end = self._code_block(f"command {name}")
        if end - start != 1:
            raise ReadmeError(f"{self.path.name}: the command {name} must be one line")
        return self.lines[start].strip().removeprefix("$ ")

    def output(self, name: str) -> str:
        start, end = self._code_block(f"output {name}")
        indent = len(self.lines[start]) - len(self.lines[start].lstrip(" "))
        return "\n".join(line[indent:] for line in self.lines[start:end])

    def set_output(self, name: str, output: str) -> None:
        start, end = self._code_block(f"output {name}")
        indent = " " * (3 if self.rst else 4)
        self.lines[start:end] = [indent + line if line else "" for line in output.rstrip("\n").split("\n")]

    def paragraph(self, what: str) -> str:
        start = self._after(what)
        end = start
        while end < len(self.lines) and self.lines[end].strip():
            end += 1
        return "\n".join(self.lines[start:end])

    def set_paragraph(self, what: str, text: str) -> None:
        start = self._after(what)
        end = start
        while end < len(self.lines) and self.lines[end].strip():
            end += 1
        self.lines[start:end] = text.split("\n")

    def save(self) -> None:
        self.path.write_text(self.text, encoding="utf-8")


def commands(page: Page) -> dict[str, str]:
    return {name: page.command(name) for name in COMMANDS}


def parts(command: str) -> list[str]:
    """A command line's parts, as bash runs them one after the other (only
    plain commands joined by ` && ` are taken: no pipe, redirection or list)."""
    pieces = [p.strip() for p in command.split(" && ")]
    for piece in pieces:
        tokens = list(shlex.shlex(piece, posix=True, punctuation_chars=True))
        if not tokens or any(set(t) <= set("();<>|&") for t in tokens):
            raise ReadmeError(f"the command {command!r} must be plain commands joined by ` && `")
    return pieces


# ------------------------------------------------------------------ what the text says
def timing_paragraph(record: dict, page: Page) -> str:
    """The sentences with the recorded figures, in the page's syntax,
    wrapped as the page's prose is."""
    m = record["machine"]
    code = page.code
    install, *job = record["runs"]["main-job"]["steps"]
    named = [f"{code(' '.join(shlex.split(step['part'])[:2]))} {_took(step)}" for step in job]
    shared = " shared with other work" if m["load_before"] >= 1 else ""
    text = (f"Measured by {code('benchmarks/readme.py')} on {record['date']} in a fresh virtual environment: "
            f"the install took {_took(install, ' of processor time')}, {', '.join(named[:-1])} and {named[-1]}, "
            f"{m['runtime']}")
    native = record["runs"].get("native-step")
    if native:
        text += ("; the compile step then took "
                 + " and ".join(f"{code(step['part'])} {_took(step)}" for step in native["steps"]))
    text += (f"; on {m['cores']} cores ({m['cpu']}){shared} (load average {m['load_before']:.1f} at the start, "
             f"{m['load_after']:.1f} at the end), {_python_said(m['python'], code)}, {_pip_said(m['pip'])}.")
    if shared:
        parallel = [code(" ".join(shlex.split(step["part"])[:2])) for name in ("main-job", "native-step")
                    for step in record["runs"].get(name, {}).get("steps", []) if step["part"].startswith("pogdsl ")
                    and step["part"].split()[1] in ("simulate", "build-native")]
        text += (" On a quiet machine the wall times come near the processor times"
                 + (f", divided by the {m['cores']} cores for {' and '.join(parallel)}, which use them all"
                    if parallel and m["cores"] > 1 else "") + ".")
    return _wrap(text, 78 if page.rst else 90)


def _took(step: dict, note: str = "") -> str:
    """Wall time, then processor time (hardly moved by other work on a
    shared machine)."""
    return f"{_seconds(step['seconds'])} ({_seconds(step['cpu_seconds'])}{note})"


def _seconds(value: float) -> str:
    """A time as it is worth saying: whole seconds (a run on a shared machine
    varies by more than that)."""
    return f"{value:.0f} s"


def _python_said(python: dict, code) -> str:
    build = "an optimised build" if python["optimized"] else f"built without {code('--enable-optimizations')}"
    return f"{python['implementation']} {python['version']} ({code(python['base'])}, {build})"


def _pip_said(pip: dict) -> str:
    where = [f"{pip[k]} {what}" for k, what in (("cached", "from its cache"), ("local", "from local files"),
                                                  ("downloaded", "downloaded")) if pip.get(k)]
    fetched = ", ".join(where) or "none fetched"
    return f"pip's cache {'on' if pip['cache'] else 'off'} (of {pip['packages']} packages, {fetched})"


def _wrap(text: str, width: int) -> str:
    """Lines of at most `width` characters, broken at spaces outside code
    spans (a code span broken across lines would not read as typed), never
    between a number and its unit."""
    words = []
    for word in re.findall(r"(?:``[^`]*``|`[^`]*`|[^\s`])+", text):
        if words and re.match(r"s\b", word) and re.fullmatch(r"\(?\d+", words[-1]):
            words[-1] += " " + word
        else:
            words.append(word)
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


TIME_WORDS = re.compile(
    r"\b\d+(?:[.,]\d+)?\s*(?:ms|s|secs?|seconds?|mins?|minutes?|h|hours?)\b"
    r"|\b(?:an?|one|two|three|half an?|a few)\s+(?:seconds?|minutes?|hours?)\b"
    r"|\bminute and a half\b", re.IGNORECASE)


def hand_written_timings(page: Page) -> list[str]:
    """Timings written anywhere in the page but in the regions the record
    fills (they would go stale)."""
    lines = list(page.lines)
    for what in ("output main-job",):
        start, end = page._code_block(what)
        lines[start:end] = [""] * (end - start)
    start = page._after("timing")
    end = start
    while end < len(lines) and lines[end].strip():
        lines[end] = ""
        end += 1
    return [m.group(0) for m in TIME_WORDS.finditer("\n".join(lines))]


def disagreements(record: dict, pages: list[Page]) -> list[str]:
    """Where a page does not say what the record says (empty: all agree)."""
    out = []
    for page in pages:
        name = page.path.name
        for key, command in commands(page).items():
            if command != record["commands"][key]:
                out.append(f"{name}: the command {key} is {command!r}, the record ran {record['commands'][key]!r}")
        if page.output("main-job") != record["runs"]["main-job"]["output"].rstrip("\n"):
            out.append(f"{name}: the main job's output is not the recorded one")
        if page.paragraph("timing") != timing_paragraph(record, page):
            out.append(f"{name}: the timing paragraph is not the one the record gives")
        out += [f"{name}: a timing written by hand: {t!r}" for t in hand_written_timings(page)]
    return out


def update(record: dict, pages: list[Page]) -> None:
    for page in pages:
        page.set_output("main-job", record["runs"]["main-job"]["output"])
        page.set_paragraph("timing", timing_paragraph(record, page))
        page.save()


# ------------------------------------------------------------------ the staleness check
def prefix_arguments(command: str) -> list[str]:
    """The main job's `pogdsl simulate` part, cut to its first games, in one
    process, as JSON (whose digest is of the final state of each game)."""
    for part in parts(command):
        tokens = shlex.split(part)
        if tokens[:2] == ["pogdsl", "simulate"]:
            break
    else:
        raise ReadmeError(f"the main job {command!r} has no `pogdsl simulate` part")
    out, i = [], 2
    while i < len(tokens):
        if tokens[i] in ("--plot", "--out", "--games", "--workers", "-w"):
            i += 2
            continue
        if tokens[i] in ("--json", "--progress"):
            i += 1
            continue
        out.append(tokens[i])
        i += 1
    return ["simulate", *out, "--games", str(PREFIX_GAMES), "--workers", "1", "--json"]


# ------------------------------------------------------------------ a run
def _fresh_checkout(target: Path) -> Path:
    """The checkout as a fresh clone would be: no build products, no caches."""
    ignore = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd",
                                    "_built.json", ".pytest_cache", ".hypothesis", ".venv", "_build", "balance")
    shutil.copytree(ROOT, target, ignore=ignore)
    return target


def _machine(python: Path, env: dict) -> dict:
    probe = ("import json, platform, sys, sysconfig, os; print(json.dumps({"
             "'version': platform.python_version(), 'implementation': platform.python_implementation(), "
             "'base': os.path.realpath(sys._base_executable), "
             "'optimized': '--enable-optimizations' in (sysconfig.get_config_var('CONFIG_ARGS') or ''), "
             "'shared': bool(sysconfig.get_config_var('Py_ENABLE_SHARED'))}))")
    info = json.loads(subprocess.run([str(python), "-c", probe], env=env, capture_output=True, text=True,
                                     check=True).stdout)
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = " ".join(line.split(":", 1)[1].split())
                break
    except OSError:
        pass
    return {"cores": os.cpu_count(), "cpu": cpu, "system": f"{platform.system()} {platform.machine()}",
            "python": info}


def _pip_sources(said: str) -> dict:
    """Where pip took the packages of an install from, counted from what it
    printed: its cache, local files (a --find-links folder), the network."""
    lines = said.splitlines()
    installed = next((line for line in lines if line.startswith("Successfully installed ")), "")
    return {"packages": len(installed.split()) - 2,
            "cached": sum(line.strip().startswith("Using cached ") for line in lines),
            "local": sum(line.strip().startswith("Processing /") for line in lines),
            "downloaded": sum(line.strip().startswith("Downloading ") for line in lines)}


def _run_part(part: str, cwd: Path, env: dict) -> dict:
    print(f"$ {part}", file=sys.stderr, flush=True)
    start, used = time.monotonic(), _cpu_of_children()
    proc = subprocess.run(["bash", "-c", part], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds, cpu = time.monotonic() - start, _cpu_of_children() - used
    if proc.returncode != 0:
        tail = "\n".join(proc.stdout.splitlines()[-20:])
        raise ReadmeError(f"`{part}` failed (exit {proc.returncode}) after {seconds:.0f} s:\n{tail}")
    print(f"  {seconds:.1f} s ({cpu:.1f} s of processor time)", file=sys.stderr, flush=True)
    return {"part": part, "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1), "output": proc.stdout}


def _cpu_of_children() -> float:
    """Processor time (user and system) of the finished child processes so
    far: unlike wall time, hardly moved by other work on a shared machine."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(python: str, pip_cache: bool, native: bool) -> dict:
    page = Page(README)
    wanted = commands(page)
    with tempfile.TemporaryDirectory(prefix="pogdsl-readme-") as work:
        work = Path(work)
        checkout = _fresh_checkout(work / "pogdsl")
        venv = work / "venv"
        subprocess.run([python, "-m", "venv", str(venv)], check=True)
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("POGDSL_", "PYTHON", "VIRTUAL_ENV", "PIP_NO_CACHE", "MPL"))}
        env.update(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}", VIRTUAL_ENV=str(venv),
                   POGDSL_CACHE_DIR=str(work / "pogdsl-cache"), MPLCONFIGDIR=str(work / "matplotlib"))
        if not pip_cache:
            env["PIP_NO_CACHE_DIR"] = "1"
        machine = _machine(venv / "bin" / "python", env)
        machine["load_before"] = os.getloadavg()[0]
        runs = {}
        for name in RUN if native else RUN[:1]:
            steps = [_run_part(part, checkout, env) for part in parts(wanted[name])]
            runs[name] = {"steps": [{k: s[k] for k in ("part", "seconds", "cpu_seconds")} for s in steps]}
            if name == "main-job":
                machine["pip"] = {"cache": pip_cache, **_pip_sources(steps[0]["output"])}
                runs[name]["output"] = "".join(s["output"] for s in steps[1:])
                version = subprocess.run(["pogdsl", "--version"], cwd=checkout, env=env, capture_output=True,
                                         text=True, check=True).stdout
                compiled = version.splitlines()[-1].removeprefix("runtime modules compiled: ")
                machine["runtime"] = ("the runtime running from its Python source" if compiled.startswith("none")
                                      else f"compiled runtime modules: {compiled}")
                prefix = prefix_arguments(wanted[name])
                proc = subprocess.run(["pogdsl", *prefix], cwd=checkout, env=env, capture_output=True, text=True,
                                      check=True)
                runs[name]["prefix"] = {"arguments": prefix, "digest": json.loads(proc.stdout)["digest"]}
        machine["load_after"] = os.getloadavg()[0]
        if str(work) in json.dumps(runs):
            raise ReadmeError(f"the output names the temporary folder {work}: it would not be the same on a "
                              "newcomer's machine")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    return {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
            "commit": head.stdout.strip() or None, "commands": wanted, "machine": machine, "runs": runs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:2]))
    parser.add_argument("--update", action="store_true",
                        help="rewrite README.md and docs/quickstart.rst from the record (runs nothing)")
    parser.add_argument("--check", action="store_true",
                        help="say where README.md or docs/quickstart.rst disagree with the record; exit 1 if any")
    parser.add_argument("--record", type=Path, default=RECORD, help=f"the record (default {RECORD.relative_to(ROOT)})")
    parser.add_argument("--python", default=sys.executable, help="the interpreter the fresh environment is made "
                                                                 "with (default: this one)")
    parser.add_argument("--no-pip-cache", action="store_true", help="install without pip's cache (every package "
                                                                    "fetched again)")
    parser.add_argument("--no-native", action="store_true", help="leave out the opt-in compile step")
    args = parser.parse_args(argv)
    pages = [Page(README), Page(QUICKSTART)]
    try:
        if args.update or args.check:
            record = json.loads(args.record.read_text(encoding="utf-8"))
            if args.update:
                update(record, pages)
                print(f"rewrote {README.relative_to(ROOT)} and {QUICKSTART.relative_to(ROOT)} from {args.record}")
            problems = disagreements(record, [Page(README), Page(QUICKSTART)])
            for problem in problems:
                print(problem, file=sys.stderr)
            return 1 if problems else 0
        record = run(args.python, not args.no_pip_cache, not args.no_native)
    except (ReadmeError, OSError, ValueError, KeyError) as err:
        print(f"readme.py: error: {err}", file=sys.stderr)
        return 2
    args.record.parent.mkdir(parents=True, exist_ok=True)
    args.record.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(record["runs"]["main-job"]["output"], end="")
    print(f"recorded in {args.record}; `python benchmarks/readme.py --update` writes it into the README",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
