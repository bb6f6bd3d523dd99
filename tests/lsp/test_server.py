"""`pogdsl lsp` end to end: a real LSP client (pytest-lsp) speaking to
`python -m pogdsl.cli lsp` over stdio, on the project's own sources and on a
copy of the documentation's toy game (docs/examples/toy)."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as T
from pygls.uris import from_fs_path
from pytest_lsp import ClientServerConfig, LanguageClient

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "docs" / "examples" / "toy"
SERVER = [sys.executable, "-m", "pogdsl.cli", "lsp"]

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> Path:
    """A copy of the toy game, so a test may save a renamed file in it."""
    folder = tmp_path_factory.mktemp("toy") / "toy"
    shutil.copytree(TOY, folder)
    return folder


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(T.InitializeParams(capabilities=T.ClientCapabilities(),
                                                           root_uri=from_fs_path(str(ROOT))))
    yield
    await lsp_client.shutdown_session()


# ------------------------------------------------------------- helpers
async def open_document(client: LanguageClient, path: Path, text: str | None = None, version: int = 1):
    """Open PATH (with TEXT in place of what is saved) and wait for its diagnostics."""
    uri = from_fs_path(str(path))
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(T.DidOpenTextDocumentParams(
        T.TextDocumentItem(uri, "pog", version, path.read_text() if text is None else text)))
    return await diagnostics_of(client, uri)


async def change_document(client: LanguageClient, path: Path, text: str, version: int):
    uri = from_fs_path(str(path))
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(T.DidChangeTextDocumentParams(
        T.VersionedTextDocumentIdentifier(version, uri), [T.TextDocumentContentChangeWholeDocument(text)]))
    return await diagnostics_of(client, uri)


async def diagnostics_of(client: LanguageClient, uri: str, timeout: float = 120):
    async def published():
        while uri not in client.diagnostics:
            await asyncio.sleep(0.05)
        return list(client.diagnostics[uri])

    return await asyncio.wait_for(published(), timeout)


async def close_document(client: LanguageClient, path: Path) -> None:
    """Close PATH, once its diagnostics are cleared (so none arrives late for the next test)."""
    uri = from_fs_path(str(path))
    client.diagnostics.pop(uri, None)
    client.text_document_did_close(T.DidCloseTextDocumentParams(T.TextDocumentIdentifier(uri)))
    assert await diagnostics_of(client, uri) == []


def position(path: Path, needle: str, offset: int = 0, text: str | None = None) -> T.Position:
    """Where NEEDLE first appears in PATH's text (plus OFFSET characters)."""
    for number, line in enumerate((text or path.read_text()).split("\n")):
        col = line.find(needle)
        if col >= 0:
            return T.Position(number, col + offset)
    raise AssertionError(f"{needle!r} not in {path}")


def text_at(location: T.Location) -> str:
    path = Path(location.uri.removeprefix("file://"))
    line = path.read_text().split("\n")[location.range.start.line]
    return line[location.range.start.character:location.range.end.character]


def doc(path: Path) -> T.TextDocumentIdentifier:
    return T.TextDocumentIdentifier(from_fs_path(str(path)))


# ---------------------------------------------------------- diagnostics
async def test_a_clean_project_file_gets_no_diagnostics(client: LanguageClient):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    assert await open_document(client, card) == []
    await close_document(client, card)


