"""`pogdsl rules`: which rule numbers a scenario implements, and which tests check them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..numbers import rule_number_key
from ..syntax.ast import citation_text, split_citation
from .common import EXIT_ERRORS, EXIT_OK, add_root_option, print_diagnostics


def cmd_rules(args) -> int:
    from ..compiler import resolve_scenario
    from ..semantics.citations import collect_citations

    comp, program = resolve_scenario(args.scenario, root=args.root)
    if comp.reporter.errors:
        print_diagnostics(comp, False)
        return EXIT_ERRORS
    if args.rule is not None:
        return _one_rule(args, program)
    cited_all = collect_citations(program)
    cited = {n: spans for n, spans in cited_all.items() if _book(n) is None}
    index = program.rule_index
    report = {
        "scenario": program.scenario.key,
        "cited": {n: [s.location for s in spans] for n, spans in sorted(cited.items(), key=lambda kv: _rule_key(kv[0]))},
        "not_applicable": {n: e.not_applicable for n, e in sorted(index.items(), key=lambda kv: _rule_key(kv[0]))
                           if e.not_applicable is not None},
        "approximated": approximations(program),
    }
    leaves = _leaf_rules(index)
    if args.tests:
        return _report_tests(args, report, index, leaves, program)
    uncovered = [n for n in leaves if n not in report["cited"] and n not in report["not_applicable"]]
    report["uncovered"] = uncovered
    others = other_rulebooks(program, cited_all, report["cited"], report["not_applicable"])
    if others:
        report["main_rulebook"] = program.main_rulebook
        report["rulebooks"] = others
    if args.json:
        print(json.dumps(report, indent=1))
        return EXIT_OK
    print(f"scenario {report['scenario']}: {len(report['cited'])} rule numbers cited, "
          f"{len(report['not_applicable'])} marked not applicable, {len(uncovered)} leaf rules not yet covered")
    for number, where in report["cited"].items():
        title = index[number].title if number in index and index[number].title else ""
        print(f"  {number:<12} {title:<44} {where[0]}" + (f" (+{len(where) - 1})" if len(where) > 1 else ""))
    if report["approximated"]:
        print("approximated (implemented, less what the index says is left out):")
        for number, why in report["approximated"].items():
            print(f"  {number:<12} {why}")
    if args.uncovered and uncovered:
        print("not yet covered:")
        for number in uncovered:
            print(f"  {number:<12} {index[number].title or ''}")
    for name, book in others.items():
        _print_rulebook(name, book, program.main_rulebook)
    return EXIT_OK


def approximations(program) -> dict[str, str]:
    """Every rule an index of PROGRAM (the main one, and each other rulebook
    it holds) marks `approximated`, with what is left out."""
    out = {}
    for book in [None, *sorted(program.rulebooks)]:
        index = program.rulebook_index(book)
        for number in sorted(index, key=_rule_key):
            entry = index[number]
            if entry.approximated is not None:
                key = number if book is None or book == program.main_rulebook else citation_text(book, number)
                out.setdefault(key, entry.approximated)
    return out


# Where a citing block lives, in the order `rules SCENARIO RULE` lists them.
PLACE_ORDER = ("rules", "cards", "scenarios")


def _place_of(location: str) -> str:
    parts = Path(location.split(":")[0]).parts
    for kind in PLACE_ORDER:
        if kind in parts:
            return kind
    return "other"


def _one_rule(args, program) -> int:
    """`pogdsl rules SCENARIO RULE`: the rule and its sub-rules — title,
    whether it applies or is approximated, every place citing it (rule files,
    then cards, then scenarios), the tests naming it — with the counts the
    docs' rule index gives for them."""
    from ..diagnostics import did_you_mean
    from .common import EXIT_USAGE

    wanted = args.rule.strip()
    book, number = split_citation(wanted)
    index = program.rulebook_index(book)
    head = number[:-2] if number.endswith(".0") else number  # (a chapter's `12.0` heads 12.1, 12.2 …)
    if number not in index and not any(n.startswith(head + ".") for n in index):
        known = [citation_text(book, n) if book else n for n in index]
        hint = did_you_mean(wanted, known)
        print(f"pogdsl rules: error: rule {wanted} is not in the rule index of {program.scenario.key}"
              + (f" ({hint})" if hint else ""), file=sys.stderr)
        return EXIT_USAGE
    subtree = [n for n in sorted(index, key=_rule_key) if n == number or n.startswith(head + ".")]
    shown = [citation_text(book, n) if book else n for n in subtree]
    cov = rule_coverage(program, tests_folder(args))
    leaves = set(_leaf_rules(index))
    rules = {}
    for n, label in zip(subtree, shown):
        entry = index[n]
        e = cov["rules"].get(label, {"cited": [], "tests": []})
        places = {kind: [] for kind in (*PLACE_ORDER, "other")}
        for location in e["cited"]:
            places[_place_of(location)].append(location)
        rules[label] = {"title": entry.title, "leaf": n in leaves, "not_applicable": entry.not_applicable,
                        "approximated": entry.approximated,
                        "cited": {k: v for k, v in places.items() if v}, "tests": list(e["tests"])}
    leaf_rows = [r for r in rules.values() if r["leaf"]]
    counts = {"rules": len(rules), "leaf": len(leaf_rows),
              "tested": sum(1 for r in leaf_rows if r["tests"]),
              "not_applicable": sum(1 for r in leaf_rows if r["not_applicable"] is not None),
              "approximated": sum(1 for r in rules.values() if r["approximated"] is not None),
              "lacking": sum(1 for label, r in rules.items() if r["leaf"] and label in cov["missing"])}
    if args.json:
        print(json.dumps({"scenario": program.scenario.key, "rule": wanted, "counts": counts, "rules": rules},
                         indent=1))
        return EXIT_OK
    print(f"{wanted} in {program.scenario.key}: {counts['leaf']} leaf rule{'s' * (counts['leaf'] != 1)} of "
          f"{counts['rules']}, "
          f"{counts['tested']} named by at least one test, {counts['not_applicable']} marked not applicable, "
          f"{counts['approximated']} approximated, {counts['lacking']} still lacking a citing source or a test")
    for label, r in rules.items():
        depth = label.count(".") - shown[0].count(".") + (number not in index)
        print(f"{'  ' * depth}{label}  {r['title'] or ''}".rstrip())
        pad = "  " * depth + "    "
        if r["not_applicable"] is not None:
            print(f"{pad}not applicable: {r['not_applicable']}")
        if r["approximated"] is not None:
            print(f"{pad}approximated: {r['approximated']}")
        for kind, where in r["cited"].items():
            print(f"{pad}{kind + ':':<11}" + ", ".join(where))
        for test in r["tests"]:
            print(f"{pad}{'test:':<11}{test}")
    return EXIT_OK


