"""Fuzz: mutated sources, saves and scripts must never give a traceback or hang.

Sources: the project's own .pog files (rules, cards, scenarios), mutated by
bytes, tokens and lines (deleted, duplicated, swapped, replaced), with
hostile pieces thrown in (numbers of thousands of digits, long `x.a.a…` and
`x[1][1]…` chains, sums of hundreds of terms, deep brackets, long lists, NUL
bytes, invalid UTF-8, control characters; in about one mutation of ten,
as they are slow to read by design).  Files are picked with weights that
favour small ones (a mutant costs about as much as its parse).  Each mutant is read as the
loader reads a file (bytes → text) and parsed, its program built and
checked: on its own, or (one case in LIBRARY_EVERY, 200) in place of its original
among all the other library files, which are parsed once.  Every problem
must come back as diagnostics: any exception is a finding.

Saves and scripts: a few random Campaign games are recorded with the
project's own writers (`record.save_text`, `record.script_text`), then
mutated — as bytes, as lines/tokens, and (saves) as JSON: a field or list
item replaced by a hostile value, a field deleted, nesting 100,000 deep —
written to a file and loaded as `pogdsl play --load` / `replay` load them
(`record.load_save`, `record.read_script` + `record.replay_script`).  The
project's own error types (BadSave/ScriptError, GameError, IllegalOption,
UsageError, SourceErrors, ScenarioError) are clean results; anything else
is a finding.  A mutated save that *loads* although its JSON differs from
the original is counted too ("accepted-changed", by field): not a crash, but
a change the verification did not see.

Play: a small self-contained game's scenario file (the toy fixtures: the
whole game in one file) is mutated as sources are; a mutant that compiles
clean is then built into a world and played for a few decisions by random
players.  The engine's own errors (GameError and its kinds: a dead end, a
budget) are clean results.

CLI: `pogdsl` itself, called in this process as a user calls it, with
hostile paths (a FIFO, a directory, /dev/zero, /dev/full, a name of 300
bytes, a missing folder, control characters in a name, an empty or binary
file) and arguments (numbers of thousands of digits, a trillion, negative
ones, control characters in an option or an agent) for every place a
command reads or writes a file or takes a number.  Every exit status is a
clean result; an exception escaping `main`, a traceback or a raw control
character in its output is a finding.

Re-sealed saves: saves mutated as above, then sealed again (as anyone can:
the seal has no key), so that the checks behind the seal — the replay from
the seed to the recorded state, the fingerprints — are what must refuse
them; one that loads although changed is counted as "accepted-changed".

Every case has a time limit (CPU time, SIGPROF, with a wall-clock backstop for
a case that blocks; a hang is a finding) and the worker
processes a memory limit (RLIMIT_AS), so a runaway becomes a MemoryError
finding instead of taking the machine down.  Case i of a run with seed S is
built from (S, i) alone: `--only KIND:I` runs one case again.  Each finding
is written to --out as a reproducer (the mutated file) and its traceback;
findings are grouped by signature (exception type and the innermost frame
of the project).

    python benchmarks/fuzz.py --minutes 20 --workers 2
    python benchmarks/fuzz.py --sources 1000 --records 100 --workers 1
    python benchmarks/fuzz.py --only save:1234 --seed 0
    python benchmarks/fuzz.py --sources 0 --records 0 --plays 200 --cli 500 --reseals 100
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

LIBRARY_EVERY = 200
SOURCE_TIMEOUT = 10.0
RECORD_TIMEOUT = 20.0
MEMORY_LIMIT = 3 << 30
RECORDED_GAMES = ((1, 40), (2, 120), (3, 300), (4, 25))  # (seed, decisions)


class Hang(BaseException):
    """A case ran past its time limit (BaseException: no `except Exception` swallows it)."""


def _alarm(signum, frame):
    raise Hang()


# A case's limit is on the CPU time it burns (ITIMER_PROF), so that a busy
# machine does not turn a slow case into a "hang"; a case that waits without
# burning CPU (a read that blocks) is stopped by the wall clock, after
# WAIT_FACTOR times as long.
WAIT_FACTOR = 6


def _arm(timeout: float) -> None:
    signal.signal(signal.SIGPROF, _alarm)
    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_PROF, timeout)
    signal.setitimer(signal.ITIMER_REAL, timeout * WAIT_FACTOR)


def _disarm() -> None:
    signal.setitimer(signal.ITIMER_PROF, 0)
    signal.setitimer(signal.ITIMER_REAL, 0)


# ----------------------------------------------------------------- hostile pieces
def hostile_pieces(rng: random.Random) -> bytes:
    n = rng.choice([500, 2000, 5000])
    pieces = [
        b"9" * rng.choice([20, 4300, 4301, 5000, 20000]),
        b"-" + b"7" * 5000,
        b"x" + b".a" * n,
        b"x" + b"[1]" * n,
        b" + ".join([b"1"] * n),
        b"(" * n + b"1" + b")" * n,
        b"[" * n + b"]" * n,
        b"{" * n + b"}" * n,
        b"[" + b", ".join([b"1"] * (n * 10)) + b"]",
        b"if true {" * 300 + b"}" * 300,
        b"\x00", b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x1b[2J", b"\r", b"\x0b\x0c",
        b"\xe2\x80\xae", "²³¼".encode(), b"1e999999", b"0x" + b"f" * 2000, b"1_000_000", b"'" * 1000,
        b'"' + b"a" * 100000 + b'"', b"#" * 10000, b"\\" * 100, b"cites " + b"1." * 3000 + b"1",
        b"1..99999999999999999999999", b"count 100000000",
    ]
    return rng.choice(pieces)


WORDS = [b"phase", b"procedure", b"value", b"choice", b"card", b"space", b"unit", b"scenario", b"track",
         b"counter", b"flag", b"cites", b"if", b"else", b"for", b"in", b"let", b"choose", b"by", b"call",
         b"set", b"move", b"place", b"eliminate", b"return", b"not", b"and", b"or", b"none", b"true",
         b"{", b"}", b"(", b")", b"[", b"]", b",", b":", b".", b"..", b"=", b"+=", b"-=", b"'", b'"', b"\n"]


def _tokens(data: bytes) -> list[bytes]:
    return re.findall(rb"\s+|[A-Za-z_][A-Za-z0-9_]*|'[^'\n]*'|\"[^\"\n]*\"|[0-9.]+|.", data, re.DOTALL)


def mutate_bytes(data: bytes, rng: random.Random, hostile: bool = True) -> bytes:
    """One to four byte/token/line mutations."""
    for _ in range(rng.randint(1, 4)):
        n = len(data)
        i = rng.randint(0, n)
        kind = rng.randrange(12)
        if kind == 0:
            data = data[:i] + data[i + rng.randint(1, 16):]
        elif kind == 1:
            data = data[:i] + bytes([rng.randrange(256)]) + data[i:]
        elif kind == 2:  # a hostile piece in one mutation of 10 or so (they are slow to read, by design)
            piece = hostile_pieces(rng) if hostile and rng.random() < 0.1 else rng.choice(WORDS)
            data = data[:i] + piece + data[i:]
        elif kind == 3:
            j = min(n, i + rng.randint(1, 64))
            data = data[:j] + data[i:j] * rng.choice([1, 2, 50]) + data[j:]
        elif kind == 4:
            data = data[:i]
        elif kind == 5 and n:
            k = rng.randrange(n)
            data = data[:k] + bytes([data[k] ^ (1 << rng.randrange(8))]) + data[k + 1:]
        else:
            toks = _tokens(data) if kind < 9 else data.split(b"\n")
            if not toks:
                continue
            a, b = rng.randrange(len(toks)), rng.randrange(len(toks))
            if kind in (6, 9):
                del toks[a]
            elif kind in (7, 10):
                toks.insert(b, toks[a])
            elif kind == 8:
                toks[a] = rng.choice(WORDS)
            else:
                toks[a], toks[b] = toks[b], toks[a]
            data = (b"" if kind < 9 else b"\n").join(toks)
    return data


# ----------------------------------------------------------------- sources
class SourceCorpus:
    def __init__(self):
        from pogdsl.semantics.loader import find_root, library_files
        from pogdsl.syntax.parser import parse_text

        self.files = library_files(find_root(ROOT))
        self.data = [f.read_bytes() for f in self.files]
        self.names = [str(f.relative_to(ROOT)) if f.is_relative_to(ROOT) else str(f) for f in self.files]
        # Small files are picked more often (a mutant costs about its parse):
        # a 100 KB chapter about 1/25 as often as a 1 KB card.
        self.weights = [1 / (1 + len(d) / 4000) for d in self.data]
        self.modules = [parse_text(d.decode("utf-8"), n)[0] for d, n in zip(self.data, self.names)]


def run_source(corpus: SourceCorpus, data: bytes, which: int, with_library: bool) -> int:
    """The loader's pipeline on one mutated file; returns the number of diagnostics."""
    from pogdsl.diagnostics import Reporter
    from pogdsl.semantics.checker import check
    from pogdsl.semantics.model import build_program
    from pogdsl.syntax.parser import parse_text

    name = corpus.names[which]
    if b"\0" in data:
        return 1  # the loader refuses a binary file before parsing (loader.read_source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return 1
    module, diags = parse_text(text, name)
    reporter = Reporter()
    reporter.extend(diags)
    modules = [module]
    if with_library:
        modules = corpus.modules[:which] + [module] + corpus.modules[which + 1:]
    program = build_program(modules, reporter)
    check(program, reporter)
    for d in reporter.items:  # every diagnostic can be shown
        str(d.message)
        d.to_json()
    return len(reporter.items)