async def test_unsaved_text_is_checked_with_the_same_code_and_message_as_check(client: LanguageClient, tmp_path):
    play = TOY / "rules" / "play.pog"
    broken = play.read_text().replace("call attack(cp)", "call atack(cp)")
    diagnostics = await open_document(client, play, broken)
    # `pogdsl check` on the same text saved in a copy of the game
    copy = tmp_path / "toy"
    shutil.copytree(TOY, copy)
    (copy / "rules" / "play.pog").write_text(broken)
    checked = subprocess.run([sys.executable, "-m", "pogdsl.cli", "check", "--json", "--no-cache", "--root",
                              str(copy)], capture_output=True, text=True, cwd=copy)
    expected = [d for d in json.loads(checked.stdout)["diagnostics"] if d["file"].endswith("play.pog")]
    assert expected and [(d.code, d.message.split("\n")[0]) for d in diagnostics] == [
        (d["code"], d["message"]) for d in expected]
    first = diagnostics[0]
    assert first.code == "E0205" and first.severity == T.DiagnosticSeverity.Error
    assert (first.range.start.line + 1, first.range.start.character + 1) == (expected[0]["line"],
                                                                             expected[0]["column"])
    assert "hint: did you mean 'attack'?" in first.message
    # fixing the buffer clears them, without saving anything
    assert await change_document(client, play, play.read_text(), 2) == []
    await close_document(client, play)


async def test_columns_are_counted_in_utf16_units_as_the_protocol_says(client: LanguageClient):
    play = TOY / "rules" / "play.pog"
    text = play.read_text().replace('reduce u by 1', 'log "\U0001F4A5 {Pariss}"\n      log "\U0001F4A5 {Paris}"\n'
                                                     '      reduce u by 1')
    diagnostics = await open_document(client, play, text)
    unknown, = [d for d in diagnostics if "Pariss" in d.message]
    line = text.split("\n")[unknown.range.start.line]
    # the emoji is two UTF-16 units: the name starts two units after its opening brace
    assert line.encode("utf-16-le")[2 * unknown.range.start.character:2 * unknown.range.end.character].decode(
        "utf-16-le") == "Pariss"
    at = T.Position(unknown.range.start.line + 1, unknown.range.start.character + 1)
    hover = await client.text_document_hover_async(T.HoverParams(doc(play), at))
    assert "**space** `Paris`" in hover.contents.value
    assert hover.range.start == T.Position(at.line, at.character - 1)
    await close_document(client, play)


async def test_a_file_not_saved_yet_is_checked_from_its_buffer(client: LanguageClient, tmp_path):
    new = tmp_path / "mymod" / "cards" / "cp" / "99-never-saved.pog"
    new.parent.mkdir(parents=True)
    text = "modifier never_saved cites 4.3 {\n  \"A note.\"\n  attack_drm(s) -= 1 when s == Pariss\n}\n"
    uri = from_fs_path(str(new))
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri, "pog", 1, text)))
    diagnostics = await diagnostics_of(client, uri)
    assert "unknown value 'attack_drm'" in [d.message.split("\n")[0] for d in diagnostics]
    assert not new.exists()
    await close_document(client, new)


async def test_a_syntax_error_as_you_type(client: LanguageClient):
    play = TOY / "rules" / "play.pog"
    diagnostics = await open_document(client, play, play.read_text() + "\nprocedure broken( {\n")
    assert [d.code for d in diagnostics] == ["E0101"]
    assert diagnostics[0].range.start.line == len(play.read_text().split("\n"))
    await close_document(client, play)


# ----------------------------------------------------------------- hover
async def test_hover_on_a_citation_gives_the_rule_title_and_the_blocks_note(client: LanguageClient):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    await open_document(client, card)
    title = re.search(r'rule 9\.5\.1\.1 "([^"]*)"', (ROOT / "rules" / "index.pog").read_text()).group(1)
    hover = await client.text_document_hover_async(T.HoverParams(doc(card), position(card, "9.5.1.1 {", 2)))
    assert f"rule 9.5.1.1** — {title}" in hover.contents.value
    assert "Germany's opening rush through Belgium toward Paris." in hover.contents.value
    await close_document(client, card)


