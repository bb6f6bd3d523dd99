"""Whole numbers read from text: sources, scripts, saves, the command line.

The language's integers have a stated range: at most 15 digits, that is
``-(10**15 - 1)`` to ``10**15 - 1`` (docs/language.rst, "Numbers").  Every
number in a game (VP, factors, turns, dice, counts) is far inside it, and a
number written outside it is a mistake the user is told about with a
one-line message, never Python's own conversion error.

Only ASCII digits are digits here: Python's ``int`` also reads ``'²'``-like
characters (which ``str.isdigit`` accepts and ``int`` then refuses), other
scripts' digits and ``1_000``; none of these is a number in a pogdsl text.
"""

from __future__ import annotations

import re

MAX_DIGITS = 15
LIMIT = 10**MAX_DIGITS  # every whole number n has |n| < LIMIT

_WHOLE = re.compile(r"[+-]?[0-9]+\Z")
_DIGITS = re.compile(r"[0-9]+\Z")


class NumberError(ValueError):
    """Text that is not a whole number, or one outside the range; the message
    says which, quoting (the start of) the text."""


def shown(text: str, width: int = 24) -> str:
    """TEXT for a message: a very long one is cut, with its length."""
    text = str(text)
    if len(text) <= width:
        return text
    unit = "digits" if text.isascii() and text.lstrip("+-").isdigit() else "characters"
    return f"{text[:width]}… ({len(text)} {unit})"


def is_digits(text: str) -> bool:
    """TEXT is ASCII digits only (what `str.isdigit` should mean here)."""
    return _DIGITS.match(text) is not None


def in_range(n: int) -> bool:
    return -LIMIT < n < LIMIT


def too_large(text: str) -> str:
    return (f"the number {shown(text)} is too large: whole numbers have at most {MAX_DIGITS} digits "
            f"(below 10^{MAX_DIGITS})")


def parse_whole(text: str, *, signed: bool = True) -> int:
    """The whole number TEXT writes (ASCII digits, an optional sign when
    `signed`, spaces around ignored); NumberError if it is not one or is
    outside the range."""
    t = str(text).strip()
    if (_WHOLE if signed else _DIGITS).match(t) is None:
        raise NumberError(f"'{shown(t)}' is not a whole number")
    if len(t.lstrip("+-").lstrip("0")) > MAX_DIGITS:
        raise NumberError(too_large(t))
    return int(t)


def digits_key(text: str) -> int | None:
    """For sorting: the value of TEXT if it is ASCII digits (any length is
    compared correctly by the caller's fallback), else None."""
    if not is_digits(text) or len(text.lstrip("0")) > MAX_DIGITS:
        return None
    return int(text)


def rule_number_key(number: str) -> list:
    """Sort key of a rule number as a citation shows it: the main rulebook's
    bare numbers (`9.2`, `12.4.3`, numerically) before another rulebook's
    (`soe 10.1`), grouped by rulebook name."""
    book, _, bare = str(number).strip().rpartition(" ")
    parts = [(0, int(p), "") if digits_key(p) is not None else (1, 0, p) for p in bare.split(".")]
    return [(1, book.strip(), "") if book else (0, 0, "")] + parts