def _book(number: str) -> str | None:
    return split_citation(number)[0]


def used_rulebooks(program, cited) -> list[str]:
    """The rulebooks other than the main one that PROGRAM cites, by name."""
    return sorted({_book(n) for n in cited if _book(n) is not None and _book(n) in program.rulebooks})


def other_rulebooks(program, cited, main_cited, main_na) -> dict:
    """For each other rulebook the scenario cites: every rule of its index
    with its status -- "cited" (where), "same" (as the main rule `same_as`,
    with whether that one is covered), "not_applicable" (why), "uncovered",
    or "parent" (a heading whose sub-rules say it all) -- in number order, and
    the counts."""
    out = {}
    for name in used_rulebooks(program, cited):
        index = program.rulebooks[name]
        leaves = set(_leaf_rules(index))
        rules, counts = {}, {"cited": 0, "same": 0, "not_applicable": 0, "uncovered": 0, "parent": 0}
        for number in sorted(index, key=_rule_key):
            entry = index[number]
            where = [s.location for s in cited.get(citation_text(name, number), [])]
            row = {"title": entry.title}
            if where:
                row.update(status="cited", cited=where)
            elif entry.not_applicable is not None:
                row.update(status="not_applicable", reason=entry.not_applicable)
            elif entry.same_as is not None:
                row.update(status="same")
            elif number in leaves:
                row.update(status="uncovered")
            else:
                row.update(status="parent")
            if entry.same_as is not None:
                same = entry.same_as.number
                row["same_as"] = same
                row["same_as_covered"] = same in main_cited or same in main_na
            counts[row["status"]] += 1
            rules[number] = row
        decl = program.get("rulebook", name)
        out[name] = {"title": decl.title if decl is not None else None, "counts": counts, "rules": rules,
                     "uncovered": [n for n, r in rules.items() if r["status"] == "uncovered"]}
    return out