async def test_hover_on_a_name_gives_its_kind_declaration_and_note(client: LanguageClient):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    await open_document(client, card)
    hover = await client.text_document_hover_async(T.HoverParams(doc(card), position(card, "destroy_fort(Liege)", 15)))
    assert "**space** `Liege`" in hover.contents.value and "rules/map/be.pog" in hover.contents.value
    hover = await client.text_document_hover_async(T.HoverParams(doc(card), position(card, "destroy_fort(", 3)))
    assert "**procedure** `destroy_fort`" in hover.contents.value and "rules/15-forts.pog:50" in hover.contents.value
    await close_document(client, card)


async def test_hover_on_the_vocabulary_gives_its_documentation(client: LanguageClient):
    from pogdsl.semantics.vocabulary import FUNCTIONS, VERBS

    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    await open_document(client, card)
    hover = await client.text_document_hover_async(T.HoverParams(doc(card), position(card, "distinct(", 2)))
    assert FUNCTIONS["distinct"].doc in hover.contents.value
    hover = await client.text_document_hover_async(T.HoverParams(doc(card), position(card, "set activation", 1)))
    assert VERBS["set"].doc in hover.contents.value
    hover = await client.text_document_hover_async(T.HoverParams(doc(card), position(card, "u.on_map", 3)))
    assert "**attribute** `.on_map` of unit (bool)" in hover.contents.value
    await close_document(client, card)


async def test_hover_and_definition_of_a_local_name_reach_where_it_is_bound(client: LanguageClient):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    await open_document(client, card)
    use = position(card, "for s in fronts", 10)
    hover = await client.text_document_hover_async(T.HoverParams(doc(card), use))
    bound = position(card, "let fronts", 4)
    assert f"**local** `fronts`, bound at line {bound.line + 1}" in hover.contents.value
    found = await client.text_document_definition_async(T.DefinitionParams(doc(card), use))
    assert [(f.range.start.line, f.range.start.character) for f in found] == [(bound.line, bound.character)]
    # a comprehension binds after the use, on the same line
    found = await client.text_document_definition_async(T.DefinitionParams(doc(card), position(card, "[u.space", 1)))
    assert [(f.range.start.line, f.range.start.character) for f in found] == [
        (position(card, "for u in").line, position(card, "for u in", 4).character)]
    assert await client.text_document_prepare_rename_async(T.PrepareRenameParams(doc(card), use)) is None
    found = await client.text_document_references_async(T.ReferenceParams(
        text_document=doc(card), position=use, context=T.ReferenceContext(include_declaration=True)))
    lines = card.read_text().split("\n")
    assert sorted(f.range.start.line for f in found) == [n for n, line in enumerate(lines)
                                                         if re.search(r"\bfronts\b", line.split("#")[0])]
    await close_document(client, card)


# ------------------------------------------------- definition, references
async def test_definition_of_a_procedure_a_space_and_a_rule_number(client: LanguageClient):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    await open_document(client, card)
    found = await client.text_document_definition_async(T.DefinitionParams(doc(card), position(card, "destroy_fort(", 2)))
    assert [(Path(f.uri).name, f.range.start.line + 1) for f in found] == [("15-forts.pog", 50)]
    assert text_at(found[0]) == "destroy_fort"
    found = await client.text_document_definition_async(T.DefinitionParams(doc(card), position(card, "(Liege)", 2)))
    assert [text_at(f) for f in found] == ["Liege"] and found[0].uri.endswith("rules/map/be.pog")
    found = await client.text_document_definition_async(T.DefinitionParams(doc(card), position(card, "15.1.9", 1)))
    index = (ROOT / "rules" / "index.pog").read_text().split("\n")
    assert found[0].uri.endswith("rules/index.pog")
    assert 'rule 15.1.9 "' in index[found[0].range.start.line]
    await close_document(client, card)


