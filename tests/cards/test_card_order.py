"""Where two cards replace the same value in one combat, the sources say which
one stands (`modifier … after …`, checked by W0801).  These tests play such
meetings through the engine."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cards.test_card_events import hand  # noqa: E402
from cards.test_rp_mo import HAIG, card, position, western_front  # noqa: E402


@pytest.mark.card("CP 61")
@pytest.mark.card("CP 56")
@pytest.mark.rule("12.6.4")
def test_withdrawal_played_under_haig_still_falls_back_one_space():
    """Haig lets entrenched Germans ignore a retreat against a British attack;
    the Central Powers player who plays Withdrawal in such a combat chose its
    one-space retreat, and gets it (12.6.4: the defenders always retreat one
    space)."""
    pos = position()
    pos.play_event("cp", card(pos, HAIG))
    hand(pos, "cp", pos.card("cp", 56))
    western_front(pos, ("BR 1", "BR 2"), ("GE 1",), 1)
    pos.game.ask_forced = False
    pos.run("resolve_attacks", "ap", answers=[
        "attack Cambrai from Amiens", "from Amiens: BR 1, BR 2", "cp uses Withdrawal",
        "BR 1 in Amiens: flipped", "stop advancing"], dice=[6, 1])
    assert pos.units_at("Cambrai") == []
    assert pos.units_at("Sedan") == ["GE 1"]
