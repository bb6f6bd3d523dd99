"""The web board's JSON API (pogdsl/web/, `pogdsl serve`), called through
Starlette's TestClient: the opening of a Campaign game played by requests,
the refusals (an illegal option with its rule, a malformed request, a stale
decision), undo that never rolls a die again nor hides a seen card, saves,
the token of a server open to other machines, and hidden information on the
wire: what a seat receives never names a card of another hand or of a draw
pile."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pogdsl.opening import open_scenario
from pogdsl.runtime.record import Session, load_any
from pogdsl.web.app import make_app
from pogdsl.web.table import Table

REPO = Path(__file__).resolve().parents[2]
SCENARIOS = {"campaign": "campaign", "introductory": "introductory"}


def table_of(players: dict, seed: int = 1, spec: str = "campaign") -> Table:
    opened = open_scenario(spec, REPO)
    return Table(Session.new(opened, seed), players, scenarios=SCENARIOS, root=REPO)


def client_of(table: Table, **options) -> TestClient:
    return TestClient(make_app(table, **options))


@pytest.fixture
def hotseat():
    table = table_of({"ap": "human", "cp": "human"})
    return table, client_of(table)


def answer(client, data, option, **extra):
    d = data["decision"]
    return client.post("/api/decide", json={"decision": d["id"], "option": option, "seat": d["side"], **extra})


def index_of(data, text: str) -> int:
    return next(o["index"] for o in data["decision"]["options"] if o["label"] == text)


def to_first_action(client):
    """From the start to cp's first action (Guns of August kept in hand)."""
    data = client.get("/api/game").json()
    assert data["decision"]["choice"] == "start_with_guns"
    r = answer(client, data, index_of(data, "start with Guns of August in hand: yes"))
    assert r.status_code == 200, r.text
    return r.json()


# ---------------------------------------------------------------- playing
def test_the_opening_played_by_requests(hotseat):
    table, client = hotseat
    data = to_first_action(client)
    d = data["decision"]
    assert d["side"] == "cp" and d["choice"] == "take_action" and d["yours"]
    assert any(c["name"] == "Guns of August" for c in data["hand"])  # 4.3: kept in the starting hand
    # The log says what happened, each line with its rules' numbers and titles.
    drew = [e for e in data["log"] if e["text"] == "cp draws 6 cards"]
    assert drew and "4.3" in [r["number"] for r in drew[0]["rules"]]
    assert all(r["title"] for e in data["log"] for r in e["rules"] if r["number"] == "4.3")
    # The Guns of August event: an option naming the card.
    event = next(o for o in d["options"] if "Guns of August" in o["label"] and "event" in o["label"])
    data = answer(client, data, event["index"]).json()
    assert any("event: Guns of August" in e["text"] for e in data["log"])
    assert table.session.events[-1].text == event["label"]
    # Liege and Namur fall to the event (the card's own text): control changes on the board.
    board = data["board"]["svg"]
    assert board is not None
    assert re.search(r'data-space="Liege"[^>]*data-control="cp"', board)


def test_options_name_their_spaces_and_units(hotseat):
    _, client = hotseat
    data = to_first_action(client)
    ops = next(o for o in data["decision"]["options"] if o["label"].startswith("play") and "ops" in o["label"])
    data = answer(client, data, ops["index"]).json()
    d = data["decision"]
    assert d["choice"] == "activate"
    activations = [o for o in d["options"] if o["label"].startswith("activate ")]
    assert activations
    for o in activations:
        assert len(o["spaces"]) == 1 and o["spaces"][0] in o["label"]
    # Each space named is one the board draws (and the page can highlight).
    board = client.get("/api/game", params={"seat": "cp"}).json()["board"]["svg"]
    assert f'data-space="{d["options"][0]["spaces"][0]}"' in board


def test_computer_players_answer_between_decisions():
    table = table_of({"ap": "human", "cp": "greedy"})
    client = client_of(table)
    data = client.get("/api/game").json()
    # cp (greedy) answered its decisions on the server: it is ap's turn, and cp's moves are in the log.
    assert data["seat"] == "ap" and data["decision"]["side"] == "ap" and data["decision"]["yours"]
    chose = [e for e in data["log"] if e["text"].startswith("cp chose: ")]
    assert chose and all(e["rules"] for e in chose)
    assert data["players"] == [{"side": "ap", "player": "human", "human": True, "hand": len(data["hand"])},
                               {"side": "cp", "player": "greedy", "human": False,
                                "hand": len(table.session.game.s["piles"]["hand:cp"])}]