async def test_references_of_a_rule_number_are_every_block_citing_it(client: LanguageClient):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    await open_document(client, card)
    found = await client.text_document_references_async(T.ReferenceParams(
        text_document=doc(card), position=position(card, "9.2.5 {", 1),
        context=T.ReferenceContext(include_declaration=False)))
    assert found and all(text_at(f) == "9.2.5" for f in found)
    citing_lines = {(str(p.relative_to(ROOT)), n) for p in ROOT.glob("[rcs]*/**/*.pog")
                    for n, line in enumerate(p.read_text().split("\n"))
                    if re.search(r"\bcites\b[^\"{]*(?<![\d.])9\.2\.5(?![\d.])", line)}
    assert {(str(Path(f.uri.removeprefix("file://")).relative_to(ROOT)), f.range.start.line)
            for f in found} >= citing_lines
    await close_document(client, card)


async def test_references_of_a_procedure_are_its_declaration_and_every_call(client: LanguageClient):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    await open_document(client, card)
    found = await client.text_document_references_async(T.ReferenceParams(
        text_document=doc(card), position=position(card, "call resolve_attacks", 7),
        context=T.ReferenceContext(include_declaration=True)))
    calls = [(p, n) for p in ROOT.glob("[rcs]*/**/*.pog") for n, line in enumerate(p.read_text().split("\n"))
             if re.search(r"\bresolve_attacks\b", line) and not line.lstrip().startswith("#")]
    assert len(found) == len(calls) and all(text_at(f) == "resolve_attacks" for f in found)
    await close_document(client, card)


# ------------------------------------------------------------ symbols
async def test_document_symbols_list_the_files_declarations(client: LanguageClient):
    play = TOY / "rules" / "play.pog"
    await open_document(client, play)
    symbols = await client.text_document_document_symbol_async(T.DocumentSymbolParams(doc(play)))
    declared = re.findall(r"^(?:track|marker|flag|table|value|choice|procedure|modifier|restriction|trigger|phase"
                          r"|sequence) (\w+)", play.read_text(), re.MULTILINE)
    assert [s.name for s in symbols] == declared
    attack = next(s for s in symbols if s.name == "attack")
    assert attack.kind == T.SymbolKind.Function and attack.range.start.line == position(play, "procedure attack").line
    await close_document(client, play)


# --------------------------------------------------------- completion
async def test_completion_offers_rule_numbers_attributes_names_and_the_vocabulary(client: LanguageClient):
    play = TOY / "rules" / "play.pog"
    text = play.read_text() + "\nvalue probe(u: unit) = u.\nflag probe2 cites 4.\n"
    await open_document(client, play, text)
    last = len(text.split("\n")) - 1
    items = await client.text_document_completion_async(T.CompletionParams(
        doc(play), T.Position(last - 2, len("value probe(u: unit) = u."))))
    assert {"cf", "space", "terrain", "control"} <= {i.label for i in items.items}
    items = await client.text_document_completion_async(T.CompletionParams(
        doc(play), T.Position(last - 1, len("flag probe2 cites 4."))))
    index = re.findall(r'^\s*rule ([\d.]+)', (TOY / "rules" / "world.pog").read_text(), re.MULTILINE)
    assert sorted(i.label for i in items.items) == sorted(index)
    items = await client.text_document_completion_async(T.CompletionParams(doc(play), T.Position(last - 2, 23)))
    labels = {i.label for i in items.items}
    assert {"attack", "fire", "Paris", "distinct", "reduce", "turn"} <= labels
    await close_document(client, play)


async def test_completion_quotes_a_name_with_spaces_unless_a_quote_is_open(client: LanguageClient):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    text = card.read_text().replace("    call resolve_attacks(cp)\n", "    call resolve_attacks(cp)\n    if played(Rac\n"
                                                                      "    if played('Rac\n")
    await open_document(client, card, text)
    line = position(card, "if played(Rac", 0, text).line
    items = await client.text_document_completion_async(T.CompletionParams(doc(card), T.Position(line, 17)))
    race, = [i for i in items.items if i.label == "Race to the Sea"]
    assert race.insert_text == "'Race to the Sea'" and race.detail == "card"
    items = await client.text_document_completion_async(T.CompletionParams(doc(card), T.Position(line + 1, 18)))
    race, = [i for i in items.items if i.label == "Race to the Sea"]
    assert race.insert_text == "Race to the Sea"
    await close_document(client, card)


