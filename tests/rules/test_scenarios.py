"""5.3-5.7: the Introductory, Limited War and Historical scenarios (each an
overlay of the Campaign in scenarios/), and tournament scoring; each test is
written from the rulebook's chapter 5.  The tournament bid and scoring of 5.6
are not written yet: their tests are kept as strict expected failures."""

import pytest

from pogdsl.runtime import builtins as B
from pogdsl.runtime.interpreter import DRIVER, Game

from .harness import ROOT, Position, play_randomly, world

INTRO, LIMITED, HISTORICAL = "introductory", "limited_war", "historical"


def outcome_at_end(scenario: str, vp: int, played=(), **vars_):
    """Who wins when the VP level decides the game (after the last turn or an
    armistice), with the given VP and the given cards' events played."""
    pos = Position(scenario)
    pos.set("vp", vp)
    for k, v in vars_.items():
        pos.set(k, v)
    for card in played:
        pos.s["played"].append(pos._card(card).index)
    pos.game.invalidate()
    pos.run("decide_by_vp", "the end")
    return pos.s["result"]["winner"]


def tournament_world():
    w = world("campaign")
    if "tournament" not in w.options:
        raise AssertionError("the Campaign has no tournament option (5.6)")
    return w


def value_of(pos: Position, name: str, *args):
    v = B.value_of(pos.game, name, tuple(pos._value(a) if isinstance(a, str) else a for a in args))
    return getattr(v, "key", v)


def forbidden(pos: Position, choice: str, *values) -> list[str]:
    """The restrictions that refuse one option of a choice now."""
    pos.game.invalidate()
    return [d.key for d in pos.game._forbidden(choice, tuple(pos._value(v) if isinstance(v, str) else v
                                                             for v in values))]


def run_turn_from(pos: Position, phase: str, turn: int, dice=()):
    """Play the sequence of play from the start of `phase` of `turn`, as the
    game does (phase signals and triggers included), up to the next decision
    or the end of the game."""
    seq = pos.w.sequence
    pos.s["turn"] = turn
    pos.s["stack"] = [{"code": DRIVER, "pc": 2, "l": {"phase": seq.index(phase)}}]
    pos.s["dice"] = list(dice)
    pos.s["result"] = None
    pos.game.invalidate()
    return pos.game.run()


def after_setup(scenario: str, seed: int = 0) -> Game:
    """A new game run through its set-up blocks only (the set-up's own
    decisions answered with their first legal option), before turn 1."""
    g = Game.new(world(scenario), seed=seed)
    g.s["stack"] = [{"code": key, "pc": 0, "l": {}} for key in reversed(g.w.setup)]
    g.invalidate()
    d = g.run()
    while d is not None:
        d = g.choose(d.options[0] if len(d.options) == 1 else 1)
    assert g.s["result"]["reason"] == "nothing left to run"
    return g


def card_names(g: Game, pile: str) -> list[str]:
    return [g.w.cards[i].data.name.text for i in g.s["piles"][pile]]


def play_to_end(scenario: str, seed: int):
    game = play_randomly(world(scenario), seed, decisions=20000)
    assert game.over, "the random game did not end"
    return game


# ------------------------------------------------------------------ coverage
@pytest.mark.parametrize("scenario,numbers", [
    pytest.param(INTRO, ["5.3", "5.3.1", "5.3.2", "5.3.3", "5.3.4"], marks=pytest.mark.rule("5.3")),
    pytest.param(LIMITED, ["5.4", "5.4.1", "5.4.2"], marks=pytest.mark.rule("5.4")),
    pytest.param(HISTORICAL, ["5.7", "5.7.1", "5.7.2", "5.7.3", "5.7.4"], marks=pytest.mark.rule("5.7")),
])
def test_each_scenario_cites_its_chapter_5_rules_in_its_own_file(scenario, numbers):
    """Each scenario's rules of chapter 5 are said in the scenario's own
    file (`pogdsl rules NAME`)."""
    import json
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "pogdsl.cli", "rules", scenario, "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    cited = json.loads(proc.stdout)["cited"]
    for number in numbers:
        assert any(where.startswith(f"scenarios/{scenario}.pog:") for where in cited.get(number, [])), number


