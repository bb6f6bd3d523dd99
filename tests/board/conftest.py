"""Fixtures for the board tests: the parsed board sources and the reference data.

`board` parses the sources that hold the game's facts (components, map,
connections, units, tables, neutral set-ups and the Campaign scenario) and
indexes what they declare.  `reference` reads the reference CSVs the sources
were written from; it skips when they are not available.
"""

from __future__ import annotations

import csv
import os
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pogdsl.syntax import ast as A
from pogdsl.syntax.parser import parse_text

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_DIR = Path(os.environ.get("POG_REFERENCE_DIR", "/work/shared/reference/pog"))


def board_files() -> list[Path]:
    """The .pog files that make up the board, in a stable order."""
    rules = ROOT / "rules"
    files = [rules / "components.pog", rules / "tables.pog", rules / "setup-neutrals.pog"]
    files += sorted((rules / "map").glob("*.pog"))
    files += sorted((rules / "units").glob("*.pog"))
    files += [ROOT / "scenarios" / "campaign.pog"]
    return files


@dataclass
class Board:
    files: list[Path]
    modules: dict[Path, A.Module] = field(default_factory=dict)
    diagnostics: list = field(default_factory=list)
    decls: list[A.Decl] = field(default_factory=list)
    spaces: dict[str, A.SpaceDecl] = field(default_factory=dict)
    duplicate_spaces: list[str] = field(default_factory=list)
    connections: list[A.Connection] = field(default_factory=list)
    units: list[A.UnitDecl] = field(default_factory=list)

    def of_kind(self, kind: str) -> dict[str, A.Decl]:
        """Declarations of one kind by name (last one wins; see `duplicates`)."""
        return {d.key: d for d in self.decls if d.kind == kind}

    def duplicates(self, kind: str) -> list[str]:
        seen: dict[str, int] = defaultdict(int)
        for d in self.decls:
            if d.kind == kind:
                seen[d.key] += 1
        return sorted(k for k, n in seen.items() if n > 1)

    @property
    def nations(self) -> dict[str, A.NationDecl]:
        return self.of_kind("nation")

    @property
    def tables(self) -> dict[str, A.TableDecl]:
        return self.of_kind("table")

    @property
    def procedures(self) -> dict[str, A.ProcedureDecl]:
        return self.of_kind("procedure")

    @property
    def scenarios(self) -> dict[str, A.ScenarioDecl]:
        return self.of_kind("scenario")

    def declared_names(self) -> set[str]:
        """Every name a table cell or a reference may use: sides, nations, maps,
        enum members, boxes."""
        names: set[str] = set()
        for d in self.decls:
            if d.kind in ("side", "nation", "map", "box", "enum"):
                names.add(d.key)
            if isinstance(d, A.EnumDecl):
                names.update(m.text for m in d.members)
        return names

    def file_of(self, decl: A.Decl) -> Path:
        return Path(decl.span.file)


def load_board() -> Board:
    board = Board(board_files())
    for path in board.files:
        module, diags = parse_text(path.read_text(encoding="utf-8"), str(path))
        board.modules[path] = module
        board.diagnostics.extend(diags)
        board.decls.extend(module.decls)
        board.connections.extend(module.connections)
        for d in module.decls:
            if isinstance(d, A.SpaceDecl):
                if d.key in board.spaces:
                    board.duplicate_spaces.append(d.key)
                board.spaces[d.key] = d
            elif isinstance(d, A.UnitDecl):
                board.units.append(d)
    return board


@pytest.fixture(scope="session")
def board() -> Board:
    missing = [p for p in board_files() if not p.exists()]
    assert not missing, f"board sources missing: {missing}"
    return load_board()


@dataclass
class Reference:
    spaces: dict[str, dict[str, str]]
    connections: list[dict[str, str]]
    pieces: list[dict[str, str]]
    cards: list[dict[str, str]]


def _read(name: str) -> list[dict[str, str]]:
    with (REFERENCE_DIR / name).open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="session")
def reference() -> Reference:
    if not (REFERENCE_DIR / "spaces.csv").exists():
        pytest.skip(f"reference data not found at {REFERENCE_DIR} (set POG_REFERENCE_DIR)")
    spaces = _read("spaces.csv")
    return Reference(
        spaces={r["name"]: r for r in spaces},
        connections=_read("connections.csv"),
        pieces=_read("pieces.csv"),
        cards=_read("cards.csv"),
    )
