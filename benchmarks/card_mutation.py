"""Mutation check of the card tests: can each card's tests fail?

For every card of SCENARIO whose event is written, this script

1. copies the project's sources (rules/, cards/, scenarios/, tests/ and
   pyproject.toml) into a temporary folder — the real files are never edited;
2. in the copy, empties that card's event (its block becomes ``{ }``: the card
   can still be played as an event, which then does nothing) and deletes the
   modifiers, triggers and restrictions nested in the card, which put its
   effects in play;
3. runs only the tests that name the card (``@pytest.mark.card("AP 6")``,
   found by the static scan of pogdsl/testmarks.py, run by node id) against
   the copy.

A card whose tests all still pass with its event emptied is reported: those
tests cannot fail, whatever the event does.  Before the mutants, the same
tests are run once on an unchanged copy; a card whose tests fail there is
reported apart (the mutation says nothing about it), and so is a mutant that
no longer compiles (reported with its first error) and a card with no test.

A card's lasting effects are often written after the card, as top-level
triggers, modifiers and restrictions of its file, or in the rules chapters
that read ``played('Name')``: those declarations are deleted too and every
``played('Name')`` of the sources (``played(this_card)`` in the card's file)
reads ``false``, unless ``--card-block-only``.  Values and procedures of the
file stay (others may call them).

    python benchmarks/card_mutation.py [SCENARIO] [--card "AP 6" ...] [--json] [-j N]

Exit status: 0 every tested card's tests failed on its mutant, 1 some card's
tests survived (or failed unchanged, or a mutant did not compile), 2 wrong usage.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COPIED = ("rules", "cards", "scenarios", "tests", "pyproject.toml")


def copy_project(root: Path, into: Path) -> Path:
    into.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        source = root / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif source.is_file():
            shutil.copy2(source, into / name)
    return into


def _offset(lines: list[str], line: int, col: int) -> int:
    return sum(len(text) + 1 for text in lines[:line - 1]) + col - 1


def mutate_text(text: str, decl, hooks=()) -> str:
    """The card's file with its event block emptied and its nested
    declarations deleted, and HOOKS (top-level declarations of the file)
    deleted too; a modifier is kept but never applies (`when false`), since
    another may be ordered after it.  Deleted lines are kept blank, so line
    numbers stay."""
    lines = text.split("\n")
    cuts = []
    if decl.event is not None:
        s = decl.event.span
        cuts.append((_offset(lines, s.line, s.col), _offset(lines, s.end_line, s.end_col),
                     "{ " + "\n" * (s.end_line - s.line) + "}"))
    for nested in [*decl.nested, *hooks]:
        if nested.kind == "modifier":
            # A modifier stays declared (another may be ordered `after` it),
            # but none of its contributions ever applies.
            for c in nested.contributions:
                if c.when is not None:
                    w = c.when.span
                    cuts.append((_offset(lines, w.line, w.col), _offset(lines, w.end_line, w.end_col), "false"))
                else:
                    e = c.expr.span
                    end = _offset(lines, e.end_line, e.end_col)
                    cuts.append((end, end, " when false"))
            continue
        s = nested.span
        cuts.append((_offset(lines, s.line, s.col), _offset(lines, s.end_line, s.end_col),
                     "\n" * (s.end_line - s.line)))
    for start, end, new in sorted(cuts, reverse=True):
        text = text[:start] + new + text[end:]
    return text


HOOK_KINDS = ("trigger", "modifier", "restriction")


def cards_with_events(root: Path, scenario: str, file_hooks: bool = True):
    """(key "AP 6", decl, path of its file relative to ROOT, hooks) for each
    card whose event is written; HOOKS are the top-level triggers, modifiers
    and restrictions of the card's file (its lasting effects), if FILE_HOOKS."""
    from pogdsl.compiler import resolve_scenario

    cwd = Path.cwd()
    comp, program = resolve_scenario(scenario, root=root)
    if comp.reporter.errors:
        raise SystemExit(f"card_mutation: scenario '{scenario}' has errors in its sources: run pogdsl check")
    out = []
    for d in sorted(program.all("card"), key=lambda d: (d.side.text, d.number)):
        if d.event is None:
            continue
        path = Path(d.span.file)
        path = (path if path.is_absolute() else cwd / path).resolve()
        nested = {id(n) for n in d.nested}
        hooks = [h for kind in HOOK_KINDS for h in program.all(kind)
                 if file_hooks and h.span.file == d.span.file and id(h) not in nested
                 and not (d.span.line <= h.span.line <= d.span.end_line)]
        out.append((f"{d.side.text.upper()} {d.number}", d, path.relative_to(root.resolve()), hooks))
    return out