def _print_rulebook(name: str, book: dict, main: str | None) -> None:
    c = book["counts"]
    title = f" \"{book['title']}\"" if book["title"] else ""
    print(f"rulebook {name}{title}: {c['cited']} cited, {c['same']} same as {main or 'the main rulebook'}, "
          f"{c['not_applicable']} not applicable, {c['uncovered']} not yet covered")
    for number, r in book["rules"].items():
        status = r["status"]
        if status == "cited":
            where = r["cited"]
            what = where[0] + (f" (+{len(where) - 1})" if len(where) > 1 else "")
        elif status == "not_applicable":
            what = f"not applicable: {r['reason']}"
        elif status == "uncovered":
            what = "not yet covered"
        elif status == "parent":
            what = "(its sub-rules)"
        else:
            what = ""
        if "same_as" in r:
            same = f"same as {main} {r['same_as']}" if main else f"same as {r['same_as']}"
            if not r["same_as_covered"]:
                same += ", not covered there"
            what = f"{what}; {same}" if what else same
        print(f"  {number:<12} {(r['title'] or ''):<44} {what}")


def tests_folder(args) -> Path:
    """The tests folder: --tests-dir, else tests/ in the project root."""
    if args.tests_dir is not None:
        return Path(args.tests_dir)
    from ..project import find_root

    root = Path(args.root) if args.root is not None else find_root()
    return root / "tests"


def rule_coverage(program, tests_dir: Path) -> dict:
    """Every rule number of `program`'s rule index or named by a test under
    `tests_dir`, with its title, the source lines citing it, the tests naming
    it (``@pytest.mark.rule("N")``) and its not-applicable reason; and for
    each leaf rule not marked not applicable, what it lacks ("source",
    "test").  Shared by `pogdsl rules --tests` and the docs' rule index."""
    from ..semantics.citations import collect_citations
    from ..testindex import marked_tests

    index = program.rule_index
    every = collect_citations(program)
    cited = {n: [s.location for s in spans] for n, spans in every.items()}
    used = set(used_rulebooks(program, every))
    tests_dir = Path(tests_dir)
    marked = marked_tests(tests_dir, "rule", base=tests_dir.parent) if tests_dir.exists() else {}
    # Another rulebook's numbers count where the scenario cites that rulebook
    # (`soe 12.4.6`); a marker naming a rule no rulebook lists is unknown.
    known = {n for n in marked if program.rule_entry(n) is not None}
    marked = {n: t for n, t in marked.items() if _book(n) is None or _book(n) in used or n not in known}
    numbers = sorted(set(index) | set(cited) | set(marked), key=_rule_key)

    def entry(n):
        return program.rule_entry(n) if _book(n) is None or _book(n) in used else None

    rules = {n: {"title": entry(n).title if entry(n) is not None else None,
                 "cited": cited.get(n, []),
                 "tests": [t.id for t in marked.get(n, [])],
                 "not_applicable": entry(n).not_applicable if entry(n) is not None else None,
                 "approximated": entry(n).approximated if entry(n) is not None else None} for n in numbers}
    leaves = _leaf_rules(index)
    missing = {}
    for n in leaves:
        if rules[n]["not_applicable"] is not None:
            continue
        lacks = [what for what, where in (("source", cited), ("test", marked)) if n not in where]
        if lacks:
            missing[n] = lacks
    return {"rules": rules, "leaves": leaves, "missing": missing,
            "unknown_in_tests": [n for n in sorted(marked, key=_rule_key) if n not in known]}