# ------------------------------------------------------------- rename
async def test_rename_changes_every_use_and_the_game_still_checks(client: LanguageClient, toy: Path):
    play = toy / "rules" / "play.pog"
    await open_document(client, play)
    edit = await client.text_document_rename_async(T.RenameParams(doc(play), position(play, "attack_drm(s:", 3),
                                                                  "attack_modifier"))
    assert edit is not None
    for uri, edits in edit.changes.items():
        path = Path(uri.removeprefix("file://"))
        lines = path.read_text().split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            line = lines[e.range.start.line]
            assert line[e.range.start.character:e.range.end.character] == "attack_drm"
            lines[e.range.start.line] = line[:e.range.start.character] + e.new_text + line[e.range.end.character:]
        path.write_text("\n".join(lines))
    assert sum(len(e) for e in edit.changes.values()) == sum(
        len(re.findall(r"\battack_drm\b", p.read_text())) for p in TOY.rglob("*.pog"))
    assert not any("attack_drm" in p.read_text() for p in toy.rglob("*.pog"))
    checked = subprocess.run([sys.executable, "-m", "pogdsl.cli", "check", "--no-cache", "--root", str(toy)],
                             capture_output=True, text=True, cwd=toy)
    assert checked.returncode == 0, checked.stderr
    await close_document(client, play)


async def test_rename_refuses_a_name_already_declared_and_a_rule_number(client: LanguageClient):
    play = TOY / "rules" / "play.pog"
    await open_document(client, play)
    ready = await client.text_document_prepare_rename_async(
        T.PrepareRenameParams(doc(play), position(play, "attack_drm(s:", 3)))
    assert ready.placeholder == "attack_drm" and ready.range.start == position(play, "attack_drm(s:")
    for needle, offset in (("cites 4.3", 7), ("s.trench when", 3), ("units_in(s)", 2)):
        assert await client.text_document_prepare_rename_async(
            T.PrepareRenameParams(doc(play), position(play, needle, offset))) is None
    assert await client.text_document_rename_async(
        T.RenameParams(doc(play), position(play, "attack_drm(s:", 3), "fire")) is None
    assert await client.text_document_rename_async(
        T.RenameParams(doc(play), position(play, "cites 4.3", 7), "4.9")) is None
    await close_document(client, play)


# ------------------------------------------------------- hostile buffers
HOSTILE = {
    "huge": "flag a cites 1.1\n" + "x" * (5 * 1024 * 1024),
    "deep": "value v = " + "(" * 50_000 + "1" + ")" * 50_000 + " cites 4.2\n",
    "binary": "flag \x00\x01\x02\xff\ufffe\udcff cites 4.2 {\n",
    "garbage": "}}}} {{{{ ' \" cites cites 4..2 procedure ( [ \n" * 200,
}


@pytest.mark.parametrize("kind", sorted(HOSTILE))
async def test_a_hostile_buffer_gets_diagnostics_and_the_server_lives_on(kind, capfd):
    client = await ClientServerConfig(server_command=SERVER).start()
    try:
        await client.initialize_session(T.InitializeParams(capabilities=T.ClientCapabilities()))
        play = TOY / "rules" / "play.pog"
        diagnostics = await open_document(client, play, HOSTILE[kind])
        assert diagnostics and all(d.severity == T.DiagnosticSeverity.Error for d in diagnostics)
        # the session goes on: a request is answered, and the buffer mended is checked clean
        hover = await client.text_document_hover_async(T.HoverParams(doc(play), T.Position(0, 0)))
        assert hover is None or hover.contents.value
        assert await change_document(client, play, play.read_text(), 2) == []
        await client.shutdown_session()
    finally:
        await client.stop()
    assert "Traceback" not in capfd.readouterr().err


