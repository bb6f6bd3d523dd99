"""The server's answers, worked out from an analysis: hover text, completion
items, a document's symbols and a rename's edits.  Kept apart from the
protocol plumbing (server.py) so they read as what an editor shows."""

from __future__ import annotations

import re

from lsprotocol import types as T

from ..semantics.vocabulary import ATTRIBUTES, CONSTANTS, EVENTS, FUNCTIONS, VERBS
from ..syntax import ast as A
from .analysis import Analysis, Occurrence

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTABLE = re.compile(r"[^'\n\\]+")

# Declared kinds as an editor's outline and completion list show them.
SYMBOL_KINDS = {
    "procedure": T.SymbolKind.Function, "value": T.SymbolKind.Function, "term": T.SymbolKind.Function,
    "choice": T.SymbolKind.Interface, "signal": T.SymbolKind.Event, "trigger": T.SymbolKind.Event,
    "space": T.SymbolKind.Struct, "box": T.SymbolKind.Struct, "unit": T.SymbolKind.Object,
    "card": T.SymbolKind.Class, "state": T.SymbolKind.Variable, "enum": T.SymbolKind.Enum,
    "side": T.SymbolKind.Constant, "nation": T.SymbolKind.Constant, "map": T.SymbolKind.Namespace,
    "table": T.SymbolKind.Array, "phase": T.SymbolKind.Method, "sequence": T.SymbolKind.Method,
    "restriction": T.SymbolKind.Operator, "modifier": T.SymbolKind.Operator,
    "scenario": T.SymbolKind.Module, "ruleset": T.SymbolKind.Module, "rulebook": T.SymbolKind.File,
    "display": T.SymbolKind.File,
}
COMPLETION_KINDS = {
    "procedure": T.CompletionItemKind.Function, "value": T.CompletionItemKind.Function,
    "space": T.CompletionItemKind.Struct, "unit": T.CompletionItemKind.Unit, "card": T.CompletionItemKind.Class,
    "state": T.CompletionItemKind.Variable, "choice": T.CompletionItemKind.Interface,
    "table": T.CompletionItemKind.Value, "side": T.CompletionItemKind.Constant,
    "nation": T.CompletionItemKind.Constant, "box": T.CompletionItemKind.Struct,
}


# ---------------------------------------------------------------- hover
def hover_text(analysis: Analysis, occ: Occurrence | None, word: str) -> str | None:
    if occ is not None and occ.is_citation:
        return _rule_text(analysis, occ)
    if occ is not None and not occ.is_attribute:
        bound = analysis.binding(occ)
        if bound is not None:
            where = f"{occ.owner.kind} `{occ.owner.name.text}`" if occ.owner is not None else "this block"
            return f"**local** `{occ.text}`, bound at line {bound.span.line} in {where}"
        found = analysis.declared(occ.text)
        if found:
            return "\n\n---\n\n".join(_declaration_text(d) for d in found)
    return vocabulary_text(word if occ is None else occ.text, attribute=bool(occ and occ.is_attribute))


def _rule_text(analysis: Analysis, occ: Occurrence) -> str:
    program = analysis.compilation.base
    entry = program.rule_entry(occ.text)
    if entry is None:
        return f"rule **{occ.text}**: not in the rule index"
    lines = [f"**rule {occ.text}**" + (f" — {entry.title}" if entry.title else "")]
    if entry.not_applicable:
        lines.append(f"not applied: {entry.not_applicable}")
    if occ.owner is not None and occ.owner.note:
        lines.append(f"{occ.owner.kind} `{occ.owner.name.text}`: {occ.owner.note}")
    lines.append(f"{len(analysis.citing(occ.text))} places cite it")
    return "\n\n".join(lines)


def _declaration_text(declaration) -> str:
    decl = declaration.decl
    kind = declaration.kind
    head = f"**{kind}** `{declaration.name.text}`"
    if isinstance(decl, A.CardDecl) and kind == "card":
        head += f" ({decl.key.upper()}, {decl.ops} ops, SR {decl.sr})"
    parts = [head, f"declared at {declaration.name.span}"]
    note = None if kind.startswith("member of") else declaration.note
    if note:
        parts.append(note)
    cites = getattr(decl, "cites", None)
    if cites and not kind.startswith("member of"):
        parts.append("cites " + ", ".join(c.number for c in cites))
    return "\n\n".join(parts)


def vocabulary_text(word: str, attribute: bool = False) -> str | None:
    """The vocabulary's own documentation of WORD (pogdsl/semantics/vocabulary.py)."""
    if attribute or word not in VERBS and word not in FUNCTIONS and word not in CONSTANTS and word not in EVENTS:
        kinds = [kind for kind, attrs in ATTRIBUTES.items() if word in attrs]
        if kinds:
            return f"**attribute** `.{word}` of " + ", ".join(f"{k} ({ATTRIBUTES[k][word]})" for k in kinds)
        if attribute:
            return None
    if word in VERBS:
        verb = VERBS[word]
        return f"**effect** `{word}`\n\n{verb.doc}\n\n```pog\n{verb.example}\n```"
    if word in FUNCTIONS:
        f = FUNCTIONS[word]
        params = ", ".join(name for name, _ in f.params)
        return f"**function** `{word}({params})` → {f.returns}\n\n{f.doc}\n\n```pog\n{f.example}\n```"
    if word in CONSTANTS:
        c = CONSTANTS[word]
        return f"**built-in** `{word}`: {c.kind}\n\n{c.doc}"
    if word in EVENTS:
        e = EVENTS[word]
        return f"**engine event** `{word}({', '.join(n for n, _ in e.params)})`\n\n{e.doc}"
    return None