def _report_tests(args, report, index, leaves, program) -> int:
    """`--tests`: for each rule number, the source lines citing it and the
    tests naming it; with --uncovered, the leaf rules that lack either."""
    folder = tests_folder(args)
    cov = rule_coverage(program, folder)
    rules = {n: {"title": e["title"], "cited": e["cited"], "tests": e["tests"]}
             for n, e in cov["rules"].items() if e["cited"] or e["tests"]}
    marked = {n for n, e in cov["rules"].items() if e["tests"]}
    unknown, missing = cov["unknown_in_tests"], cov["missing"]
    out = {"scenario": report["scenario"], "tests_dir": str(folder), "rules": rules,
           "not_applicable": report["not_applicable"], "unknown_in_tests": unknown}
    if args.uncovered:
        out["uncovered"] = missing
    if args.json:
        print(json.dumps(out, indent=1))
        return EXIT_OK
    tested = [n for n in leaves if n in marked]
    print(f"scenario {report['scenario']}: {len(report['cited'])} rule numbers cited, "
          f"{len(marked)} named by tests; {len(tested)} of {len(leaves)} leaf rules named by a test, "
          f"{len(report['not_applicable'])} marked not applicable")
    for n, entry in rules.items():
        print(f"  {n:<12} {entry['title'] or '(not in the rule index)'}")
        for location in entry["cited"]:
            print(f"      cited  {location}")
        for test in entry["tests"]:
            print(f"      test   {test}")
    if unknown:
        print("named by tests but not in the rule index: " + ", ".join(unknown))
    if args.uncovered and missing:
        no_test = sum("test" in v for v in missing.values())
        no_source = sum("source" in v for v in missing.values())
        print(f"leaf rules not covered ({len(missing)}: {no_source} cited by no source, {no_test} named by no test):")
        for n, lacks in missing.items():
            print(f"  {n:<12} {(index[n].title or ''):<44} no {' and no '.join(lacks)}")
    return EXIT_OK


def _rule_key(number: str):
    return rule_number_key(number)


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
    p = sub.add_parser("rules", help="which rulebook numbers a scenario implements, and which tests check them",
                       description="List every rule number cited by SCENARIO's sources, with where, and the "
                                   "rules the index marks not applicable.  Then, for each other rulebook the "
                                   "scenario cites (`cites soe 12.4.6`), every rule of that rulebook: cited "
                                   "(where), the same as a main-rulebook rule (same_as), not applicable, or "
                                   "not yet covered.  With --tests, also the tests naming "
                                   "each rule with @pytest.mark.rule(\"N\") or rule(\"soe N\") (found by reading "
                                   "the test files, not by running them).")
    p.add_argument("scenario", metavar="SCENARIO", help="a scenario name (`-` reads as `_`) or a .pog file")
    p.add_argument("rule", metavar="RULE", nargs="?", default=None,
                   help="only this rule and its sub-rules (12.5, soe 12.4.6): title, whether it applies or is "
                        "approximated, every place citing it (rule files, then cards, then scenarios) and the "
                        "tests naming it, with the rule index's counts for them")
    p.add_argument("--json", action="store_true",
                   help='print {"cited": {rule: ["file:line", ...]}, "not_applicable": {rule: reason}, '
                        '"uncovered": [...]}, the main rulebook\'s; with other rulebooks cited, also '
                        '"main_rulebook" and "rulebooks": {name: {"title", "counts", "rules": {rule: {"title", '
                        '"status", ...}}, "uncovered"}}; with --tests: {"rules": {rule: {"title", "cited", "tests"}}, '
                        '"not_applicable", "unknown_in_tests", "uncovered": {rule: ["source"|"test", ...]}}')
    p.add_argument("--uncovered", action="store_true",
                   help="also list leaf rules neither cited nor excluded; with --tests, leaf rules cited by "
                        "no source or named by no test, saying which is missing")
    p.add_argument("--tests", action="store_true",
                   help="for each rule number, the source lines citing it and the tests naming it")
    p.add_argument("--tests-dir", type=Path, default=None, metavar="DIR",
                   help="the test folder to scan with --tests (default: tests/ in the project root)")
    add_root_option(p)
    p.set_defaults(func=cmd_rules)
