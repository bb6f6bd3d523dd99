"""12.1 and 12.2: who may attack what, the combat steps, fire tables, combat
cards (9.5.4).  Helpers used by the other combat test files live here."""

import pytest

from .harness import Position


# ------------------------------------------------------------------ helpers
def activate_attack(pos: Position, *spaces: str) -> None:
    for s in spaces:
        pos.activate(s, "attack")


def where(pos: Position, piece) -> str | None:
    loc = pos.s["loc"][piece.index]
    place = pos.w.place_entity(loc)
    return place.key if place is not None else None


def control(pos: Position, space: str) -> str | None:
    return pos.s["control"][pos.entity("space", space).index]


def deal(pos: Position, side: str, *names: str):
    cards = []
    for n in names:
        c = pos.entity("card", n)
        pos.s["piles"][f"hand:{side}"].append(c.index)
        cards.append(c)
    return cards


def pile_of(pos: Position, card) -> str | None:
    for key, cards in pos.s["piles"].items():
        if card.index in cards:
            return key
    return None


# ------------------------------------------------------------------ 12.2: Combat Example 2
def cambrai_1916() -> Position:
    """Combat Example 2: BR 3 and BR 4 in Amiens; the reduced Canadian corps
    and the French 6th Army in Chateau Thierry; the German 2nd Army and two
    full corps in Cambrai behind a level 2 trench."""
    pos = Position()
    pos.br3 = pos.place("BR 3", "Amiens")
    pos.br4 = pos.place("BR 4", "Amiens")
    pos.cnd = pos.place("CNDc", "Chateau Thierry", reduced=True)
    pos.fr6 = pos.place("FR 6", "Chateau Thierry")
    pos.ge2 = pos.place("GE 2", "Cambrai")
    pos.gec1 = pos.place("GEc", "Cambrai")
    pos.gec2 = pos.place("GEc", "Cambrai")
    pos.control("Cambrai", "cp")
    pos.control("Sedan", "cp")  # the Germans' supply line runs back through Sedan to Metz
    pos.set("trench", 2, key="Cambrai")
    activate_attack(pos, "Amiens", "Chateau Thierry")
    return pos


@pytest.mark.rule("12.1.11.1")
@pytest.mark.rule("12.4.5")
def test_combat_example_2_cambrai_july_1916():
    """12.1.11.1, 12.2, 12.4.5 and Combat Example 2: the Canadian corps lets the
    French attack alongside the British.  No flank attack (trench): fire is
    simultaneous.  The Germans play Fortified Machine Guns; with 9 CF shifted
    one column right by the level 2 trench they fire on the 12-14 column and
    roll 5: loss number 7.  The Allies' 13 CF are shifted two columns left to
    6-8; they roll 4: loss number 4.  The Canadian corps must take the first
    loss (12.4.5); the Allies then flip BR 3 and BR 4; the Germans flip the 2nd
    Army and a corps.  The defender won: no retreat, no advance, and the
    Germans keep their combat card face up."""
    pos = cambrai_1916()
    fmg, = deal(pos, "cp", "Fortified Machine Guns")
    pos.run("resolve_attacks", "ap", answers=[
        "attack Cambrai from Chateau Thierry",
        "from Chateau Thierry: CNDc, FR 6",
        "from Amiens: BR 3, BR 4",
        "cp uses Fortified Machine Guns",
        "GE 2 in Cambrai: flipped",
        "BR 3 in Amiens: flipped",
        "BR 4 in Amiens: flipped",
    ], dice=[4, 5])
    text = "\n".join(pos.log())
    assert "ap attacks Cambrai with strength 13 against 9" in text
    assert "ap fires with strength 13 on the Army table (shift -2), die 4" in text
    assert "loss number 4" in text
    assert "cp fires with strength 9 on the Army table (shift 1), die 5" in text
    assert "loss number 7" in text
    assert where(pos, pos.cnd) == "eliminated[ap]"
    assert pos.reduced(pos.br3.index) and pos.reduced(pos.br4.index)
    assert not pos.reduced(pos.fr6.index)
    assert pos.reduced(pos.ge2.index)
    assert sorted([pos.reduced(pos.gec1.index), pos.reduced(pos.gec2.index)]) == [False, True]
    assert pos.units_at("Cambrai") == ["GE 2", "GEc", "GEc"]
    assert pos.units_at("Amiens") == ["BR 3", "BR 4"]
    assert control(pos, "Cambrai") == "cp"
    assert pile_of(pos, fmg) == "in_play:cp"
    assert not any(d.choice in ("retreat_path", "advance_unit", "flank_attack") for d in pos.asked)


