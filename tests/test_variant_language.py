"""Golden tests for the variant language of issue 23: `edit`, named set-up
blocks, rule sets (`ruleset` / `uses`), overrides under an option, added
board pieces and extended enumerations.

Each case is a small file under ``tests/fixtures/variants/`` checked together
with the mini project of ``tests/diagnostics/project`` (as a designer's
variant is checked together with the library).  A case either checks clean and
its scenario's program is asserted, or reports exactly the diagnostics written
out below (severity, code, line, column, message), each with a hint or a note.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pogdsl.compiler import compile_paths, compile_scenario_program
from pogdsl.diagnostics import CODES

HERE = Path(__file__).resolve().parent
PROJECT = HERE / "diagnostics" / "project"
CASES = HERE / "fixtures" / "variants"

E, W = "error", "warning"


def compile_case(name: str, monkeypatch):
    monkeypatch.chdir(HERE / "diagnostics")
    return compile_paths([Path("../fixtures/variants") / f"{name}.pog"], root=Path("project"))


def diagnostics(comp):
    return [("error" if d.is_error else "warning", d.code, d.span.line, d.span.col, d.message)
            for d in comp.reporter.sorted()]


def program(comp, scenario: str):
    return compile_scenario_program(comp, comp.base.get("scenario", scenario))


def assert_golden(comp, expected):
    assert diagnostics(comp) == expected
    for d in comp.reporter.sorted():
        assert d.code in CODES
        assert d.hint or d.notes, f"{d.code} {d.message}: a misuse says how to fix it"


# ==================================================================== edit
def test_edit_changes_one_attribute_and_keeps_the_rest(monkeypatch):
    comp = compile_case("edit_ok", monkeypatch)
    assert diagnostics(comp) == []
    p = program(comp, "edited")
    base = comp.base
    sedan, aachen, metz = (p.decls["space"][k] for k in ("Sedan", "Aachen", "Metz"))
    assert (sedan.vp, sedan.fort, sedan.terrain.text) == (False, 1, "forest")
    assert (aachen.vp, aachen.control.text) == (True, "cp")
    assert (metz.terrain.text, metz.fort) == ("clear", 2)
    assert p.decls["space"]["Verdun"].fort == 0 and p.decls["space"]["Verdun"].vp
    assert p.decls["space"]["Liege"].fort == 0
    paris = p.decls["space"]["Paris"]
    assert paris.ports == [] and paris.capital and paris.supply and paris.fort == 3
    ge1 = p.decls["unit"]["GE 1"]
    assert ge1.full == (6, 3, 3) and ge1.reduced == (3, 3, 3)
    assert p.decls["unit"]["BE 1"].never_replaced is False
    card = p.decls["card"]["cp 1"]
    assert (card.ops, card.sr, card.removed, [n.text for n in card.reinforcements]) == (4, 4, False, ["GE 2"])
    # The library itself is untouched: other scenarios play it as declared.
    assert base.decls["space"]["Sedan"].vp and base.decls["card"]["cp 1"].ops == 3
    assert program(comp, "mini").decls["space"]["Sedan"].vp


def test_edit_cites_count_for_the_scenario(monkeypatch):
    from pogdsl.semantics.citations import collect_citations

    comp = compile_case("edit_ok", monkeypatch)
    cited = collect_citations(program(comp, "edited"))
    assert [s.line for s in cited["3.1"]][:2] == [3, 4]


def test_edit_mistakes(monkeypatch):
    comp = compile_case("edit_mistakes", monkeypatch)
    assert_golden(comp, [
        (E, "E0501", 3, 14, "`edit` names space 'Sedna', which does not exist"),
        (E, "E0511", 4, 20, "unknown attribute 'colour' of a space"),
        (E, "E0511", 5, 20, "a space has no attribute 'ops' (it is one of a card's)"),
        (W, "W0516", 6, 3, "this edit changes nothing: space 'Verdun' already has vp"),
        (E, "E0512", 7, 24, "space 'Verdun': vp is edited twice here"),
        (E, "E0511", 8, 24, "`fort` takes one number"),
        (E, "E0214", 9, 27, "'swamp' is not a member of enum 'terrain'"),
        (E, "E0511", 10, 8, "`edit` changes a space, a unit, a card or a term, not a 'box'"),
        (E, "E0511", 11, 21, "a card's ops cannot be turned off with `no`"),
        (E, "E0501", 12, 13, "`edit` names unit 'GE 9', which does not exist"),
        (E, "E0511", 13, 23, "`no port` takes the side whose port it is"),
    ])
    hints = {d.message: d.hint for d in comp.reporter.sorted()}
    assert hints["`edit` names space 'Sedna', which does not exist"] == "did you mean 'Sedan'?"


# ==================================================================== named set-up blocks
def start(program):
    """A game of `program` run through its set-up: the spaces its units stand in."""
    from pogdsl.graph.build import build_graph
    from pogdsl.runtime.interpreter import Game
    from pogdsl.runtime.world import build_world

    w = build_world(program, build_graph(program))
    game = Game.new(w, seed=1)
    game.run()
    spaces = {e.index: name for name, e in w.by_kind["space"].items()}
    return game, {str(u.key): spaces.get(loc) for u, loc in zip(w.units, game.s["loc"]) if loc is not None}


def test_named_setup_blocks_replaced_removed_and_added_in_order(monkeypatch):
    comp = compile_case("setup_ok", monkeypatch)
    assert diagnostics(comp) == []
    parent = program(comp, "staged").scenario
    assert [b.name.text if b.name else None for b in parent.setup_blocks] == ["armies", "belgians", None]
    child = program(comp, "staged_again").scenario
    assert [b.name.text if b.name else None for b in child.setup_blocks] == ["armies", None, "reserves"]
    placed = [[s.span.line for s in b.body] for b in child.setup]
    assert placed == [[16, 17], [11], [20]]  # the replacement, the parent's unnamed block, the child's own
    assert [c.number for c in child.setup_cites] == ["7.1", "3.2", "7.1"]


def test_named_setup_blocks_mistakes(monkeypatch):
    comp = compile_case("setup_mistakes", monkeypatch)
    assert_golden(comp, [
        (E, "E0501", 10, 17, "`replace setup` names set-up block 'armys', which does not exist"),
        (E, "E0501", 11, 16, "`remove setup` names set-up block 'belgians', which does not exist"),
        (E, "E0502", 12, 9, "set-up block 'armies' already exists"),
        (E, "E0204", 13, 42, "unknown unit 'FR 3'"),  # a replacing block is checked against what the variant plays
    ])


def test_named_setup_blocks_play_as_merged(monkeypatch):
    comp = compile_case("setup_ok", monkeypatch)
    _, parent = start(program(comp, "staged"))
    assert parent == {"FR 1": "Paris", "GE 1": "Aachen", "BE 1": "Liege"}
    _, child = start(program(comp, "staged_again"))
    assert child == {"FR 2": "Verdun", "GE 1": "Metz", "GE 2": "Aachen"}


# ==================================================================== rule sets
def test_one_rule_set_applies_to_two_scenarios(monkeypatch):
    comp = compile_case("ruleset_ok", monkeypatch)
    assert diagnostics(comp) == []
    harsh = comp.base.get("ruleset", "harsh")
    for name in ("mini_harsh", "variant_harsh"):
        p = program(comp, name)
        assert p.decls["table"]["fire"] is harsh.overrides[0].decl  # the rule set's table, not a copy
        assert "harsh_rules" in p.decls["state"]
        assert [b.name.text if b.name else None for b in p.scenario.setup_blocks][-1] == "harsh_trenches"
        assert "4.2.1" in [c.number for c in p.scenario.cites]
    # The rule set comes before the scenario's own items: a scenario may set its own default.
    options = {n: {o.name.text: o.default for o in program(comp, n).scenario.options}
               for n in ("mini_harsh", "variant_harsh")}
    assert options["mini_harsh"]["harshness"] == 1 and options["variant_harsh"]["harshness"] == 3
    # What does not use it is untouched.
    assert "harsh_rules" not in program(comp, "mini").decls["state"]
    assert "harshness" not in {o.name.text for o in program(comp, "mini").scenario.options}
    _, where = start(program(comp, "mini_harsh"))
    assert where == {"FR 1": "Paris", "GE 1": "Aachen", "BE 1": "Liege"}


def test_rule_set_mistakes(monkeypatch):
    comp = compile_case("ruleset_mistakes", monkeypatch)
    assert_golden(comp, [
        (W, "W0515", 2, 9, "rule set 'harsh' is used by no scenario, so it is not checked"),
        (E, "E0503", 7, 8, "rule set 'loop' uses itself"),
        (E, "E0513", 11, 8, "unknown rule set 'harch'"),
    ])


# ==================================================================== when option
def test_when_option_changes_apply_only_with_the_option_on(monkeypatch):
    from pogdsl.compiler import program_with_options

    comp = compile_case("when_ok", monkeypatch)
    assert diagnostics(comp) == []
    scenario = comp.base.get("scenario", "mini_when")
    off = program(comp, "mini_when")
    assert program_with_options(comp, scenario, {"harsh_fire": False}) is off
    on = program_with_options(comp, scenario, {"harsh_fire": True})
    assert off.decls["space"]["Sedan"].vp and not on.decls["space"]["Sedan"].vp
    assert "harsh_rules" not in off.decls["state"] and "harsh_rules" in on.decls["state"]
    assert [r.key.label() for r in on.decls["table"]["fire"].rows] == ["1..2", "3+"]
    assert start(off)[1] == {"FR 1": "Paris", "GE 1": "Aachen", "BE 1": "Liege"}
    assert start(on)[1] == {"FR 1": "Paris", "GE 1": "Aachen", "BE 1": "Liege", "GE 2": "Metz"}


def test_when_option_is_decided_where_games_are_opened(monkeypatch):
    """`play`, `simulate` and `replay` open a game through open_scenario: the
    option set there decides the `when option` block."""
    from pogdsl.opening import open_scenario

    monkeypatch.chdir(HERE / "diagnostics")
    spec = "../fixtures/variants/when_ok.pog"
    off = open_scenario(spec, Path("project"), cache=False)
    on = open_scenario(spec, Path("project"), cache=False, options={"harsh_fire": "on"})
    assert off.world.options["harsh_fire"] is False and on.world.options["harsh_fire"] is True
    assert "harsh_rules" not in off.world.program.decls["state"]
    assert "harsh_rules" in on.world.program.decls["state"]


def test_when_option_mistakes_in_either_game(monkeypatch):
    comp = compile_case("when_mistakes", monkeypatch)
    assert_golden(comp, [
        (E, "E0504", 5, 15, "unknown option 'harsh': scenario 'mini_when_badly' declares no such option"),
        (E, "E0514", 6, 15, "`when option level`: 'level' is not an on/off option"),
        (E, "E0514", 7, 15, "only changes and set-up blocks can depend on an option"),
        # found only in the game with the option on, and said so
        (E, "E0214", 11, 29, "'swamp' is not a member of enum 'terrain'"),
        (E, "E0501", 12, 16, "`edit` names space 'Sedna', which does not exist"),
    ])
    on = [d for d in comp.reporter.sorted() if d.span.line in (11, 12)]
    assert all("with option harsh_fire on" in n[0] for d in on for n in d.notes)


# ==================================================================== a bigger board
def test_a_variant_adds_nations_spaces_connections_boxes_and_units(monkeypatch):
    comp = compile_case("board_ok", monkeypatch)
    assert diagnostics(comp) == []
    p = program(comp, "bigger")
    assert p.decls["nation"]["lu"].minor and "east" in p.decls["map"] and "eliminated" in p.decls["box"]
    assert p.decls["space"]["Luxembourg"].nation.text == "lu"  # from its `spaces nation lu` group
    assert p.decls["unit"]["LUc"].count == 2 and p.decls["unit"]["GE 9"].nation.text == "ge"
    game, where = start(p)
    assert where["LUc"] == "Luxembourg" and where["GE 9"] == "Breslau"
    w = game.w
    space = w.by_kind["space"]
    names = {e.index: n for n, e in space.items()}

    def neighbours(name):
        return sorted(names[b] for b, _ in w.adjacency[space[name].index])

    assert neighbours("Luxembourg") == ["Metz", "Sedan"]
    assert neighbours("Metz") == ["Breslau", "Luxembourg", "Verdun"]
    assert "Brussels" not in neighbours("Paris")  # the dotted line taken away
    breslau = space["Breslau"].data
    assert breslau.supply and breslau.supply_for.key == "cp" and breslau.map.key == "east"
    assert space["Luxembourg"].data.nation.key == "lu" and space["Luxembourg"].data.vp
    # The library is untouched.
    assert "Luxembourg" not in comp.base.decls["space"]
    assert any({c.a.text, c.b.text} == {"Paris", "Brussels"} for c in comp.base.connections)


def test_board_change_mistakes(monkeypatch):
    comp = compile_case("board_mistakes", monkeypatch)
    assert_golden(comp, [
        (W, "W0706", 3, 13, "space 'Island' has no connections: no unit can enter or leave it"),
        (E, "E0502", 5, 5, "`add` connects 'Paris' and 'Sedan', which are connected already"),
        (E, "E0203", 6, 14, "unknown space 'Atlantis'"),
        (E, "E0501", 8, 3, "`remove connection` names 'Paris -- Liege', but they are not connected"),
        (E, "E0501", 9, 3, "`remove connection` names 'Paris -- Brussels', but they are connected by a dotted (~~) "
                           "line"),
        (E, "E0202", 10, 20, "unknown nation 'lu'"),
    ])


# ==================================================================== extended enumerations
def test_an_extended_enum_is_used_by_the_variant(monkeypatch):
    from pogdsl.runtime import builtins as B

    comp = compile_case("enum_ok", monkeypatch)
    assert diagnostics(comp) == []
    p = program(comp, "marshy")
    assert [m.text for m in p.decls["enum"]["terrain"].members] == ["clear", "mountain", "forest", "swamp", "marsh"]
    assert [m.text for m in comp.base.decls["enum"]["terrain"].members] == ["clear", "mountain", "forest"]
    game, _ = start(p)
    w = game.w
    assert set(w.by_kind["terrain"]) == {"clear", "mountain", "forest", "swamp", "marsh"}
    space = w.by_kind["space"]
    assert [B.value_of(game, "boggy", (space[n],)) for n in ("Pripet", "Metz", "Paris")] == [True, True, False]


def test_extend_enum_mistakes(monkeypatch):
    comp = compile_case("enum_mistakes", monkeypatch)
    assert_golden(comp, [
        (E, "E0501", 3, 15, "`extend enum` names enum 'terain', which does not exist"),
        (E, "E0502", 4, 35, "enum member 'forest' already exists (in enum 'terrain')"),
        (E, "E0502", 4, 43, "enum member 'army' already exists (in enum 'unit_type')"),
        (W, "W0706", 5, 13, "space 'Pripet' has no connections: no unit can enter or leave it"),
        (E, "E0214", 5, 20, "'swamp' is not a member of enum 'terrain'"),
    ])


# ==================================================================== on the real library
ROOT = HERE.parent


def test_the_campaign_vp_changes_are_edits_of_the_map():
    """The Campaign's ten VP differences from the Deluxe map (listed in 5.7.2,
    which the Historical scenario undoes) are `edit` lines: the spaces are
    otherwise exactly as the map declares them."""
    comp = compile_paths(None, root=ROOT)
    p = program(comp, "campaign")
    base = comp.base.decls["space"]
    on = ["Ahwaz", "Venice", "Minsk", "Jerusalem", "Kharput"]
    off = ["Kovno", "Sedan", "Amiens", "Koblenz", "Aachen"]
    assert [p.decls["space"][n].vp for n in on + off] == [True] * 5 + [False] * 5
    assert [base[n].vp for n in on + off] == [False] * 5 + [True] * 5
    for n in on + off:
        mine, theirs = p.decls["space"][n], base[n]
        assert (mine.terrain.text, mine.fort, mine.control.text, mine.at, mine.cites) == \
            (theirs.terrain.text, theirs.fort, theirs.control.text, theirs.at, theirs.cites)
    edits = [o for o in comp.base.get("scenario", "campaign").overrides if o.action == "edit"]
    assert len(edits) == 10 and all([c.number for c in o.cites] == ["5.5"] for o in edits)


def test_a_shared_card_name_cannot_be_edited():
    comp = compile_paths([CASES / "twin_card.pog"], root=ROOT)
    errors = [(d.code, d.span.line, d.message) for d in comp.reporter.sorted() if d.is_error]
    assert errors == [("E0223", 3, "'Withdrawal' is the name of 2 cards (AP 6 and CP 56): it cannot say which one")]
    assert not program(comp, "twin").decls["card"]["ap 6"].combat


def test_a_rule_set_applied_on_the_command_line_and_kept_in_a_save(tmp_path):
    """SCENARIO may be NAME+RULESET (play, simulate, replay, rules …): the
    scenario with the rule set applied as `uses` would, without a file; a
    save records that spec and loads the same game."""
    from pogdsl.agents import RandomAgent
    from pogdsl.errors import UsageError
    from pogdsl.opening import open_scenario
    from pogdsl.runtime.record import Session, load_save, write_save

    options = {"bid_side": "ap", "vp_bid": "2"}
    composed = open_scenario("campaign+tournament_bid", ROOT, cache=False, options=options)
    written = open_scenario("campaign_tournament", ROOT, cache=False, options=options)
    assert composed.world.options == written.world.options and composed.world.options["vp_bid"] == 2
    assert set(composed.world.program.decls["modifier"]) == set(written.world.program.decls["modifier"])
    assert "vp_bid_counted" in composed.world.program.decls["modifier"]
    session = Session.new(composed, 5, [])
    agent = RandomAgent(5)
    for _ in range(30):
        session.choose(agent.pick(session.decision.options) + 1)
    path = tmp_path / "tournament.json"
    write_save(session, path)
    loaded = load_save(path, ROOT)
    assert loaded.game.state_hash() == session.game.state_hash()
    assert loaded.opened.world.options["bid_side"] == "ap"
    with pytest.raises(UsageError, match="unknown rule set 'tournament_bd'.*did you mean 'tournament_bid'"):
        open_scenario("campaign+tournament_bd", ROOT, cache=False)
