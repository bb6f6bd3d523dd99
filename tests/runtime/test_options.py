"""Scenario options set when a game starts: `--option NAME=VALUE` on `play`,
`simulate` and `replay`, recorded in saves and scripts and used when they
are replayed, and what `option("NAME")` gives the rules."""

from __future__ import annotations

import json

import pytest

from .conftest import REPO, run_cli

OPTIONS = REPO / "tests" / "fixtures" / "toy_options"


def toy_options(options=None):
    from pogdsl.opening import open_scenario

    return open_scenario("toy_options", OPTIONS, options=options)


def first_vp(opened, seed: int = 1) -> int:
    """VP once the first turn's bid is settled (before the first pick)."""
    g = opened.new_game(seed)
    g.run()
    return g.s["vars"]["vp"]


def play(*args, seed: int = 2):
    return run_cli("play", "toy_options", "--root", OPTIONS, "--ap", "random", "--cp", "random",
                   "--seed", str(seed), *args)


# ------------------------------------------------------------------ runtime
def test_defaults_and_values_of_every_kind():
    assert toy_options().options == {"double": False, "vp_bid": 0, "bid_side": None}
    opened = toy_options({"double": "on", "vp_bid": "4", "bid_side": "cp"})
    assert opened.options == {"double": True, "vp_bid": 4, "bid_side": "cp"}
    assert opened.options_text() == {"double": "on", "vp_bid": "4", "bid_side": "cp"}


def test_option_values_reach_the_rules():
    assert first_vp(toy_options()) == 10
    assert first_vp(toy_options({"vp_bid": "3", "bid_side": "ap"})) == 13
    assert first_vp(toy_options({"vp_bid": "3", "bid_side": "cp"})) == 7
    assert first_vp(toy_options({"vp_bid": "3"})) == 10  # nobody bids


def test_an_on_off_option_changes_the_game():
    plain, doubled = toy_options().new_game(1), toy_options({"double": "on"}).new_game(1)
    for g in (plain, doubled):
        g.run()
        g.choose("pick 3")
    assert plain.s["vars"]["vp"] == 13 and doubled.s["vars"]["vp"] == 16


@pytest.mark.parametrize("given, words", [
    ({"dubble": "on"}, ["has no option 'dubble'", "did you mean 'double'", "bid_side, double, vp_bid"]),
    ({"vp_bid": "6"}, ["takes a whole number in 0..5, not '6'"]),
    ({"vp_bid": "two"}, ["takes a whole number in 0..5"]),
    ({"bid_side": "ru"}, ["takes one of ap, cp, none, not 'ru'"]),
    ({"double": "maybe"}, ["takes on or off"]),
])
def test_a_bad_option_is_a_usage_error(given, words):
    from pogdsl.errors import UsageError

    with pytest.raises(UsageError) as err:
        toy_options(given)
    for w in words:
        assert w in str(err.value)


@pytest.mark.rule("9.1.2")
@pytest.mark.rule("9.1.4")
def test_campaign_options_change_decks_and_hands():
    """Optional cards (56-65) go into the decks only when the option is on
    (9.1.2); eight-card hands deal eight cards instead of seven (9.1.4)."""
    from pogdsl.opening import open_scenario

    def after_the_deal(options):
        opened = open_scenario("campaign", REPO, options=options)
        g = opened.new_game(1)
        g.run()
        g.choose(1)  # whether the CP keeps Guns of August: either way, the hands are then dealt
        cards = opened.world.cards
        ap = sorted(cards[i].data.number for i in g.s["piles"]["hand:ap"] + g.s["piles"]["draw:ap"])
        return ap, len(g.s["piles"]["hand:ap"]), len(g.s["piles"]["hand:cp"])

    ap, ap_hand, cp_hand = after_the_deal({})
    assert not [n for n in ap if 56 <= n <= 65] and (ap_hand, cp_hand) == (7, 7)
    ap, ap_hand, cp_hand = after_the_deal({"optional_cards": "on", "eight_card_hands": "on"})
    assert [n for n in ap if 56 <= n <= 65] == [56, 57]  # Paris Taxis and Russian Cavalry: Mobilization deck
    assert (ap_hand, cp_hand) == (8, 8)