@pytest.mark.rule("12.1.11")
@pytest.mark.rule("12.1.11.1")
def test_french_units_cannot_join_british_without_a_common_space():
    """12.1.11, 12.1.11.1: without the Canadian corps in Chateau Thierry the
    French 6th Army may not join the British attack from Amiens, nor the
    British join one led from Chateau Thierry."""
    pos = Position()
    pos.place("BR 3", "Amiens")
    pos.place("FR 6", "Chateau Thierry")
    pos.place("GE 2", "Cambrai")
    pos.control("Cambrai", "cp")
    activate_attack(pos, "Amiens", "Chateau Thierry")
    pos.run("resolve_attacks", "ap", answers=["attack Cambrai from Amiens"], dice=[1, 1])
    first = pos.asked[0]
    assert first.options == ["attack Cambrai from Amiens", "attack Cambrai from Chateau Thierry", "no more attacks"]
    # Only BR 3 attacked: no question about Chateau Thierry, and the French may not attack Cambrai again.
    assert not any(d.choice == "attack_with" for d in pos.asked)
    assert "ap attacks Cambrai with strength 4 against 5" in "\n".join(pos.log())


# ------------------------------------------------------------------ 12.1: who may attack what
@pytest.mark.rule("12.1.6")
@pytest.mark.rule("12.1.2")
def test_a_space_is_attacked_once_and_retreated_units_are_not_a_target():
    """12.1.6: no unit attacks twice and no space is attacked twice in one
    action.  12.1.2: a space holding only units that retreated in this action
    may not be attacked: after RU 1 retreats from Lodz to Plock, GE 10 (which
    did not attack) may not attack it there."""
    pos = Position()
    pos.place("GE 9", "Thorn")
    ge10 = pos.place("GE 10", "Thorn")
    ru1 = pos.place("RU 1", "Lodz")
    pos.control("Thorn", "cp")
    activate_attack(pos, "Thorn")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Thorn",
        "from Thorn: GE 9",
        "RU 1 retreats to Warsaw then Plock",
        "stop advancing",
    ], dice=[3, 1])
    assert where(pos, ru1) == "Plock" and pos.reduced(ru1.index)
    assert where(pos, ge10) == "Thorn"
    declared = [d for d in pos.asked if d.choice == "declare_attack"]
    assert len(declared) == 1  # afterwards stopping was the only option, taken without asking


@pytest.mark.rule("12.1.10")
def test_attacks_from_london_need_units_in_france_or_belgium():
    """12.1.10: units in London attack only alongside friendly units in a
    space in France or Belgium."""
    pos = Position()
    pos.place("BR 1", "London")
    pos.place("GE 1", "Calais")
    pos.control("Calais", "cp")
    activate_attack(pos, "London")
    pos.run("resolve_attacks", "ap")
    assert pos.asked == []  # nothing could be attacked: the only option, stopping, answered itself
    pos = Position()
    pos.place("BR 1", "London")
    pos.place("BR 2", "Amiens")
    pos.place("GE 1", "Calais")
    pos.control("Calais", "cp")
    activate_attack(pos, "London", "Amiens")
    pos.run("resolve_attacks", "ap", answers=[
        "attack Calais from Amiens", "from London: BR 1"], dice=[1, 1])
    assert "ap attacks Calais with strength 8 against 5" in "\n".join(pos.log())


@pytest.mark.rule("15.1.11")
def test_germans_attack_russian_forts_only_after_oberost_or_war_status_4():
    """15.1.11: German units may not attack a space with a Russian fort until
    Oberost is played or the Central Powers War Status is 4; Austro-Hungarians
    may."""
    pos = Position()
    pos.place("GE 9", "Plock")
    pos.place("RUc", "Warsaw")
    pos.control("Plock", "cp")
    activate_attack(pos, "Plock")
    pos.run("resolve_attacks", "cp")
    assert pos.asked == []
    pos.set("war_status", 4, key="cp")
    pos.run("resolve_attacks", "cp", answers=["no more attacks"])
    # Warsaw (units and fort) and empty Lomza (a fort alone, 15.1.2) may now be attacked.
    assert sorted(pos.asked[-1].options) == ["attack Lomza from Plock", "attack Warsaw from Plock", "no more attacks"]


@pytest.mark.rule("12.2.7")
@pytest.mark.rule("12.2.9")
def test_sinai_attack_suffers_minus_three():
    """12.2.7: -3 DRM when every attacking unit is in the Sinai; the die is
    then held at 1 (12.2.9)."""
    pos = Position()
    pos.s["at_war"]["tu"] = True
    pos.place("BR NE", "Sinai")
    pos.place("TUc", "Beersheba")
    pos.control("Sinai", "ap")
    activate_attack(pos, "Sinai")
    pos.s["turn"] = 5  # spring 1915: deserts may be attacked
    pos.run("resolve_attacks", "ap", answers=["attack Beersheba from Sinai", "stop advancing"], dice=[3, 1])
    assert "ap fires with strength 4 on the Army table (shift 0), die 3 modified to 1: loss number 2" in "\n".join(pos.log())