# ---------------------------------------------------------------- refusals
def test_a_forbidden_option_is_refused_with_its_rule(hotseat):
    table, client = hotseat
    data = to_first_action(client)
    ops = next(o for o in data["decision"]["options"] if o["label"].startswith("play") and "ops" in o["label"])
    data = answer(client, data, ops["index"]).json()
    # Activate, then move a unit until a move is forbidden (11.1.7: never into enemy units).
    for _ in range(40):
        d = data["decision"]
        forbidden = [o for o in d["options"] if not o["legal"]]
        if any("11.1.7" in [r["number"] for r in o["rules"]] for o in forbidden):
            break
        data = answer(client, data, 0).json()
    bad = next(o for o in data["decision"]["options"] if not o["legal"]
               and "11.1.7" in [r["number"] for r in o["rules"]])
    assert "forbidden by" in bad["reason"] and bad["rules"][0]["title"]
    before = table.session.game.state_hash()
    r = answer(client, data, bad["index"])
    assert r.status_code == 422
    assert "11.1.7" in r.json()["rules"] and "forbidden by" in r.json()["error"]
    assert table.session.game.state_hash() == before  # the game is as it was
    r = answer(client, data, bad["label"])  # by its text: the same refusal
    assert r.status_code == 422 and "11.1.7" in r.json()["rules"]


def test_why_explains_a_forbidden_option_to_its_own_seat_only(hotseat):
    table, client = hotseat
    data = to_first_action(client)
    ops = next(o for o in data["decision"]["options"] if o["label"].startswith("play") and "ops" in o["label"])
    data = answer(client, data, ops["index"]).json()
    for _ in range(40):
        bad = [o for o in data["decision"]["options"] if not o["legal"]]
        if bad:
            break
        data = answer(client, data, 0).json()
    side = data["decision"]["side"]
    r = client.get("/api/why", params={"option": bad[0]["index"], "seat": side})
    assert r.status_code == 200
    why = r.json()
    assert why["verdict"] == "forbidden" and why["option"] == bad[0]["label"]
    # the same restriction and rules the refusal names, then the condition that decided
    assert why["text"].startswith(f"'{bad[0]['label']}' is forbidden by") and "because" in why["text"]
    assert all(r["number"] in why["text"] for r in bad[0]["rules"])
    other = "ap" if side == "cp" else "cp"
    assert client.get("/api/why", params={"option": 0, "seat": other}).status_code == 409
    assert client.get("/api/why", params={"seat": side}).status_code == 400


@pytest.mark.parametrize("body, status, said", [
    ({"option": 0}, 400, "decision"),
    ({"decision": 5, "option": 0}, 400, "id of the decision"),
    ({"decision": "1.1", "option": True}, 400, "index"),
    ({"decision": "1.1", "option": [1]}, 400, "index"),
    ({"decision": "1.1", "option": 0, "path": "/etc/passwd"}, 400, "unknown field"),
    ({"decision": "1.1", "option": 0, "seat": "../x"}, 400, "no seat"),
    ({"decision": "1.1", "option": 0, "log_from": "x"}, 400, "log_from"),
])
def test_malformed_requests_get_a_clear_error(hotseat, body, status, said):
    table, client = hotseat
    data = client.get("/api/game").json()
    body = {k: (data["decision"]["id"] if v == "1.1" else v) for k, v in body.items()}
    before = table.session.game.state_hash(), table.revision
    r = client.post("/api/decide", json=body)
    assert r.status_code == status and said in r.json()["error"]
    assert (table.session.game.state_hash(), table.revision) == before


def test_bodies_that_are_not_json_objects(hotseat):
    table, client = hotseat
    before = table.session.game.state_hash()
    for content, kind, status in [(b"{", "application/json", 400), (b"[1]", "application/json", 400),
                                  (b"option=1", "application/x-www-form-urlencoded", 415),
                                  (b"{}" + b" " * 70000, "application/json", 413)]:
        r = client.post("/api/decide", content=content, headers={"content-type": kind})
        assert r.status_code == status, (content[:10], r.text)
        assert set(r.json()) <= {"error", "rules"}
    assert client.get("/api/game", params={"seat": "nobody"}).status_code == 400
    assert client.get("/api/game", params={"file": "x"}).status_code == 400
    assert client.get("/api/nothing").status_code == 404
    assert client.get("/api/decide").status_code == 405
    assert table.session.game.state_hash() == before
    assert to_first_action(client)["decision"]["choice"] == "take_action"  # and it plays on


