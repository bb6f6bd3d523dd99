"""The `pogdsl` command.

Exit status, for scripts: 0 success, 1 the sources (or a game file) have
errors, 2 the command was called wrongly (unknown option, missing path,
unknown scenario).  A user's mistake never ends in a Python traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # argparse exits 2 on usage errors; keep its wording
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _print_diagnostics(comp, as_json: bool, stream=sys.stderr) -> tuple[int, int]:
    from .diagnostics import render

    items = comp.reporter.sorted()
    errors = sum(d.is_error for d in items)
    warnings = len(items) - errors
    if as_json:
        return errors, warnings
    for d in items:
        print(render(d, comp.sources), file=stream)
    return errors, warnings


# ----------------------------------------------------------------- check
def cmd_check(args) -> int:
    from .compiler import compile_paths

    comp = compile_paths([Path(p) for p in args.paths] or None, root=args.root, library=not args.standalone)
    errors, warnings = _print_diagnostics(comp, args.json)
    if args.json:
        print(json.dumps({
            "files": len(comp.loaded.files), "errors": errors, "warnings": warnings,
            "diagnostics": [d.to_json() for d in comp.reporter.sorted()],
        }, indent=1))
    elif not args.quiet:
        summary = f"checked {len(comp.loaded.files)} files: {errors} error{'s' * (errors != 1)}, " \
                  f"{warnings} warning{'s' * (warnings != 1)}"
        print(summary, file=sys.stderr)
    if errors or (args.strict and warnings):
        return EXIT_ERRORS
    return EXIT_OK


# ----------------------------------------------------------------- graph
def cmd_graph(args) -> int:
    from .compiler import scenario_graph
    from .graph.export import to_dot, to_json

    comp, graph = scenario_graph(args.scenario, root=args.root)
    if graph is None:
        _print_diagnostics(comp, False)
        return EXIT_ERRORS
    text = to_json(graph) if args.format == "json" else to_dot(graph, args.kinds)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return EXIT_OK


# ----------------------------------------------------------------- rules
def cmd_rules(args) -> int:
    from .compiler import resolve_scenario
    from .semantics.citations import collect_citations

    comp, program = resolve_scenario(args.scenario, root=args.root)
    if comp.reporter.errors:
        _print_diagnostics(comp, False)
        return EXIT_ERRORS
    cited = collect_citations(program)
    index = program.rule_index
    report = {
        "scenario": program.scenario.key,
        "cited": {n: [s.location for s in spans] for n, spans in sorted(cited.items(), key=lambda kv: _rule_key(kv[0]))},
        "not_applicable": {n: e.not_applicable for n, e in sorted(index.items(), key=lambda kv: _rule_key(kv[0]))
                           if e.not_applicable is not None},
    }
    leaves = _leaf_rules(index)
    uncovered = [n for n in leaves if n not in report["cited"] and n not in report["not_applicable"]]
    report["uncovered"] = uncovered
    if args.json:
        print(json.dumps(report, indent=1))
        return EXIT_OK
    print(f"scenario {report['scenario']}: {len(report['cited'])} rule numbers cited, "
          f"{len(report['not_applicable'])} marked not applicable, {len(uncovered)} leaf rules not yet covered")
    for number, where in report["cited"].items():
        title = index[number].title if number in index and index[number].title else ""
        print(f"  {number:<12} {title:<44} {where[0]}" + (f" (+{len(where) - 1})" if len(where) > 1 else ""))
    if args.uncovered:
        print("not yet covered:")
        for number in uncovered:
            print(f"  {number:<12} {index[number].title or ''}")
    return EXIT_OK


def _rule_key(number: str):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in number.split(".")]


def _leaf_rules(index) -> list[str]:
    numbers = sorted(index, key=_rule_key)
    parents = set()
    for n in numbers:
        parts = n.split(".")
        for i in range(1, len(parts)):
            parents.add(".".join(parts[:i]))
        if len(parts) == 2 and parts[1] != "0":
            parents.add(parts[0] + ".0")
    return [n for n in numbers if n not in parents]


# ----------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="pogdsl",
        description="Rules language and engine for Paths of Glory and its family of card-driven wargames.",
        epilog="Exit status: 0 success, 1 errors in the sources, 2 wrong usage. "
               "Run `pogdsl COMMAND --help` for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"pogdsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def common(p):
        p.add_argument("--root", type=Path, default=None,
                       help="the project folder holding rules/, cards/ and scenarios/ (default: found "
                            "from the current folder, or $POGDSL_HOME)")

    p = sub.add_parser("check", help="check .pog sources and report every mistake",
                       description="Parse and check .pog sources. With no PATH, checks the project's own "
                                   "rules/, cards/ and scenarios/. A PATH outside them is checked together with "
                                   "them, so it can use their names.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or folders to check")
    p.add_argument("--json", action="store_true", help="print the diagnostics as JSON on stdout")
    p.add_argument("--standalone", action="store_true",
                   help="check PATHs on their own, without the project's library")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors (exit 1)")
    p.add_argument("-q", "--quiet", action="store_true", help="no summary line")
    common(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("graph", help="export a scenario's rule graph (DOT or JSON)",
                       description="Compile SCENARIO (a scenario name such as `campaign`, or a .pog file "
                                   "declaring one) and print its rule graph.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--format", choices=("dot", "json"), default="dot", help="output format (default dot)")
    p.add_argument("--kinds", nargs="+", metavar="KIND",
                   help="DOT only: show just these node kinds (e.g. phase procedure rule)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    common(p)
    p.set_defaults(func=cmd_graph)

    p = sub.add_parser("rules", help="which rulebook numbers a scenario implements",
                       description="List every rule number cited by SCENARIO's sources, with where, and the "
                                   "rules the index marks not applicable.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--json", action="store_true",
                   help='print {"cited": {rule: ["file:line", ...]}, "not_applicable": {rule: reason}, '
                        '"uncovered": [...]}')
    p.add_argument("--uncovered", action="store_true", help="also list leaf rules neither cited nor excluded")
    common(p)
    p.set_defaults(func=cmd_rules)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    from .compiler import UsageError

    try:
        return args.func(args)
    except UsageError as err:
        print(f"pogdsl {args.command}: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
