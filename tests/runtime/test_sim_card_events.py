"""`pogdsl simulate --json` counts the events played per card, and
benchmarks/card_events.py prints them with the cards never played."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from pogdsl.runtime.record import Session
from pogdsl.sim import play_random, simulate

from .conftest import REPO, RULES, run_cli


def test_a_game_counts_every_event_it_plays(rules):
    session = Session.new(rules, 3)
    while not session.game.over:
        session.choose(1)
    logged = {}
    for entry in session.game.s["log"]:
        if entry["text"].startswith("event: "):
            name = entry["text"][len("event: "):]
            logged[name] = logged.get(name, 0) + 1
    played = {rules.world.by_kind["card"][k].data.name.text: n for k, n in session.game.events_played.items()}
    assert played == logged and sum(played.values()) > 0


def test_simulate_sums_the_plays_of_every_game(rules):
    summary = simulate("toy_rules", games=6, seed=2, root=RULES, workers=1, agents={"ap": "random", "cp": "random"})
    events = summary["card_events"]
    # Every card with a written event, in side and number order, by `AP 1`.
    assert list(events) == ["AP 1", "AP 2", "AP 3", "AP 4", "CP 1"]
    assert events["AP 1"]["name"] == "Fog"
    from pogdsl.sim import game_seed

    per_game = [play_random(rules, game_seed(2, i))["events"] for i in range(6)]
    for key, v in events.items():
        card = rules.world.by_kind["card"][key.lower()]
        counts = [g.get(card.key, 0) for g in per_game]
        assert v["played"] == sum(counts) and v["games"] == sum(1 for n in counts if n)


def test_simulate_json_has_card_events():
    proc = run_cli("simulate", "toy_rules", "--root", RULES, "--games", "3", "--workers", "1", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(summary["card_events"]) == {"AP 1", "AP 2", "AP 3", "AP 4", "CP 1"}
    assert set(summary["card_events"]["CP 1"]) == {"name", "played", "games"}


def test_benchmark_lists_the_cards_never_played():
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        import card_events
    finally:
        sys.path.pop(0)
    out = io.StringIO()
    card_events.report({"scenario": "s", "games": 2, "seed": 1, "finished": 2, "failed": 0, "card_events": {
        "AP 1": {"name": "Fog", "played": 3, "games": 2}, "CP 1": {"name": "Guns", "played": 0, "games": 0}}},
        out=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "s: 2 games, seed 1: 2 finished, 0 failed; 2 cards with an event"
    assert lines[-2:] == ["never played as an event (1):", "  CP 1 Guns"]
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / "card_events.py"), "toy_rules", "--root",
                           str(RULES), "--games", "3", "--workers", "1"], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("toy_rules: 3 games, seed 1: 3 finished, 0 failed; 5 cards with an event")
    assert "never played as an event" in done.stdout