async def test_a_modders_card_outside_the_library_is_checked_with_the_library(client: LanguageClient, tmp_path):
    card = tmp_path / "mymod" / "cards" / "ap" / "66-sacred-way.pog"
    card.parent.mkdir(parents=True)
    card.write_text("")
    text = ("card ap 66 'Sacred Way' cites 9.1 {\n  \"A road kept open.\"\n  deck mobilization\n  ops 2 sr 2\n"
            "  event cites 9.5.1.1 {\n    \"The road holds.\"\n    call destroy_fort(Verdunn)\n  }\n}\n")
    diagnostics = await open_document(client, card, text)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("E0203", 6)]
    assert "did you mean 'Verdun'?" in diagnostics[0].message
    found = await client.text_document_definition_async(T.DefinitionParams(doc(card), position(card, "destroy_fort", 2, text)))
    assert found and found[0].uri.endswith("rules/15-forts.pog")
    await close_document(client, card)



@pytest.mark.parametrize("needle, offset, name, declared_in", [
    ("'GE 1'", 2, "GE 1", "rules/units/ge.pog"),
    ("if played('Race", 12, "Race to the Sea", "cards/cp/08-race-to-the-sea.pog"),
])
async def test_references_of_a_unit_and_a_card_are_every_place_naming_them(client: LanguageClient, needle, offset,
                                                                            name, declared_in):
    card = ROOT / "cards" / "cp" / "01-guns-of-august.pog"
    text = card.read_text().replace("    call resolve_attacks(cp)\n",
                                    "    call resolve_attacks(cp)\n    if played('Race to the Sea') { log \"x\" }\n")
    await open_document(client, card, text)
    found = await client.text_document_references_async(T.ReferenceParams(
        text_document=doc(card), position=position(card, needle, offset, text),
        context=T.ReferenceContext(include_declaration=True)))
    written = re.compile(r"'" + re.escape(name) + r"'")
    expected = {(p.resolve(), n) for p in ROOT.glob("[rcs]*/**/*.pog")
                for n, line in enumerate(text.split("\n") if p == card else p.read_text().split("\n"))
                if written.search(line.split("#")[0])}
    assert {(Path(f.uri.removeprefix("file://")), f.range.start.line) for f in found} == expected
    declared = await client.text_document_definition_async(T.DefinitionParams(
        doc(card), position(card, needle, offset, text)))
    assert [(d.uri, text_at(d)) for d in declared] == [(from_fs_path(str(ROOT / declared_in)), f"'{name}'")]
    await close_document(client, card)


async def test_formatting_gives_the_layout_of_pogdsl_fmt_as_one_edit(client: LanguageClient, tmp_path):
    from pogdsl.syntax.format import format_text

    card = TOY / "cards" / "gas-attack.pog"
    text = card.read_text()
    spaced = text.replace("\n  ", "\n      ", 5).replace(" cites ", "   cites  ")
    await open_document(client, card, spaced)
    options = T.FormattingOptions(tab_size=8, insert_spaces=False)
    edits = await client.text_document_formatting_async(T.DocumentFormattingParams(doc(card), options))
    assert len(edits) == 1
    assert edits[0].range.start == T.Position(0, 0)
    assert edits[0].new_text == format_text(text) == format_text(spaced)  # the editor's tab settings do not apply
    # formatted already: no edit; a buffer that does not parse: nothing, and the server lives on
    await change_document(client, card, edits[0].new_text, 2)
    assert not await client.text_document_formatting_async(T.DocumentFormattingParams(doc(card), options))
    await change_document(client, card, text + "\ncard broken {\n", 3)
    assert await client.text_document_formatting_async(T.DocumentFormattingParams(doc(card), options)) is None
    assert await change_document(client, card, text, 4) == []
    await close_document(client, card)
