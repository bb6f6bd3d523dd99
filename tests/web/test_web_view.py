"""The replay viewer (`pogdsl view`, pogdsl/web/replay.py): a recorded game
stepped through forward and back, each step the same position as playing
the record's first decisions again; a `simulate --out` record played again
from its seed and checked; bad records and bad requests refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pogdsl.agents import make_agent
from pogdsl.opening import open_scenario
from pogdsl.runtime.errors import BadSave
from pogdsl.runtime.record import Event, Session, replay_events, save_text
from pogdsl.web import replay as R
from pogdsl.web.app import make_app

REPO = Path(__file__).resolve().parents[2]


def played(decisions: int, seed: int = 3, spec: str = "introductory", dice=()) -> Session:
    """A game of random players, DECISIONS decisions long (dice forced first)."""
    opened = open_scenario(spec, REPO)
    session = Session.new(opened, seed, before=[Event("dice", values=list(dice))] if dice else [])
    agents = {s.key: make_agent("random", s.key, seed) for s in opened.world.sides}
    while session.decision is not None and session.decisions_made < decisions:
        d = session.decision
        session.choose(session.resolve(agents[str(d.by)].choose(session, d)) + 1)
    return session


def test_each_step_is_the_position_its_decisions_lead_to():
    session = played(60, dice=(6, 1))
    replay = R.Replay(session, "game")
    assert replay.steps == 60 and replay.final == session.game.state_hash()
    for step in (0, 1, 15, 16, 17, 33, 59, 60):
        kept = replay.events[:replay.starts[step]]
        again = replay_events(session.opened, session.game.s["seed"], kept)
        assert replay.position(step).state_hash() == again.game.state_hash(), step
        assert sum(e.kind == "decision" for e in kept) == step


def test_the_view_steps_forward_and_back():
    session = played(40)
    client = TestClient(make_app(R.Replay(session, "game")))
    last = client.get("/api/view").json()
    assert last["mode"] == "view" and last["step"] == last["steps"] == 40
    first = client.get("/api/view", params={"step": 0}).json()
    assert first["step"] == 0 and first["decision"]["chosen"] == session.events[0].text
    chosen = [o for o in first["decision"]["options"] if o["chosen"]]
    assert [o["label"] for o in chosen] == [session.events[0].text]
    # forward: the log grows by the step's lines; back: it shrinks to what it was
    five = client.get("/api/view", params={"step": 5, "log_from": first["log_total"]}).json()
    assert five["log_start"] == first["log_total"] and five["log_total"] >= first["log_total"]
    four = client.get("/api/view", params={"step": 4, "log_from": five["log_total"]}).json()
    assert four["log_total"] <= five["log_total"] and four["log_start"] == four["log_total"]
    # the dice a step rolled are those of its log lines
    for step in range(1, 41):
        v = client.get("/api/view", params={"step": step, "log_from": 0}).json()
        rolled = [int(e["text"].split()[1]) for e in v["log"][v["step_log_start"]:] if e["text"].startswith("rolled ")]
        assert v["dice"] == rolled


def test_the_viewer_draws_for_one_side_or_none():
    session = played(10)
    client = TestClient(make_app(R.Replay(session, "game")))
    w, piles = session.world, session.game.s["piles"]
    none = client.get("/api/view", params={"step": 10}).json()
    assert none["hand"] == [] and "data-card=" not in none["board"]["svg"]
    ap = client.get("/api/view", params={"step": 10, "seat": "ap"}).json()
    assert sorted(c["number"] for c in ap["hand"]) == sorted(w.cards[i].data.number for i in piles["hand:ap"])
    assert not any(f'data-card="CP {w.cards[i].data.number}"' in ap["board"]["svg"] for i in piles["hand:cp"])


@pytest.mark.parametrize("params, said", [
    ({"step": 99}, "from 0 to 10"), ({"step": -1}, "whole number"), ({"step": "x"}, "whole number"),
    ({"seat": "../etc"}, "no seat"), ({"log_from": "1e9"}, "whole number"), ({"file": "/etc/passwd"}, "unknown"),
])
def test_bad_view_requests(params, said):
    client = TestClient(make_app(R.Replay(played(10), "game")))
    r = client.get("/api/view", params=params)
    assert r.status_code == 400 and said in r.json()["error"]
    assert client.get("/api/game").status_code == 404  # nothing to play in the viewer
    assert client.post("/api/decide", json={}).status_code == 404


def test_a_simulate_record_is_played_again_and_checked(tmp_path):
    out = tmp_path / "games.jsonl"
    subprocess.run([sys.executable, "-m", "pogdsl.cli", "simulate", "introductory", "--games", "2", "--seed", "5",
                    "--workers", "1", "--ap", "random", "--cp", "random", "--out", str(out), "--root", str(REPO)],
                   check=True, capture_output=True, cwd=REPO)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    with pytest.raises(BadSave, match="several games"):
        R.read_record_line(out, None)
    with pytest.raises(BadSave, match="no game 7"):
        R.read_record_line(out, 7)
    data = R.read_record_line(out, 1)
    session = R.replay_record(data, out, REPO)
    assert session.game.state_hash() == lines[1]["hash"] and session.decisions_made == lines[1]["decisions"]
    # a record whose end does not match is refused
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**lines[0], "hash": "0" * 64}) + "\n")
    with pytest.raises(BadSave, match="does not reach its recorded end"):
        R.replay_record(R.read_record_line(bad, None), bad, REPO)
    named = tmp_path / "named.jsonl"
    named.write_text(json.dumps({**lines[0], "scenario": "../scenarios/campaign.pog"}) + "\n")
    with pytest.raises(BadSave, match="names no scenario by name"):
        R.replay_record(R.read_record_line(named, None), named, REPO)
    for text in ["not json\n", "[1]\n"]:
        broken = tmp_path / "broken.jsonl"
        broken.write_text(text)
        with pytest.raises(BadSave, match="broken.jsonl:1"):
            R.read_record_line(broken, None)


def cli(*args):
    return subprocess.run([sys.executable, "-m", "pogdsl.cli", *args], capture_output=True, text=True, cwd=REPO,
                          timeout=300)


def test_view_and_serve_refuse_bad_input_in_one_line(tmp_path):
    save = tmp_path / "game.json"
    save.write_text(save_text(played(5)))
    r = cli("view", str(save), "--game", "2")
    assert r.returncode == 2 and "--game N picks a game" in r.stderr and "Traceback" not in r.stderr
    damaged = tmp_path / "damaged.json"
    damaged.write_text(save.read_text().replace('"turn"', '"turm"', 1))
    r = cli("view", str(damaged))
    assert r.returncode == 1 and r.stderr.startswith("pogdsl view: error: ") and "Traceback" not in r.stderr
    r = cli("serve", "introductory", "--ap", "greedy", "--cp", "random")
    assert r.returncode == 2 and "no side is played by a person" in r.stderr
    r = cli("serve", "introductory", "--ap", "script:/etc/passwd")
    assert r.returncode == 2 and "not by 'script:/etc/passwd'" in r.stderr
    r = cli("serve", "introductory", "--port", "70000")
    assert r.returncode == 2 and "--port" in r.stderr
    r = cli("serve", "no_such_scenario")
    assert r.returncode == 2 and "unknown scenario" in r.stderr and "Traceback" not in r.stderr


def test_serve_on_a_port_taken_says_so_in_one_line():
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = cli("serve", "introductory", "--port", str(port))
    assert r.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in r.stderr
    assert "Traceback" not in r.stderr and "http://" not in r.stderr
