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
