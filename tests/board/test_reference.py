"""The board sources against the reference data and the rulebook.

Every map space, connection and unit counter written in rules/ must equal the
reference CSVs exactly; the tables must hold the printed values; the Campaign
set-up must place every starting unit where the rulebook's "Unit Set Up"
chart puts it, and nothing else.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pogdsl.syntax import ast as A

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------- helpers

RESERVE = "reserve"


def _name(expr: A.Expr | None) -> str | None:
    return expr.name.text if isinstance(expr, A.Ref) else None


def _location(expr: A.Expr | None) -> str | tuple[str, str] | None:
    """A space name, or ("reserve", side) for `reserve[side]`."""
    if isinstance(expr, A.Ref):
        return expr.name.text
    if isinstance(expr, A.Index) and isinstance(expr.obj, A.Ref) and len(expr.args) == 1:
        return (expr.obj.name.text, _name(expr.args[0]))
    return None


def _statements(block: A.Block):
    """Every statement of a block, nested blocks included, in order."""
    for stmt in block.body:
        yield stmt
        if isinstance(stmt, (A.For, A.Repeat, A.While, A.Segment)):
            yield from _statements(stmt.body)
        elif isinstance(stmt, A.If):
            for _, b in stmt.branches:
                yield from _statements(b)
            if stmt.otherwise:
                yield from _statements(stmt.otherwise)


def _placements(block: A.Block) -> list[tuple[str, object, bool]]:
    """(unit, location, reduced) for each `place` in a block."""
    out = []
    for stmt in _statements(block):
        if isinstance(stmt, A.Effect) and stmt.verb == "place":
            unit = _name(stmt.obj)
            where = _location(stmt.arg("at"))
            reduced = _name(stmt.arg("with")) == "reduced"
            assert unit and where, f"{stmt.span}: place needs a unit and a location"
            out.append((unit, where, reduced))
    return out


def _trenches(block: A.Block) -> dict[str, int]:
    """`set trench[S] to N` statements of a block."""
    out = {}
    for stmt in _statements(block):
        if isinstance(stmt, A.Effect) and stmt.verb == "set":
            target = _location(stmt.obj)
            if isinstance(target, tuple) and target[0] == "trench":
                level = stmt.arg("to")
                assert isinstance(level, A.IntLit), f"{stmt.span}: trench level must be a number"
                out[target[1]] = level.value
    return out


def _campaign(board) -> A.ScenarioDecl:
    scenarios = board.scenarios
    assert "campaign" in scenarios, "scenario campaign not declared"
    return scenarios["campaign"]


def _campaign_setup(board) -> A.Block:
    sc = _campaign(board)
    # The forces of 4.2.1 are one named block (the hands of 4.3 are another).
    forces = [b.block for b in sc.setup_blocks if b.name is not None and b.name.text == "opening_forces"]
    assert len(forces) == 1, "the Campaign needs exactly one `setup opening_forces` block"
    return forces[0]


def _cell(c) -> object:
    return c.text if isinstance(c, A.Name) else c


def _table(board, name: str) -> A.TableDecl:
    assert name in board.tables, f"table {name} not declared"
    return board.tables[name]


def _rows(table: A.TableDecl) -> dict[str, list]:
    return {r.key.label(): [_cell(c) for c in r.cells] for r in table.rows}


# ------------------------------------------------------------ the sources


def test_sources_parse_cleanly(board):
    assert board.diagnostics == [], "\n".join(str(d) for d in board.diagnostics)


def test_no_name_declared_twice(board):
    assert board.duplicate_spaces == []
    for kind in ("side", "nation", "map", "enum", "box", "table", "procedure", "choice", "scenario"):
        assert board.duplicates(kind) == [], kind
    members = Counter(m.text for d in board.decls if isinstance(d, A.EnumDecl) for m in d.members)
    assert [m for m, n in members.items() if n > 1] == []


def test_every_declaration_cites_a_rule(board):
    for d in board.decls:
        assert d.cites, f"{d.span}: {d.kind} {d.key} cites no rule"


def test_components(board, reference):
    sides = board.of_kind("side")
    assert set(sides) == {"ap", "cp"}
    assert set(board.of_kind("map")) == {"europe", "neareast"}
    enums = {k: [m.text for m in d.members] for k, d in board.of_kind("enum").items()}
    assert enums["terrain"] == ["clear", "mountain", "swamp", "forest", "desert"]
    assert enums["unit_type"] == ["army", "corps"]
    assert enums["strength"] == ["full", "reduced"]
    assert enums["rp_pool"] == ["allied"]
    boxes = board.of_kind("box")
    assert set(boxes) == {"reserve", "eliminated", "removed"}
    assert all(b.per and b.per.text == "side" for b in boxes.values())


def test_every_nation_code_is_declared(board, reference):
    used = {r["nation"] for r in reference.spaces.values()}
    used |= {r["nation"] for r in reference.pieces}
    for r in reference.connections:
        used |= {n for n in r["only_for_nations"].split("|") if n}
    used |= {r["reinforcement_nation"] for r in reference.cards if r["reinforcement_nation"]}
    used |= {k[3:] for k in reference.cards[0] if k.startswith("rp_") and k != "rp_a"}
    used |= {"mef", "ana"}
    nations = board.nations
    assert used - set(nations) == set()
    assert set(nations) - used == set(), "nation declared but never used"


def test_nation_sides(board, reference):
    nations = board.nations
    side = {k: n.side.text for k, n in nations.items()}
    # a nation's counters fight for the side the nation is declared on
    for p in reference.pieces:
        assert side[p["nation"]] == p["side"], p["name"]
    # neutral at the start of the Campaign (4.2.2, Neutral Set Up)
    neutral = {k for k, n in nations.items() if n.neutral}
    assert neutral == {"it", "bu", "ro", "gr", "tu", "us", "pe", "al", "none"}
    assert {k for k, s in side.items() if s == "none"} == {"pe", "al", "none"}
    # the nations rebuilt only from the Allied pool (17.1.1.1)
    assert {k for k, n in nations.items() if n.minor} == {"be", "sb", "mn", "ro", "gr", "ana"}


# -------------------------------------------------------------------- map

# Whom each supply source feeds (14.2): the Central Powers' four sources feed
# the whole side; London feeds the Allies outside the Russian network; the
# Russian boxes and Belgrade form the network of Russian, Serbian and Romanian
# units, written `ru`.
SUPPLY_FOR = {
    "Essen": "cp", "Breslau": "cp", "Sofia": "cp", "Constantinople": "cp",
    "London": "ap",
    "Petrograd": "ru", "Moscow": "ru", "Kharkov": "ru", "Caucasus": "ru", "Belgrade": "ru",
}


def test_space_names(board, reference):
    assert set(board.spaces) == set(reference.spaces)
    assert len(board.spaces) == 281


@pytest.mark.parametrize("attribute", [
    "terrain", "nation", "map", "control", "vp", "fort", "capital", "supply", "ports", "at",
])
def test_space_attributes(board, reference, attribute):
    wrong = []
    for name, row in reference.spaces.items():
        s = board.spaces.get(name)
        if s is None:
            continue
        expected, actual = {
            "terrain": (row["terrain"], s.terrain and s.terrain.text),
            "nation": (row["nation"], s.nation and s.nation.text),
            "map": (row["map"], s.map and s.map.text),
            "control": (row["start_control"], s.control and s.control.text),
            "vp": (row["vp"] == "yes", s.vp),
            "fort": (int(row["fort"] or 0), s.fort),
            "capital": (row["capital"] == "yes", s.capital),
            "supply": (
                SUPPLY_FOR.get(name) if row["supply_source"] == "yes" else None,
                (s.supply_for.text if s.supply_for else "?") if s.supply else None,
            ),
            "ports": (
                {side for side in ("ap", "cp") if row[f"{side}_port"] == "yes"},
                {p.text for p in s.ports},
            ),
            "at": ((int(row["x"]), int(row["y"])), s.at),
        }[attribute]
        if expected != actual:
            wrong.append(f"{name}: expected {expected!r}, found {actual!r}")
    assert wrong == [], "\n".join(wrong)


def test_supply_sources_follow_rule_14_2(reference):
    assert {n for n, r in reference.spaces.items() if r["supply_source"] == "yes"} == set(SUPPLY_FOR)


def test_one_map_file_per_nation(board, reference):
    map_dir = ROOT / "rules" / "map"
    for name, s in board.spaces.items():
        assert Path(s.span.file) == map_dir / f"{s.nation.text}.pog", name
    nations = {r["nation"] for r in reference.spaces.values()}
    assert {p.stem for p in map_dir.glob("*.pog")} == nations | {"connections"}


def test_connections(board, reference):
    def key(a, b):
        return frozenset((a, b))

    expected = {}
    for r in reference.connections:
        k = key(r["a"], r["b"])
        assert k not in expected
        expected[k] = (r["line"] == "dotted", frozenset(n for n in r["only_for_nations"].split("|") if n))
    actual = {}
    duplicates = []
    for c in board.connections:
        k = key(c.a.text, c.b.text)
        if k in actual:
            duplicates.append(sorted(k))
        actual[k] = (c.dotted, frozenset(n.text for n in c.only))
    assert duplicates == []
    assert len(board.connections) == 476
    missing = [sorted(k) for k in expected.keys() - actual.keys()]
    extra = [sorted(k) for k in actual.keys() - expected.keys()]
    assert missing == [] and extra == []
    wrong = [(sorted(k), expected[k], actual[k]) for k in expected if expected[k] != actual[k]]
    assert wrong == []


def test_connections_join_known_spaces(board):
    for c in board.connections:
        assert c.a.text in board.spaces, f"{c.span}: {c.a.text}"
        assert c.b.text in board.spaces, f"{c.span}: {c.b.text}"
        assert c.a.text != c.b.text
        if c.dotted:
            assert c.only, f"{c.span}: a dotted line names its nationalities"
            assert {n.text for n in c.only} <= set(board.nations)


# ------------------------------------------------------------------ units


def _unit_tuple(nation, name, unit_type, full, reduced, rp, never_replaced, near_east):
    return (nation, name, unit_type, full, reduced, rp, never_replaced, near_east)


def _expanded_units(board) -> list[tuple]:
    out = []
    for u in board.units:
        nation = u.nation.text
        # `rp` defaults to the unit's own nation; a dotted unit has no RP type
        rp = u.rp.text if u.rp else (None if u.never_replaced else nation)
        t = _unit_tuple(nation, u.key, u.unit_type.text, u.full, u.reduced, rp, u.never_replaced, u.near_east)
        out.extend([t] * u.count)
    return out


def _reference_units(reference) -> list[tuple]:
    out = []
    for p in reference.pieces:
        def f(prefix):
            return tuple(int(p[prefix + k]) for k in ("cf", "lf", "mf"))

        out.append(_unit_tuple(
            p["nation"], p["name"], p["type"], f(""), f("reduced_"), p["rp_type"] or None,
            p["never_replaced"] == "yes", p["near_east_army"] == "yes",
        ))
    return out


def test_units_total(board):
    assert sum(u.count for u in board.units) == 193


def test_units_match_reference(board, reference):
    actual = Counter(_expanded_units(board))
    expected = Counter(_reference_units(reference))
    assert actual - expected == Counter(), "units not in the reference"
    assert expected - actual == Counter(), "reference units missing"


def test_units_written_once_each(board):
    # `count` lines are the only way to repeat a counter; armies are unique
    names = Counter((u.nation.text, u.key) for u in board.units)
    assert [k for k, n in names.items() if n > 1] == []
    for u in board.units:
        assert u.unit_type.text in ("army", "corps")
        assert u.reduced is not None, f"{u.span}: both sides of the counter are written"
        if u.unit_type.text == "army":
            assert u.count == 1
        if u.rp is not None:
            assert u.rp.text != u.nation.text, f"{u.span}: `rp` only when it differs from the nation"


def test_one_units_file_per_nation(board, reference):
    units_dir = ROOT / "rules" / "units"
    for u in board.units:
        assert Path(u.span.file) == units_dir / f"{u.nation.text}.pog", u.key
    assert {p.stem for p in units_dir.glob("*.pog")} == {p["nation"] for p in reference.pieces}


# ----------------------------------------------------------------- tables


def test_table_names_are_declared(board):
    declared = board.declared_names()
    for t in board.tables.values():
        for r in t.rows:
            if r.key.kind == "name":
                assert r.key.name.text in declared, f"{r.key.span}: row {r.key.name.text} is not declared"
            for c in r.cells:
                if isinstance(c, A.Name):
                    assert c.text in declared, f"{c.span}: {c.text} is not declared"
        if t.columns:
            for r in t.rows:
                assert len(r.cells) == len(t.columns), f"{r.span}: row width"


def test_tables_cite_rules(board):
    for t in board.tables.values():
        assert t.cites and t.note, t.key


def test_corps_fire_table(board):
    t = _table(board, "corps_fire")
    assert [c.label() for c in t.columns] == ["1", "2", "3", "4", "5", "6"]
    assert _rows(t) == {
        "0": [0, 0, 0, 0, 1, 1], "1": [0, 0, 0, 1, 1, 1], "2": [0, 1, 1, 1, 1, 1],
        "3": [1, 1, 1, 1, 2, 2], "4": [1, 1, 1, 2, 2, 2], "5": [1, 1, 2, 2, 2, 3],
        "6": [1, 1, 2, 2, 3, 3], "7": [1, 2, 2, 3, 3, 4], "8+": [2, 2, 3, 3, 4, 4],
    }


def test_army_fire_table(board):
    t = _table(board, "army_fire")
    assert [c.label() for c in t.columns] == ["1", "2", "3", "4", "5", "6"]
    rows = _rows(t)
    assert rows == {
        "1": [0, 1, 1, 1, 2, 2], "2": [1, 1, 2, 2, 3, 3], "3": [1, 2, 2, 3, 3, 4],
        "4": [2, 2, 3, 3, 4, 4], "5": [2, 3, 3, 4, 4, 5], "6..8": [3, 3, 4, 4, 5, 5],
        "9..11": [3, 4, 4, 5, 5, 7], "12..14": [4, 4, 5, 5, 7, 7], "15": [4, 5, 5, 7, 7, 7],
        "16+": [5, 5, 7, 7, 7, 7],
    }
    # three German armies (15 CF) rolling a 2 inflict a loss number of 5
    row = next(r for r in t.rows if r.key.kind == "int" and r.key.low == 15)
    assert row.cells[1] == 5


def _covers(keys: list[A.TableKey], low: int, high: int) -> None:
    """Row keys cover low..high (the last may be open-ended) without gaps or overlaps."""
    n = low
    for k in keys:
        assert k.low == n, f"gap or overlap at {k.label()}"
        if k.kind == "at_least":
            return
        n = (k.high if k.kind == "range" else k.low) + 1
    assert n == high + 1


def test_fire_table_rows_cover_every_strength(board):
    _covers([r.key for r in _table(board, "corps_fire").rows], 0, 8)
    _covers([r.key for r in _table(board, "army_fire").rows], 1, 16)


def test_terrain_and_trench_tables(board, reference):
    t = _table(board, "terrain_combat")
    cols = [c.label() for c in t.columns]
    rows = {k: dict(zip(cols, v)) for k, v in _rows(t).items()}
    assert set(rows) == {r["terrain"] for r in reference.spaces.values()}
    assert {k for k, v in rows.items() if v["attacker_shift"] == -1} == {"mountain", "swamp"}
    assert all(v["defender_shift"] == 0 for v in rows.values())
    assert {k for k, v in rows.items() if v["halts_advance"]} == {"mountain", "swamp", "forest", "desert"}
    assert {k for k, v in rows.items() if v["may_ignore_retreat"]} == {"mountain", "swamp", "forest", "desert"}
    assert {k for k, v in rows.items() if v["no_flank_attack"]} == {"mountain", "swamp"}
    assert {k for k, v in rows.items() if v["no_summer_combat"]} == {"desert"}

    t = _table(board, "trench_combat")
    cols = [c.label() for c in t.columns]
    rows = {k: dict(zip(cols, v)) for k, v in _rows(t).items()}
    assert rows["1"]["attacker_shift"] == -1 and rows["1"]["defender_shift"] == 1
    assert rows["2"]["attacker_shift"] == -2 and rows["2"]["defender_shift"] == 1
    assert rows["0"] == {c: 0 for c in cols}
    assert rows["1"]["no_flank_attack"] == rows["2"]["no_flank_attack"] == 1


def test_mandated_offensive_tables(board):
    def by_die(name):
        rows = _rows(_table(board, name))
        assert list(rows) == ["1", "2", "3", "4", "5", "6"]
        return [cells[0] for cells in rows.values()]

    assert by_die("allied_mo") == ["fr", "fr", "br", "it", "it", "ru"]
    assert by_die("cp_mo") == ["ah", "ah_it", "tu", "ge", "none", "none"]


def test_peace_terms_table(board):
    rows = _rows(_table(board, "peace_terms"))
    assert rows == {"0..19": [1, 1, 1, 0, 0, -1], "20+": [1, 1, 0, 0, 0, -1]}


def test_war_tables(board):
    assert _rows(_table(board, "war_commitment")) == {
        "0..3": ["mobilization_level"], "4..10": ["limited_war_level"], "11+": ["total_war_level"],
    }
    assert _rows(_table(board, "war_end")) == {
        "armistice_status": [40], "cp_victory_vp": [20], "ap_victory_vp": [0],
    }
    assert _rows(_table(board, "war_status_vp")) == {
        "blockade_in_winter": [-1], "italy_neutral_ap_total_war": [1],
        "ap_mandated_offensive_missed": [1], "cp_mandated_offensive_missed": [-1],
    }
    assert _rows(_table(board, "track_thresholds")) == {
        "zimmermann_allowed": [30], "tsar_takes_command_allowed": [3], "fall_of_the_tsar_allowed": [33],
    }


def test_small_tables(board):
    assert _rows(_table(board, "replacement_cost")) == {"army": [1], "corps": [2]}
    assert _rows(_table(board, "sr_cost")) == {"corps": [1], "army": [4]}
    assert _rows(_table(board, "siege_drm")) == {"1..2": [-2], "3+": [0]}


def test_turn_track(board):
    t = _table(board, "turn_track")
    assert [c.label() for c in t.columns] == ["season", "year"]
    rows = _rows(t)
    assert len(rows) == 20
    seasons = ["winter", "spring", "summer", "fall"]
    for turn in range(1, 21):
        season = "none_yet" if turn <= 2 else seasons[turn % 4]
        year = 1914 if turn <= 2 else 1915 + (turn - 4) // 4
        assert rows[str(turn)] == [season, year], turn
    assert rows["3"] == ["fall", 1914] and rows["20"] == ["winter", 1919]


# ------------------------------------------------- the Campaign's VP spaces

CAMPAIGN_VP_ADDED = {"Ahwaz", "Venice", "Minsk", "Jerusalem", "Kharput"}
CAMPAIGN_VP_REMOVED = {"Kovno", "Sedan", "Amiens", "Koblenz", "Aachen"}


def test_campaign_vp_spaces(board, reference):
    sc = _campaign(board)
    assert sc.turns == (1, 20)
    # Each difference from the map's VP marks is one `edit space NAME [no] vp`
    # line, which changes the VP mark and nothing else of the space.
    edits = [o for o in sc.overrides if o.action == "edit" and o.target_kind.text == "space"]
    assert {o.target for o in edits} == CAMPAIGN_VP_ADDED | CAMPAIGN_VP_REMOVED
    assert len(edits) == len(CAMPAIGN_VP_ADDED | CAMPAIGN_VP_REMOVED)
    assert not [o for o in sc.overrides if o.action == "replace" and isinstance(o.decl, A.SpaceDecl)]
    for o in edits:
        assert o.attribute.text == "vp" and not o.values
        assert o.negated == (o.target in CAMPAIGN_VP_REMOVED)
        assert board.spaces[o.target].vp == (o.target in CAMPAIGN_VP_REMOVED)


# ---------------------------------------------------------- the set-up

R = False  # full strength
D = True   # reduced: in parentheses on the set-up chart


def _reserve(side: str, unit: str, n: int) -> list[tuple]:
    return [(unit, (RESERVE, side), R)] * n


# The rulebook's "Unit Set Up" chart, front by front.
WESTERN_FRONT = [
    # Germany, western front
    ("GEc", "Bremen", D),
    ("GE 1", "Aachen", R),
    ("GE 2", "Koblenz", R), ("GE 3", "Koblenz", R),
    ("GE 4", "Metz", R), ("GE 5", "Metz", R),
    ("GE 6", "Strasbourg", R),
    ("GE 7", "Mulhouse", D),
    # Belgium
    ("BE 1", "Antwerp", R),
    *_reserve("ap", "BEc", 1),
    # Britain in the west
    *_reserve("ap", "BRc", 1),
    *_reserve("ap", "BR BEFc", 1),
    ("BR BEF", "Brussels", R),
    # France
    *_reserve("ap", "FRc", 7),
    ("FR 5", "Sedan", R),
    ("FR 3", "Verdun", R), ("FR 4", "Verdun", R),
    ("FR 1", "Nancy", R), ("FR 2", "Nancy", R),
    ("FRc", "Belfort", R), ("FRc", "Belfort", R),
    ("FR 9", "Bar le Duc", D),
    ("FR 6", "Paris", D),
    ("FRc", "Grenoble", R),
]

EASTERN_FRONT = [
    # Germany, eastern front
    ("GE 8", "Insterberg", R), ("GEc", "Insterberg", R),
    ("GEc", "Oppeln", D),
    # Austria-Hungary, all fronts
    *_reserve("cp", "AHc", 4),
    ("AHc", "Cracow", R),
    ("AH 1", "Tarnow", R),
    ("AH 4", "Przemysl", R),
    ("AH 3", "Tarnopol", R),
    ("AHc", "Czernowitz", R),
    ("AHc", "Stanislau", R),
    ("AH 2", "Munkacs", D),
    ("AHc", "Timisvar", R),
    ("AH 5", "Novi Sad", R),
    ("AH 6", "Sarajevo", R),
    ("AHc", "Villach", R),
    # Russia, against Germany and Austria-Hungary
    *_reserve("ap", "RUc", 5),
    ("RUc", "Riga", R),
    ("RUc", "Szawli", R),
    ("RU 1", "Kovno", R),
    ("RUc", "Grodno", R),
    ("RU 2", "Lomza", R),
    ("RU 4", "Ivangorod", R),
    ("RU 5", "Lublin", R),
    ("RU 3", "Dubno", R),
    ("RU 8", "Kamenets-Podolski", R),
    ("RUc", "Lutsk", R),
    ("RUc", "Odessa", R),
]

OTHER_FRONTS = [
    *_reserve("cp", "GEc", 8),
    # Britain in the Near East
    ("BRc", "Port Said", D), ("BRc", "Cairo", D), ("BRc", "Basra", D),
    # Russia in the Caucasus
    ("RUc", "Batum", R), ("RUc", "Kars", R), ("RUc", "Erivan", R),
    # Montenegro and Serbia
    ("MNc", "Cetinje", R),
    *_reserve("ap", "SBc", 2),
    ("SB 1", "Belgrade", R),
    ("SB 2", "Valjevo", R),
]

SETUP_TRENCHES = {
    # Central Powers
    "Metz", "Mulhouse", "Konigsberg", "Cracow", "Trent", "Villach", "Trieste",
    # Allies
    "Brussels", "Port Said", "Cairo", "Basra", "Verdun", "Nancy", "Belfort", "Paris", "Riga", "Odessa",
}


def _missing(expected: list[tuple], actual: list[tuple]) -> list[tuple]:
    return sorted((Counter(expected) - Counter(actual)).elements(), key=str)


def test_setup_western_front(board):
    assert _missing(WESTERN_FRONT, _placements(_campaign_setup(board))) == []


def test_setup_eastern_front(board):
    assert _missing(EASTERN_FRONT, _placements(_campaign_setup(board))) == []


def test_setup_other_fronts(board):
    assert _missing(OTHER_FRONTS, _placements(_campaign_setup(board))) == []


def test_setup_places_nothing_else(board):
    actual = Counter(_placements(_campaign_setup(board)))
    expected = Counter(WESTERN_FRONT + EASTERN_FRONT + OTHER_FRONTS)
    assert sorted((actual - expected).elements(), key=str) == []
    assert actual == expected


def test_setup_counts_per_side(board):
    side = {k: n.side.text for k, n in board.nations.items()}
    nation_of = {u.key: u.nation.text for u in board.units}
    placed = Counter(side[nation_of[u]] for u, _, _ in _placements(_campaign_setup(board)))
    assert placed == {"cp": 34, "ap": 49}


def test_setup_trenches(board):
    trenches = _trenches(_campaign_setup(board))
    assert set(trenches) == SETUP_TRENCHES
    assert set(trenches.values()) == {1}


def test_setup_units_exist_and_are_at_war(board):
    nations = board.nations
    pool = Counter()
    for u in board.units:
        pool[u.key] += u.count
    nation_of = {u.key: u.nation.text for u in board.units}
    used = Counter(u for u, _, _ in _placements(_campaign_setup(board)))
    for unit, n in used.items():
        assert unit in pool, unit
        assert n <= pool[unit], f"{unit}: {n} placed, {pool[unit]} counters"
        assert not nations[nation_of[unit]].neutral, f"{unit} belongs to a neutral nation"


def test_setup_locations_are_real(board):
    side = {k: n.side.text for k, n in board.nations.items()}
    nation_of = {u.key: u.nation.text for u in board.units}
    for unit, where, _ in _placements(_campaign_setup(board)):
        if isinstance(where, tuple):
            assert where == (RESERVE, side[nation_of[unit]]), (unit, where)
        else:
            assert where in board.spaces, where
            # units start in spaces their own side controls
            assert board.spaces[where].control.text == side[nation_of[unit]], (unit, where)


def test_setup_respects_stacking(board):
    # 10.1.1: at most three units a space; boxes have no limit
    per_space = Counter(w for _, w, _ in _placements(_campaign_setup(board)) if not isinstance(w, tuple))
    assert {s: n for s, n in per_space.items() if n > 3} == {}


# ------------------------------------------------------ neutral set-ups


def _procedure(board, name: str) -> A.ProcedureDecl:
    procs = board.procedures
    assert name in procs, f"procedure {name} not declared"
    assert procs[name].cites
    return procs[name]


def test_setup_italy(board):
    placed = Counter(_placements(_procedure(board, "setup_italy").body))
    assert placed == Counter([
        *_reserve("ap", "ITc", 4),
        ("ITc", "Turin", R), ("ITc", "Rome", R), ("ITc", "Taranto", R),
        ("IT 1", "Verona", D), ("IT 4", "Asiago", D), ("IT 3", "Maggiore", D), ("IT 2", "Udine", D),
    ])


def test_setup_greece(board):
    placed = Counter(_placements(_procedure(board, "setup_greece").body))
    assert placed == Counter([("GRc", "Florina", R), ("GRc", "Larisa", R), ("GRc", "Athens", R)])


def test_setup_turkey(board):
    body = _procedure(board, "setup_turkey").body
    spaces = ["Adrianople", "Gallipoli", "Constantinople", "Balikesir", "Ankara", "Adana", "Rize",
              "Erzerum", "Van", "Mosul", "Baghdad", "Damascus", "Gaza", "Medina"]
    assert Counter(_placements(body)) == Counter(("TUc", s, R) for s in spaces)
    assert _trenches(body) == {"Giresun": 1, "Baghdad": 1, "Gaza": 1}


@pytest.mark.parametrize("proc, unit, capital, chooser", [
    ("setup_bulgaria", "BUc", "Sofia", "cp"),
    ("setup_romania", "ROc", "Bucharest", "ap"),
])
def test_setup_bulgaria_and_romania(board, proc, unit, capital, chooser):
    body = _procedure(board, proc).body
    top = [s for s in body.body if isinstance(s, A.Effect) and s.verb == "place"]
    assert [(_name(s.obj), _location(s.arg("at"))) for s in top] == [(unit, capital)] * 2
    loops = [s for s in body.body if isinstance(s, A.Repeat)]
    assert len(loops) == 1 and isinstance(loops[0].count, A.IntLit) and loops[0].count.value == 4
    inner = loops[0].body.body
    assert isinstance(inner[0], A.Choose) and _name(inner[0].by) == chooser
    assert isinstance(inner[1], A.Effect) and _name(inner[1].obj) == unit


def test_neutral_set_ups_use_their_own_units(board):
    nation_of = {u.key: u.nation.text for u in board.units}
    for proc, nation in [("setup_italy", "it"), ("setup_bulgaria", "bu"), ("setup_romania", "ro"),
                         ("setup_greece", "gr"), ("setup_turkey", "tu")]:
        placed = _placements(_procedure(board, proc).body)
        assert placed and {nation_of[u] for u, _, _ in placed} == {nation}
    assert _placements(_procedure(board, "setup_united_states").body) == []