# ------------------------------------------------------------------ 5.3 Introductory
@pytest.mark.rule("5.3")
def test_introductory_scenario_uses_the_common_set_up():
    """5.3 (with 4.2): the Introductory scenario starts from the same set-up
    as the Campaign: every unit in the same place, the same trenches."""
    intro, campaign = after_setup(INTRO), after_setup("campaign")
    assert intro.s["loc"] == campaign.s["loc"] and intro.s["reduced"] == campaign.s["reduced"]
    assert intro.s["vars"]["trench"] == campaign.s["vars"]["trench"]


@pytest.mark.rule("5.3.1")
def test_introductory_scenario_ends_after_turn_3():
    """5.3.1: the Introductory scenario ends when turn 3 is over."""
    w = world(INTRO)
    assert (w.first_turn, w.last_turn) == (1, 3)
    for seed in (1, 2):
        game = play_to_end(INTRO, seed)
        assert game.s["turn"] <= 3
        if game.outcome.reason == "the last turn is over":
            assert game.s["turn"] == 3


@pytest.mark.rule("5.3.2")
def test_introductory_scenario_never_raises_war_commitment():
    """5.3.2: no War Commitment rises, whatever the War Status: no new deck,
    and Turkey (which joins at the Central Powers' Limited War) stays out."""
    for scenario, rises in ((INTRO, False), ("campaign", True)):
        pos = Position(scenario)
        pos.s["turn"] = 3
        for side in ("ap", "cp"):
            pos.set("war_status", 11, key=side)
            pos.run("raise_war_commitment", side)
            assert (pos.var("commitment", side) == "total_war_level") == rises
        assert pos.s["at_war"]["tu"] == rises
        assert bool(pos.pile("draw", "cp")) == rises   # the Limited and Total War decks


@pytest.mark.rule("5.3.2")
def test_introductory_war_commitment_stays_in_play():
    """5.3.2 in play: a whole random game ends with both sides at Mobilization."""
    game = play_to_end(INTRO, 3)
    commitment = game.s["vars"]["commitment"]
    assert all(getattr(commitment.get(side, "mobilization_level"), "key", commitment.get(side, "mobilization_level"))
               == "mobilization_level" for side in ("ap", "cp"))


@pytest.mark.rule("5.3.3")
def test_introductory_scenario_has_no_peace_terms():
    """5.3.3: rule 16.5 is not used: peace terms are never offered, at any VP,
    by either side (the Campaign allows them in the offering side's range)."""
    for vp, offering in ((2, "ap"), (18, "cp")):
        pos = Position(INTRO)
        pos.set("vp", vp)
        assert forbidden(pos, "take_action", offering, "peace_offer", None)
        camp = Position("campaign")
        camp.set("vp", vp)
        assert not forbidden(camp, "take_action", offering, "peace_offer", None)


@pytest.mark.rule("5.3.4")
def test_introductory_scenario_victory_levels():
    """5.3.4: 14 or more a CP win, 11-13 a draw, 10 or less an Allied win."""
    assert [outcome_at_end(INTRO, vp) for vp in (14, 13, 11, 10)] == ["cp", None, None, "ap"]


# ------------------------------------------------------------------ 5.4 Limited War
@pytest.mark.rule("5.4.1")
def test_limited_war_scenario_ends_at_turn_10():
    """5.4.1: the scenario ends after Summer 1916, turn 10."""
    w = world(LIMITED)
    assert (w.first_turn, w.last_turn) == (1, 10)


@pytest.mark.rule("5.4.1")
def test_limited_war_scenario_ends_when_a_side_reaches_total_war():
    """5.4.1: a side reaching Total War (in the War Status Phase) ends the
    game, decided by the VP level; reaching Limited War does not."""
    pos = Position(LIMITED)
    pos.set("war_status", 11, key="ap")
    pos.set("commitment", "limited_war_level", key="ap")
    pos.set("vp", 15)
    run_turn_from(pos, "war_status_phase", 6)
    assert pos.s["result"] is not None and pos.s["result"]["winner"] is None   # 15: a draw (5.4.2)
    assert pos.var("commitment", "ap") == "total_war_level"

    pos = Position(LIMITED)
    pos.set("war_status", 5, key="cp")
    d = run_turn_from(pos, "war_status_phase", 6)
    assert pos.s["result"] is None and d is not None
    assert pos.var("commitment", "cp") == "limited_war_level"