def test_a_shared_rule_reads_an_option_the_scenario_does_not_declare(tmp_path):
    """A scenario without the option plays a shared rule with the default
    another scenario declares for it."""
    from pogdsl.compiler import resolve_scenario
    from pogdsl.runtime.world import option_values

    extra = tmp_path / "bare.pog"
    extra.write_text('scenario bare "Bare" cites 4.1 {\n  turns 1..1\n  sequence turn\n}\n', encoding="utf-8")
    _, program = resolve_scenario(str(extra), OPTIONS)
    assert option_values(program) == {"bid_side": None, "double": False, "vp_bid": 0}


# ------------------------------------------------------------------ command line
@pytest.mark.parametrize("command", ["play", "simulate", "replay"])
def test_help_tells_about_options(command):
    proc = run_cli(command, "--help")
    assert proc.returncode == 0 and "--option NAME[=VALUE]" in proc.stdout


def test_play_records_the_options_and_replays_honour_them(tmp_path):
    save, record = tmp_path / "g.json", tmp_path / "g.txt"
    proc = play("--option", "double", "--option", "vp_bid=2", "-o", "bid_side=ap", "--save", save,
                "--record", record)
    assert proc.returncode == 0, proc.stderr
    assert "options: double=on, vp_bid=2, bid_side=ap" in proc.stderr
    assert json.loads(save.read_text())["options"] == {"double": "on", "vp_bid": "2", "bid_side": "ap"}
    lines = record.read_text().splitlines()
    assert ["option double on", "option vp_bid 2", "option bid_side ap"] == [l for l in lines if
                                                                            l.startswith("option ")]
    state = proc.stdout.split("final state ")[1].strip()
    for path in (save, record):
        again = run_cli("replay", path, "--root", OPTIONS)
        assert again.returncode == 0, again.stderr
        assert "(options double=on, vp_bid=2, bid_side=ap)" in again.stdout and state in again.stdout
    # The same game without its option lines does not reach the recorded state ...
    bare = tmp_path / "bare.txt"
    bare.write_text("\n".join(l for l in lines if not l.startswith("option ")) + "\n")
    proc = run_cli("replay", bare, "--root", OPTIONS)
    assert proc.returncode == 1 and "expected hash" in proc.stderr
    # ... unless replay is told them.
    proc = run_cli("replay", bare, "--root", OPTIONS, "--option", "double=on", "--option", "vp_bid=2",
                   "--option", "bid_side=ap")
    assert proc.returncode == 0, proc.stderr


def test_a_replay_may_not_contradict_the_recorded_options(tmp_path):
    save = tmp_path / "g.json"
    assert play("--option", "vp_bid=2", "--save", save).returncode == 0
    for command in (("replay", save), ("play", "--load", save)):
        proc = run_cli(*command, "--root", OPTIONS, "--option", "vp_bid=3")
        assert proc.returncode == 2
        assert proc.stderr.strip().endswith("was played with option vp_bid=2; --option cannot change it to 3")


def test_the_options_change_the_game_played():
    plain, bid = play(), play("--option", "vp_bid=5", "--option", "bid_side=cp")
    assert plain.returncode == bid.returncode == 0
    assert plain.stdout.split("final state")[1] != bid.stdout.split("final state")[1]


@pytest.mark.parametrize("command", ["play", "simulate", "replay"])
@pytest.mark.parametrize("option, message", [
    ("dubble", "scenario 'toy_options' has no option 'dubble' (did you mean 'double'?); its options: bid_side, "
               "double, vp_bid"),
    ("vp_bid=9", "option 'vp_bid' takes a whole number in 0..5, not '9'"),
    ("bid_side=ru", "option 'bid_side' takes one of ap, cp, none, not 'ru'"),
    ("=3", "--option takes NAME=VALUE (or NAME alone for on), not '=3'"),
])
def test_unknown_options_and_bad_values_are_one_line_usage_errors(tmp_path, command, option, message):
    if command == "replay":  # a script that records no option: --option may set any
        record = tmp_path / "g.txt"
        record.write_text("scenario toy_options\nseed 1\nap: pick 1\n")
        args = ["replay", record]
    elif command == "play":
        args = ["play", "toy_options", "--ap", "random", "--cp", "random"]
    else:
        args = ["simulate", "toy_options", "--games", "2", "--workers", "1"]
    proc = run_cli(*args, "--root", OPTIONS, "--option", option)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [f"pogdsl {command}: error: {message}"]


