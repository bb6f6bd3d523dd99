"""Tables at run time: lookup by row key (an integer, a range, "N or more", or
a name) and by column key, and by position for column shifts."""

from __future__ import annotations

from ..syntax import ast as A
from .errors import GameError


class TableError(Exception):
    pass


class Table:
    __slots__ = ("name", "rows", "columns", "kind", "_found", "_cells")

    def __init__(self, name: str, rows: list, columns: list):
        self.name = name
        self.rows = rows        # [(key: TableKey, cells: list)]
        self.columns = columns  # [TableKey]
        self.kind = "table"
        # (row or column, type, value) → position: a table never changes, so
        # each key is matched against the rows once.  The type keeps True
        # apart from 1, which are equal keys.
        self._found: dict = {}
        self._cells: dict = {}  # (row type, row, column type, column) → cell, for `cell_or_error`

    @classmethod
    def from_decl(cls, decl: A.TableDecl, world) -> "Table":
        def cell(c):
            if isinstance(c, A.Name):
                return None if c.text == "none" else world_name(world, c.text)
            return c

        rows = [(r.key, [cell(c) for c in r.cells]) for r in decl.rows]
        return cls(decl.key, rows, list(decl.columns))

    @staticmethod
    def _matches(key: A.TableKey, value) -> bool:
        if key.kind == "name":
            return getattr(value, "key", value) == key.name.text
        if not isinstance(value, int):
            return False
        if key.kind == "int":
            return value == key.low
        if key.kind == "range":
            return key.low <= value <= key.high
        return value >= key.low  # at_least

    def row_index(self, value) -> int:
        return self._position("row", value, self._scan_rows)

    def column_index(self, value) -> int:
        if not self.columns:
            return 0
        return self._position("column", value, self._scan_columns)

    def _position(self, which: str, value, scan) -> int:
        try:
            key = (which, value.__class__, value)
            return self._found[key]
        except KeyError:
            i = self._found[key] = scan(value)
            return i
        except TypeError:  # a list: not a key
            return scan(value)

    def _scan_rows(self, value) -> int:
        for i, (key, _) in enumerate(self.rows):
            if self._matches(key, value):
                return i
        # Below the first numeric row: the first row (fire tables start at their weakest column).
        raise TableError(f"table {self.name} has no row for {value!r}")

    def _scan_columns(self, value) -> int:
        for i, key in enumerate(self.columns):
            if self._matches(key, value):
                return i
        raise TableError(f"table {self.name} has no column for {value!r}")

    def row_at_least(self, value: int) -> int:
        """The position of the last row whose key does not exceed a number."""
        best = None
        for i, (key, _) in enumerate(self.rows):
            if key.kind in ("int", "range", "at_least") and key.low <= value:
                best = i
        if best is None:
            raise TableError(f"table {self.name} has no row at or below {value}")
        return best

    def cell(self, row, col=None):
        r = self.rows[self.row_index(row)][1]
        if col is None:
            if len(r) != 1:
                raise TableError(f"table {self.name} has several columns: give one")
            return r[0]
        return r[self.column_index(col)]

    def cell_or_error(self, row, col, span):
        """`table[row]` or `table[row, col]` as an expression reads it: the
        cell, remembered by its keys (with their types, as in `_found`), or a
        GameError at `span` for keys the table does not have."""
        try:
            key = (row.__class__, row, col.__class__, col)
            return self._cells[key]
        except KeyError:
            pass
        except TypeError:  # a list among the keys: looked up each time
            key = None
        try:
            value = self.cell(row, col)
        except (TableError, TypeError) as err:  # keys the table lacks, or cannot compare
            raise GameError(str(err), span) from None
        if key is not None:
            self._cells[key] = value
        return value

    def cell_at(self, row_pos: int, col=None):
        row_pos = max(0, min(len(self.rows) - 1, row_pos))
        r = self.rows[row_pos][1]
        return r[0] if col is None else r[self.column_index(col)]


def world_name(world, text: str):
    for kind in ("side", "nation"):
        e = world.by_kind.get(kind, {}).get(text)
        if e is not None:
            return e
    for enum in world.program.all("enum"):
        e = world.by_kind.get(enum.key, {}).get(text)
        if e is not None:
            return e
    space = world.by_kind.get("space", {}).get(text)
    return space if space is not None else text