@pytest.mark.rule("5.4.1")
def test_limited_war_scenario_ends_by_automatic_victory_and_peace():
    """5.4.1: an automatic victory (5.2) and accepted peace terms (a draw)
    also end it."""
    pos = Position(LIMITED)
    pos.set("vp", 0)
    pos.run("check_automatic_victory")
    assert pos.s["result"]["winner"] == "ap"
    pos = Position(LIMITED)
    pos.set("vp", 12)
    assert not forbidden(pos, "take_action", "cp", "peace_offer", None)
    pos.run("offer_peace_terms", "cp", answers=["accept the peace terms: yes"])
    assert pos.s["result"]["winner"] is None and pos.s["result"]["reason"] == "peace terms accepted"


@pytest.mark.rule("5.4.1")
def test_limited_war_random_games_end_by_its_conditions():
    """5.4.1 in play: random games end by turn 10, and one that ends on a
    Total War does so with a side at Total War."""
    for seed in (1, 2):
        game = play_to_end(LIMITED, seed)
        assert game.s["turn"] <= 10
        if game.outcome.reason == "a side reached Total War":
            levels = [getattr(v, "key", v) for v in game.s["vars"]["commitment"].values()]
            assert "total_war_level" in levels


@pytest.mark.rule("5.4.2")
def test_limited_war_scenario_victory_levels():
    """5.4.2: 17 or more a CP win, 13-16 a draw, 12 or less an Allied win."""
    assert [outcome_at_end(LIMITED, vp) for vp in (17, 16, 13, 12)] == ["cp", None, None, "ap"]


# ------------------------------------------------------------------ 5.6 tournaments
# The tournament rules are the rule set `tournament_bid` (scenarios/tournament.pog);
# `campaign_tournament` is the Campaign with it.  The bid's outcome is two
# options: the side that won the bid and the VP it gives away.
TOURNAMENT = "campaign_tournament"


def tournament_position(**options):
    """A Position of the tournament Campaign with these option values."""
    from pogdsl.compiler import scenario_graph
    from pogdsl.runtime.interpreter import Game
    from pogdsl.runtime.world import build_world, option_values

    from .harness import ROOT

    comp, graph = scenario_graph(TOURNAMENT, root=ROOT)
    program = comp.scenarios[TOURNAMENT][0]
    w = build_world(program, graph, option_values(program, {k: str(v) for k, v in options.items()}))
    pos = Position.__new__(Position)
    pos.w, pos.game, pos.asked = w, Game.new(w, seed=0), []
    pos.s = pos.game.s
    pos.clear_board()
    return pos


def tournament_outcome(vp: int, procedure: str = "decide_by_vp", **options):
    pos = tournament_position(**options)
    pos.set("vp", vp)
    if procedure == "decide_by_vp":
        pos.run(procedure, "the end")
    else:
        pos.run(procedure)
    result = pos.s["result"]
    return None if result is None else (result["winner"], pos.var("vp"))


@pytest.mark.rule("5.6.1")
def test_the_final_vp_total_is_moved_by_the_bid():
    """5.6.1: the bidder cedes its bid to the other side, counted at the end:
    the Allies bidding 2 VP to play the Allies turn a final 11 (a Campaign
    draw, 10-12 without Brest-Litovsk) into 13, a Central Powers victory; the
    Central Powers bidding 1 turn a final 13 (their win) into 12."""
    assert tournament_outcome(11, bid_side="ap", vp_bid=2)[0] == "cp"
    assert tournament_outcome(13, bid_side="cp", vp_bid=1)[0] != "cp"
    assert tournament_outcome(13, bid_side="cp", vp_bid=0)[0] == "cp"  # a bid of zero is a bid
    assert tournament_outcome(13)[0] == "cp"  # no bid: the Campaign's levels as they are
    # The marker itself is not moved: only the count at the end is.
    assert tournament_outcome(11, bid_side="ap", vp_bid=2)[1] == 11


@pytest.mark.rule("5.6.1.1")
def test_the_vp_bid_counts_only_at_the_end():
    """5.6.1.1: the ceded VP are not counted for automatic victory, only
    added to the final total."""
    # VP 19 with 2 ceded to the CP would be 21: still no automatic victory.
    assert tournament_outcome(19, "check_automatic_victory", bid_side="ap", vp_bid=2) is None
    # VP 20 with 3 ceded to the Allies would be 17: the CP still win outright.
    assert tournament_outcome(20, "check_automatic_victory", bid_side="cp", vp_bid=3) == ("cp", 20)
    assert tournament_outcome(1, "check_automatic_victory", bid_side="ap", vp_bid=3) is None


