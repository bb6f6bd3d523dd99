"""Suicide of Europe, combat and losses (SoE 12.1-12.4, 12.5.8, 12.6.11).

Each test sets up the same position in the Campaign (Paths of Glory Deluxe)
and in `suicide_of_europe`, and checks Deluxe's result in the one and SoE's
in the other, as the two rulebooks state them."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.harness import Position  # noqa: E402
from rules.test_combat import activate_attack, control, where  # noqa: E402

SOE = "suicide_of_europe"
BOTH = ["campaign", SOE]


def play(pos: Position, procedure: str, *args, answers=(), dice=()) -> None:
    """Run a procedure as Position.run does, but a decision the next answer
    does not fit takes its last option (the "no more" / "stop" of optional
    choices, or the only one), so a test names only the answers it is about."""
    g = pos.game
    code = pos.w.codes[f"procedure:{procedure}"]
    values = [pos._value(a) if isinstance(a, str) else a for a in args]
    pos.s["stack"] = [{"code": f"procedure:{procedure}", "pc": 0, "l": dict(zip(code.params, values))}]
    pos.s["dice"] = list(dice)
    pos.s["result"] = None
    g.invalidate()
    answers = list(answers)
    d = g.run()
    while d is not None:
        pos.asked.append(d)
        if answers and any(o == answers[0] or o.startswith(answers[0]) for o in d.options):
            d = g.choose(answers.pop(0))
        else:
            d = g.choose(len(d.options))
    assert not answers, f"answers never asked for: {answers}"


def options(pos: Position, choice: str) -> list[list[str]]:
    return [d.options for d in pos.asked if d.choice == choice]


def offered(pos: Position, choice: str) -> bool:
    return any(d.choice == choice for d in pos.asked)


def destroyed(pos: Position, space: str) -> bool:
    return pos.s["fort_destroyed"][pos.entity("space", space).index]


# ------------------------------------------------------------------ 12.3.1 / 12.3.2: flank attacks
def two_corps_on_tannenberg(scenario: str) -> Position:
    """Two German corps, one in Insterberg and one in Konigsberg, attack a
    Russian corps in Tannenberg (forest, no trench): no German army."""
    pos = Position(scenario)
    pos.place("GEc", "Insterberg")
    pos.place("GEc", "Konigsberg")
    pos.ruc = pos.place("RUc", "Tannenberg")
    pos.control("Tannenberg", "ap")
    activate_attack(pos, "Insterberg", "Konigsberg")
    return pos


@pytest.mark.rule("soe 12.3.1")
@pytest.mark.rule("12.3.1")
@pytest.mark.parametrize("scenario", BOTH)
def test_flank_attack_without_an_army(scenario):
    """Deluxe 12.3.1 asks for an attacking army; SoE 12.3.1 only for supplied
    units attacking from two or more spaces.  In SoE the corps pin from
    Insterberg, the roll of 3 gets +1 (Konigsberg touches no other Russian)
    and the flank succeeds: the Germans fire first."""
    pos = two_corps_on_tannenberg(scenario)
    answers = ["attack Tannenberg from Insterberg", "from Konigsberg: GEc"]
    if scenario == SOE:
        answers.append("flank attack, pinning from Insterberg")
    play(pos, "resolve_attacks", "cp", answers=answers, dice=[3, 6, 1])
    log = pos.log()
    if scenario == "campaign":
        assert not offered(pos, "flank_attack")
        assert not any("flank attack" in line for line in log)
    else:
        assert options(pos, "flank_attack") == [["flank attack, pinning from Insterberg",
                                                "flank attack, pinning from Konigsberg",
                                                "no flank attack"]]
        assert "flank attack succeeds: 3 + 1" in log
        # The Germans fired first: their corps table roll of 6 came before the Russians'.
        assert log.index("flank attack succeeds: 3 + 1") < next(i for i, line in enumerate(log) if line.startswith("cp fires"))
        assert next(i for i, line in enumerate(log) if line.startswith("cp fires")) < next(i for i, line in enumerate(log) if line.startswith("ap fires"))


@pytest.mark.rule("soe 12.3.1")
@pytest.mark.rule("soe 12.3.2")
@pytest.mark.rule("12.3.1")
@pytest.mark.rule("12.3.2")
@pytest.mark.parametrize("scenario", BOTH)
def test_flank_counts_only_supplied_attacking_spaces(scenario):
    """SoE 12.3.1 and 12.3.2: an attacking space whose units are out of supply
    when the combat starts neither makes a flank attack possible nor pins
    nor adds +1.  A French army in Verdun and a French corps in Strasbourg
    attack a German corps in Metz; once the Attack markers are down,
    Strasbourg is cut off (Mulhouse and Nancy pass to the Central Powers).
    Deluxe 12.3.1/12.3.2 count Strasbourg anyway: pinning from Verdun, a 3
    rolls 3 + 1 and succeeds; in SoE a single supplied space is left: no
    flank attack."""
    pos = Position(scenario)
    pos.place("FR 3", "Verdun")
    pos.place("FRc", "Strasbourg")
    pos.place("GEc", "Metz")
    pos.control("Strasbourg", "ap")
    pos.control("Mulhouse", "cp")
    activate_attack(pos, "Verdun", "Strasbourg")
    pos.control("Nancy", "cp")
    answers = ["attack Metz from Verdun", "from Strasbourg: FRc"]
    if scenario == "campaign":
        answers.append("flank attack, pinning from Verdun")
    play(pos, "resolve_attacks", "ap", answers=answers, dice=[3, 1, 1])
    if scenario == "campaign":
        assert "flank attack succeeds: 3 + 1" in pos.log()
    else:
        assert not offered(pos, "flank_attack")
        assert not any("flank attack" in line for line in pos.log())
