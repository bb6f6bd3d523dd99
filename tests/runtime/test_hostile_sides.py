"""Hostile sides (`side x "X" hostile`): pieces of no player, enemies of every
side.  Tested on the toy game's `toy_uprising` variant
(docs/examples/toy/scenarios/toy-uprising.pog): a rising holds Aachen, the
German supply source, next to the Germans in Koblenz and the French in Sedan.

What the construct must do, as the toy's rules 6.1-6.3 say it (and as
Illusions of Glory's uprisings need, IoG 23.3): the piece's side controls its
space, nobody marches through it, supply is not traced through it, either
player may attack it and eliminate it, and its side is never asked a
decision: its choices' `default` decides.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pogdsl.compiler import scenario_graph
from pogdsl.runtime import builtins as B
from pogdsl.runtime.errors import GameError
from pogdsl.runtime.interpreter import Game
from pogdsl.runtime.world import build_world
from pogdsl.syntax import parser as P

REPO = Path(__file__).resolve().parents[2]
TOY = REPO / "docs" / "examples" / "toy"
VARIANT = "scenarios/toy-uprising.pog"


def build(root: Path, scenario: str = "toy_uprising"):
    comp, graph = scenario_graph(scenario, root=root)
    assert graph is not None, [d.message for d in comp.reporter.errors]
    return build_world(comp.scenarios[scenario][0], graph)


@pytest.fixture(scope="module")
def w():
    return build(TOY)


def edited_toy(tmp_path: Path, *pairs: tuple[str, str]) -> Path:
    """A copy of the toy project whose uprising variant has some text replaced."""
    root = tmp_path / "toy"
    shutil.copytree(TOY, root)
    source = root / VARIANT
    text = source.read_text(encoding="utf-8")
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    source.write_text(text, encoding="utf-8")
    return root


def side(w, key):
    return w.by_kind["side"][key]


def space(w, key):
    return w.by_kind["space"][key]


def unit(w, key):
    return w.names[key] if not hasattr(w.names[key], "members") else w.names[key].members[0]


def at(g, where: str) -> list[str]:
    return [u.key for u in B.units_in(g, None, space(g.w, where))]


def on_map(g, u) -> bool:
    return B.attribute_getter(g.w, "on_map")(g, u, None)


def control(g, where: str):
    c = g.s["control"][space(g.w, where).index]
    return c


def start(w, dice=()):
    """The game after its set-up, at the first decision (the Central Powers' attack:
    their march has a single option, stay, since Aachen is the rising's)."""
    g = Game.new(w, 1, dice=list(dice))
    return g, g.run()


# ------------------------------------------------------------------ syntax and world
def test_hostile_is_a_flag_of_a_side_and_default_a_clause_of_a_choice():
    module, diags = P.parse_text('side ap "Allies"\nside reb "Rebels" hostile cites 1.0\n'
                                 'choice hit(u: unit) "{u}" weight 2 default (if u.reduced then 1 else 0)\n', "x.pog")
    assert not diags
    sides = [d for d in module.decls if d.kind == "side"]
    assert [(d.key, d.hostile) for d in sides] == [("ap", False), ("reb", True)]
    choice = next(d for d in module.decls if d.kind == "choice")
    assert choice.weight is not None and choice.default is not None


def test_a_hostile_side_is_not_a_playing_side_but_has_its_boxes(w):
    assert [s.key for s in w.sides] == ["ap", "cp"]
    assert [s.key for s in w.hostile_sides] == ["rebels"]
    assert "eliminated[rebels]" in {b.key for b in w.boxes}


def test_enemy_vocabulary(w):
    g, _ = start(w)
    ap, cp, rebels = side(w, "ap"), side(w, "cp"), side(w, "rebels")
    f = B.FUNCTIONS
    assert f["other"](g, None, ap) is cp and f["other"](g, None, cp) is ap
    assert f["other"](g, None, rebels) is None  # a hostile side has no single other side
    assert f["enemies_of"](g, None, ap) == [cp, rebels]
    assert f["enemies_of"](g, None, rebels) == [ap, cp]
    assert f["enemy"](g, None, ap, cp) and f["enemy"](g, None, ap, rebels) and f["enemy"](g, None, rebels, cp)
    assert not f["enemy"](g, None, ap, ap) and not f["enemy"](g, None, ap, None)
    rising = unit(w, "Rising")
    assert f["enemy"](g, None, cp, rising) and f["enemy"](g, None, ap, w.by_kind["nation"]["rb"])
    assert [u.key for u in f["enemy_units_at"](g, None, space(w, "Aachen"), ap)] == ["Rising"]
    assert [u.key for u in f["enemy_units_at"](g, None, space(w, "Aachen"), cp)] == ["Rising"]
    assert f["enemy_units_at"](g, None, space(w, "Koblenz"), cp) == []
    assert B.CONSTANTS["sides"](g, {}) == [ap, cp] and B.CONSTANTS["hostile_sides"](g, {}) == [rebels]
    assert B.attribute_getter(w, "hostile")(g, rebels, None) is True
    assert B.attribute_getter(w, "hostile")(g, ap, None) is False


# ------------------------------------------------------------------ 6.1: control
@pytest.mark.rule("toy 6.1")
def test_the_rising_holds_its_space(w):
    g, _ = start(w)
    assert at(g, "Aachen") == ["Rising"]
    assert control(g, "Aachen") == "rebels"


# ------------------------------------------------------------------ 6.2: marching
@pytest.mark.rule("toy 6.2")
def test_nobody_marches_into_the_risings_space(w):
    g, d = start(w, dice=[1])
    # The Germans' only neighbour is Aachen: their march had one option (stay),
    # taken without asking; the first question is their attack.
    assert (d.by, d.choice) == ("cp", "attack_target")
    d = g.choose("no attack")
    assert (d.by, d.choice) == ("ap", "march_to")
    assert "march FRc to Aachen" not in d.options and "march FRc to Amiens" in d.options


@pytest.mark.rule("toy 6.2")
def test_a_space_left_empty_by_the_rising_stays_its_own_until_entered(w):
    g, d = start(w, dice=[6])
    d = g.choose("attack Aachen")  # strength 6, die 6: four losses, the rising is gone
    assert at(g, "Aachen") == [] and control(g, "Aachen") == "rebels"
    assert (d.by, d.choice) == ("ap", "march_to") and "march FRc to Aachen" in d.options
    g.choose("march FRc to Aachen")
    assert control(g, "Aachen") == "ap"


# ------------------------------------------------------------------ 6.3: supply
@pytest.mark.rule("toy 6.3")
def test_supply_is_not_traced_through_the_risings_space(w):
    g, _ = start(w)
    assert not B.value_of(g, "in_supply", (unit(w, "GE 1"),))  # Aachen, the only German source, is held
    assert B.value_of(g, "in_supply", (unit(w, "FR 1"),))


@pytest.mark.rule("toy 6.3")
def test_supply_comes_back_when_the_space_is_retaken(w):
    g, d = start(w, dice=[6])
    d = g.choose("attack Aachen")
    d = g.choose("stay")  # the French stay
    d = g.choose("no attack")
    assert (d.by, d.choice) == ("cp", "march_to")
    g.choose("march GEc to Aachen")
    assert control(g, "Aachen") == "cp"
    assert B.value_of(g, "in_supply", (unit(w, "GE 1"),))


# ------------------------------------------------------------------ 6.1: combat, never asked
@pytest.mark.rule("toy 6.1")
def test_either_player_may_attack_the_rising(w):
    g, d = start(w, dice=[1])
    assert "attack Aachen" in d.options  # the Germans, from Koblenz
    d = g.choose("no attack")
    d = g.choose("stay")
    assert (d.by, d.choice) == ("ap", "attack_target")
    assert "attack Aachen" in d.options  # the French, from Sedan


@pytest.mark.rule("toy 6.1")
def test_the_rising_is_eliminated_by_its_losses_without_being_asked(w):
    g, d = start(w, dice=[6])
    g.log_enabled = True
    d = g.choose("attack Aachen")
    rising = unit(w, "Rising")
    assert not on_map(g, rising)
    assert d.by == "ap"  # the next question is the French march: the rebels were never asked
    assert any("no player: the rules' default" in e["text"] if isinstance(e, dict) else
               "no player: the rules' default" in str(e) for e in g.s["log"])


@pytest.mark.rule("toy 6.1")
@pytest.mark.parametrize("seed", range(6))
def test_random_games_never_ask_the_hostile_side(w, seed):
    import random

    pick = random.Random(seed)
    g = Game.new(w, seed)
    d = g.run()
    count = 0
    while d is not None:
        assert d.by in ("ap", "cp")
        d = g.choose(pick.randrange(len(d.options)) + 1)
        count += 1
    assert count > 0 and g.over


@pytest.mark.rule("toy 6.1")
def test_the_default_score_decides_for_the_hostile_side(tmp_path):
    """Two risings, one reduced: one loss. The choice's default prefers a
    reduced unit, so the reduced one is eliminated and the full one untouched
    (listing order alone would have reduced the full one, placed first)."""
    root = edited_toy(tmp_path, ("corps Rising 1-1-0", "corps Rising 2-1-0 / 1-1-0 count 2"),
                      ("place Rising at Aachen", "place Rising at Aachen\n    place Rising at Aachen with reduced"))
    w = build(root)
    g, d = start(w, dice=[1])  # strength 6, die 1: one loss
    first, second = w.names["Rising"].members
    assert at(g, "Aachen") == ["Rising", "Rising"] and g.s["reduced"][second.index]
    g.choose("attack Aachen")
    assert g.s["loc"][first.index] == w.location(space(w, "Aachen")) and not g.s["reduced"][first.index]
    assert not on_map(g, second)


def test_without_a_default_the_first_option_listed_is_taken(tmp_path):
    root = edited_toy(tmp_path, ("corps Rising 1-1-0", "corps Rising 2-1-0 / 1-1-0 count 2"),
                      ("place Rising at Aachen", "place Rising at Aachen\n    place Rising at Aachen with reduced"),
                      (' default (if u.reduced then 1 else 0)', ''))
    w = build(root)
    g, d = start(w, dice=[1])
    first, second = w.names["Rising"].members
    g.choose("attack Aachen")
    assert g.s["reduced"][first.index] and g.s["loc"][second.index] == w.location(space(w, "Aachen"))


# ------------------------------------------------------------------ victory
@pytest.mark.rule("toy 3.1")
def test_a_hostile_side_taking_a_capital_scores_nothing(w):
    """The toy's capital trigger scores for the players only (`winner in sides`)."""
    g, _ = start(w)
    depth = len(g.s["stack"])
    g.set_control(space(w, "Koblenz"), side(w, "rebels"), ())
    assert len(g.s["stack"]) == depth  # no trigger woke
    g.set_control(space(w, "Koblenz"), side(w, "ap"), ())
    assert g.s["stack"][-1]["code"] == "trigger:capital_falls"
    assert g.s["stack"][-1]["l"]["winner"] is side(w, "ap")


def test_control_changed_tells_the_former_controller(tmp_path):
    root = edited_toy(tmp_path, ("  setup uprising cites 6.1 {", '''  add var lost_by of side start none cites 6.1
  add trigger note_loss on control_changed(s, by, was) cites 6.1 {
    set lost_by to was
  }
  setup uprising cites 6.1 {'''))
    w = build(root)
    g, d = start(w, dice=[6])
    assert g.s["vars"]["lost_by"].key == "cp"  # the set-up gave the rising Aachen, which was German
    d = g.choose("attack Aachen")
    g.choose("march FRc to Aachen")
    assert g.s["vars"]["lost_by"].key == "rebels"


# ------------------------------------------------------------------ placement
def test_a_unit_placed_in_the_risings_space_is_an_error(tmp_path):
    root = edited_toy(tmp_path, ("    set Aachen.control to rebels\n", "    set Aachen.control to rebels\n"
                                 "    place 'BR 1' at Aachen\n"))
    w = build(root)
    with pytest.raises(GameError, match="a hostile side's units share a space with no other side's"):
        Game.new(w, 1).run()


def test_a_rising_placed_among_other_units_is_an_error(tmp_path):
    root = edited_toy(tmp_path, ("    place Rising at Aachen\n", "    place Rising at Sedan\n"))
    w = build(root)
    with pytest.raises(GameError, match="Rising cannot enter Sedan: it holds FRc"):
        Game.new(w, 1).run()


# ------------------------------------------------------------------ checker
def _check(tmp_path, text: str):
    from pogdsl.compiler import compile_paths

    root = tmp_path / "toy"
    shutil.copytree(TOY, root)
    (root / "scenarios" / "extra.pog").write_text(text, encoding="utf-8")
    comp = compile_paths(None, root=root)
    return [(d.code, d.message) for d in comp.reporter.items]


def test_a_port_or_supply_source_of_a_hostile_side_is_an_error(tmp_path):
    found = _check(tmp_path, '''side raiders "Raiders" hostile cites 6.1
spaces nation fr map front cites 2.1 {
  space Lille clear control ap supply raiders port raiders at 10 10
}
connections cites 2.1 {
  Lille -- Amiens
}
''')
    assert [c for c, _ in found] == ["E0561", "E0561"], found
    assert "port of the hostile side 'raiders'" in found[0][1] + found[1][1]
    assert "supply source of the hostile side 'raiders'" in found[0][1] + found[1][1]


def test_a_default_must_be_a_number(tmp_path):
    found = _check(tmp_path, 'choice pick(s: space) "{s}" default s.vp cites 6.1\n')
    assert found == [("E0301", "this is a bool, but an int is wanted here")], found


@pytest.mark.rule("toy 6.1")
def test_an_effect_places_a_rising_in_an_empty_space_of_a_nation(tmp_path):
    """The pattern docs/variants.rst shows for IoG's uprisings: an enemy player
    picks an empty space of a nation, the rising is placed there and takes it
    (the set-up's rising is lifted first: one piece, used again)."""
    root = edited_toy(tmp_path, ("  setup uprising cites 6.1 {", '''  add choice uprising_space(s: space) "a rising in {s}" cites 6.1
  add procedure place_uprising(player: side, n: nation) cites 6.1 {
    choose uprising_space(s) by player
      for s in spaces where s.nation == n and len(units_in(s)) == 0
    place Rising at s
    set s.control to rebels
  }
  add trigger rising_in_france on turn_started(t) when t == 2 cites 6.1 {
    call place_uprising(cp, fr)
  }
  setup uprising cites 6.1 {'''))
    w = build(root)
    g = Game.new(w, 3)
    d = g.run()
    while g.s["turn"] < 2:  # nobody marches or attacks in turn 1
        assert d.options[-1] in ("stay", "no attack")
        d = g.choose(len(d.options))
    # Amiens is the only empty French space (Paris and Sedan are held): the
    # Central Powers' choice has that one option, taken without asking.
    assert at(g, "Amiens") == ["Rising"] and control(g, "Amiens") == "rebels"
    assert at(g, "Aachen") == [] and control(g, "Aachen") == "rebels"
    assert d.by in ("ap", "cp")