# ----------------------------------------------------------- completion
def completions(analysis: Analysis, before: str) -> list[T.CompletionItem]:
    """What may be written at the end of BEFORE (the line up to the cursor)."""
    if re.search(r"\bcites\s+(?:[a-z]+\s+)?[\d.]*$|,\s*[\d.]*$", before) and "cites" in before:
        return _rule_numbers(analysis)
    if re.search(r"\.\w*$", before):
        return [T.CompletionItem(name, kind=T.CompletionItemKind.Field, detail=f"{kind}: {t}")
                for kind, attrs in ATTRIBUTES.items() for name, t in attrs.items()]
    items = []
    for name, verb in VERBS.items():
        items.append(T.CompletionItem(name, kind=T.CompletionItemKind.Keyword, detail="effect",
                                      documentation=verb.doc))
    for name, f in FUNCTIONS.items():
        items.append(T.CompletionItem(name, kind=T.CompletionItemKind.Function, detail=f"function → {f.returns}",
                                      documentation=f.doc))
    for name, c in CONSTANTS.items():
        items.append(T.CompletionItem(name, kind=T.CompletionItemKind.Constant, detail=c.kind,
                                      documentation=c.doc))
    quoting = before.count("'") % 2 == 1  # (inside a quote already opened: the bare name goes in)
    for name, found in analysis.declarations.items():
        d = found[0]
        if d.kind not in COMPLETION_KINDS and not d.kind.startswith("member of"):
            continue
        text = name if quoting or _IDENTIFIER.fullmatch(name) else f"'{name}'"
        items.append(T.CompletionItem(name, kind=COMPLETION_KINDS.get(d.kind, T.CompletionItemKind.EnumMember),
                                      detail=d.kind, insert_text=text,
                                      documentation=d.note))
    return items


def _rule_numbers(analysis: Analysis) -> list[T.CompletionItem]:
    program = analysis.compilation.base
    return [T.CompletionItem(number, kind=T.CompletionItemKind.Reference, detail=entry.title or "",
                             sort_text=".".join(p.zfill(3) for p in number.split(".")))
            for number, entry in program.rule_index.items()]


# -------------------------------------------------------------- symbols
def document_symbols(module: A.Module, to_range) -> list[T.DocumentSymbol]:
    return [_symbol(decl, to_range) for decl in module.decls]


def _symbol(decl: A.Decl, to_range) -> T.DocumentSymbol:
    children = [_symbol(n, to_range) for n in getattr(decl, "nested", ())]
    name = decl.name.text or decl.kind
    detail = decl.kind + (f" {decl.key.upper()}" if isinstance(decl, A.CardDecl) else "")
    selection = to_range(decl.name.span)
    whole = to_range(decl.span)
    if (selection.start.line, selection.start.character) < (whole.start.line, whole.start.character) or (
            (selection.end.line, selection.end.character) > (whole.end.line, whole.end.character)):
        whole = selection  # (a space declared inside a `spaces` group: its name lies in its own span)
    return T.DocumentSymbol(name, SYMBOL_KINDS.get(decl.kind, T.SymbolKind.Object), whole, selection,
                            detail=detail, children=children or None)


# --------------------------------------------------------------- rename
def renameable(analysis: Analysis, occ: Occurrence) -> bool:
    """A declared name (not a citation, an attribute, a local or the vocabulary)."""
    return (not occ.is_citation and not occ.is_attribute and analysis.binding(occ) is None
            and bool(analysis.declared(occ.text)))


def rename_edits(analysis: Analysis, occ: Occurrence, new_name: str) -> list[tuple[A.Span, str]] | None:
    """Every place naming a declared name, renamed; None for what cannot be
    renamed (`renameable`) or a new name that could not be written."""
    if not renameable(analysis, occ):
        return None
    new_name = new_name.strip()
    if not (_IDENTIFIER.fullmatch(new_name) or _QUOTABLE.fullmatch(new_name)) or analysis.declared(new_name):
        return None
    edits = []
    for o in analysis.references(occ):
        written = analysis.compilation.sources.line(o.span.file, o.span.line) or ""
        quoted = written[o.span.col - 1: o.span.col] == "'"
        if not quoted and not _IDENTIFIER.fullmatch(new_name):
            if isinstance(o.owner, A.CardDecl) and o.defines is not None:
                quoted = True
            else:
                return None  # (a bare name cannot take spaces: the user picks another)
        edits.append((o.span, f"'{new_name}'" if quoted else new_name))
    return edits
