"""The printed values of the 130 strategy cards, checked against the reference data.

Every file under cards/ must parse cleanly and hold exactly one card (it may also
hold other declarations the card needs); together they must cover numbers 1..65
for each side.  Each card's printed values (deck, OPS, SR,
replacement points, war status, the removed/combat/optional marks and the
reinforcement units) must equal the row for that card in the reference cards.csv.
"""

from __future__ import annotations

import csv
import os
import re
from pathlib import Path

import pytest

from pogdsl.syntax.ast import CardDecl
from pogdsl.syntax.parser import parse_text

ROOT = Path(__file__).resolve().parents[2]
CARDS_DIR = ROOT / "cards"
REFERENCE_DIR = Path(os.environ.get("POG_REFERENCE_DIR", "/work/shared/reference/pog"))
CARDS_CSV = REFERENCE_DIR / "cards.csv"
PIECES_CSV = REFERENCE_DIR / "pieces.csv"

SIDES = ("ap", "cp")
RP_COLUMNS = ("ge", "ah", "tu", "bu", "fr", "br", "ru", "it")  # then rp_a, written `allied`


def _card_files() -> list[Path]:
    return sorted(CARDS_DIR.rglob("*.pog"))


def _parse_all() -> dict[tuple[str, int], tuple[Path, CardDecl]]:
    cards: dict[tuple[str, int], tuple[Path, CardDecl]] = {}
    for path in _card_files():
        module, diags = parse_text(path.read_text(encoding="utf-8"), str(path))
        assert not diags, f"{path}: " + "; ".join(str(d) for d in diags)
        decls = [d for d in module.decls if isinstance(d, CardDecl)]
        # Besides its card a file may declare what the card's lasting effect
        # needs (state, values, triggers outside the card): one card a file.
        assert len(decls) == 1, f"{path}: expected exactly one card"
        card = decls[0]
        key = (card.side.text, card.number)
        assert key not in cards, f"{path}: card {key} also defined in {cards[key][0]}"
        cards[key] = (path, card)
    return cards


@pytest.fixture(scope="module")
def cards() -> dict[tuple[str, int], tuple[Path, CardDecl]]:
    return _parse_all()


@pytest.fixture(scope="module")
def reference() -> dict[tuple[str, int], dict[str, str]]:
    if not CARDS_CSV.exists():
        pytest.skip(f"reference data not found at {CARDS_CSV} (set POG_REFERENCE_DIR)")
    with CARDS_CSV.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    return {(r["side"], int(r["num"])): r for r in rows}


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def test_every_file_parses_and_counts(cards):
    assert len(_card_files()) == 130
    assert len(cards) == 130
    for side in SIDES:
        numbers = sorted(n for s, n in cards if s == side)
        assert numbers == list(range(1, 66)), f"{side}: card numbers are not 1..65"


def test_files_sit_where_they_belong(cards):
    for (side, number), (path, card) in cards.items():
        assert path.parent == CARDS_DIR / side, f"{path}: a {side} card belongs in cards/{side}/"
        assert path.name == f"{number:02d}-{_slug(card.name.text)}.pog", path


def test_cites_and_note(cards):
    for (side, number), (path, card) in cards.items():
        cited = [c.number for c in card.cites]
        assert "9.1" in cited, f"{path}: every card cites 9.1"
        if card.reinforcements:
            assert "9.5.3" in cited, f"{path}: a reinforcement card cites 9.5.3"
        assert card.note and card.note.strip(), f"{path}: the card needs a note"


def test_values_match_reference(cards, reference):
    assert set(reference) == set(cards)
    for key, row in reference.items():
        path, card = cards[key]
        where = f"{path.name} ({key[0]} {key[1]})"
        assert card.name.text == row["name"], where
        assert card.deck is not None and card.deck.text == row["deck"], where
        assert card.ops == int(row["ops"]), where
        assert card.sr == int(row["sr"]), where

        expected_rp = [(n, int(row[f"rp_{n}"])) for n in RP_COLUMNS if row[f"rp_{n}"]]
        if row["rp_a"]:
            expected_rp.append(("allied", int(row["rp_a"])))
        assert [(n.text, v) for n, v in card.rp] == expected_rp, where

        assert card.war_status == int(row["war_status"] or 0), where
        assert card.removed == (row["removed_when_event"] == "yes"), where
        assert card.combat == (row["combat_card"] == "yes"), where
        assert card.optional == (row["optional"] == "yes"), where

        expected_units = [u for u in row["reinforcement_units"].split("|") if u]
        assert [u.text for u in card.reinforcements] == expected_units, where


def test_reinforcements_name_real_pieces(cards):
    if not PIECES_CSV.exists():
        pytest.skip(f"reference data not found at {PIECES_CSV} (set POG_REFERENCE_DIR)")
    with PIECES_CSV.open(newline="", encoding="utf-8") as fh:
        pieces = {r["name"] for r in csv.DictReader(fh)}
    for (side, number), (path, card) in cards.items():
        for unit in card.reinforcements:
            assert unit.text in pieces, f"{path}: no piece named {unit.text!r}"
