"""Naming a card where two bear the same name: by side and number, or by a
name the context's side makes unique (pogdsl/cardref.py), in scripts, saves
and the human prompt."""

from __future__ import annotations

import io

import pytest

from pogdsl.agents import HumanAgent
from pogdsl.cardref import CardIndex, CardNameError, join_numbered
from pogdsl.runtime.record import ScriptError, Session, parse_script, replay_script

from .conftest import run_cli


@pytest.fixture(scope="module")
def index(campaign_scenario):
    return CardIndex.of_world(campaign_scenario.world)


def test_shared_names_come_from_the_card_list(index):
    shared = {name: sorted(r.label for r in refs) for name, refs in index.shared_names().items()}
    assert shared == {
        "Withdrawal": ["AP 6", "CP 56"], "Entrench": ["AP 12", "CP 6"], "Severe Weather": ["AP 7", "CP 4"],
        "Air Superiority": ["AP 19", "CP 40"], "German Reinforcements (2 corps)": ["CP 38", "CP 39"],
    }


@pytest.mark.parametrize("text, side, key", [
    ("AP 6", None, "ap 6"), ("ap 6", None, "ap 6"), ("CP 56", None, "cp 56"), ("cp56", None, "cp 56"),
    ("AP #12", None, "ap 12"), ("Withdrawal", "ap", "ap 6"), ("withdrawal", "cp", "cp 56"),
    ("Entrench", "CP", "cp 6"), ("'Guns of August'", None, "cp 1"), ("CP 38", "cp", "cp 38"),
    ("12", "ap", "ap 12"),
])
def test_a_card_by_side_and_number_or_by_name(index, text, side, key):
    assert index.resolve(text, side).card.key == key


@pytest.mark.parametrize("text, side, message", [
    ("Withdrawal", None, "'Withdrawal' names 2 cards: AP 6 Withdrawal and CP 56 Withdrawal; write 'AP 6' or "
                         "'CP 56'"),
    ("German Reinforcements (2 corps)", "cp", "'German Reinforcements (2 corps)' names 2 cards of side cp: "
     "CP 38 German Reinforcements (2 corps) and CP 39 German Reinforcements (2 corps); write 'CP 38' or 'CP 39'"),
    ("AP 99", None, "no card AP 99 in this scenario (AP 1 to 65)"),
    ("Withdrawl", None, "no card named 'Withdrawl' in this scenario (did you mean 'Withdrawal'?)"),
])
def test_a_reference_that_fits_no_card_or_two_is_an_error_on_one_line(index, text, side, message):
    with pytest.raises(CardNameError) as err:
        index.resolve(text, side)
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_unquoted_side_and_number_tokens_are_joined():
    assert join_numbered(["AP", "6", "Fog", "cp", "12"], ["ap", "cp"]) == ["AP 6", "Fog", "cp 12"]


SCRIPT = """scenario campaign
seed 1
hand cp Withdrawal, Entrench, CP 38, 'Guns of August'
expect hand cp 'CP 56' CP 6 cp 38 'Guns of August'
"""


def test_script_hand_means_the_sides_card_and_records_it_unambiguously(campaign_scenario):
    session = replay_script(parse_script(SCRIPT), opened=campaign_scenario)
    hand = sorted(session.game.s["piles"]["hand:cp"])
    assert sorted(session.world.cards[i].key for i in hand) == ["cp 1", "cp 38", "cp 56", "cp 6"]
    # A shared name is written back by side and number; a unique one by name.
    assert [e.to_line() for e in session.events] == ["hand cp 'CP 56', 'CP 6', 'CP 38', 'Guns of August'"]


def test_expect_hand_tells_cards_of_one_name_apart(campaign_scenario):
    script = SCRIPT.replace("expect hand cp 'CP 56' CP 6 cp 38", "expect hand cp 'CP 56' CP 6 cp 39")
    with pytest.raises(ScriptError) as err:
        replay_script(parse_script(script, "s.txt"), opened=campaign_scenario)
    assert str(err.value) == ("s.txt:4: expected hand cp 'CP 56' CP 6 cp 39 'Guns of August', found hand "
                              "Guns of August, CP 6, CP 38, CP 56")


def test_script_with_an_ambiguous_name_is_refused_with_its_line(campaign_scenario):
    script = "scenario campaign\nseed 1\nhand cp 'German Reinforcements (2 corps)'\n"
    with pytest.raises(ScriptError) as err:
        replay_script(parse_script(script, "s.txt"), opened=campaign_scenario)
    assert str(err.value).startswith("s.txt:3: 'German Reinforcements (2 corps)' names 2 cards of side cp:")


def test_replay_cli_reports_an_ambiguous_card_on_one_line(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("scenario campaign\nseed 1\nexpect hand ap Withdrawal\nexpect hand cp AP 6\n"
                    "hand ap 'Severe Weather' 'German Reinforcements (2 corps)'\n")
    result = run_cli("replay", str(path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and ":3: expected hand ap Withdrawal, found hand" in lines[0]


def test_human_card_command(campaign_scenario):
    session = Session.new(campaign_scenario, 1, parse_script("hand cp Withdrawal").events)
    out = io.StringIO()
    lines = iter(["card Withdrawal", "card AP 6", "card CP 38", "card German Reinforcements (2 corps)", "card",
                  "quit"])
    agent = HumanAgent("cp", input_fn=lambda prompt="": next(lines), out=out)
    from pogdsl.agents.base import QUIT

    assert agent.choose(session, session.decision) is QUIT
    text = out.getvalue()
    assert "CP 56 Withdrawal (mobilization deck)" in text      # the side choosing's Withdrawal
    assert "  in your hand" in text
    assert "AP 6 Withdrawal (mobilization deck)" in text       # the other side's, named by number
    assert "ops 2, sr 2" in text
    assert "CP 38 German Reinforcements (2 corps)" in text
    assert "names 2 cards of side cp: CP 38 German Reinforcements (2 corps) and CP 39" in text
    assert "card CARD: which card?" in text