def shared_names(root: Path, scenario: str) -> set[str]:
    """The names printed on more than one card of the scenario."""
    from pogdsl.cardref import CardIndex
    from pogdsl.compiler import resolve_scenario

    _, program = resolve_scenario(scenario, root=root)
    return set(CardIndex.of_decls(program.all("card")).shared_names())


def compile_errors(root: Path, scenario: str) -> str | None:
    """The first error of the scenario compiled from ROOT, or None."""
    code = ("import sys; from pathlib import Path; from pogdsl.compiler import resolve_scenario;"
            "from pogdsl.diagnostics import render;"
            f"comp, _ = resolve_scenario({scenario!r}, root=Path.cwd());"
            "errs = comp.reporter.errors;"
            "print(render(errs[0], comp.sources).splitlines()[0] if errs else '')")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=_env(), capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["the compiler crashed"])[-1]
    return done.stdout.strip() or None


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("POGDSL_HOME", None)
    return env


def run_tests(root: Path, nodes: list[str], timeout: int) -> tuple[str, str]:
    """Run pytest on NODES in the copy ROOT: ("passed"|"failed"|"error", last line)."""
    argv = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "--no-header", *nodes]
    try:
        done = subprocess.run(argv, cwd=root, env=_env(), capture_output=True, text=True, timeout=timeout,
                              check=False)
    except subprocess.TimeoutExpired:
        return "error", f"timed out after {timeout} s"
    last = (done.stdout.strip().splitlines() or [""])[-1]
    if done.returncode == 0:
        return "passed", last
    if done.returncode == 1:
        return "failed", last
    return "error", last or (done.stderr.strip().splitlines() or [f"pytest exit {done.returncode}"])[-1]


def forget_plays(copy: Path, decl, relpath: Path, unique_name: bool) -> int:
    """In every .pog file of COPY's rules/, cards/ and scenarios/, `played('NAME')` becomes `false` (when no
    other card bears the name), and `played(this_card)` in the card's own
    file: what the sources do because the event was played is gone too.
    Returns how many were replaced."""
    name = re.escape(decl.name.text)
    by_name = re.compile(r"played\(\s*(?:'" + name + r"'|\"" + name + r"\")\s*\)")
    own = re.compile(r"played\(\s*this_card\s*\)")
    count = 0
    for path in [p for folder in ("rules", "cards", "scenarios") for p in (copy / folder).rglob("*.pog")]:
        text = path.read_text(encoding="utf-8")
        new, n = by_name.subn("false", text) if unique_name else (text, 0)
        if path.resolve() == (copy / relpath).resolve():
            new, m = own.subn("false", new)
            n += m
        if n:
            path.write_text(new, encoding="utf-8")
            count += n
    return count