@pytest.mark.rule("5.6.2")
def test_tournament_draws_are_allied_wins():
    """5.6.2: in a tournament a draw by the VP levels is an Allied win."""
    assert outcome_at_end("campaign", 10) is None  # the Campaign alone: a draw
    assert [tournament_outcome(vp)[0] for vp in (10, 11, 12, 13, 9)] == ["ap", "ap", "ap", "cp", "ap"]
    # A draw reached through the bid is an Allied win too.
    assert tournament_outcome(14, bid_side="cp", vp_bid=2)[0] == "ap"


@pytest.mark.rule("5.6.3")
def test_tournament_peace_is_a_loss_for_both():
    """5.6.3: a game ended by accepted peace terms is lost by both players:
    no winner, and not a draw either (a draw would go to the Allies, 5.6.2)."""
    pos = tournament_position()
    pos.set("vp", 12)
    pos.run("offer_peace_terms", "cp", answers=["accept the peace terms: yes"])
    outcome = pos.game.outcome
    assert outcome is not None and outcome.winner is None and outcome.result == "both_lose"
    assert "5.6.3" in outcome.rules
    # Outside a tournament the same acceptance is a plain draw (16.5.2).
    plain = Position("campaign")
    plain.set("vp", 12)
    plain.run("offer_peace_terms", "cp", answers=["accept the peace terms: yes"])
    assert plain.game.outcome.winner is None and plain.game.outcome.result is None


def test_tournament_games_count_both_player_losses():
    """simulate counts the tournament's both-lose games apart from draws."""
    from pogdsl.sim import simulate

    from .harness import ROOT

    summary = simulate(TOURNAMENT, games=4, seed=3, root=ROOT, workers=1)
    assert summary["failed"] == 0
    kinds = summary.get("result_kinds", {})
    assert set(kinds) >= {"both_lose"}


# ------------------------------------------------------------------ 5.7 historical
@pytest.mark.rule("5.7")
def test_historical_scenario_is_the_whole_war():
    """5.7: the Historical scenario is the Campaign with changes: turns 1-20."""
    w = world(HISTORICAL)
    assert (w.first_turn, w.last_turn) == (1, 20)


@pytest.mark.rule("5.7.1")
def test_historical_set_up_trenches():
    """5.7.1: a CP level 1 trench in Strasbourg, none in Brussels, Allied
    level 1 trenches in Verona, Asiago, Maggiore and Udine; the rest of the
    set-up is the Campaign's."""
    hist, campaign = after_setup(HISTORICAL), after_setup("campaign")
    trench = hist.s["vars"]["trench"]
    assert trench.get("Strasbourg") == 1 and not trench.get("Brussels")
    assert all(trench.get(s) == 1 for s in ("Verona", "Asiago", "Maggiore", "Udine"))
    changed = {"Strasbourg", "Brussels", "Verona", "Asiago", "Maggiore", "Udine"}
    assert {k: v for k, v in trench.items() if k not in changed and v} == \
           {k: v for k, v in campaign.s["vars"]["trench"].items() if k not in changed and v}
    assert not campaign.s["vars"]["trench"].get("Strasbourg") and campaign.s["vars"]["trench"].get("Brussels") == 1
    assert hist.s["loc"] == campaign.s["loc"]
    # the trench in Strasbourg is the Central Powers', those in Italy the Allies'
    assert hist.s["control"][hist.w.by_kind["space"]["Strasbourg"].index] == "cp"
    assert all(hist.s["control"][hist.w.by_kind["space"][s].index] == "ap" for s in ("Verona", "Udine"))


@pytest.mark.rule("5.7.2")
def test_historical_vp_spaces():
    """5.7.2: Kovno, Sedan, Amiens, Koblenz and Aachen are VP spaces; Ahwaz,
    Venice, Minsk, Jerusalem and Kharput are not (the Campaign the reverse)."""
    for scenario in (HISTORICAL, "campaign"):
        vp = {s.key for s in world(scenario).spaces if s.data.vp}
        yes, no = {"Kovno", "Sedan", "Amiens", "Koblenz", "Aachen"}, {"Ahwaz", "Venice", "Minsk", "Jerusalem", "Kharput"}
        if scenario == "campaign":
            yes, no = no, yes
        assert yes <= vp and not vp & no, scenario
    sedan = world(HISTORICAL).by_kind["space"]["Sedan"].data
    assert sedan.terrain.key == "forest" and sedan.nation.key == "fr"


