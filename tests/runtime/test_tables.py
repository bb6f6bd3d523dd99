"""Tables at run time (runtime/tables.py): rows and columns found by key,
each key matched against the rows once and remembered."""

from __future__ import annotations

from pathlib import Path

import pytest

from pogdsl.runtime.tables import Table, TableError
from pogdsl.syntax import ast as A

ROOT = Path(__file__).resolve().parents[2]


def _key(kind: str, low: int = 0, high: int = 0, name: str | None = None) -> A.TableKey:
    return A.TableKey(A.NO_SPAN, kind, low, high, A.Name(name, A.NO_SPAN) if name else None)


@pytest.fixture
def fire():
    rows = [(_key("int", 0), ["a0", "b0"]), (_key("range", 1, 3), ["a1", "b1"]), (_key("at_least", 4), ["a4", "b4"])]
    return Table("fire", rows, [_key("name", name="low"), _key("int", 1)])


def test_rows_by_number_range_and_at_least(fire):
    assert [fire.cell(n, "low") for n in (0, 1, 3, 4, 9)] == ["a0", "a1", "a1", "a4", "a4"]
    assert [fire.cell(n, "low") for n in (9, 3, 0)] == ["a4", "a1", "a0"]  # found again, from memory


def test_remembered_positions_are_those_the_rows_give(fire):
    """A key is remembered with its type: what 1 found says nothing of what
    True or 1.0 find; each finds what matching it against the rows finds."""
    for value in (1, True, 2, 4, 5):
        assert fire.row_index(value) == fire._scan_rows(value)
        assert fire.row_index(value) == fire._scan_rows(value)  # again, from memory
    assert ("row", bool, True) in fire._found and ("row", int, 1) in fire._found
    with pytest.raises(TableError):
        fire.row_index(1.5)


def test_a_missing_row_is_refused_every_time(fire):
    for _ in range(2):
        with pytest.raises(TableError, match="no row for -1"):
            fire.cell(-1, "low")
    assert fire.cell([1][0], "low") == "a1"


def test_an_expression_reads_cells_remembered_by_their_keys(fire):
    """`table[row, col]` in generated code: the cell, remembered with the
    keys' types (1 and True are equal keys that may find different rows),
    and a located GameError, every time, for a key the table lacks."""
    from pogdsl.runtime.errors import GameError

    span = A.NO_SPAN
    for _ in range(2):
        assert [fire.cell_or_error(n, "low", span) for n in (0, 3, 9)] == ["a0", "a1", "a4"]
        assert fire.cell_or_error(True, 1, span) == fire.cell(True, 1)
        with pytest.raises(GameError, match="no row for -1") as err:
            fire.cell_or_error(-1, "low", span)
        assert err.value.span is span
    assert (bool, True, int, 1) in fire._cells and (int, 3, str, "low") in fire._cells
    with pytest.raises(GameError, match=r"no row for \[1\]"):  # a list is no key: looked up, not remembered
        fire.cell_or_error([1], "low", span)


def test_generated_code_reads_a_table_through_its_remembered_cells(campaign_scenario):
    import linecache

    rules = ROOT / "rules" / "13-strategic-redeployment.pog"
    line = next(i for i, text in enumerate(rules.read_text(encoding="utf-8").splitlines(), 1)
                if text.startswith("value sr_cost_of("))
    source = "".join(linecache.getlines(f"<value sr_cost_of at rules/13-strategic-redeployment.pog:{line}>"))
    assert ".cell_or_error(" in source
