"""Regenerate the shipped parser tables after editing `pogdsl/grammar/pog.lark`:

    python -m pogdsl.syntax.tables

The test suite fails while the shipped tables are stale
(tests/test_parser.py::test_shipped_tables_match_the_grammar).
"""

from __future__ import annotations

from .parser import write_shipped_tables

if __name__ == "__main__":
    for path in write_shipped_tables():
        print(f"wrote {path}")