def test_an_option_out_of_range_or_out_of_turn(hotseat):
    _, client = hotseat
    data = client.get("/api/game").json()
    r = answer(client, data, 99)
    assert r.status_code == 422 and "no option 99" in r.json()["error"]
    r = client.post("/api/decide", json={"decision": data["decision"]["id"], "option": 0, "seat": "ap"})
    assert r.status_code == 409 and "cp's" in r.json()["error"]


def test_a_stale_decision_is_refused(hotseat):
    table, client = hotseat
    first = client.get("/api/game").json()
    assert answer(client, first, 0).status_code == 200
    before = table.session.game.state_hash()
    r = answer(client, first, 0)  # the same click again: the decision it answered is gone
    assert r.status_code == 409 and "no longer pending" in r.json()["error"]
    assert table.session.game.state_hash() == before


# ---------------------------------------------------------------- undo
def test_undo_takes_back_a_decision_that_rolled_nothing(hotseat):
    table, client = hotseat
    data = to_first_action(client)
    before = table.session.game.state_hash()
    ops = next(o for o in data["decision"]["options"] if o["label"].startswith("play") and "ops" in o["label"])
    data = answer(client, data, ops["index"]).json()
    assert data["undo"]["possible"]
    r = client.post("/api/undo", json={"seat": "cp"})
    assert r.status_code == 200
    assert table.session.game.state_hash() == before
    assert r.json()["decision"]["choice"] == "take_action"


def test_undo_never_rolls_a_die_again(hotseat):
    table, client = hotseat
    data = to_first_action(client)  # the answer drew the hands and rolled the Mandated Offensives (7.1)
    assert any(e["text"].startswith("rolled ") for e in data["log"])
    assert not data["undo"]["possible"] and "die was rolled" in data["undo"]["reason"]
    before = table.session.game.state_hash()
    r = client.post("/api/undo", json={"seat": "cp"})
    assert r.status_code == 409 and "die was rolled" in r.json()["error"]
    assert table.session.game.state_hash() == before


def test_undo_never_hides_a_card_drawn_or_shown():
    from pogdsl.runtime.hidden import undo_reveals

    table = table_of({"ap": "human", "cp": "human"})
    to_first_action(client_of(table))  # the hands dealt
    g = table.session.game
    then = {k: g.s[k] for k in ("rng", "dice")} | {"piles": {k: list(v) for k, v in g.s["piles"].items()}}
    now = {"rng": g.s["rng"], "dice": g.s["dice"], "piles": {k: list(v) for k, v in g.s["piles"].items()}}
    assert undo_reveals(then, now, "ap") is None
    card = now["piles"]["draw:ap"].pop()
    now["piles"]["hand:ap"].append(card)
    assert "ap drew a card" in undo_reveals(then, now, "ap")
    now = {"rng": g.s["rng"], "dice": g.s["dice"], "piles": {k: list(v) for k, v in g.s["piles"].items()}}
    shown = now["piles"]["hand:cp"].pop()
    now["piles"]["discard:cp"].append(shown)
    assert "cp's hand was shown" in undo_reveals(then, now, "ap")


def test_nothing_to_undo(hotseat):
    _, client = hotseat
    r = client.post("/api/undo", json={"seat": "ap"})
    assert r.status_code == 409 and "no decision of yours" in r.json()["error"]


# ---------------------------------------------------------------- saves and new games
def test_a_save_downloaded_loads_back_to_the_same_game(hotseat, tmp_path):
    table, client = hotseat
    data = to_first_action(client)
    answer(client, data, 0)
    r = client.get("/api/save")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    assert re.fullmatch(r'attachment; filename="campaign-turn1-\d+\.json"', r.headers["content-disposition"])
    path = tmp_path / "game.json"
    path.write_bytes(r.content)
    loaded = load_any(path, REPO)
    assert loaded.game.state_hash() == table.session.game.state_hash()
    # and a server started from it serves the same position
    again = Table(loaded, {"ap": "human", "cp": "human"}, scenarios=SCENARIOS, root=REPO)
    assert again.session.decision.options == table.session.decision.options


