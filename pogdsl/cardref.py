"""Naming a card the way a user does: by its side and number, or by its name.

Some names are printed on two cards (both sides have a `Withdrawal`; the
Central Powers have two `German Reinforcements (2 corps)`): which names are
shared is worked out from the card list, never written down.  The rules, for
every place where a user names a card (a script's `hand` and `expect hand`
lines, the human player's `card` command, `pogdsl cards`):

* `AP 6`, `ap 6`, `ap6` and `AP #6` name the card of that side and number;
* a name (any case) names the card that bears it; where a side is known from
  the context (`hand ap Withdrawal`), only that side's cards are considered
  first, so there `Withdrawal` is AP 6;
* a name that still fits two cards is an error that lists both, so the user
  can write one of them by side and number.

Errors are `CardNameError` (a ValueError) with a one-line message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from attrs import frozen

from .numbers import MAX_DIGITS, is_digits

_BY_NUMBER = re.compile(r"^\s*([A-Za-z]+)\s*#?\s*([0-9]{1,15})\s*$")


class CardNameError(ValueError):
    """A card reference that names no card, or more than one."""


@frozen
class CardRef:
    side: str      # the side's key, as declared ("ap")
    number: int
    name: str
    card: Any      # what the caller indexed: a world Entity, a CardDecl …

    @property
    def label(self) -> str:
        """`AP 6`: how the tools write a card unambiguously."""
        return f"{self.side.upper()} {self.number}"

    def __str__(self) -> str:
        return f"{self.label} {self.name}"


class CardIndex:
    """The cards of a scenario, to resolve what a user typed."""

    def __init__(self, refs: Iterable[CardRef]):
        self.refs = list(refs)
        self.by_number = {(r.side.lower(), r.number): r for r in self.refs}
        self.by_name: dict[str, list[CardRef]] = {}
        for r in self.refs:
            self.by_name.setdefault(r.name.lower(), []).append(r)
        self.sides = {r.side.lower() for r in self.refs}

    @classmethod
    def of_decls(cls, decls) -> CardIndex:
        """From `card` declarations (the compiler's CardDecl)."""
        return cls(CardRef(d.side.text if d.side else "?", d.number, d.name.text, d) for d in decls)

    @classmethod
    def of_world(cls, world) -> CardIndex:
        """From a built world: each ref's `card` is the card's Entity."""
        return cls(CardRef(e.data.side.text if e.data.side else "?", e.data.number, e.data.name.text, e)
                   for e in world.cards)

    def shared_names(self) -> dict[str, list[CardRef]]:
        """Each name printed on more than one card, with those cards."""
        return {refs[0].name: refs for refs in self.by_name.values() if len(refs) > 1}

    def is_shared(self, ref: CardRef) -> bool:
        return len(self.by_name.get(ref.name.lower(), ())) > 1

    def label(self, ref: CardRef) -> str:
        """The shortest unambiguous way to write a card: its name, unless
        another card bears it too, then its side and number."""
        return ref.label if self.is_shared(ref) else ref.name

    def resolve(self, text: str, side: str | None = None) -> CardRef:
        text = " ".join(str(text).split())
        if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]:
            text = text[1:-1].strip()
        m = _BY_NUMBER.match(text)
        if m and m.group(1).lower() in self.sides:
            found = self.by_number.get((m.group(1).lower(), int(m.group(2))))
            if found is None:
                numbers = sorted(r.number for r in self.refs if r.side.lower() == m.group(1).lower())
                span = f" ({m.group(1).upper()} {numbers[0]} to {numbers[-1]})" if numbers else ""
                raise CardNameError(f"no card {m.group(1).upper()} {m.group(2)} in this scenario{span}")
            return found
        if side is not None and is_digits(text) and len(text) <= MAX_DIGITS:
            found = self.by_number.get((side.lower(), int(text)))
            if found is not None:
                return found
        matches = self.by_name.get(text.lower(), [])
        if side is not None and len(matches) > 1:
            mine = [r for r in matches if r.side.lower() == side.lower()]
            matches = mine or matches
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            listed = " and ".join(str(r) for r in matches)
            within = f" of side {side}" if side is not None and all(
                r.side.lower() == side.lower() for r in matches) else ""
            raise CardNameError(f"'{text}' names {len(matches)} cards{within}: {listed}; write "
                                + " or ".join(f"'{r.label}'" for r in matches))
        from .diagnostics import did_you_mean

        hint = did_you_mean(text, sorted({r.name for r in self.refs}))
        raise CardNameError(f"no card named '{text}' in this scenario" + (f" ({hint})" if hint else "")
                            + "; a card can also be named by side and number, e.g. 'AP 6'")


def join_numbered(tokens: list[str], sides: Iterable[str]) -> list[str]:
    """Script tokens with `AP`, `6` (written unquoted: `hand ap AP 6, Fog`)
    joined back into `AP 6`."""
    sides = {s.lower() for s in sides}
    out: list[str] = []
    for token in tokens:
        if out and is_digits(token) and out[-1].lower() in sides:
            out[-1] = f"{out[-1]} {token}"
        else:
            out.append(token)
    return out