@pytest.mark.rule("15.2.5")
def test_no_attack_into_a_desert_in_summer():
    """15.2.5: a desert space cannot be attacked in summer."""
    pos = Position()
    pos.place("BR NE", "Sinai")
    pos.place("TUc", "Beersheba")
    pos.control("Sinai", "ap")
    activate_attack(pos, "Sinai")
    pos.s["turn"] = 6  # summer 1915
    pos.run("resolve_attacks", "ap")
    assert pos.asked == []


# ------------------------------------------------------------------ 12.2.8: fire tables
@pytest.mark.rule("12.2.8")
def test_corps_fire_table_and_column_shift_held_on_the_table():
    """12.2.8: without an army a side fires on the Corps/Fort table; a
    mountain's shift below the first column is ignored."""
    pos = Position()
    pos.place("ITc", "Asiago", reduced=True)  # CF 0
    pos.place("AHc", "Trent")
    pos.control("Trent", "cp")
    pos.s["at_war"]["it"] = True
    activate_attack(pos, "Asiago")
    pos.run("resolve_attacks", "ap", answers=["attack Trent from Asiago"], dice=[6, 1])
    text = "\n".join(pos.log())
    assert "ap fires with strength 0 on the Corps/Fort table (shift -1), die 6 modified to 6: loss number 1" in text
    # The defending fort adds its CF: 1 + 3.
    assert "cp fires with strength 4 on the Corps/Fort table (shift 0), die 1 modified to 1: loss number 1" in text


# ------------------------------------------------------------------ 9.5.4: combat cards
def two_targets() -> Position:
    """GE 9 and GE 10 in Thorn; a Russian corps in Lodz and one in Plock."""
    pos = Position()
    pos.ge9 = pos.place("GE 9", "Thorn")
    pos.ge10 = pos.place("GE 10", "Thorn")
    pos.place("RUc", "Lodz")
    pos.place("RUc", "Plock")
    pos.control("Thorn", "cp")
    pos.set("action_round", 1)
    activate_attack(pos, "Thorn")
    return pos


@pytest.mark.rule("9.5.4.2")
@pytest.mark.rule("9.5.4.4")
@pytest.mark.rule("12.2.6")
def test_a_won_combat_keeps_the_card_for_one_combat_per_action_round():
    """9.5.4.2, 9.5.4.4, 12.2.6: the winner keeps a used combat card face up;
    it may not be used again in the same action round, but may be selected
    again from in front of its owner in a later round.  (Von Francois: a
    German attack on Russians, not starred.)"""
    pos = two_targets()
    francois, = deal(pos, "cp", "Von Francois")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Thorn", "from Thorn: GE 9", "cp uses Von Francois", "stop advancing",
        "attack Plock from Thorn", "stop advancing",
    ], dice=[6, 1, 6, 1])
    cards_asked = [d for d in pos.asked if d.choice == "use_combat_card"]
    assert len(cards_asked) == 1  # the second combat offered nothing (only "no more combat cards")
    assert pile_of(pos, francois) == "in_play:cp"
    pos.set("action_round", 2)
    pos.place("RUc", "Lodz")
    pos.asked.clear()
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Thorn", "from Thorn: GE 9", "cp uses Von Francois", "stop advancing"], dice=[6, 1])
    assert [d.options for d in pos.asked if d.choice == "use_combat_card"] == [
        ["cp uses Von Francois", "no more combat cards"]]
    assert "cp uses Von Francois again, kept from an earlier combat" in pos.log()
    assert pile_of(pos, francois) == "in_play:cp"