def test_new_game_names_a_listed_scenario_never_a_file(hotseat):
    table, client = hotseat
    names = [s["key"] for s in client.get("/api/scenarios").json()["scenarios"]]
    assert names == sorted(SCENARIOS)
    for bad in ["../../etc/passwd", "/etc/passwd", "scenarios/campaign.pog", "campaign.pog", "", None, 3]:
        r = client.post("/api/new", json={"scenario": bad, "seed": 1})
        assert r.status_code == 400 and "no scenario" in r.json()["error"], bad
    for seed in [-1, "x", 1.5, True, 2 ** 60]:
        assert client.post("/api/new", json={"scenario": "introductory", "seed": seed}).status_code == 400
    assert client.get("/static/../pyproject.toml").status_code == 404
    assert client.get("/static/%2e%2e/app.py").status_code == 404
    r = client.post("/api/new", json={"scenario": "introductory", "seed": 7})
    assert r.status_code == 200
    data = r.json()
    assert data["scenario"]["key"] == "introductory" and data["log_start"] == 0
    assert table.session.game.s["seed"] == 7


# ---------------------------------------------------------------- the token
def test_a_server_open_to_other_machines_needs_its_token():
    table = table_of({"ap": "human", "cp": "greedy"})
    client = client_of(table, token="s3cret-token", loopback=False)
    for path in ["/", "/api/game", "/api/save", "/static/app.js", "/api/scenarios"]:
        r = client.get(path)
        assert r.status_code == 403 and "token" in r.json()["error"], path
    assert client.get("/api/game", params={"token": "wrong"}).status_code == 403
    assert client.post("/api/undo", json={}).status_code == 403
    assert client.get("/api/game", headers={"X-Pogdsl-Token": "s3cret-token"}).status_code == 200
    # The page's address carries the token; the cookie it sets serves the page's own requests.
    r = client.get("/", params={"token": "s3cret-token"})
    assert r.status_code == 200 and "pogdsl_token=s3cret-token" in r.headers["set-cookie"]
    assert client.get("/static/app.js").status_code == 200


def test_on_loopback_a_foreign_host_name_is_refused():
    table = table_of({"ap": "human", "cp": "greedy"})
    client = client_of(table)
    r = client.get("/api/game", headers={"host": "evil.example:8000"})
    assert r.status_code == 400 and "127.0.0.1" in r.json()["error"]
    for host in ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "localhost"]:
        assert client.get("/api/game", headers={"host": host}).status_code == 200, host


# ---------------------------------------------------------------- hidden information
def names_hidden_from(table: Table, seat: str) -> set[str]:
    """The card names SEAT may not know of: another side's hand and draw pile
    (of its own draw pile it knows which cards, not their order), less those
    SEAT sees anyway (its own cards, open piles: a name two cards share)."""
    w, piles = table.session.world, table.session.game.s["piles"]
    hidden, seen = set(), set()
    for pile, cards in piles.items():
        kind, _, owner = pile.partition(":")
        names = {w.cards[i].data.name.text for i in cards}
        if kind in ("draw", "hand") and owner != seat:
            hidden |= names
        else:
            seen |= names
    return hidden - seen


def without_rules_text(data):
    """DATA less the rules' own words (a rule's title and note, a decision's
    prompt): the same in every game, they may name a card (4.3 names Guns of
    August) without saying where it is."""
    if isinstance(data, dict):
        return {k: without_rules_text(v) for k, v in data.items() if k not in ("title", "note", "prompt")}
    if isinstance(data, list):
        return [without_rules_text(v) for v in data]
    return data


@pytest.mark.parametrize("players", [{"ap": "human", "cp": "human"}, {"ap": "human", "cp": "greedy"}])
def test_a_seat_never_receives_another_hand_or_a_deck(players):
    table = table_of(players)
    client = client_of(table)
    data = client.get("/api/game").json()
    seats = [side for side, who in players.items() if who == "human"]
    for step in range(12):
        logs = []
        for seat in seats:
            raw = client.get("/api/game", params={"seat": seat, "log_from": 0}).text
            for word in ('"rng"', '"seed"', "draw:", '"dice"', '"piles"'):
                assert word not in raw
            seen = json.loads(raw)
            # The log is the game's public record, the same for every seat; the rest is the seat's own.
            logs.append(seen.pop("log"))
            text = json.dumps(without_rules_text(seen))
            hidden = names_hidden_from(table, seat)
            assert hidden, "the test needs hidden cards"
            leaked = sorted(n for n in hidden if n in text)
            assert not leaked, (seat, step, leaked)
        assert all(log == logs[0] for log in logs)
        d = data["decision"]
        if d is None:
            break
        data = answer(client, client.get("/api/game", params={"seat": d["side"]}).json(), 0).json()
    # another side's decision is shown without its options (they would name its cards)
    d = table.session.decision
    other = "ap" if str(d.by) == "cp" else "cp"
    if other in seats:
        seen = client.get("/api/game", params={"seat": other}).json()["decision"]
        assert seen["side"] == str(d.by) and seen["options"] is None and not seen["yours"]
    # and the computer's seat is no seat: its view would show its hand to the person facing it
    for side in set(players) - set(seats):
        r = client.get("/api/game", params={"seat": side})
        assert r.status_code == 403 and "played by the computer" in r.json()["error"]
        assert client.post("/api/undo", json={"seat": side}).status_code == 403