@pytest.mark.rule("5.7.2")
def test_historical_no_peace_terms():
    """5.7.2: peace terms (16.5) may not be offered, by either side."""
    for vp, offering in ((2, "ap"), (18, "cp")):
        pos = Position(HISTORICAL)
        pos.set("vp", vp)
        assert forbidden(pos, "take_action", offering, "peace_offer", None)


US_CARDS = ("USA Reinforcements (1 corps)", "USA Reinforcements (US 1)", "USA Reinforcements (US 2)")


@pytest.mark.rule("5.7.2")
def test_historical_allies_win_draws():
    """5.7.2: the Allies win every draw: with Brest-Litovsk 10 is an Allied
    win (11 a CP win); without it 10-12 are (13 a CP win).  The end-of-game
    changes of 5.7.4 (8, 9) are cancelled here by playing those events."""
    done = US_CARDS + ("Fall of the Tsar",)
    assert [outcome_at_end(HISTORICAL, vp, played=done) for vp in (13, 12, 10, 9)] == ["cp", "ap", "ap", "ap"]
    bl = done + ("Treaty of Brest Litovsk",)
    assert [outcome_at_end(HISTORICAL, vp, played=bl) for vp in (11, 10)] == ["cp", "ap"]


@pytest.mark.rule("5.7.4")
def test_historical_end_of_game_vp_for_unplayed_events():
    """5.7.4 (8, 9): at the end (after turn 20 or an armistice) one VP for
    each USA Reinforcements card not played as an event, and minus two if Fall
    of the Tsar was not played.  Without the optional cards, three USA
    Reinforcements cards are in the game."""
    def final_vp(vp, played):
        pos = Position(HISTORICAL)
        pos.set("vp", vp)
        for card in played:
            pos.s["played"].append(pos._card(card).index)
        pos.game.invalidate()
        pos.run("decide_by_vp", "the last turn is over")
        return pos.s["vars"]["vp"], pos.s["result"]["winner"]

    assert final_vp(12, US_CARDS + ("Fall of the Tsar",)) == (12, "ap")
    assert final_vp(12, ("Fall of the Tsar",)) == (15, "cp")
    assert final_vp(12, US_CARDS) == (10, "ap")
    assert final_vp(12, US_CARDS[:1]) == (12, "ap")      # +2 for two unplayed, -2 for the Tsar
    # the armistice is decided the same way
    pos = Position(HISTORICAL)
    pos.set("vp", 12)
    pos.set("war_status", 20, key="ap")
    pos.set("war_status", 20, key="cp")
    pos.run("check_armistice")
    assert pos.s["vars"]["vp"] == 13 and pos.s["result"]["winner"] == "cp"


@pytest.mark.rule("5.7.3")
def test_historical_extra_german_rp():
    """5.7.3: at Total War the CP gets one German RP a turn while holding
    Sedan and two more French or Belgian spaces, checked as the Replacement
    Phase starts."""
    def extra(commitment="total_war_level", held=("Sedan", "Amiens", "Liege")):
        pos = Position(HISTORICAL)
        pos.set("commitment", commitment, key="cp")
        for s in held:
            pos.control(s, "cp")
        return value_of(pos, "event_rp_change", "ge")

    assert extra() == 1
    assert extra(held=("Sedan", "Amiens")) == 0                   # only one more
    assert extra(held=("Amiens", "Liege", "Verdun")) == 0         # no Sedan
    assert extra(commitment="limited_war_level") == 0             # not yet Total War
    assert value_of(Position("campaign"), "event_rp_change", "ge") == 0

    pos = Position(HISTORICAL)
    pos.set("commitment", "total_war_level", key="cp")
    for s in ("Sedan", "Amiens", "Liege"):
        pos.control(s, "cp")
    run_turn_from(pos, "replacement", 12)
    assert any("ge: 1 RP by events" in line for line in pos.log())


