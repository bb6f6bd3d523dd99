"""The language server: pygls features answered from the latest analysis.

Diagnostics: each open or change compiles the whole project (rules, cards,
scenarios and the document if it lies outside them) with every open buffer's
text in place of its file, a short pause after the last keystroke, in a
worker thread, so typing never waits on a check.  Requests are answered from
the last finished analysis.  No exception of ours reaches the editor or
stderr: a failing handler logs one line to the client and answers nothing.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from .. import __version__
from ..diagnostics import ERROR
from ..syntax import ast as A
from .analysis import Analysis, analyse
from .answers import completions, document_symbols, hover_text, rename_edits, renameable

# The pause after the last change before the project is checked again: a
# check of the whole project takes about a second (docs/editors.rst).
DEBOUNCE_SECONDS = 0.3

log = logging.getLogger("pogdsl.lsp")


class PogServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("pogdsl", __version__)
        # One analysis per project (its root folder): a modder's folder and
        # the library may be open side by side.
        self.analyses: dict[Path, Analysis] = {}
        self.generations: dict[Path, int] = {}
        self.locks: dict[Path, asyncio.Lock] = {}
        self.last_check_seconds: float | None = None

    def report_server_error(self, error, source) -> None:
        # (pygls's default shows a dialog; one log line is enough, and stderr stays quiet)
        self._say(f"pogdsl lsp: internal error: {type(error).__name__}: {error}")

    def _say(self, message: str) -> None:
        try:
            self.window_log_message(T.LogMessageParams(T.MessageType.Log, message))
        except Exception:  # (no client to tell: nothing else to do)
            pass


server = PogServer()


def guarded(handler):
    """A handler that answers nothing rather than fail."""
    if asyncio.iscoroutinefunction(handler):
        @functools.wraps(handler)
        async def run_async(ls, params):
            try:
                return await handler(ls, params)
            except Exception as err:
                ls._say(f"pogdsl lsp: {handler.__name__} failed: {type(err).__name__}: {err}")
                return None
        return run_async

    @functools.wraps(handler)
    def run(ls, params):
        try:
            return handler(ls, params)
        except Exception as err:
            ls._say(f"pogdsl lsp: {handler.__name__} failed: {type(err).__name__}: {err}")
            return None
    return run


# ------------------------------------------------------------ checking
def root_of(uri: str) -> Path | None:
    from ..project import find_root

    path = to_fs_path(uri)
    if not path or not path.endswith(".pog"):
        return None
    return find_root(Path(path).resolve().parent)


def compile_with_buffers(root: Path, documents: dict[Path, str]):
    """ROOT's project, with the documents' unsaved text in place of their files."""
    from ..compiler import compile_paths
    from ..project import library_files

    library = {p.resolve() for p in library_files(root)}
    extra = [p for p in documents if p not in library]
    return compile_paths(extra or None, root=root, unsaved=documents)


def _open_documents(ls: PogServer, root: Path) -> dict[Path, str]:
    documents = {}
    for uri, doc in list(ls.workspace.text_documents.items()):
        if root_of(uri) == root:
            documents[Path(to_fs_path(uri)).resolve()] = doc.source
    return documents


async def recheck(ls: PogServer, uri: str, delay: float) -> None:
    root = root_of(uri)
    if root is None:
        return
    generation = ls.generations[root] = ls.generations.get(root, 0) + 1
    if delay:
        await asyncio.sleep(delay)
        if generation != ls.generations[root]:  # typed on: the next change checks
            return
    async with ls.locks.setdefault(root, asyncio.Lock()):
        if generation != ls.generations[root] and root in ls.analyses:
            return
        documents = _open_documents(ls, root)
        if not documents:
            return
        started = time.perf_counter()
        analysis = await asyncio.get_running_loop().run_in_executor(None, _analyse_safely, root, documents)
        ls.last_check_seconds = time.perf_counter() - started
        if analysis is None:
            ls._say(f"pogdsl lsp: the project in {root} could not be checked; its diagnostics are unchanged")
            return
        ls.analyses[root] = analysis
        ls._say(f"pogdsl lsp: checked {len(analysis.modules)} files in {ls.last_check_seconds:.2f} s")
        publish(ls, analysis, documents)


def _analyse_safely(root: Path, documents: dict[Path, str]) -> Analysis | None:
    try:
        return analyse(compile_with_buffers(root, documents))
    except Exception:  # (RecursionError, MemoryError's kin: the buffer gets no new diagnostics)
        log.debug("check failed", exc_info=True)
        return None


def publish(ls: PogServer, analysis: Analysis, documents: dict[Path, str]) -> None:
    comp = analysis.compilation
    by_path: dict[Path, list[T.Diagnostic]] = {path: [] for path in documents}
    for diag in comp.reporter.sorted():
        if diag.span is None:
            continue
        path = analysis.path_of(diag.span.file)
        if path in by_path:
            by_path[path].append(to_lsp_diagnostic(diag, analysis))
    for path, diags in by_path.items():
        ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=from_fs_path(str(path)),
                                                                        diagnostics=diags))


def to_lsp_diagnostic(diag, analysis: Analysis) -> T.Diagnostic:
    """`check`'s diagnostic, its code and message as `check` prints them;
    its hint and notes follow the message."""
    message = diag.message
    related = []
    for note, span in diag.notes:
        if span is not None and span.line:
            related.append(T.DiagnosticRelatedInformation(
                to_location(analysis, span), note))
        else:
            message += f"\nnote: {note}"
    if diag.hint:
        message += f"\nhint: {diag.hint}"
    severity = T.DiagnosticSeverity.Error if diag.severity == ERROR else T.DiagnosticSeverity.Warning
    return T.Diagnostic(to_range(diag.span, analysis.compilation.sources), message, severity=severity,
                        code=diag.code, source="pogdsl", related_information=related or None)


def to_range(span: A.Span, sources=None) -> T.Range:
    """A compiler span as the protocol's range: lines and columns from 0,
    columns in UTF-16 units (the protocol's default) when the line's text is
    known (`sources`), the compiler counting characters."""
    if not span.line:  # (the whole file: reading it failed)
        return T.Range(T.Position(0, 0), T.Position(0, 0))
    start = T.Position(span.line - 1, _units(sources, span.file, span.line, max(span.col - 1, 0)))
    end = T.Position(max(span.end_line - 1, start.line),
                     _units(sources, span.file, span.end_line, max(span.end_col - 1, 0)))
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return T.Range(start, end)


def _units(sources, file: str, line: int, col: int) -> int:
    text = sources.line(file, line) if sources is not None else None
    if text is None or text.isascii():
        return col
    return len(text[:col].encode("utf-16-le")) // 2


def _characters(text: str, units: int) -> int:
    """The character index of a UTF-16 offset into TEXT."""
    if text.isascii():
        return units
    count = 0
    for index, char in enumerate(text):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(text)


def to_location(analysis: Analysis, span: A.Span) -> T.Location:
    return T.Location(from_fs_path(str(analysis.path_of(span.file))), to_range(span, analysis.compilation.sources))


# ------------------------------------------------------------ documents
@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
@guarded
async def did_open(ls: PogServer, params: T.DidOpenTextDocumentParams):
    await recheck(ls, params.text_document.uri, 0)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
@guarded
async def did_change(ls: PogServer, params: T.DidChangeTextDocumentParams):
    await recheck(ls, params.text_document.uri, DEBOUNCE_SECONDS)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
@guarded
async def did_save(ls: PogServer, params: T.DidSaveTextDocumentParams):
    await recheck(ls, params.text_document.uri, 0)


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
@guarded
async def did_close(ls: PogServer, params: T.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
    root = root_of(uri)
    # The closed buffer's unsaved text is gone: the project's other open
    # files are checked against what is saved now.
    others = [u for u in list(ls.workspace.text_documents) if u != uri and root_of(u) == root]
    if others:
        await recheck(ls, others[0], DEBOUNCE_SECONDS)
    else:
        ls.analyses.pop(root, None)


# ------------------------------------------------------------ requests
async def _analysis(ls: PogServer, params) -> Analysis | None:
    """The latest analysis of the project of the request's document."""
    uri = params.text_document.uri
    root = root_of(uri)
    if root is not None and root not in ls.analyses:
        await recheck(ls, uri, 0)
    return ls.analyses.get(root)


def _where(ls: PogServer, analysis: Analysis, params) -> tuple[str | None, int, int]:
    """The compiler's file name and its 1-based line and column at the request's position."""
    path = to_fs_path(params.text_document.uri)
    shown = analysis.shown(Path(path).resolve()) if path else None
    lines = ls.workspace.get_text_document(params.text_document.uri).lines
    line = lines[params.position.line] if params.position.line < len(lines) else ""
    return shown, params.position.line + 1, _characters(line, params.position.character) + 1


def _word(ls: PogServer, params) -> str:
    """The word under the cursor in the buffer (for the vocabulary, which has no declaration)."""
    doc = ls.workspace.get_text_document(params.text_document.uri)
    lines = doc.lines
    if params.position.line >= len(lines):
        return ""
    line = lines[params.position.line]
    col = _characters(line, params.position.character)
    start = col
    while start > 0 and (line[start - 1].isalnum() or line[start - 1] == "_"):
        start -= 1
    end = col
    while end < len(line) and (line[end].isalnum() or line[end] == "_"):
        end += 1
    return line[start:end]


@server.feature(T.TEXT_DOCUMENT_HOVER)
@guarded
async def hover(ls: PogServer, params: T.HoverParams):
    analysis = await _analysis(ls, params)
    if analysis is None:
        return None
    shown, line, col = _where(ls, analysis, params)
    occ = analysis.at(shown, line, col) if shown else None
    text = hover_text(analysis, occ, _word(ls, params))
    if text is None:
        return None
    return T.Hover(T.MarkupContent(T.MarkupKind.Markdown, text), to_range(occ.span, analysis.compilation.sources) if occ else None)


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
@guarded
async def definition(ls: PogServer, params: T.DefinitionParams):
    analysis = await _analysis(ls, params)
    if analysis is None:
        return None
    shown, line, col = _where(ls, analysis, params)
    occ = analysis.at(shown, line, col) if shown else None
    if occ is None or occ.is_attribute:
        return None
    if occ.is_citation:
        entry = analysis.compilation.base.rule_entry(occ.text)
        return [to_location(analysis, entry.span)] if entry is not None else None
    bound = analysis.binding(occ)
    if bound is not None:
        return [to_location(analysis, bound.span)]
    found = [to_location(analysis, d.name.span) for d in analysis.declared(occ.text)]
    return found or None


@server.feature(T.TEXT_DOCUMENT_REFERENCES)
@guarded
async def references(ls: PogServer, params: T.ReferenceParams):
    analysis = await _analysis(ls, params)
    if analysis is None:
        return None
    shown, line, col = _where(ls, analysis, params)
    occ = analysis.at(shown, line, col) if shown else None
    if occ is None:
        return None
    found = analysis.references(occ)
    if analysis.binding(occ) is not None:  # a local: the uses of that binding only
        bound = analysis.binding(occ)
        found = [o for o in found if o.owner is occ.owner and analysis.binding(o) is bound]
    if not params.context.include_declaration:
        found = [o for o in found if o.defines is None]
    return [to_location(analysis, o.span) for o in found]


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded
async def symbols(ls: PogServer, params: T.DocumentSymbolParams):
    analysis = await _analysis(ls, params)
    if analysis is None:
        return None
    path = to_fs_path(params.text_document.uri)
    shown = analysis.shown(Path(path).resolve()) if path else None
    if shown is None:
        return []
    return document_symbols(analysis.modules[shown], lambda span: to_range(span, analysis.compilation.sources))


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=[".", " "]))
@guarded
async def complete(ls: PogServer, params: T.CompletionParams):
    analysis = await _analysis(ls, params)
    if analysis is None:
        return None
    doc = ls.workspace.get_text_document(params.text_document.uri)
    lines = doc.lines
    line = lines[params.position.line] if params.position.line < len(lines) else ""
    before = line[: _characters(line, params.position.character)]
    return T.CompletionList(is_incomplete=False, items=completions(analysis, before))