def test_a_script_with_a_bad_option_line_names_the_line(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("scenario toy_options\nseed 1\noption vp_bid 7\nap: pick 1\n")
    proc = run_cli("replay", script, "--root", OPTIONS)
    assert proc.returncode == 1 and ":3:" in proc.stderr and "takes a whole number in 0..5" in proc.stderr


def test_a_save_with_damaged_options(tmp_path):
    save = tmp_path / "g.json"
    assert play("--save", save).returncode == 0
    data = json.loads(save.read_text())
    data["options"] = ["double"]
    save.write_text(json.dumps(data))
    proc = run_cli("replay", save, "--root", OPTIONS)
    assert proc.returncode == 1 and 'the field "options" is not a table of option values' in proc.stderr


def _simulate(*args):
    proc = run_cli("simulate", "toy_options", "--root", OPTIONS, "--games", "6", "--seed", "4", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def test_simulate_reports_the_options_and_is_deterministic_with_them():
    plain = _simulate("--workers", "1")
    assert plain["options"] == {"double": "off", "vp_bid": "0", "bid_side": "none"}
    one = _simulate("--workers", "1", "--option", "double", "--option", "vp_bid=1", "--option", "bid_side=ap")
    two = _simulate("--workers", "2", "--option", "double", "--option", "vp_bid=1", "--option", "bid_side=ap")
    assert one["options"] == {"double": "on", "vp_bid": "1", "bid_side": "ap"}
    assert one["digest"] == two["digest"] != plain["digest"]


# ------------------------------------------------------------------ an optional rule
def _campaign_position(options):
    """The rule harness's position, on a campaign world built with `options`."""
    import sys

    sys.path.insert(0, str(REPO / "tests"))
    from rules.harness import Position

    from pogdsl.runtime.interpreter import Game
    from pogdsl.opening import open_scenario

    pos = Position.__new__(Position)
    pos.w = open_scenario("campaign", REPO, options=options).world
    pos.game = Game.new(pos.w, seed=0)
    pos.s, pos.asked = pos.game.s, []
    pos.clear_board()
    return pos


@pytest.mark.rule("11.2.10")
@pytest.mark.parametrize("on", [False, True])
def test_entrench_drm_helps_the_round_after_a_failed_roll(on):
    """11.2.10 (optional): a German army that failed to entrench subtracts one
    from its entrench roll the next round; without the option it does not."""
    pos = _campaign_position({"entrench_drm": "on" if on else "off"})
    army = pos.place("GE 1", "Breslau")  # loss factor 3
    space = pos.entity("space", "Breslau")
    assert pos.s["vars"]["trench"].get(space.key, 0) in (0, None)
    pos.s["turn"] = 2
    pos.set("action_round", 1)
    pos.run("resolve_entrenchments", "cp", [army], dice=[6])  # fails
    pos.set("action_round", 2)
    pos.run("resolve_entrenchments", "cp", [army], dice=[4])  # 4 - 1 <= 3 only with the option
    assert bool(pos.s["vars"]["trench"].get(space.key, 0)) is on


# ------------------------------------------------------ the documented toy
def test_the_docs_toy_short_war_option_ends_the_game_after_turn_three():
    """The option the variants page shows (docs/examples/toy, its rule 3.1):
    off, the toy war runs its five turns; on, it stops once turn 3 is over,
    no side having reached its VP threshold."""
    from pogdsl.agents import RandomAgent, agent_seed
    from pogdsl.opening import open_scenario

    toy = REPO / "docs" / "examples" / "toy"
    for options, last in ((None, 5), ({"short_war": "on"}, 3)):
        opened = open_scenario("toy", toy, options=options)
        for seed in range(5):
            g = opened.new_game(seed, log=False)
            g.samplers = {s.key: RandomAgent(agent_seed(seed, s.key)) for s in opened.world.sides}
            g.run()
            assert g.s["turn"] == last
            assert (g.s["result"]["reason"] == "the short war is over") == (last == 3)
