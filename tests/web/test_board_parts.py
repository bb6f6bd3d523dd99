"""The board sent in parts (board/svg.py's pieces, web/table.py's
board_answer): after a decision a page that has the previous drawing gets
only the spaces and the panel that changed.  The pieces must make exactly the
picture board_svg draws, and a page is only ever sent parts of a drawing made
for its own seat (what another seat's drawing holds is never compared)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from pogdsl.board.svg import board_pieces, board_svg, changed_pieces, join_pieces
from pogdsl.opening import open_scenario
from pogdsl.runtime.record import Session
from pogdsl.web.app import make_app
from pogdsl.web.table import Table

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def opened():
    return open_scenario("campaign", REPO)


def hotseat(opened, seed: int = 7):
    table = Table(Session.new(opened, seed), {"ap": "human", "cp": "human"}, scenarios={"campaign": "campaign"},
                  root=REPO)
    return table, TestClient(make_app(table))


def decide(client, data, label: str) -> dict:
    d = data["decision"]
    r = client.post("/api/decide", json={"decision": d["id"], "option": label, "seat": d["side"],
                                         "board": data["board"]["id"], "log_from": data["log_total"]})
    assert r.status_code == 200, r.text
    return r.json()


def test_the_pieces_joined_are_the_picture(opened):
    game = opened.new_game(7)
    decision = game.run()
    for side in (None, "ap", "cp"):
        assert join_pieces(board_pieces(game, side)) == board_svg(game, side)
    game.choose(decision.options[0])
    assert join_pieces(board_pieces(game, "cp")) == board_svg(game, "cp")


def test_guns_of_august_sends_the_spaces_it_changed_and_the_panel(opened):
    table, client = hotseat(opened)
    data = client.get("/api/game").json()
    data = decide(client, data, "start with Guns of August in hand: yes")
    before = data["board"]["id"]
    data = decide(client, data, "play 1 event (Guns of August)")
    board = data["board"]
    assert board["svg"] is None and board["from"] == before
    parts = board["parts"]
    assert "space:Liege" in parts and "panel" in parts
    assert re.search(r'data-space="Liege"[^>]*data-control="cp"[^>]*data-fort="destroyed"', parts["space:Liege"])
    assert len(parts) < 10  # not the map's 280 spaces
    # The parts are the new picture's: a page asking afresh is sent the same groups.
    whole = client.get("/api/game", params={"seat": "cp"}).json()["board"]["svg"]
    for text in parts.values():
        assert text in whole


def test_a_page_with_a_drawing_it_cannot_have_is_sent_the_whole_board(opened):
    table, client = hotseat(opened)
    data = client.get("/api/game", params={"seat": "cp"}).json()
    cp_board = data["board"]["id"]
    data = decide(client, data, "start with Guns of August in hand: yes")
    # The Allies' seat naming the Central Powers' drawing: no parts of it are compared or sent.
    ap = client.get("/api/game", params={"seat": "ap", "board": cp_board}).json()["board"]
    assert ap["svg"] is not None and "parts" not in ap
    unknown = client.get("/api/game", params={"seat": "cp", "board": "0123456789abcdef"}).json()["board"]
    assert unknown["svg"] is not None and "parts" not in unknown


def test_a_new_turn_or_size_is_the_whole_board():
    before = {"shell": "<svg data-turn='1'>\x00</svg>", "under": "u", "space:A": "a", "panel": "p"}
    assert changed_pieces(before, dict(before, **{"space:A": "b"})) == {"space:A": "b"}
    assert changed_pieces(before, before) == {}
    assert changed_pieces(before, dict(before, shell="<svg data-turn='2'>\x00</svg>")) is None
    assert changed_pieces(before, {**before, "space:B": "b"}) is None
