"""What the language server knows of a compiled project: every declaration,
every name written and every rule cited, by file and position.

Built from a `Compilation` (pogdsl/compiler.py) and nothing else: the server
never parses or checks on its own, so what it says agrees with `pogdsl check`.
Positions here are the compiler's: lines and columns counted from 1, a span's
end column one past its last character.
"""

from __future__ import annotations

import os
from pathlib import Path

import attrs
from attrs import define, field

from ..syntax import ast as A

# Nodes a walk does not enter: positions and names are leaves, the rest of
# these carry no names (and a Program reached through `owner` is not ours).
_LEAVES = (str, int, float, bool, type(None), A.Span)


@define
class Declaration:
    name: A.Name
    kind: str
    decl: object  # the A.Decl, or an enum member's enum
    file: str

    @property
    def note(self) -> str | None:
        return getattr(self.decl, "note", None)


@define
class Occurrence:
    """A name written or a rule cited, inside the declaration `owner`."""

    text: str
    span: A.Span
    is_citation: bool
    owner: A.Decl | None
    defines: Declaration | None = None
    # `u.space`: an attribute of the vocabulary, never a declared name.
    is_attribute: bool = False
    # `let x`, `for u in`, a parameter: where a local name is bound.
    binds: bool = False


@define
class Analysis:
    compilation: object
    cwd: Path
    declarations: dict[str, list[Declaration]] = field(factory=dict)
    by_file: dict[str, list[Occurrence]] = field(factory=dict)
    modules: dict[str, A.Module] = field(factory=dict)

    # ------------------------------------------------------------- files
    def path_of(self, shown: str) -> Path:
        """A span's file (shown relative to the current folder) as an absolute path."""
        return Path(os.path.normpath(self.cwd / shown))

    def shown(self, path: Path) -> str | None:
        """The compiler's name for PATH, if the compilation read it."""
        path = Path(os.path.normpath(path))
        for shown in self.modules:
            if self.path_of(shown) == path:
                return shown
        return None

    # ------------------------------------------------------------ lookups
    def at(self, shown: str, line: int, col: int) -> Occurrence | None:
        """The name or citation under (line, col), the innermost one."""
        best = None
        for occ in self.by_file.get(shown, ()):
            s = occ.span  # (the end included: a cursor just after a word is on it)
            if (s.line, s.col) <= (line, col) <= (s.end_line, s.end_col):
                if best is None or _size(s) < _size(best.span):
                    best = occ
        return best

    def declared(self, text: str) -> list[Declaration]:
        return self.declarations.get(text, [])

    def references(self, occ: Occurrence) -> list[Occurrence]:
        """Every place naming what OCC names (the same text, a name or a citation alike)."""
        return [o for occs in self.by_file.values() for o in occs
                if o.is_citation == occ.is_citation and o.is_attribute == occ.is_attribute and o.text == occ.text]

    def binding(self, occ: Occurrence) -> Occurrence | None:
        """Where the local OCC names is bound: the nearest binding of its
        name before it in the same declaration, else one later on its line
        (`[u.space for u in xs]` binds after the use)."""
        if occ.binds:
            return occ
        bindings = [o for o in self.by_file.get(occ.span.file, ()) if o.binds and o.owner is occ.owner
                    and o.text == occ.text]
        here = (occ.span.line, occ.span.col)
        before = [o for o in bindings if (o.span.line, o.span.col) <= here]
        if before:
            return max(before, key=lambda o: (o.span.line, o.span.col))
        return min((o for o in bindings if o.span.line == occ.span.line), key=lambda o: o.span.col, default=None)

    def citing(self, number: str) -> list[Occurrence]:
        return [o for occs in self.by_file.values() for o in occs if o.is_citation and o.text == number]


def _size(span: A.Span) -> tuple[int, int]:
    return span.end_line - span.line, span.end_col - span.col


def analyse(compilation, cwd: Path | None = None) -> Analysis:
    analysis = Analysis(compilation, (cwd or Path.cwd()).resolve())
    for module in compilation.loaded.modules:
        analysis.modules[module.path] = module
        occurrences = analysis.by_file.setdefault(module.path, [])
        for decl in module.decls:
            _declare(analysis, decl, module.path, occurrences)
            for nested in getattr(decl, "nested", ()):
                _declare(analysis, nested, module.path, occurrences)
            _collect(decl, decl, occurrences)
        for connection in module.connections:
            _collect(connection, None, occurrences)
    return analysis


def _declare(analysis: Analysis, decl: A.Decl, path: str, occurrences: list[Occurrence]) -> None:
    declaration = Declaration(decl.name, decl.kind, decl, path)
    analysis.declarations.setdefault(decl.name.text, []).append(declaration)
    occurrences.append(Occurrence(decl.name.text, decl.name.span, False, decl, declaration))
    if isinstance(decl, A.EnumDecl):
        for member in decl.members:
            member_declaration = Declaration(member, f"member of enum {decl.key}", decl, path)
            analysis.declarations.setdefault(member.text, []).append(member_declaration)
            occurrences.append(Occurrence(member.text, member.span, False, decl, member_declaration))


# The fields that bind a local name (a Name, or a list of them).
_BINDING_FIELDS = {A.Let: ("var",), A.For: ("var",), A.Repeat: ("var",), A.ListComp: ("var",),
                   A.Aggregate: ("var",), A.Reach: ("var",), A.Choose: ("vars",), A.Binding: ("var",),
                   A.Param: ("name",), A.Forbid: ("vars",), A.Contribution: ("vars",), A.TriggerDecl: ("vars",),
                   A.Roll: ("var",)}


def _bound_names(node) -> list[A.Name]:
    names = []
    for f in _BINDING_FIELDS.get(type(node), ()):
        value = getattr(node, f)
        names.extend(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, A.Name))
    return names


def _names_a_declaration(override: A.Override) -> bool:
    """`remove procedure X`, `insert into procedure X`: X is a declared name
    (a card is named by its key there, `remove card ap 14`)."""
    return override.target_kind is None or override.target_kind.text != "card"


def _collect(root, owner: A.Decl | None, out: list[Occurrence]) -> None:
    """Every name and citation inside ROOT (a declaration's own name and its
    nested declarations' are recorded by `_declare`)."""
    skip = {id(root.name)} if isinstance(root, A.Decl) else set()
    skip |= {id(nested.name) for nested in getattr(root, "nested", ())}
    if isinstance(root, A.EnumDecl):
        skip |= {id(m) for m in root.members}
    stack = [root]
    seen: set[int] = set()
    attributes: set[int] = set()
    binders: set[int] = set()
    while stack:
        node = stack.pop()
        if isinstance(node, _LEAVES) or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, A.Name):
            if id(node) not in skip and node.span is not A.NO_SPAN:
                out.append(Occurrence(node.text, node.span, False, owner, is_attribute=id(node) in attributes,
                                      binds=id(node) in binders))
            continue
        if isinstance(node, A.Attr):
            attributes.add(id(node.attr))
        binders.update(id(name) for name in _bound_names(node))
        if isinstance(node, A.TextLit) and node.raw is not None:  # `log "{u} retreats"`: the names it shows
            from ..syntax.template import template_parts

            stack.extend(part for part in template_parts(node)[0] if not isinstance(part, str))
            continue
        if isinstance(node, A.Override) and node.target and node.target_span and _names_a_declaration(node):
            out.append(Occurrence(node.target, node.target_span, False, owner))
        if isinstance(node, A.Citation):
            out.append(Occurrence(node.number, node.span, True, owner))
            continue
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif attrs.has(type(node)):
            stack.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
