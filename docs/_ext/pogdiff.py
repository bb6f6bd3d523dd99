"""Sphinx extension: what a variant changes, generated at build time.

``.. pog-diff:: BASE VARIANT``
    Every difference between what scenario VARIANT plays and what BASE
    plays, grouped by the rule each change cites first (another rulebook's
    number before the main one's, as ``pogdsl diff`` groups them), with the
    rule's title from its rulebook's index, each change's kind, name, where
    it is written and the other rules it cites.

``.. pog-rulebook:: SCENARIO BOOK``
    Every rule of rulebook BOOK (a variant's own, such as ``soe``) with how
    SCENARIO covers it -- implemented (where), the same as a rule of the main
    rulebook, not applicable (why) or not yet covered -- and the tests that
    name it (``@pytest.mark.rule("soe 12.4.6")``).

The data comes from the functions behind ``pogdsl diff`` and ``pogdsl
rules``, so the page and the commands agree.
"""

from __future__ import annotations

from pathlib import Path

from docutils.statemachine import StringList
from docutils import nodes
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from ruleindex import rst_text

DOCS_DIR = Path(__file__).resolve().parent.parent
PROJECT_DIR = DOCS_DIR.parent


def _title(program, base, number: str) -> str:
    entry = program.rule_entry(number) or base.rule_entry(number)
    return entry.title if entry is not None and entry.title else ""


def diff_lines(base_name: str, variant_name: str, root: Path = PROJECT_DIR) -> list[str]:
    """The reStructuredText listing of `pogdsl diff BASE VARIANT`."""
    from pogdsl.cli.diff import scenario_program
    from pogdsl.compiler import resolve_scenario
    from pogdsl.semantics.diff import diff_programs, first_rule

    comp, variant = resolve_scenario(variant_name, root=root)
    base = scenario_program(comp, base_name)
    if comp.reporter.errors:
        raise RuntimeError(f"{variant_name} does not compile: {comp.reporter.errors[0]}")
    changes = diff_programs(base, variant)
    if not changes:
        return [f"{variant.scenario.key} plays as {base.scenario.key} does."]
    lines: list[str] = [f"{len(changes)} changes from ``{base.scenario.key}`` to ``{variant.scenario.key}``,"
                        " by the rule each implements:", ""]
    group = object()
    for c in changes:
        rule = first_rule(c)
        if rule != group:
            group = rule
            lines.append("")
            if rule is None:
                lines += ["**No rule cited**", ""]
            else:
                title = _title(variant, base, rule)
                lines += [f"**{rst_text(rule)}**" + (f" — {rst_text(title)}" if title else ""), ""]
        what = f"{c.kind} ``{c.name}``" + (f" ({rst_text(c.title)})" if c.title else "")
        others = [n for n in c.cites if n != rule]
        replaced = [n for n in others if " " not in str(n).strip()]
        extra = [n for n in others if n not in replaced]
        parts = [f"{c.change} {what}", f"``{c.location}``"]
        if replaced:
            parts.append("Deluxe " + ", ".join(f"{n} ({rst_text(_title(variant, base, n))})" if _title(variant, base, n)
                                               else n for n in replaced))
        if extra:
            parts.append("also " + ", ".join(extra))
        lines.append("* " + "; ".join(parts))
        if c.attributes:
            lines.append("  (" + rst_text("; ".join(str(a) for a in c.attributes)) + ")")
    return lines


def rulebook_lines(scenario: str, book: str, root: Path = PROJECT_DIR) -> list[str]:
    """The reStructuredText table of every rule of rulebook BOOK as SCENARIO
    covers it: cited (where), the same as a main-rulebook rule, not applicable
    (why) or not yet covered, with the tests naming it."""
    from pogdsl.cli.rules import other_rulebooks
    from pogdsl.compiler import resolve_scenario
    from pogdsl.semantics.citations import collect_citations
    from pogdsl.testindex import marked_tests

    comp, program = resolve_scenario(scenario, root=root)
    if comp.reporter.errors:
        raise RuntimeError(f"{scenario} does not compile: {comp.reporter.errors[0]}")
    every = collect_citations(program)
    main_cited = {n for n in every if " " not in n}
    main_na = {n for n, e in program.rule_index.items() if e.not_applicable is not None}
    books = other_rulebooks(program, every, main_cited, main_na)
    if book not in books:
        return [f"``{scenario}`` cites nothing of rulebook ``{book}``."]
    tests = marked_tests(Path(root) / "tests", "rule", base=Path(root))
    data, main = books[book], program.main_rulebook
    c = data["counts"]
    out = [f"{c['cited']} rules implemented, {c['same']} the same as in {main}, {c['not_applicable']} not "
           f"applicable, {c['uncovered']} not yet covered.", "",
           ".. list-table::", "   :header-rows: 1", "   :widths: 10 34 36 20", "",
           "   * - Rule", "     - Title", "     - Status", "     - Tests"]
    for number, r in data["rules"].items():
        status = {"cited": "implemented: " + ", ".join(f"``{w}``" for w in r.get("cited", [])[:3]),
                  "not_applicable": "not applicable: " + rst_text(r.get("reason") or ""),
                  "uncovered": "**not yet covered**", "parent": "(its sub-rules)", "same": ""}[r["status"]]
        if "same_as" in r:
            same = f"same as {main} {r['same_as']}"
            status = f"{status}; {same}" if status else same
        named = [t.id for t in tests.get(f"{book} {number}", [])]
        out += [f"   * - {book} {number}", f"     - {rst_text(r['title'] or '')}", f"     - {status}",
                "     - " + (", ".join(f"``{t.rpartition('::')[2]}``" for t in named[:3])
                             + (f" and {len(named) - 3} more" if len(named) > 3 else "") if named else "—")]
    return out


class _GeneratedListing(SphinxDirective):
    """Two arguments; the reStructuredText that `lines(first, second, root)`
    writes, rebuilt when any scenario source changes."""

    required_arguments = 2
    has_content = False
    lines = None

    def run(self):
        for path in sorted((PROJECT_DIR / "scenarios").rglob("*.pog")):
            self.env.note_dependency(str(path))
        text = "\n".join(type(self).lines(*self.arguments, PROJECT_DIR))
        container = nodes.container()
        nested_parse_with_titles(self.state, StringList(text.splitlines(), source=self.name), container)
        return container.children


class PogRulebook(_GeneratedListing):
    lines = staticmethod(rulebook_lines)


class PogDiff(_GeneratedListing):
    lines = staticmethod(diff_lines)


def setup(app):
    app.add_directive("pog-diff", PogDiff)
    app.add_directive("pog-rulebook", PogRulebook)
    return {"version": "1.0", "parallel_read_safe": True}