@pytest.mark.rule("5.7.4")
def test_historical_optional_rules_in_use():
    """5.7.4 (1, 2): eight-card hands (9.1.4) and the trench roll rule
    (11.2.10) are in use: both sides start with eight cards."""
    w = world(HISTORICAL)
    assert w.options.get("eight_card_hands") and w.options.get("entrench_drm")
    g = after_setup(HISTORICAL)
    assert len(g.s["piles"]["hand:cp"]) == 8 and len(g.s["piles"]["hand:ap"]) == 8


@pytest.mark.rule("5.7.4")
def test_historical_opens_with_guns_of_august():
    """5.7.4 (3): the Central Powers keep Guns of August for their opening
    and play it as the event of their first action; later rounds are free."""
    g = after_setup(HISTORICAL)
    assert "Guns of August" in card_names(g, "hand:cp")
    pos = Position(HISTORICAL, empty=False)
    pos.s["turn"] = 1
    pos.set("action_round", 1)
    pos.s["piles"]["hand:cp"] = [pos._card("Guns of August").index, pos.card("cp", 2).index]
    assert forbidden(pos, "start_with_guns", False) and not forbidden(pos, "start_with_guns", True)
    goa = pos._card("Guns of August")
    assert not forbidden(pos, "take_action", "cp", "event", goa)
    assert forbidden(pos, "take_action", "cp", "ops", goa)
    assert forbidden(pos, "take_action", "cp", "ops", pos.card("cp", 2))
    assert forbidden(pos, "take_action", "cp", "automatic_op", None)
    assert not forbidden(pos, "take_action", "ap", "ops", pos.card("ap", 2))
    pos.set("action_round", 2)
    assert not forbidden(pos, "take_action", "cp", "ops", pos.card("cp", 2))
    camp = Position("campaign")
    camp.s["turn"] = 1
    camp.set("action_round", 1)
    assert not forbidden(camp, "take_action", "cp", "ops", camp.card("cp", 2))
    # in play: a random game's first action is the Guns of August event
    game = play_randomly(world(HISTORICAL), 5, decisions=3)
    assert goa.index in game.s["played"]


@pytest.mark.rule("5.7.4")
def test_historical_no_entrench_event_on_turn_1():
    """5.7.4 (4): neither side's Entrench may be played as an event on turn 1."""
    for side, number in (("cp", 6), ("ap", 12)):
        pos = Position(HISTORICAL)
        pos.s["turn"] = 1
        pos.set("action_round", 3)
        assert "historical_no_entrench_on_turn_1" in pos.event_forbidden_by(side, pos.card(side, number))
        pos.s["turn"] = 2
        assert pos.may_play_event(side, pos.card(side, number))


@pytest.mark.rule("5.7.4")
def test_historical_first_british_mo_is_french():
    """5.7.4 (5): a British Mandated Offensive rolled on turn 1 becomes a
    French one, which the Allies owe that turn; on later turns it stays
    British (an Allied roll of 3 is BR).  The board is empty, so a game that
    runs past the action phase misses the offensive and names it in the log."""
    def owed(scenario, turn):
        pos = Position(scenario)
        pos.s["piles"]["hand:cp"] = [pos._card("Guns of August").index]   # the opening 5.7.4 (3) calls for
        run_turn_from(pos, "mandated_offensive", turn, dice=[6, 3])
        if pos.s["turn"] == turn and pos.s["phase"] == "action":    # stopped in that turn's actions
            return pos.var("mo_marker", "ap")
        missed = [e["text"] for e in pos.s["log"] if e["turn"] == turn and "missed their Mandated" in e["text"]]
        assert len(missed) == 1
        return missed[0].rsplit("(", 1)[1].rstrip(")")

    assert owed(HISTORICAL, 1) == "fr"
    assert owed(HISTORICAL, 2) == "br"
    assert owed("campaign", 1) == "br"