def check_card(work: Path, key: str, decl, relpath: Path, hooks, nodes: list[str], scenario: str,
               timeout: int, unique_name: bool = True, plays: bool = True) -> dict:
    """Mutate one card in its own copy (WORK/KEY), run its tests."""
    copy = work / key.replace(" ", "-")
    shutil.copytree(work / "base", copy, symlinks=True)
    try:
        target = copy / relpath
        target.write_text(mutate_text(target.read_text(encoding="utf-8"), decl, hooks), encoding="utf-8")
        if plays:
            forget_plays(copy, decl, relpath, unique_name)
        error = compile_errors(copy, scenario)
        if error:
            return {"key": key, "verdict": "mutant_does_not_compile", "detail": error}
        outcome, last = run_tests(copy, nodes, timeout)
    finally:
        shutil.rmtree(copy, ignore_errors=True)
    verdict = {"passed": "survived", "failed": "killed", "error": "error"}[outcome]
    return {"key": key, "verdict": verdict, "detail": last}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="For each card with an event, empty its event and nested modifiers/triggers in a copy of "
                    "the sources and run only the tests marked with the card; report the cards whose tests "
                    "still pass.")
    parser.add_argument("scenario", nargs="?", default="campaign")
    parser.add_argument("--card", action="append", metavar="CARD", help="only this card (AP 6, Withdrawal …)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project (default: this checkout)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="cards checked at once (default 1)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds for one card's tests (default 900)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--card-block-only", action="store_true",
                        help="empty only what the card block holds; by default the top-level triggers, modifiers "
                             "and restrictions of the card's file (its lasting effects) are deleted too, and "
                             "every played('NAME') of the sources (played(this_card) in its file) reads false")
    args = parser.parse_args(argv)
    from pogdsl.cardref import CardIndex, CardNameError, CardRef
    from pogdsl.testmarks import scan_tests

    root = args.root.resolve()
    cards = cards_with_events(root, args.scenario, file_hooks=not args.card_block_only)
    if args.card:
        index = CardIndex(CardRef(d.side.text, d.number, d.name.text, key) for key, d, *_ in cards)
        try:
            wanted = {index.resolve(text).card for text in args.card}
        except CardNameError as err:
            print(f"card_mutation: error: {err} (among the cards with an event)", file=sys.stderr)
            return 2
        cards = [c for c in cards if c[0] in wanted]
    scan = scan_tests(root / "tests", relative_to=root)
    results: list[dict] = []
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pogdsl-mutation-") as tmp:
        work = Path(tmp)
        copy_project(root, work / "base")
        tested = [(key, d, rel, hooks, scan.for_card(key)) for key, d, rel, hooks in cards if scan.for_card(key)]
        for key, _, _, _ in [c for c in cards if not scan.for_card(c[0])]:
            results.append({"key": key, "verdict": "untested", "detail": "no test is marked with this card"})
        every_node = sorted({n for *_, nodes in tested for n in nodes})
        baseline_failing: set[str] = set()
        if every_node:
            outcome, last = run_tests(work / "base", every_node, args.timeout * 4)
            if outcome != "passed":  # find whose tests fail unchanged, card by card
                for key, *_, nodes in tested:
                    if run_tests(work / "base", nodes, args.timeout)[0] != "passed":
                        baseline_failing.add(key)
                        results.append({"key": key, "verdict": "fails_unchanged",
                                        "detail": "its tests fail on the unchanged sources"})
        todo = [c for c in tested if c[0] not in baseline_failing]
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            shared = shared_names(root, args.scenario)
            futures = [pool.submit(check_card, work, key, d, rel, hooks, nodes, args.scenario, args.timeout,
                                   d.name.text not in shared, not args.card_block_only)
                       for key, d, rel, hooks, nodes in todo]
            for future in futures:
                r = future.result()
                results.append(r)
                if not args.json:
                    print(f"  {r['key']:<6} {r['verdict']:<24} {r['detail']}", flush=True)
    order = {key: i for i, (key, *_) in enumerate(cards)}
    results.sort(key=lambda r: order[r["key"]])
    names = {key: d.name.text for key, d, *_ in cards}
    for r in results:
        r["name"] = names[r["key"]]
        r["tests"] = scan.for_card(r["key"])
    bad = [r for r in results if r["verdict"] not in ("killed", "untested")]
    if args.json:
        print(json.dumps({"scenario": args.scenario, "seconds": round(time.perf_counter() - start, 1),
                          "results": results}, indent=1))
    else:
        killed = sum(r["verdict"] == "killed" for r in results)
        print(f"{args.scenario}: {len(cards)} cards with an event; {killed} with tests that fail when the event "
              f"is emptied; {time.perf_counter() - start:.0f} s")
        for verdict, title in (("survived", "tests still pass with the event emptied (they cannot fail)"),
                               ("fails_unchanged", "tests fail on the unchanged sources"),
                               ("mutant_does_not_compile", "the emptied card does not compile"),
                               ("error", "pytest could not run the tests"),
                               ("untested", "no test is marked with the card")):
            group = [r for r in results if r["verdict"] == verdict]
            if group:
                print(f"{title} ({len(group)}):")
                for r in group:
                    print(f"  {r['key']} {r['name']}" + (f": {r['detail']}" if verdict != "untested" else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