@server.feature(T.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded
async def prepare_rename(ls: PogServer, params: T.PrepareRenameParams):
    """The name under the cursor, if it is one that can be renamed (the editor says so before asking)."""
    analysis = await _analysis(ls, params)
    if analysis is None:
        return None
    shown, line, col = _where(ls, analysis, params)
    occ = analysis.at(shown, line, col) if shown else None
    if occ is None or not renameable(analysis, occ):
        return None
    return T.PrepareRenamePlaceholder(to_range(occ.span, analysis.compilation.sources), occ.text)


@server.feature(T.TEXT_DOCUMENT_RENAME)
@guarded
async def rename(ls: PogServer, params: T.RenameParams):
    analysis = await _analysis(ls, params)
    if analysis is None:
        return None
    shown, line, col = _where(ls, analysis, params)
    occ = analysis.at(shown, line, col) if shown else None
    edits = rename_edits(analysis, occ, params.new_name) if occ else None
    if not edits:
        return None
    changes = {}
    for span, text in edits:
        uri = from_fs_path(str(analysis.path_of(span.file)))
        changes.setdefault(uri, []).append(T.TextEdit(to_range(span, analysis.compilation.sources), text))
    return T.WorkspaceEdit(changes=changes)


@server.feature(T.TEXT_DOCUMENT_FORMATTING)
@guarded
async def formatting(ls: PogServer, params: T.DocumentFormattingParams):
    """The buffer in pogdsl fmt's layout, as one edit of the whole text (none
    when it is already formatted; nothing when it does not parse: its
    diagnostics say why).  The editor's tab size and spaces settings do not
    apply: the layout is the language's own."""
    from ..syntax.format import FormatError, format_text

    doc = ls.workspace.get_text_document(params.text_document.uri)
    text = doc.source
    try:
        formatted = await asyncio.to_thread(format_text, text, Path(doc.path or "buffer.pog").name)
    except FormatError:
        return None
    if formatted == text:
        return []
    lines = text.split("\n")
    end = T.Position(len(lines) - 1, len(lines[-1].encode("utf-16-le")) // 2)
    return [T.TextEdit(T.Range(T.Position(0, 0), end), formatted)]


def main(stdin=None, stdout=None) -> int:
    # pygls logs a failure at ERROR, which Python's last-resort handler would
    # print on stderr: the client hears of it through report_server_error.
    logging.getLogger("pygls").addHandler(logging.NullHandler())
    logging.getLogger("pygls").propagate = False
    # A cold parse cache would fork a worker to parse half the project; a
    # fork beside pygls's threads can hang on a lock one of them held, so
    # the server parses in its own process.
    from ..syntax.parser import ParseCache

    ParseCache.PARALLEL_FROM = sys.maxsize
    server.start_io(stdin, stdout)
    return 0
