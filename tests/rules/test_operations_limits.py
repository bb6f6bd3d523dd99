"""Rule 9.2.7 (one Allied combat activation a round on the Near East map),
9.2.7.1 (what the MEF Beachhead costs to activate) and 15.2.5 (no combat
activation of a desert space in summer), each played through `operations`
on an empty Campaign board; a refused activation raises IllegalOption naming
the rule."""

import pytest

from pogdsl.runtime.errors import IllegalOption

from .harness import Position


def at_war(pos: Position, *nations: str) -> None:
    for n in nations:
        pos.s["at_war"][n] = True
    pos.game.invalidate()


_STOPS = ("done activating", "end movement", "no more attacks")


def operate(pos: Position, side: str, points: int, answers) -> None:
    """Run an operation: activations as `answers` say, then every later
    decision (movement, attacks) declined, so only the activations matter."""
    tail = list(answers)
    g = pos.game
    code = pos.w.codes["procedure:operations"]
    args = [pos._value(side), points, None]
    pos.s["stack"] = [{"code": "procedure:operations", "pc": 0, "l": dict(zip(code.params, args))}]
    pos.s["result"] = None
    g.invalidate()
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        if tail:
            d = g.choose(tail.pop(0))
        else:
            stop = next((o for o in d.options if o in _STOPS), None)
            assert stop is not None, f"no way to decline {d.choice}: {d.options}"
            d = g.choose(stop)


def refused(pos: Position, side: str, points: int, answers, rule: str) -> str:
    with pytest.raises(IllegalOption) as err:
        operate(pos, side, points, answers)
    assert rule in err.value.rules, err.value.message
    pos.s["pending"] = None
    return err.value.message


def activation_costs(pos: Position) -> list[str]:
    return [line for line in pos.log() if " activates " in line]


# ------------------------------------------------------------------ 9.2.7

@pytest.mark.rule("9.2.7")
def test_9_2_7_one_allied_space_a_round_activated_for_combat_on_the_near_east_map():
    """Two Russian corps in Kars and Batum: once Kars is activated for
    combat, Batum may be activated to move but not to attack."""
    def kars_and_batum():
        pos = Position()
        at_war(pos, "tu")
        pos.place("RUc", "Kars")
        pos.place("RUc", "Batum")
        return pos

    refused(kars_and_batum(), "ap", 4, ["activate Kars attack", "activate Batum attack"], "9.2.7")
    pos = kars_and_batum()
    operate(pos, "ap", 4, ["activate Kars attack", "activate Batum move"])
    assert len(activation_costs(pos)) == 2


@pytest.mark.rule("9.2.7")
def test_9_2_7_the_limit_is_allied_only_and_movement_is_free():
    """The Turks may activate as many Near East spaces for combat as they
    pay for; the Allies as many for movement."""
    pos = Position()
    at_war(pos, "tu")
    pos.place("TUc", "Erzerum")
    pos.place("TUc", "Trebizond")
    operate(pos, "cp", 4, ["activate Erzerum attack", "activate Trebizond attack"])
    assert len(activation_costs(pos)) == 2


@pytest.mark.rule("9.2.7")
def test_9_2_7_the_british_ne_army_does_not_count_against_the_limit():
    pos = Position()
    at_war(pos, "tu")
    pos.place("BR NE", "Port Said")
    pos.place("BRc", "Cairo")
    operate(pos, "ap", 4, ["activate Port Said attack", "activate Cairo attack"])
    assert len(activation_costs(pos)) == 2


# ------------------------------------------------------------------ 9.2.7.1

def mef_landed(pos: Position, *corps: str) -> None:
    at_war(pos, "tu")
    pos.place("BR MEF", "MEF1")
    for c in corps:
        pos.place(c, "MEF1")
    pos.set("mef_beachhead", "MEF1")


@pytest.mark.rule("9.2.7.1")
def test_9_2_7_1_the_mef_on_its_beachhead_costs_three_ops():
    pos = Position()
    mef_landed(pos)
    operate(pos, "ap", 3, ["activate MEF1 move"])
    assert activation_costs(pos) == ["ap activates MEF1 for move: 3 OPS, 0 left"]


@pytest.mark.rule("9.2.7.1")
def test_9_2_7_1_the_mef_with_two_corps_costs_five_ops():
    """The rule's own example: the MEF and two corps supplied through the
    Beachhead cost 3 + 1 + 1; with four OPS the stack cannot be activated."""
    pos = Position()
    mef_landed(pos, "BRc", "AUSc")
    operate(pos, "ap", 4, [])  # the stack is not offered: nothing to activate
    assert activation_costs(pos) == []
    operate(pos, "ap", 5, ["activate MEF1 move"])
    assert activation_costs(pos) == ["ap activates MEF1 for move: 5 OPS, 0 left"]


@pytest.mark.rule("9.2.7.1")
def test_9_2_7_1_the_beachhead_price_holds_for_combat_as_for_movement():
    """The rule prices the MEF stack the same whether it is activated to
    move or to attack: with four OPS neither is offered, with five both are,
    and an attack activation spends all five."""
    pos = Position()
    mef_landed(pos, "BRc", "AUSc")
    operate(pos, "ap", 4, [])
    assert not any("MEF1" in o for d in pos.asked for o in d.options)
    pos.asked.clear()
    operate(pos, "ap", 5, ["activate MEF1 attack"])
    assert {"activate MEF1 move", "activate MEF1 attack"} <= set(pos.asked[0].options)
    assert activation_costs(pos)[-1] == "ap activates MEF1 for attack: 5 OPS, 0 left"


@pytest.mark.rule("9.2.7.1")
def test_9_2_7_1_units_supplied_otherwise_pay_the_ordinary_cost():
    """Off the beachhead, in an Allied port, a British corps traces supply by
    sea to London and costs the ordinary one point."""
    pos = Position()
    at_war(pos, "tu")
    pos.set("mef_beachhead", "MEF1")
    pos.place("BRc", "Salonika")
    pos.s["at_war"]["gr"] = True
    operate(pos, "ap", 1, ["activate Salonika move"])
    assert activation_costs(pos) == ["ap activates Salonika for move: 1 OPS, 0 left"]


# ------------------------------------------------------------------ 15.2.5

@pytest.mark.rule("15.2.5")
def test_15_2_5_no_desert_space_is_activated_for_combat_in_summer():
    """Summer 1915 (turn 6): Turkish corps in Gaza may be activated to move,
    not to attack; in spring they may attack."""
    pos = Position()
    at_war(pos, "tu")
    pos.place("TUc", "Gaza")
    pos.s["turn"] = 6
    refused(pos, "cp", 2, ["activate Gaza attack"], "15.2.5")
    operate(pos, "cp", 2, ["activate Gaza move"])
    pos.s["turn"] = 5
    pos.s["log"] = []
    operate(pos, "cp", 2, ["activate Gaza attack"])
    assert activation_costs(pos) == ["cp activates Gaza for attack: 1 OPS, 1 left"]