@pytest.mark.rule("5.7.4")
def test_historical_italy_closed_to_other_armies():
    """5.7.4 (6): until the Allies reach Total War only Austro-Hungarian and
    Italian armies move, attack, redeploy or advance into Italy; the rule
    names armies, so corps are free; at Allied Total War it lapses."""
    pos = Position(HISTORICAL)
    pos.s["at_war"]["it"] = True
    ge, ah, gec = pos.place("GE 9", "Trent"), pos.place("AH 7", "Trent"), pos.place("GEc", "Trent")
    verona, trent = "Verona", "Trent"

    def move(group, o="Trent", t=verona, st=None):
        return forbidden(pos, "move_step", "cp", group, o, o, 3, t, st)

    assert move([ge]) and move([ge, ah])
    assert not move([ah]) and not move([gec]) and not move([ah, gec])
    assert forbidden(pos, "advance_unit", ge, verona) and not forbidden(pos, "advance_unit", ah, verona)
    assert forbidden(pos, "redeploy_to", "cp", ge, "overland", verona)
    assert not forbidden(pos, "redeploy_to", "cp", ah, "overland", verona)
    pos.s["vars"]["combat_target"] = pos.w.by_kind["space"][verona]
    assert forbidden(pos, "attack_with", trent, [ge, ah]) and not forbidden(pos, "attack_with", trent, [ah, gec])
    # redeploying overland: not through Italy either
    for space in ("Verona", "Asiago"):
        pos.control(space, "cp")

    def network(u):
        return {s.key for s in value_of(pos, "sr_network", "cp", u)}
    assert "Verona" in network(ah) and "Verona" not in network(ge)
    assert not any(pos.w.by_kind["space"][k].data.nation.key == "it" for k in network(ge))
    pos.set("commitment", "total_war_level", key="ap")
    assert "Verona" in network(ge)
    assert not move([ge]) and not forbidden(pos, "advance_unit", ge, verona)
    assert not forbidden(pos, "attack_with", trent, [ge, ah])
    camp = Position("campaign")
    camp.s["at_war"]["it"] = True
    g2 = camp.place("GE 9", "Trent")
    assert not forbidden(camp, "move_step", "cp", [g2], trent, trent, 3, verona, None)


@pytest.mark.rule("5.7.4")
def test_historical_no_german_army_ends_in_trent_villach_trieste():
    """5.7.4 (6): until the Allies reach Total War no German army ends a move
    or an SR in Trent, Villach or Trieste; passing through is allowed, and
    other units may stop there."""
    pos = Position(HISTORICAL)
    ge, gec = pos.place("GE 9", "Munich"), pos.place("GEc", "Munich")
    here = "Munich"    # where the move began
    for space in ("Trent", "Villach", "Trieste"):
        assert forbidden(pos, "move_step", "cp", [ge], here, space, 0, None, space)      # stop there
        assert not forbidden(pos, "move_step", "cp", [gec], here, space, 0, None, space)
        assert not forbidden(pos, "move_step", "cp", [ge], space, space, 0, None, space)  # never moved
        assert forbidden(pos, "redeploy_to", "cp", ge, "overland", space)
        assert not forbidden(pos, "redeploy_to", "cp", gec, "overland", space)
    assert not forbidden(pos, "move_step", "cp", [ge], here, "Innsbruck", 0, None, "Innsbruck")
    # entering one of them with the last movement point would end the move there
    assert forbidden(pos, "move_step", "cp", [ge], here, "Innsbruck", 1, "Trent", None)
    assert not forbidden(pos, "move_step", "cp", [gec], here, "Innsbruck", 1, "Trent", None)
    pos.set("commitment", "total_war_level", key="ap")
    assert not forbidden(pos, "move_step", "cp", [ge], here, "Trent", 0, None, "Trent")


@pytest.mark.rule("5.7.4")
def test_historical_events_that_also_give_ops():
    """5.7.4 (7): Landships, Zimmermann Telegram, Over There, Tsar Takes
    Command, Fall of the Tsar and Bolshevik Revolution give their card's
    operations after the event; other events do not."""
    def after_event(scenario, name, side):
        pos = Position(scenario)
        pos.s["turn"] = 5
        pos.place("FR 3", "Verdun")
        pos.place("GE 4", "Metz")
        c = pos._card(name)
        pos.s["piles"][f"hand:{side}"] = [c.index]
        try:
            pos.run("action_round", side, answers=[f"play {c.data.number} event"])
        except AssertionError:
            pass
        return pos

    pos = after_event(HISTORICAL, "Landships", "ap")
    assert pos._card("Landships").index in pos.s["played"]
    assert pos.asked[-1].choice == "activate"
    assert any("followed by 4 operations points" in line for line in pos.log())   # Landships: 4 OPS
    pos = after_event("campaign", "Landships", "ap")
    assert pos._card("Landships").index in pos.s["played"] and pos.asked[-1].choice != "activate"
