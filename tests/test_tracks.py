"""The tracks a scenario declares, read from a game (pogdsl/board/tracks.py),
and the `track NAME "LABEL" in PROCEDURE` line that shows a value of an
operation under way.

What the tracks must read is the rulebooks': the VP marker starts at 10
(5.1.1), each war status at 0 (16.1), there are six action rounds and the
Central Powers act first (8.1.1, 8.1.2), a card played for operations gives
its OPS value to spend (9.2.1) and a space costs one OPS per nationality in
it (9.2.3); in Illusions of Glory the RU, GE and AH National Will markers
start at 12 and the RU, IT, GE and AH Troop Quality markers at 16 (iog 4.2
set-up, e and f)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pogdsl.board.tracks import declared_tracks, read_track, readings
from pogdsl.opening import open_scenario

REPO = Path(__file__).resolve().parents[1]


def started(spec: str, seed: int = 0):
    game = open_scenario(spec, REPO).new_game(seed)
    return game, game.run()


def shown(game) -> dict[str, str]:
    return {r.label: ", ".join(r.values) for r in readings(game)}


def to_first_activation(game, decision):
    """Guns of August kept, then the first card in hand played for OPS: the
    first activation decision, and the OPS value of the card played."""
    while decision.choice != "take_action":
        decision = game.choose(decision.options[0])
    cards = game.w.by_kind["card"]  # `play N ops (NAME)`: N is the card's number
    played = next(o for o in decision.options
                  if " ops (" in o and cards[f"{decision.by} {o.split()[1]}"].data.ops >= 2)
    ops = cards[f"{decision.by} {played.split()[1]}"].data.ops
    decision = game.choose(played)
    assert decision.choice == "activate"
    return decision, ops


def test_the_campaign_tracks_at_the_start():
    game, _ = started("campaign")
    tracks = shown(game)
    assert tracks["Victory Points"] == "10"  # 5.1.1
    assert tracks["War Status"] == "ap 0, cp 0"  # 16.1
    assert tracks["Turn"].startswith("1 of 1-")
    assert tracks["Action Round"] == "0"  # set-up: no action round yet
    assert "OPS Left" not in tracks  # no operation under way
    assert "National Will" not in tracks and "Troop Quality" not in tracks
    # Tracks, not the interpreter's variables:
    assert not any("_" in label for label in tracks)


def test_the_illusions_variant_adds_its_tracks_with_no_python():
    game, _ = started("illusions")
    tracks = shown(game)
    assert tracks["National Will"] == "ru 12, ge 12, ah 12"
    assert tracks["Troop Quality"] == "ru 16, it 16, ge 16, ah 16"
    assert tracks["Victory Points"] == "10"
    labels = list(tracks)
    assert labels.index("National Will") > labels.index("Victory Points")  # the variant's blocks come after


def test_ops_left_follows_the_operation():
    game, decision = started("campaign")
    decision, ops = to_first_activation(game, decision)
    tracks = shown(game)
    assert tracks["Action Round"] == "1" and decision.by == "cp"  # 8.1.1, 8.1.2
    assert tracks["OPS Left"] == str(ops)  # 9.2.1
    # A space of one nationality costs one OPS (9.2.3).
    single = next(o for o in decision.options if o.endswith(" move") and _nations_in(game, o) == 1)
    decision = game.choose(single)
    assert decision.choice == "activate", "a 2-or-more OPS card leaves points to spend"
    assert shown(game)["OPS Left"] == str(ops - 1)


def _nations_in(game, option: str) -> int:
    name = option[len("activate "):-len(" move")]
    space = game.w.by_kind["space"][name]
    return len({u.data.nation.key for u in game.w.units if game.s["loc"][u.index] == space.index})


def test_a_later_line_stands_over_an_earlier_one(tmp_path):
    path = tmp_path / "relabelled.pog"
    path.write_text('scenario relabelled "Campaign, relabelled" extends campaign cites 2.1 {\n'
                    '  add display mine cites 2.1 {\n    track vp "VP"\n  }\n}\n', encoding="utf-8")
    game, _ = started(str(path))
    lines = declared_tracks(game.w.program)
    assert [ln.label for ln in lines if ln.name == "vp"] == ["VP"]
    assert shown(game)["VP"] == "10" and "Victory Points" not in shown(game)


def test_a_track_of_a_procedure_not_running_has_no_value():
    game, _ = started("campaign")
    ops = next(ln for ln in declared_tracks(game.w.program) if ln.within is not None)
    assert ops.within == "operations"
    assert read_track(game, ops) is None


@pytest.mark.parametrize("line, message", [
    ('track lefty "OPS" in operations', "procedure operations has no parameter or local named 'lefty'"),
    ('track left "OPS" in operationz', "unknown procedure 'operationz'"),
    ('track left "OPS" for ap in operations', "'left' is a local of operations, one value"),
])
def test_a_track_in_a_procedure_is_checked(tmp_path, line, message):
    from pogdsl.compiler import compile_paths

    path = tmp_path / "bad.pog"
    path.write_text(f'display bad cites 2.1 {{\n  {line}\n}}\n', encoding="utf-8")
    comp = compile_paths([path], root=REPO)
    found = [(d.code, d.span.line, d.message) for d in comp.reporter.sorted() if d.is_error]
    assert [(code, ln) for code, ln, _ in found] == [("E0225", 2)]
    assert message in found[0][2]
