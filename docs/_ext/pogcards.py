"""The card catalogue, generated from the sources when the docs are built.

``.. pog-cards:: SCENARIO``
    every strategy card of SCENARIO, by side and number: its printed values,
    its note, when it may be played (the `playable when` condition as written,
    with its rules), what its event does (the event's note and rules, and the
    modifiers, triggers and restrictions it puts in play), every rule it cites
    with the rule's title from the index, where it is defined, and the tests
    that name it (``@pytest.mark.card("AP 6")``, read from tests/**/*.py).

Nothing of it is typed into the page: a card written, changed or tested shows
up at the next build.  `catalogue_lines` makes the reStructuredText and is
tested on its own (tests/test_docs.py).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

PROJECT_DIR = Path(__file__).resolve().parents[2]
SIDE_TITLES = {"ap": "Allied Powers", "cp": "Central Powers"}
_SPECIAL = re.compile(r"([\\*`|_<>\[\]])")


def escape(text: str) -> str:
    """Plain text safe inside reStructuredText (no markup, no references)."""
    return _SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def literal(text: str) -> str:
    text = " ".join(text.split())
    return f"``{text}``" if "``" not in text and text else escape(text)


def _source_text(span, root: Path) -> str:
    """The source text a span covers (for a `playable when` condition)."""
    path = Path(span.file)
    for candidate in (path, root / path):
        try:
            lines = candidate.read_text(encoding="utf-8").split("\n")
            break
        except OSError:
            continue
    else:
        return ""
    first, last = span.line - 1, span.end_line - 1
    if first == last:
        return lines[first][span.col - 1:span.end_col - 1]
    parts = [lines[first][span.col - 1:], *lines[first + 1:last], lines[last][:span.end_col - 1]]
    return " ".join(p.strip() for p in parts)


def _relative(location: str, root: Path) -> str:
    file, _, line = location.rpartition(":")
    path = Path(file)
    absolute = path if path.is_absolute() else Path.cwd() / path
    try:
        shown = Path(os.path.relpath(absolute.resolve(), root.resolve())).as_posix()
    except ValueError:
        shown = file
    return f"{shown}:{line}"


def _cites(numbers: list[str]) -> str:
    return f" (rule {', '.join(numbers)})" if numbers else ""


def catalogue_lines(scenario: str = "campaign", root: Path = PROJECT_DIR) -> list[str]:
    from pogdsl.cli.cards import catalogue, rule_key
    from pogdsl.compiler import resolve_scenario

    comp, program = resolve_scenario(scenario, root=root)
    if comp.reporter.errors:
        return [".. warning::", "", f"   The scenario '{scenario}' has errors: no card catalogue.", ""]
    tests = root / "tests"
    report = catalogue(program, tests if tests.is_dir() else None)
    decls = {f"{d.side.text.upper()} {d.number}": d for d in program.all("card")}
    s = report["summary"]
    out = [f"{s['cards']} cards in scenario ``{report['scenario']}``: {s['events']} with their event written, "
           f"{s['tested']} named by a test.", ""]
    side = None
    for card in report["cards"]:
        decl = decls[card["key"]]
        if card["side"] != side:
            side = card["side"]
            title = f"{SIDE_TITLES.get(side, side.upper())} ({side.upper()})"
            out += [title, "-" * len(title), ""]
        out += [f".. _card-{side}-{card['number']}:", ""]
        title = f"{card['key']} — {escape(card['name'])}"
        out += [title, "~" * len(title), ""]
        if card["note"]:
            out += [f"*{escape(card['note'])}*", ""]
        values = [f"{card['deck']} deck" if card["deck"] else "no deck", f"OPS {card['ops']}", f"SR {card['sr']}"]
        if card["rp"]:
            values.append("RP " + ", ".join(f"{k} {v}" for k, v in card["rp"].items()))
        if card["war_status"]:
            values.append(f"war status {card['war_status']}")
        flags = [f for f, on in (("combat card", card["combat"]), ("removed after its event", card["removed"]),
                                 ("optional", card["optional"])) if on]
        out.append(f":Values: {' · '.join(values)}")
        if flags:
            out.append(f":Flags: {', '.join(flags)}")
        if card["reinforcements"]:
            out.append(f":Reinforcements: {', '.join(literal(u) for u in card['reinforcements'])}")
        cites = card["cites"]
        if decl.playable is not None:
            out.append(f":Playable when: {literal(_source_text(decl.playable.span, root))}"
                       f"{_cites(cites['playable'])}")
        if card["event"]:
            note = escape(card["event_note"]) if card["event_note"] else "(no note)"
            out.append(f":Event: {note}{_cites(cites['event'])}")
        else:
            out.append(":Event: not written yet: the card is played for operations, SR or replacements only")
        for nested in decl.nested:
            note = f" — {escape(nested.note)}" if nested.note else ""
            out.append(f":In play: {nested.kind} {literal(nested.key)}{note}{_cites([c.number for c in nested.cites])}")
        if card["rules"]:
            titled = []
            for number in sorted(card["rules"], key=rule_key):
                entry = program.rule_entry(number)  # `soe 12.4.6`: another rulebook's rule
                titled.append(f"{number} {escape(entry.title)}" if entry is not None and entry.title else number)
            out.append(f":Rules cited: {'; '.join(titled)}")
        out.append(f":Source: {literal(_relative(card['location'], root))}")
        if card["tests"]:
            out.append(f":Tests: {len(card['tests'])} — " + ", ".join(literal(t.rpartition('::')[2])
                                                                       for t in card["tests"]))
        else:
            out.append(":Tests: none")
        out.append("")
    return out


class CardsDirective(SphinxDirective):
    required_arguments = 0
    optional_arguments = 1
    has_content = False

    def run(self):
        scenario = self.arguments[0] if self.arguments else "campaign"
        source = f"<generated by {self.name}>"
        content = StringList()
        for line in catalogue_lines(scenario):
            content.append(line, source)
        # The page changes whenever a card, a rule's title or a test does.
        for folder in ("cards", "rules", "scenarios", "tests"):
            for path in (PROJECT_DIR / folder).rglob("*"):
                if path.suffix in (".pog", ".py"):
                    self.env.note_dependency(str(path))
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, content, node)
        return node.children


def setup(app):
    app.add_directive("pog-cards", CardsDirective)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