# ----------------------------------------------------------------- saves and scripts
class RecordCorpus:
    def __init__(self):
        from pogdsl.agents import RandomAgent, agent_seed
        from pogdsl.runtime.record import Session, open_scenario, save_text, script_text

        self.opened = open_scenario("campaign", None)
        self.saves: list[bytes] = []
        self.scripts: list[bytes] = []
        for seed, count in RECORDED_GAMES:
            session = Session.new(self.opened, seed)
            agents = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in self.opened.world.sides}
            while session.decisions_made < count:
                d = session.decision
                if d is None:
                    break
                session.choose(agents[d.by].choose(session, d))
            self.saves.append(save_text(session).encode())
            self.scripts.append(script_text(session).encode())


HOSTILE_JSON = [
    10 ** 30, -1, 0, True, None, 1.5, float("inf"), "", "\x00", "x" * 100000, [], {}, [[]], {"a": 1},
    "/etc/passwd", "/dev/zero", "/dev/null", "rules", "../../etc/hosts", "campaign", "mini", ".", "~",
    "scenarios/campaign.pog", 2 ** 63, -(2 ** 63) - 1, "ap", "cp", "draw", [1] * 100000,
]
RAW_HOSTILE = [b"9" * 5000, b"-" + b"9" * 5000, b"[" * 100000 + b"]" * 100000, b"{\"a\":" * 50000 + b"1" + b"}" * 50000,
               b"1e999999", b"NaN", b"Infinity", b"-0", b"\"\\ud800\"", b"\"\\u0000\""]


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list) and value:
        for k in {0, len(value) - 1, len(value) // 2}:
            yield from _paths(value[k], prefix + (k,))


def _set(data, path, value):
    target = data
    for k in path[:-1]:
        target = target[k]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value


_DELETE = object()
_PLACEHOLDER = "\x01fuzz\x01"


def mutate_save(text: bytes, rng: random.Random) -> bytes:
    kind = rng.randrange(4)
    if kind == 0:
        return mutate_bytes(text, rng)
    data = json.loads(text)
    paths = [p for p in _paths(data) if p]
    path = rng.choice(paths)
    if kind == 1:  # a JSON value replaced
        _set(data, path, rng.choice(HOSTILE_JSON + [_DELETE]))
        return json.dumps(data).encode()
    if kind == 2:  # raw text only JSON can hold (huge numbers, deep nesting)
        _set(data, path, _PLACEHOLDER)
        return json.dumps(data).encode().replace(json.dumps(_PLACEHOLDER).encode(), rng.choice(RAW_HOSTILE))
    # a plausible edit: a decision's option or a header field changed a little
    if path[0] == "decisions" and len(path) == 2 and isinstance(data["decisions"][path[1]], dict):
        entry = data["decisions"][path[1]]
        if "option" in entry:
            entry["option"] = entry["option"][: rng.randint(0, len(entry["option"]))]
    else:
        key = rng.choice(["turn", "over", "scenario_key", "seed", "scenario", "options", "format"])
        old = data.get(key)
        _set(data, (key,), (old + 1) if isinstance(old, int) and not isinstance(old, bool) else
             (not old) if isinstance(old, bool) else rng.choice(HOSTILE_JSON))
    return json.dumps(data).encode()


SCRIPT_LINES = [b"dice " + b"5" * 5000, "dice ²".encode(), b"dice 0", b"dice -1", b"seed " + b"9" * 5000,
                b"seed -" + b"9" * 5000, b"expect illegal nonsense", b"expect legal", b"expect hash 00",
                b"expect vp " + b"9" * 5000, b"expect winner nobody", b"hand ap 'No Such Card'", b"hand",
                b"scenario /dev/zero", b"scenario /etc/passwd", b"scenario ..", b"option x y",
                b"ap: " + b"x" * 100000, b"cp: 9999999999999999999999", b"ap: 0", b"why", b"expect turn 99",
                b"expect options a|b", b"\x00", b"\xff", b"undo 5"]


def mutate_script(text: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.5:
        return mutate_bytes(text, rng)
    lines = text.split(b"\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines) + 1)
        op = rng.randrange(4)
        if op == 0:
            lines.insert(i, rng.choice(SCRIPT_LINES))
        elif op == 1 and lines:
            del lines[min(i, len(lines) - 1)]
        elif op == 2 and lines:
            j = min(i, len(lines) - 1)
            lines[j] = lines[j][: rng.randint(0, len(lines[j]))]
        else:
            lines.insert(i, lines[rng.randrange(len(lines))] if lines else b"")
    return b"\n".join(lines)


def clean_errors():
    from pogdsl.errors import SourceErrors, UsageError
    from pogdsl.runtime.errors import BadSave, GameError, IllegalOption
    from pogdsl.runtime.record import ScenarioError

    return (BadSave, GameError, IllegalOption, UsageError, SourceErrors, ScenarioError)


def run_record(corpus: RecordCorpus, kind: str, data: bytes, original: bytes, folder: Path,
               root: Path | None = None) -> str:
    """Load one mutated save or script; 'ok', 'refused' or 'accepted-changed:FIELD'."""
    from pogdsl.runtime import record

    path = folder / ("case.json" if kind == "save" else "case.txt")
    path.write_bytes(data)
    try:
        if kind == "save":
            record.load_save(path, root)
        else:
            record.replay_script(record.read_script(path))
    except clean_errors():
        return "refused"
    if kind == "save" and data != original:
        try:
            new, old = json.loads(data), json.loads(original)
        except ValueError:
            return "ok"
        changed = sorted(k for k in set(new) | set(old) if new.get(k) != old.get(k) and k != "seal")
        if changed == ["state"] and isinstance(new.get("state"), dict) and isinstance(old.get("state"), dict):
            changed = sorted(f"state.{k}" for k in set(new["state"]) | set(old["state"])
                             if new["state"].get(k) != old["state"].get(k))
        if changed:
            return "accepted-changed:" + ",".join(changed)
    return "ok"


# ----------------------------------------------------------------- play
PLAY_FILES = (("toy", ROOT / "tests" / "fixtures" / "toy" / "scenarios" / "toy.pog"),
              ("toy_rules", ROOT / "tests" / "fixtures" / "toy_rules" / "scenarios" / "toy_rules.pog"))
PLAY_DECISIONS = 30
PLAY_STEPS = 200_000


class PlayCorpus:
    def __init__(self):
        self.names = [name for name, _ in PLAY_FILES]
        self.data = [path.read_bytes() for _, path in PLAY_FILES]


def run_play(corpus: PlayCorpus, data: bytes, which: int, folder: Path) -> str:
    """Compile the mutated scenario file as the only file of a project; if it
    compiles clean, build its world and play a few decisions at random.
    'refused' (its diagnostics), 'played' or 'ended' (the game ended or
    stopped at an error of the game)."""
    from pogdsl.agents import RandomAgent
    from pogdsl.runtime.errors import GameError
    from pogdsl.runtime.record import open_scenario

    (folder / "scenarios").mkdir()
    (folder / "scenarios" / "game.pog").write_bytes(data)
    try:
        opened = open_scenario(corpus.names[which], folder, cache=False)
    except clean_errors():
        return "refused"
    agent = RandomAgent(which)
    try:
        game = opened.new_game(which, step_budget=PLAY_STEPS)
        d = game.run()
        for _ in range(PLAY_DECISIONS):
            if d is None:
                return "ended"
            d = game.choose(agent.pick(d.options) + 1)
        game.state_hash()
    except GameError:
        return "ended"
    return "played"


# ----------------------------------------------------------------- the command line
TOY = ROOT / "tests" / "fixtures" / "toy"
DUEL = ROOT / "tests" / "fixtures" / "duel"
HOSTILE_NUMBERS = ["1000000000000", "9" * 5000, "-1", "0", "1e9", "²", "0x10", "-" + "9" * 30, " 7 ", "１２"]
HOSTILE_TEXT = ["\x1b[2J\x1b[HOK", "x\rOK", "\u202eKO", "a\nOK b", "\x00", "x" * 5000, "=", "ap=\x1b[31m"]
PATH_KINDS = ("fifo", "directory", "zero", "full", "long", "missing", "control", "empty", "binary", "loop",
              "save", "script")


class CliCorpus:
    """A folder of hostile paths, and a real save and script of the toy game
    to name among them; made once a process."""

    def __init__(self):
        from pogdsl.agents import RandomAgent, agent_seed
        from pogdsl.runtime.record import Session, open_scenario, save_text, script_text

        import atexit
        import shutil

        self.folder = Path(tempfile.mkdtemp(prefix="pogfuzz-cli-"))
        atexit.register(shutil.rmtree, self.folder, True)  # (its FIFOs and files go with the process)
        self.made = 0
        opened = open_scenario("toy", TOY)
        session = Session.new(opened, 3)
        agents = {s.key: RandomAgent(agent_seed(3, s.key)) for s in opened.world.sides}
        while session.decision is not None:
            d = session.decision
            session.choose(agents[d.by].choose(session, d))
        self.save, self.script = save_text(session), script_text(session)

    def path(self, kind: str, index: int) -> str:
        """A fresh path of KIND for case INDEX (a case may write or replace it)."""
        self.made += 1
        base = self.folder / f"c{index}-{self.made}"
        base.mkdir()
        target = base / "file.json"
        if kind == "fifo" and hasattr(os, "mkfifo"):
            os.mkfifo(target)
        elif kind == "directory":
            target.mkdir()
        elif kind == "zero":
            return "/dev/zero"
        elif kind == "full":
            return "/dev/full"
        elif kind == "long":
            return str(base / ("x" * 300 + ".json"))
        elif kind == "missing":
            return str(base / "nowhere" / "file.json")
        elif kind == "control":
            target = base / "a\x1b[2J\rOK.json"
            target.write_text(self.save, encoding="utf-8")
        elif kind == "empty":
            target.write_bytes(b"")
        elif kind == "binary":
            target.write_bytes(bytes(range(256)) * 8)
        elif kind == "loop":
            os.symlink(base / "loop.json", base / "loop.json")
            return str(base / "loop.json")
        elif kind == "save":
            target.write_text(self.save, encoding="utf-8")
        elif kind == "script":
            target = base / "file.txt"
            target.write_text(self.script, encoding="utf-8")
        return str(target)


def cli_argv(c: CliCorpus, rng: random.Random, index: int) -> list[str]:
    """A command line of one command with hostile paths and arguments."""
    p = lambda: c.path(rng.choice(PATH_KINDS), index)  # noqa: E731
    n = lambda: rng.choice(HOSTILE_NUMBERS + ["3"])  # noqa: E731
    t = lambda: rng.choice(HOSTILE_TEXT)  # noqa: E731
    root = ["--root", str(TOY)]
    duel = ["--root", str(DUEL)]  # (a game with evaluation terms, for fit-evaluation)
    players = ["--ap", "random", "--cp", "random"]
    commands = [
        lambda: ["play", "toy", *root, *players, "--save", p()],
        lambda: ["play", "toy", *root, *players, "--record", p(), "--seed", n()],
        lambda: ["play", *root, "--load", p(), *players],
        lambda: ["play", "toy", *root, "--ap", f"script:{p()}", "--cp", "random"],
        lambda: ["play", "toy", *root, *players, "--max-steps", n(), "--option", t()],
        lambda: ["play", "toy", *root, "--agent", t(), "--cp", "random"],
        lambda: ["replay", p(), *root],
        lambda: ["replay", c.path("save", index), *root, "--script", p()],
        lambda: ["replay", p(), "--scenario", p(), *root],
        lambda: ["simulate", "toy", *root, "--workers", "1", "--games", rng.choice(["2", "0", "-1", "9" * 5000]),
                 "--out", p()],
        lambda: ["simulate", "toy", *root, "--workers", "1", "--games", "2", "--seed", n(), "--max-decisions", n()],
        lambda: ["simulate", "toy", *root, "--workers", "1", "--games", "2", "--first", n(), "--out", p()],
        lambda: ["report", p(), *root],
        lambda: ["report", p(), c.path("empty", index), *root],
        lambda: ["fit-evaluation", "duel", *duel, "--from", p(), "--bootstrap", rng.choice(["0", "2", n()])],
        lambda: ["fit-evaluation", "duel", *duel, "--workers", "1", "--games", "2", "--records", p(),
                 "--out", p(), "--scale", n(), "--folds", n()],
        lambda: ["ladder", "toy", *root, "--players", rng.choice(["random,random", t(), "random," + t()]),
                 "--workers", "1", "--games", rng.choice(["1", n()]), "--out", p()],
        lambda: ["ladder", *root, "--from", p(), rng.choice([p(), c.path("empty", index)])],
        lambda: ["ladder", "toy", *root, "--from", p(), "--players", rng.choice([t(), "random,random:2"]),
                 "--out", p()],
        lambda: ["bid", "toy", *root, "--workers", "1", "--games", rng.choice(["2", n()]), "--seed", n()],
        lambda: ["card-value", "toy", *root, "--workers", "1", "--games", rng.choice(["2", n()]), t()],
        lambda: ["check", *root, p()],
        lambda: ["graph", "toy", *root, "-o", p()],
        lambda: ["show", "toy", *root, t()],
        lambda: [p(), t()],
    ]
    return rng.choice(commands)()


_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def run_cli(c: CliCorpus, argv: list[str]) -> str:
    """`pogdsl ARGV` in this process: 'exit:N'.  Raises what escapes main, and
    AssertionError for a traceback or a raw control character in its output."""
    import contextlib
    import io

    from pogdsl.cli import main

    saved = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGXFSZ", None)) if n}
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stop:  # argparse's usage errors and --help
                code = stop.code if isinstance(stop.code, int) else 2
    finally:
        for number, handler in saved.items():
            signal.signal(number, handler)
    text = out.getvalue() + err.getvalue()
    if "Traceback (most recent call last)" in text:
        raise AssertionError("a traceback was printed:\n" + text[-2000:])
    raw = _RAW_CONTROL.search(text.replace("\t", " "))
    if raw:
        raise AssertionError(f"a raw control character {raw.group()!r} was printed: {text[-500:]!r}")
    return f"exit:{code}"


# ----------------------------------------------------------------- re-sealed saves
class ResealCorpus:
    """Saves of the toy game with rules (quick to replay), a few lengths."""

    def __init__(self):
        from pogdsl.agents import RandomAgent, agent_seed
        from pogdsl.runtime.record import Session, open_scenario, save_text

        self.root = ROOT / "tests" / "fixtures" / "toy_rules"
        opened = open_scenario("toy_rules", self.root)
        self.saves = []
        for seed, count in ((1, 3), (2, 8), (3, 1000)):
            session = Session.new(opened, seed)
            agents = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in opened.world.sides}
            while session.decision is not None and session.decisions_made < count:
                d = session.decision
                session.choose(agents[d.by].choose(session, d))
            self.saves.append(save_text(session).encode())


def reseal(data: bytes) -> bytes:
    from pogdsl.runtime.record import save_seal

    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return data
    if isinstance(value, dict):
        try:
            value["seal"] = save_seal(value)
        except (TypeError, ValueError):
            return data
    return json.dumps(value).encode()


# ----------------------------------------------------------------- the cases
_CORPUS: dict = {}
KINDS = ("source", "save", "script", "play", "cli", "reseal")
_CORPORA = {"source": SourceCorpus, "record": RecordCorpus, "play": PlayCorpus, "cli": CliCorpus,
            "reseal": ResealCorpus}
EXTENSIONS = {"source": ".pog", "save": ".json", "script": ".txt", "play": ".pog", "cli": ".argv.json",
              "reseal": ".json"}


def corpus(kind: str):
    if kind not in _CORPUS:
        _CORPUS[kind] = _CORPORA[kind]()
    return _CORPUS[kind]


def make_case(kind: str, seed: int, index: int) -> tuple[bytes, dict]:
    rng = random.Random(f"{seed}:{kind}:{index}")
    if kind == "source":
        c = corpus("source")
        which = rng.choices(range(len(c.data)), c.weights)[0]
        return mutate_bytes(c.data[which], rng), {"which": which, "library": index % LIBRARY_EVERY == 0}
    if kind == "play":
        c = corpus("play")
        which = rng.randrange(len(c.data))
        return mutate_bytes(c.data[which], rng, hostile=False), {"which": which}
    if kind == "cli":
        argv = cli_argv(corpus("cli"), rng, index)
        return json.dumps(argv).encode(), {"argv": argv}
    if kind == "reseal":
        c = corpus("reseal")
        k = rng.randrange(len(c.saves))
        return reseal(mutate_save(c.saves[k], rng)), {"original": k}
    c = corpus("record")
    if kind == "save":
        k = rng.randrange(len(c.saves))
        return mutate_save(c.saves[k], rng), {"original": k}
    k = rng.randrange(len(c.scripts))
    return mutate_script(c.scripts[k], rng), {"original": k}


def run_case(task) -> dict:
    kind, seed, index = task
    data, info = make_case(kind, seed, index)
    timeout = SOURCE_TIMEOUT if kind in ("source", "play") else RECORD_TIMEOUT
    start = time.perf_counter()
    outcome, tb = "ok", None
    _arm(timeout)
    try:
        if kind == "source":
            run_source(corpus("source"), data, info["which"], info["library"])
        elif kind == "cli":
            outcome = run_cli(corpus("cli"), info["argv"])
        elif kind in ("play", "reseal"):
            folder = Path(tempfile.mkdtemp(prefix="pogfuzz-"))
            try:
                if kind == "play":
                    outcome = run_play(corpus("play"), data, info["which"], folder)
                else:
                    c = corpus("reseal")
                    outcome = run_record(c, "save", data, c.saves[info["original"]], folder, root=c.root)
            finally:
                import shutil

                shutil.rmtree(folder, ignore_errors=True)
        else:
            folder = Path(tempfile.mkdtemp(prefix="pogfuzz-"))
            try:
                c = corpus("record")
                original = (c.saves if kind == "save" else c.scripts)[info["original"]]
                outcome = run_record(c, kind, data, original, folder)
            finally:
                for f in folder.iterdir():
                    f.unlink()
                folder.rmdir()
        _disarm()
    except Hang:
        outcome, tb = "hang", f"no result after {timeout:.0f} s of CPU time (or {timeout * WAIT_FACTOR:.0f} s waiting)"
    except BaseException as err:  # noqa: BLE001 - every escape is a finding
        _disarm()
        if isinstance(err, KeyboardInterrupt):
            raise
        outcome, tb = "traceback", traceback.format_exc(limit=-12)
    finally:
        _disarm()
    out = {"kind": kind, "index": index, "outcome": outcome, "seconds": time.perf_counter() - start}
    if tb is not None:
        out["traceback"] = tb
        out["signature"] = signature(outcome, tb)
        out["data"] = data
    return out


def signature(outcome: str, tb: str) -> str:
    if outcome == "hang":
        return "hang"
    lines = tb.strip().splitlines()
    last = lines[-1].split(":")[0] if lines else "?"
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', tb)
    ours = [f for f in frames if "pogdsl" in f[0] and "benchmarks" not in f[0]]
    where = ours[-1] if ours else (frames[-1] if frames else ("?", "?", "?"))
    return f"{last} at {Path(where[0]).name}:{where[1]} ({where[2]})"


def _address_space_in_use() -> int:
    """The bytes of address space this process maps now (0 where /proc is not there)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def worker_init():
    """The limits a process running cases gets; returns a function that puts
    back what was there before (a run in the calling process, `--workers 1`,
    must not leave the memory cap on its caller: a test suite that called it
    would run out of address space later on)."""
    old_recursion = sys.getrecursionlimit()
    old_memory = None
    try:
        import resource

        old_memory = resource.getrlimit(resource.RLIMIT_AS)
        # only the soft limit: lowering the hard one could not be undone
        # without privileges
        hard = old_memory[1]
        # On top of what the process already maps: a test suite calling this
        # in-process may hold gigabytes of address space (threads' stacks,
        # libraries) before the first case runs.
        allowed = _address_space_in_use() + MEMORY_LIMIT
        cap = allowed if hard == resource.RLIM_INFINITY else min(allowed, hard)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError):
        pass
    sys.setrecursionlimit(max(old_recursion, 1000))

    def restore():
        sys.setrecursionlimit(old_recursion)
        if old_memory is not None:
            import resource

            try:
                resource.setrlimit(resource.RLIMIT_AS, old_memory)
            except (ValueError, OSError):
                pass
    return restore


# ----------------------------------------------------------------- the run
def fuzz(seed: int, sources: int, records: int, workers: int, out: Path, deadline: float | None,
         progress=None, *, plays: int = 0, cli: int = 0, reseals: int = 0) -> dict:
    """`records` cases are split between saves and scripts; every kind is
    interleaved with the others in proportion to its count, so that a run cut
    short by `deadline` has some of each (the counts played are reported)."""
    wanted = {"source": sources, "record": records, "play": plays, "cli": cli, "reseal": reseals}
    total = sum(wanted.values())
    made = dict.fromkeys(wanted, 0)
    tasks = []
    while len(tasks) < total:
        # the kind furthest behind its share goes next
        kind = min((k for k in wanted if made[k] < wanted[k]), key=lambda k: (made[k] + 1) / wanted[k])
        i = made[kind]
        made[kind] += 1
        tasks.append(("save" if i % 2 == 0 else "script", seed, i) if kind == "record" else (kind, seed, i))
    out.mkdir(parents=True, exist_ok=True)
    counts: dict = {}
    findings: dict = {}
    seconds: dict = {}
    start = time.perf_counter()

    def take(res):
        kind = res["kind"]
        key = (kind, res["outcome"].split(":")[0] if res["outcome"].startswith("accepted") else res["outcome"])
        counts[key] = counts.get(key, 0) + 1
        seconds[kind] = seconds.get(kind, 0.0) + res["seconds"]
        if res["outcome"].startswith("accepted-changed"):
            field = res["outcome"].split(":", 1)[1]
            findings.setdefault(("accepted-changed", field), {"count": 0, "first": f"{kind}:{res['index']}"})
            findings[("accepted-changed", field)]["count"] += 1
        if "traceback" in res:
            sig = res["signature"]
            entry = findings.get((kind, sig))
            if entry is None:
                stem = f"{kind}-{res['index']}"
                ext = EXTENSIONS[kind]
                (out / (stem + ext)).write_bytes(res["data"])
                (out / (stem + ".traceback.txt")).write_text(
                    f"# python benchmarks/fuzz.py --seed {seed} --only {kind}:{res['index']}\n" + res["traceback"])
                entry = findings[(kind, sig)] = {"count": 0, "first": f"{kind}:{res['index']}",
                                                 "reproducer": str(out / (stem + ext)), "outcome": res["outcome"]}
            entry["count"] += 1

    done = 0
    if workers <= 1:
        restore = worker_init()
        try:
            for t in tasks:
                if deadline is not None and time.monotonic() > deadline:
                    break
                take(run_case(t))
                done += 1
                if progress and done % 1000 == 0:
                    progress(done, counts, time.perf_counter() - start)
        finally:
            restore()
    else:
        from multiprocessing import get_context

        with get_context("fork").Pool(workers, initializer=worker_init, maxtasksperchild=2000) as pool:
            for res in pool.imap_unordered(run_case, tasks, chunksize=20):
                take(res)
                done += 1
                if progress and done % 1000 == 0:
                    progress(done, counts, time.perf_counter() - start)
                if deadline is not None and time.monotonic() > deadline:
                    pool.terminate()
                    break
    elapsed = time.perf_counter() - start
    summary = {
        "seed": seed, "seconds": round(elapsed, 1), "cases": done,
        "counts": {f"{k}/{o}": n for (k, o), n in sorted(counts.items())},
        "findings": [{"kind": k, "signature": s, **v} for (k, s), v in findings.items()],
    }
    tried = {k: sum(n for (kk, _), n in counts.items() if kk == k) for k in KINDS}
    summary["tried"] = tried
    summary["rate_per_second"] = {k: round(tried[k] / elapsed, 1) for k in tried} if elapsed else {}
    return summary


def report(s: dict) -> str:
    lines = [f"fuzz seed {s['seed']}: {s['cases']} cases in {s['seconds']} s",
             f"  tried: {s['tried']}  (per second over the run: {s['rate_per_second']})",
             f"  outcomes: {s['counts']}"]
    crashes = [f for f in s["findings"] if f["kind"] != "accepted-changed"]
    lines.append(f"  tracebacks and hangs: {sum(f['count'] for f in crashes)} in {len(crashes)} kinds")
    for f in sorted(crashes, key=lambda f: -f["count"]):
        lines.append(f"    {f['count']:6d} x {f['kind']}: {f['signature']}   first: {f['first']} -> {f['reproducer']}")
    changed = [f for f in s["findings"] if f["kind"] == "accepted-changed"]
    if changed:
        lines.append("  mutated saves accepted although their JSON changed (fields):")
        for f in sorted(changed, key=lambda f: -f["count"]):
            lines.append(f"    {f['count']:6d} x {f['signature']}   first: {f['first']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--sources", type=int, default=100_000, help="mutated sources (default 100,000)")
    p.add_argument("--records", type=int, default=10_000, help="mutated saves and scripts (default 10,000)")
    p.add_argument("--plays", type=int, default=2_000,
                   help="mutated toy scenarios, played for a few decisions when they compile (default 2,000)")
    p.add_argument("--cli", type=int, default=2_000,
                   help="command lines with hostile paths and arguments (default 2,000)")
    p.add_argument("--reseals", type=int, default=1_000, help="mutated and re-sealed saves (default 1,000)")
    p.add_argument("--workers", "-w", type=int, default=1)
    p.add_argument("--minutes", type=float, default=None, help="stop after this many minutes")
    p.add_argument("--out", default=None, help="folder for reproducers (default: a new folder under the temp dir)")
    p.add_argument("--only", metavar="KIND:I", help="run one case (source:17, save:3, script:8) and show it")
    p.add_argument("--json", metavar="FILE")
    args = p.parse_args(argv)
    if args.only:
        kind, _, i = args.only.partition(":")
        if kind not in KINDS or not i.isdigit():
            p.error(f"--only takes KIND:N, KIND one of {', '.join(KINDS)}")
        worker_init()
        res = run_case((kind, args.seed, int(i)))
        print(res["outcome"], f"{res['seconds']:.2f} s")
        print(res.get("traceback", ""))
        return 0 if "traceback" not in res else 1
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None

    def progress(n, counts, seconds):
        print(f"  {n} cases, {seconds:.0f} s: {dict((f'{k}/{o}', c) for (k, o), c in counts.items())}",
              file=sys.stderr, flush=True)

    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="pogdsl-fuzz-"))
    summary = fuzz(args.seed, args.sources, args.records, args.workers, out, deadline, progress,
                   plays=args.plays, cli=args.cli, reseals=args.reseals)
    print(report(summary))
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))
    return 1 if any(f["kind"] != "accepted-changed" for f in summary["findings"]) else 0


if __name__ == "__main__":
    sys.exit(main())
