"""The VS Code package in editors/vscode: its grammar is the one generated
from the language's grammar, and its settings start `pogdsl lsp`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from pogdsl.highlight import KEYWORDS
from pogdsl.lsp.textmate import grammar_text

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "editors" / "vscode"


def test_the_committed_grammar_is_the_generated_one():
    committed = (PACKAGE / "syntaxes" / "pog.tmLanguage.json").read_text()
    assert committed == grammar_text(), "run: python -m pogdsl.lsp.textmate > editors/vscode/syntaxes/pog.tmLanguage.json"


def test_every_keyword_of_the_grammar_is_coloured():
    patterns = json.loads((PACKAGE / "syntaxes" / "pog.tmLanguage.json").read_text())["patterns"]
    matchers = [re.compile(p["match"]) for p in patterns if "match" in p and "name" in p]
    uncoloured = [word for word in sorted(KEYWORDS) if not any(m.fullmatch(word) for m in matchers)]
    assert uncoloured == []


def scopes(line: str) -> dict[str, str]:
    """The scope each pattern gives the words of LINE, first pattern first (as TextMate does at one position)."""
    patterns = json.loads((PACKAGE / "syntaxes" / "pog.tmLanguage.json").read_text())["patterns"]
    found, pos = {}, 0
    while pos < len(line):
        for p in patterns:
            if "match" not in p:
                continue
            m = re.compile(p["match"], re.MULTILINE).match(line, pos)
            if m and m.end() > pos:
                if "captures" in p:
                    for group, capture in p["captures"].items():
                        if m.group(int(group)):
                            found[m.group(int(group))] = capture["name"]
                else:
                    found[m.group(0)] = p["name"]
                pos = m.end()
                break
        else:
            pos += 1
    return found


def test_a_line_is_coloured_as_the_pygments_lexer_classes_it():
    seen = scopes("card cp 1 'Guns of August' cites 9.1, 9.5.1.1 {")
    assert seen["card"] == "storage.type.declaration.pog"
    assert seen["'Guns of August'"] == "entity.name.tag.quoted.pog"
    assert seen["cites"] == "keyword.control.pog"
    assert seen["9.5.1.1"] == "constant.other.rule-number.pog"
    seen = scopes("    move u to dest  # along")
    assert seen["move"] == "keyword.other.effect.pog" and seen["to"] == "keyword.other.preposition.pog"
    assert seen["# along"] == "comment.line.number-sign.pog"


def test_the_package_declares_the_language_and_starts_pogdsl_lsp():
    package = json.loads((PACKAGE / "package.json").read_text())
    language, = package["contributes"]["languages"]
    assert language["extensions"] == [".pog"] and (PACKAGE / language["configuration"]).is_file()
    grammar, = package["contributes"]["grammars"]
    assert grammar["language"] == language["id"] and (PACKAGE / grammar["path"]).is_file()
    command = package["contributes"]["configuration"]["properties"]["pogdsl.server.command"]["default"]
    assert command == ["pogdsl", "lsp"]
    assert (PACKAGE / package["main"]).is_file()
    # a .pog file is formatted on save, by this extension's language server (pogdsl fmt's layout)
    on_save = package["contributes"]["configurationDefaults"][f"[{language['id']}]"]
    assert on_save == {"editor.defaultFormatter": f"{package['publisher']}.{package['name']}",
                       "editor.formatOnSave": True}
    json.loads((PACKAGE / "language-configuration.json").read_text())
    shown = subprocess.run([sys.executable, "-m", "pogdsl.cli", "lsp", "--help"], capture_output=True, text=True)
    assert shown.returncode == 0 and "language server" in shown.stdout.lower()


def test_the_compiler_never_imports_the_language_server():
    importers = [str(p.relative_to(ROOT)) for p in (ROOT / "pogdsl").rglob("*.py")
                 if "lsp" not in p.relative_to(ROOT / "pogdsl").parts[:1] and p.name != "lsp.py"
                 and re.search(r"^\s*(from|import)\s+(pogdsl\.lsp|\.+lsp)\b", p.read_text(), re.MULTILINE)]
    assert importers == []