def test_the_hand_and_the_board_are_the_seats_own():
    table = table_of({"ap": "human", "cp": "human"})
    client = client_of(table)
    to_first_action(client)
    w, piles = table.session.world, table.session.game.s["piles"]
    for seat, other in (("ap", "cp"), ("cp", "ap")):
        data = client.get("/api/game", params={"seat": seat}).json()
        assert sorted(c["number"] for c in data["hand"]) == sorted(w.cards[i].data.number
                                                                    for i in piles[f"hand:{seat}"])
        size = next(p["hand"] for p in data["players"] if p["side"] == other)
        assert size == len(piles[f"hand:{other}"]) > 0
        board = data["board"]["svg"] or client.get("/api/game", params={"seat": seat}).json()["board"]["svg"]
        own = [f'data-card="{seat.upper()} {w.cards[i].data.number}"' for i in piles[f"hand:{seat}"]]
        theirs = [f'data-card="{other.upper()} {w.cards[i].data.number}"' for i in piles[f"hand:{other}"]]
        assert all(c in board for c in own) and not any(c in board for c in theirs)


# ---------------------------------------------------------------- hostile requests
def test_any_request_body_is_answered_in_json_and_never_corrupts_the_game():
    """Whatever a client posts, the answer is JSON (an error or the game),
    and a refused request leaves the game exactly as it was."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    table = table_of({"ap": "human", "cp": "human"})
    client = client_of(table)
    to_first_action(client)
    scalars = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=False, allow_infinity=False),
                        st.text(max_size=30), st.sampled_from(["../../etc/passwd", "campaign", "cp", "ap", "1.2"]))
    values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8),
                                                                                                inner, max_size=3),
                          max_leaves=6)
    bodies = st.dictionaries(st.sampled_from(["decision", "option", "seat", "log_from", "board", "scenario", "seed",
                                              "path", "file"]), values, max_size=4)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(route=st.sampled_from(["/api/decide", "/api/undo", "/api/new"]), body=bodies)
    def post(route, body):
        before = table.session.game.state_hash(), table.revision
        r = client.post(route, json=body)
        data = r.json()
        if r.status_code != 200:
            assert set(data) <= {"error", "rules"} and data["error"] and "\n" not in data["error"]
            assert (table.session.game.state_hash(), table.revision) == before
        else:
            assert data["decision"] is None or data["decision"]["id"] == table.decision_id

    post()
    assert client.get("/api/game").status_code == 200


@pytest.mark.parametrize("spec", ["suicide_of_europe", "illusions", "limited_war"])
def test_every_scenario_plays_in_the_page(spec):
    """Nothing in the web board knows a scenario: a variant's spaces (Suicide
    of Europe's Holland), tracks and options come from its own declarations."""
    table = table_of({"ap": "human", "cp": "human"}, spec=spec)
    client = client_of(table)
    data = client.get("/api/game").json()
    assert data["scenario"]["key"] == spec
    spaces = {sp.key for sp in table.session.world.spaces}
    assert all(f'data-space="{name}"' in data["board"]["svg"] for name in spaces)
    declared = [t["track"] for t in data["status"]["tracks"]]
    assert declared and "turn" in declared
    for _ in range(6):
        d = data["decision"]
        seat = client.get("/api/game", params={"seat": d["side"]}).json()
        r = answer(client, seat, next(o["index"] for o in seat["decision"]["options"] if o["legal"]))
        assert r.status_code == 200, r.text
        data = r.json()
    assert table.session.decisions_made == 6
