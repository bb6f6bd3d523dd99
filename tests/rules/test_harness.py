from .harness import Position


def test_an_empty_position_places_units_and_runs_a_procedure():
    pos = Position()
    piece = pos.place("GE 1", "Liege")
    pos.control("Liege", "cp")
    assert pos.units_at("Liege") == ["GE 1"]
    assert not pos.reduced(piece.index)
    pos.set("war_status", 3, key="cp")
    pos.run("raise_war_commitment", "cp")
    assert pos.var("commitment", "cp") == "mobilization_level"
    pos.set("war_status", 4, key="cp")
    pos.run("raise_war_commitment", "cp")
    assert pos.var("commitment", "cp") == "limited_war_level"
    assert pos.var("reshuffle_due", "cp") is True


def test_every_spelling_of_a_scenario_the_cli_takes():
    """Issue 35: `Position("suicide-of-europe")` raised a KeyError while the
    CLI takes that spelling; the harness opens scenarios as the CLI does."""
    from .harness import world

    assert world("suicide-of-europe") is world("suicide_of_europe")
    assert world("suicide-of-europe").scenario.key == "suicide_of_europe"
    pos = Position("suicide-of-europe")
    assert pos.w.scenario.key == "suicide_of_europe"


def test_an_unknown_scenario_is_one_clear_error():
    import pytest

    from pogdsl.errors import UsageError

    with pytest.raises(UsageError, match="unknown scenario 'no_such'"):
        Position("no-such")


def test_answers_never_asked_for_are_refused():
    """As a script's replay refuses a decision line it never used."""
    import pytest

    pos = Position()
    pos.set("war_status", 3, key="cp")
    with pytest.raises(AssertionError, match=r"answers left over, never asked for: \['activate Liege attack'\]"):
        pos.run("raise_war_commitment", "cp", answers=["activate Liege attack"])


def test_a_scenario_named_by_its_file():
    from .harness import ROOT, world

    assert world(str(ROOT / "scenarios" / "introductory.pog")).scenario.key == "introductory"