@pytest.mark.rule("9.5.4.3")
@pytest.mark.rule("12.2.11")
def test_the_loser_discards_and_a_tie_discards_both():
    """9.5.4.3, 12.2.11: the side that loses a combat discards the combat cards
    it used; on equal loss numbers both sides lose and discard."""
    pos = Position()
    pos.place("BR 1", "Cambrai")
    pos.place("GE 1", "Brussels")
    pos.control("Brussels", "cp")
    pos.control("Sedan", "cp")  # supply for GE 1 (a defender out of supply gets no combat cards, 14.3.4)
    pos.set("trench", 1, key="Brussels")  # both cards are for a British attack on entrenched Germans
    activate_attack(pos, "Cambrai")
    mine, = deal(pos, "ap", "Mine Attack")
    fmg, = deal(pos, "cp", "Fortified Machine Guns")
    # BR 1 (4 CF, trench: 3 column) rolls 1 (+1 or not): loss number 1 or 2; GE 1 (5 CF, trench: 6-8 column)
    # rolls 1 (+1 or not): loss number 3.
    pos.run("resolve_attacks", "ap", answers=[
        "attack Brussels from Cambrai", "ap uses Mine Attack", "cp uses Fortified Machine Guns"], dice=[1, 1])
    assert pile_of(pos, mine) == "discard:ap"
    assert pile_of(pos, fmg) == "in_play:cp"
    pos = Position()
    pos.place("BR 1", "Cambrai")
    pos.place("GE 1", "Brussels")
    pos.control("Brussels", "cp")
    pos.control("Sedan", "cp")  # supply for GE 1 (a defender out of supply gets no combat cards, 14.3.4)
    pos.set("trench", 1, key="Brussels")
    activate_attack(pos, "Cambrai")
    mine, = deal(pos, "ap", "Mine Attack")
    fmg, = deal(pos, "cp", "Fortified Machine Guns")
    # BR 1 rolls 4 (+1 or not): loss number 3; GE 1 rolls 1 (+1 or not): loss number 3.  A tie.
    pos.run("resolve_attacks", "ap", answers=[
        "attack Brussels from Cambrai", "ap uses Mine Attack", "cp uses Fortified Machine Guns"], dice=[4, 1])
    assert "combat won by none" in pos.log()
    assert pile_of(pos, mine) == "discard:ap"
    assert pile_of(pos, fmg) == "discard:cp"


@pytest.mark.rule("9.5.4.2")
@pytest.mark.rule("9.5.1.2")
@pytest.mark.rule("9.5.1.3")
def test_starred_combat_cards_leave_the_game_and_war_status_counts():
    """9.5.4.2, 9.5.1.2, 9.5.1.3: a starred combat card is removed after its
    combat even when its side wins; a war status on the card is added when it
    is played."""
    pos = two_targets()
    pos.s["played"].append(pos.entity("card", "H-L Take Command").index)  # Michael's prerequisite
    michael, = deal(pos, "cp", "Michael")
    pos.run("resolve_attacks", "cp", answers=[
        "attack Lodz from Thorn", "from Thorn: GE 9", "cp uses Michael", "stop advancing",
        "no more attacks"], dice=[6, 1])
    assert pile_of(pos, michael) == "removed:cp"
    assert pos.var("war_status", "cp") == 1
    assert michael.index in pos.s["played"]


def set_combat(pos: Position, attacker: str, target: str, attackers=(), defenders=(), sources=(),
               retreated=(), oos=()) -> None:
    """Put a combat in progress, as designate_attack leaves it, to run one
    step of it (take_losses, defender_retreat, attacker_advance) alone."""
    defender = "ap" if attacker == "cp" else "cp"
    pos.set("combat_attacker", attacker)
    pos.set("combat_defender", defender)
    pos.set("combat_target", target)
    pos.set("combat_sources", [pos.entity("space", s) for s in sources])
    pos.set("combat_attackers", list(attackers))
    pos.set("combat_defenders", list(defenders))
    pos.set("combat_retreated", list(retreated))
    pos.set("combat_oos", list(oos))
    pos.set("combat_replacements", [])
    pos.set("retreat_first_spaces", [])


def set_losses(pos: Position, **loss: int) -> None:
    for side, n in loss.items():
        pos.set("combat_loss", n, key=side)


@pytest.mark.rule("14.3.4")
@pytest.mark.rule("14.1.1.2")
def test_14_3_4_defenders_out_of_supply_get_no_combat_cards():
    """14.3.4, 14.1.1.2: defending units found out of supply when the combat
    starts receive no combat card: the defender is not offered any."""
    for oos, offered in ((True, False), (False, True)):
        pos = Position()
        ge1 = pos.place("GE 1", "Brussels")
        fr1 = pos.place("FR 1", "Cambrai")
        pos.control("Brussels", "cp")
        pos.set("trench", 1, key="Brussels")  # Fortified Machine Guns: entrenched Germans
        set_combat(pos, "ap", "Brussels", attackers=[fr1], defenders=[ge1], sources=["Cambrai"],
                   oos=[ge1] if oos else [])
        deal(pos, "cp", "Fortified Machine Guns")
        pos.run("play_combat_cards", "cp", "after_flank_attempt", answers=["no more combat cards"] if offered else [])
        assert any(d.choice == "use_combat_card" for d in pos.asked) is offered
