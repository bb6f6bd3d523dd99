"""`pogdsl rules`: which rule numbers a scenario implements."""

from __future__ import annotations

import json

from .common import EXIT_ERRORS, EXIT_OK, add_root_option, print_diagnostics

def cmd_rules(args) -> int:
    from ..compiler import resolve_scenario
    from ..semantics.citations import collect_citations

    comp, program = resolve_scenario(args.scenario, root=args.root)
    if comp.reporter.errors:
        print_diagnostics(comp, False)
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
    tests = None
    if args.tests:
        from ..project import find_root
        from ..testmarks import scan_tests

        root = (args.root or find_root()).resolve()
        scan = scan_tests(root / "tests", relative_to=root, name="rule")
        tests = {n: nodes for n, nodes in sorted(scan.tests.items(), key=lambda kv: _rule_key(kv[0]))}
        report["tests"] = tests
    if args.json:
        print(json.dumps(report, indent=1))
        return EXIT_OK
    print(f"scenario {report['scenario']}: {len(report['cited'])} rule numbers cited, "
          f"{len(report['not_applicable'])} marked not applicable, {len(uncovered)} leaf rules not yet covered")
    for number, where in report["cited"].items():
        title = index[number].title if number in index and index[number].title else ""
        marked = "" if tests is None else f"  {len(tests.get(number, []))} test{'s' * (len(tests.get(number, [])) != 1)}"
        print(f"  {number:<12} {title:<44} {where[0]}" + (f" (+{len(where) - 1})" if len(where) > 1 else "")
              + marked)
    if args.uncovered and uncovered:
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


def register(sub) -> None:
    p = sub.add_parser("rules", help="which rulebook numbers a scenario implements",
                       description="List every rule number cited by SCENARIO's sources, with where, and the "
                                   "rules the index marks not applicable.")
    p.add_argument("scenario", metavar="SCENARIO")
    p.add_argument("--json", action="store_true",
                   help='print {"cited": {rule: ["file:line", ...]}, "not_applicable": {rule: reason}, '
                        '"uncovered": [...]}')
    p.add_argument("--uncovered", action="store_true", help="also list leaf rules neither cited nor excluded")
    p.add_argument("--tests", action="store_true",
                   help='also count the tests marked @pytest.mark.rule("12.4.3") for each rule, read from '
                        'ROOT/tests/**/*.py without running them (with --json: "tests": {rule: [node ids]})')
    add_root_option(p)
    p.set_defaults(func=cmd_rules)
