"""The opening of a Campaign game played by clicks in the browser
(`pogdsl serve`, both sides human: hot-seat).

What the page must show is read from the rulebook and the published game's
facts, not from the .pog sources: 4.3.1 (the Central Powers may start with
Guns of August in a hand of seven), the card itself (CP 1: the Liege fort is
destroyed, the German 1st and 2nd Armies are put in Liege and the 1st, 2nd
and 3rd activated for combat; war status 2), 9.5.1.3 (an event's war status
is added to its player's), 11.1.3 (a move goes from space to connected
space), 11.1.14 (a side controls the spaces it enters), 12.4.2 and 12.4.3
(losses are steps taken from the side's units, exactly the loss number when
possible).  The server's seed is fixed (conftest.SEED), so the same clicks
meet the same dice: the combat below is the one those dice give.

Every choice is made as a player makes it: a button of the option list, or a
space or a unit clicked on the map.  The game saved from the page is then
stepped through in the replay viewer (`pogdsl view`).
"""

from __future__ import annotations

import json
import re

import pytest

# The Allies' connections of Paris on the printed map (the reference
# connections.csv): where a unit in Paris can go with one movement point.
PARIS_NEIGHBOURS = {"Rouen", "Orleans", "Amiens", "Chateau Thierry", "Melun"}
# Loss factors of the pieces (reference pieces.csv): a German army, full or reduced, gives 3.
GERMAN_ARMY_LF = 3


class Table:
    """The page of a served game, and what a player does on it."""

    def __init__(self, page, server):
        self.page, self.server = page, server
        self.responses: list[tuple[str, str]] = []  # (url, body) of every API answer the page received
        page.on("response", self._keep)
        page.goto(server.url)
        page.wait_for_selector("#options button[data-option]")

    def _keep(self, response) -> None:
        if "/api/" in response.url:
            try:
                self.responses.append((response.url, response.text()))
            except Exception:  # a download (the save) or a page that went away
                pass

    # ------------------------------------------------------------ reading
    def decision_id(self) -> str:
        return self.page.get_attribute("#decision", "data-decision-id")

    def options(self, legal: bool | None = True) -> list[str]:
        selector = "#options button[data-option]"
        if legal is not None:
            selector += f'[data-legal="{"yes" if legal else "no"}"]'
        return self.page.locator(selector).all_inner_texts()

    def prompt(self) -> str:
        return self.page.inner_text("#prompt")

    def space(self, name: str):
        return self.page.locator(f'#board g.space[data-space="{name}"]')

    def units_in(self, name: str) -> set[str]:
        return set(self.space(name).locator("g.unit").evaluate_all("els => els.map(e => e.dataset.unit)"))

    def unit(self, name: str):
        return self.page.locator(f'#board g.unit[data-unit="{name}"]')

    def log(self) -> list[str]:
        return [t.strip() for t in self.page.locator("#log li").evaluate_all(
            "els => els.map(li => li.firstChild ? li.firstChild.textContent : '')")]

    def log_line(self, text: str):
        """The log's line that says TEXT (its last if several)."""
        line = self.page.locator("#log li").filter(has_text=text).last
        assert line.count() == 1, f"no log line says {text!r}: {self.log()[-15:]}"
        return line

    def hand(self) -> list[str]:
        return self.page.locator("#hand li.card").evaluate_all("els => els.map(e => e.dataset.card)")

    def track(self, name: str) -> str:
        return self.page.inner_text(f'#status .track[data-track="{name}"]')

    # ------------------------------------------------------------ acting
    def _after(self, click) -> None:
        """Click, then wait until the page shows the next decision."""
        before = self.decision_id()
        click()
        self.page.wait_for_function(
            "old => !document.body.classList.contains('busy') && "
            "document.getElementById('decision').dataset.decisionId !== old", arg=before, timeout=30_000)

    def choose(self, label: str) -> None:
        button = self.page.locator("#options button[data-option]").filter(
            has_text=re.compile(f"^{re.escape(label)}$"))
        assert button.count() == 1, f"no option {label!r} in {self.options(None)}"
        self._after(button.click)

    def click_space(self, name: str) -> None:
        """Click a space on the map where its name is written."""
        self._after(lambda: self.space(name).locator("text").first.click())

    def click_unit(self, name: str) -> None:
        self._after(lambda: self.unit(name).click())


@pytest.fixture
def hotseat(serve, page):
    """The Campaign served to two people at one page, from its first decision."""
    return Table(page, serve("campaign", "--ap", "human", "--cp", "human"))


def guns_of_august(table: Table) -> None:
    table.choose("start with Guns of August in hand: yes")
    table.choose("play 1 event (Guns of August)")


def attack_brussels(table: Table) -> None:
    """The German armies Guns of August put in Liege attack Brussels: the
    map's Brussels is clicked (the only attack naming it), then both armies."""
    table.click_space("Brussels")
    table.choose("from Liege: GE 1, GE 2")


# ---------------------------------------------------------------- 4.3.1, CP 1
def test_the_central_powers_open_with_guns_of_august_in_a_hand_of_seven(hotseat, snapshot):
    t = hotseat
    assert t.page.get_attribute("#decision", "data-side") == "cp"
    t.choose("start with Guns of August in hand: yes")
    hand = t.hand()
    assert len(hand) == 7 and "CP 1" in hand  # 4.3.1: seven cards, Guns of August among them
    assert re.search(r"ap: 7 cards", t.page.inner_text("#hands-other"))  # 4.3.2, and only how many
    assert "play 1 event (Guns of August)" in t.options()
    snapshot(t.page, "hand-of-seven")


def test_guns_of_august_destroys_liege_and_puts_two_german_armies_there(hotseat, snapshot):
    t = hotseat
    t.choose("start with Guns of August in hand: yes")
    liege = t.space("Liege")
    assert liege.get_attribute("data-fort") == "intact" and liege.get_attribute("data-control") == "ap"
    assert t.track("war_status").endswith("ap 0, cp 0")
    t.choose("play 1 event (Guns of August)")

    assert liege.get_attribute("data-fort") == "destroyed"
    assert {"GE 1", "GE 2"} <= t.units_in("Liege")
    assert liege.get_attribute("data-control") == "cp"  # 11.1.14: the armies entered it
    assert "cp 2" in t.track("war_status")  # 9.5.1.3: the card's war status, 2
    assert "CP 1" not in t.hand()
    # The log says what happened, each line with the rules behind it.
    fort = t.log_line("the fort in Liege is destroyed")
    assert fort.locator("span.rule").count() >= 1
    control = t.log_line("Liege now controlled by cp")
    rule = control.locator('span.rule[data-rule="11.1.14"]')
    assert rule.count() == 1
    # On hover, the rule's number and its title in the rule index (which says what 11.1.14 is about).
    assert re.match(r"11\.1\.14 [^—]*control", rule.get_attribute("title"), re.IGNORECASE)
    # The three armies are activated for combat: the attacks offered start from them.
    assert t.prompt().startswith("cp to choose: declare_attack")
    attacks = t.options()
    assert "attack Brussels from Liege" in attacks and "attack Sedan from Koblenz" in attacks  # GE 3 is in Koblenz
    assert all(o == "no more attacks" or re.search(r"from (Liege|Koblenz)$", o) for o in attacks)
    assert t.space("Brussels").get_attribute("class").split().count("target") == 1  # named on the map
    snapshot(t.page, "after-guns-of-august")


# ---------------------------------------------------------------- 12.4
def test_an_attack_clicked_on_the_map_ends_in_the_attackers_loss_choice(hotseat, snapshot):
    t = hotseat
    guns_of_august(t)
    attack_brussels(t)
    # The Allies' fire gives the Central Powers a loss number; with two full
    # armies of loss factor 3 each, a loss number of 3 to 5 is one army flipped,
    # and which one is the attacker's choice.
    loss = int(re.search(r"ap fires .*: loss number (\d+)", "\n".join(t.log())).group(1))
    assert GERMAN_ARMY_LF <= loss < 2 * GERMAN_ARMY_LF, "the fixed seed's dice should give one step"
    assert t.prompt().startswith("cp to choose: take_loss")
    assert sorted(t.options()) == ["GE 1 in Liege: flipped", "GE 2 in Liege: flipped"]
    assert t.unit("GE 1").get_attribute("data-strength") == "full"
    snapshot(t.page, "loss-choice")
    t.click_unit("GE 1")  # the choice made on the map
    assert t.unit("GE 1").get_attribute("data-strength") == "reduced"
    assert t.unit("GE 2").get_attribute("data-strength") == "full"
    assert t.units_in("Liege") >= {"GE 1", "GE 2"}  # the combat was not won: nobody advanced
    assert t.log_line("GE 1 reduced").locator('span.rule[data-rule="12.4.2"]').count() == 1


def test_undo_never_takes_back_a_decision_whose_dice_were_rolled(hotseat):
    t = hotseat
    guns_of_august(t)
    t.click_space("Brussels")
    assert t.page.is_enabled("#undo")  # declaring the attack rolled nothing
    t.choose("from Liege: GE 1, GE 2")  # the combat's dice are rolled
    undo = t.page.locator("#undo")
    assert undo.is_disabled()
    assert "die" in undo.get_attribute("title")


# ---------------------------------------------------------------- hot-seat
def test_the_hand_passes_to_the_allies_without_a_central_powers_card_on_the_page(hotseat, snapshot):
    t = hotseat
    guns_of_august(t)
    cp_hand = set(t.hand())
    cp_names = set(t.page.locator("#hand li.card").all_inner_texts())
    assert len(cp_hand) == 6
    attack_brussels(t)
    t.click_unit("GE 1")
    t.choose("no more attacks")  # the Central Powers' action round ends: the Allies decide

    # The hand-over screen: nothing of either hand behind it.
    handover = t.page.locator("#handover")
    handover.wait_for(state="visible")
    assert "ap" in t.page.inner_text("#handover-text")
    snapshot(t.page, "hand-over")
    assert_no_card_of(t, cp_hand, cp_names, "behind the hand-over screen")

    seen = len(t.responses)
    t.page.click("#handover-go")
    t.page.wait_for_function("() => document.getElementById('decision').dataset.side === 'ap' && "
                             "document.querySelectorAll('#options button[data-option]').length > 0")
    snapshot(t.page, "allies-seat")
    ap_hand = t.hand()
    assert len(ap_hand) == 7 and all(c.startswith("AP ") for c in ap_hand)
    assert "cp: 6 cards" in t.page.inner_text("#hands-other")  # how many, never which
    assert_no_card_of(t, cp_hand, cp_names, "on the Allies' page")
    # On the wire too: what the page received for the Allies' seat shows no card of that hand.
    for url, body in t.responses[seen:]:
        shown = sorted(f for f in card_forms(cp_names) if f in body)
        assert not shown, f"{url} sent the Central Powers' cards to the Allies: {shown}"


def card_forms(hand_texts: set[str]) -> set[str]:
    """How a page or an answer shows a card of a hand, from the hand's lines
    'CP 12 Name (ops 4, sr 4)': in the board's hand list ('CP 12 Name'), in an
    option ('12 ops (Name)'), or as the API's card key ('"card": "CP 12"').
    (A card's bare name may be in a rule's note: that shows no hand.)"""
    forms = set()
    for text in hand_texts:
        key, number, name = re.match(r"(CP (\d+)) (.*?) \(ops", text).groups()
        forms |= {f"{key} {name}", f'"card":"{key}"', f'"card": "{key}"'}
        forms |= {f"{number} {use} ({name})" for use in ("ops", "sr", "rp", "event")}
    return forms


def assert_no_card_of(t: Table, keys: set[str], texts: set[str], where: str) -> None:
    on_page = set(t.page.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    assert not on_page & keys, f"{where}: the page holds the cards {sorted(on_page & keys)}"
    html = t.page.content()
    shown = sorted(f for f in card_forms(texts) if f in html)
    assert not shown, f"{where}: the page shows the cards {shown}"


# ---------------------------------------------------------------- 11.1
def allies_to_move(t: Table) -> None:
    """The Central Powers' opening above, then the Allies play a card for
    operations and activate Paris for movement (the map's Paris clicked: it
    lists the two ways to activate it)."""
    guns_of_august(t)
    attack_brussels(t)
    t.click_unit("GE 1")
    t.choose("no more attacks")
    t.page.locator("#handover-go").click()
    t.page.wait_for_function("() => document.querySelectorAll('#options button[data-option]').length > 0 && "
                             "document.getElementById('decision').dataset.side === 'ap'")
    t.choose("play 10 ops (French Reinforcements (FR 10))")
    t.space("Paris").locator("text").first.click()
    t.page.wait_for_selector("#filter:not([hidden])")
    visible = t.page.locator("#options li:not(.filtered-out) button").all_inner_texts()
    assert sorted(visible) == ["activate Paris attack", "activate Paris move"]
    t.choose("activate Paris move")
    t.choose("done activating")


def test_an_activated_unit_moves_only_to_connected_spaces_and_undo_brings_it_back(hotseat, snapshot):
    t = hotseat
    allies_to_move(t)
    assert "FR 6" in t.units_in("Paris")
    t.click_unit("FR 6")
    assert t.prompt().startswith("ap to choose: move_step")
    # 11.1.3: one step goes to a space connected to Paris; the map marks those.
    moves = {o.removeprefix("move to ") for o in t.options() if o.startswith("move to ")}
    assert moves == PARIS_NEIGHBOURS
    marked = set(t.page.locator("#board g.space.target").evaluate_all("els => els.map(e => e.dataset.space)"))
    assert marked == PARIS_NEIGHBOURS | {"Paris"}  # and Paris itself: stopping there
    t.click_space("Chateau Thierry")
    assert "FR 6" in t.units_in("Chateau Thierry") and "FR 6" not in t.units_in("Paris")
    assert t.log()[-1] == "ap chose: move to Chateau Thierry"
    snapshot(t.page, "moved")

    t._after(lambda: t.page.click("#undo"))
    assert "FR 6" in t.units_in("Paris") and "FR 6" not in t.units_in("Chateau Thierry")
    assert "ap chose: move to Chateau Thierry" not in t.log()
    assert {o.removeprefix("move to ") for o in t.options() if o.startswith("move to ")} == PARIS_NEIGHBOURS


# ---------------------------------------------------------------- the replay viewer
def test_the_opening_saved_from_the_page_steps_forward_and_back_in_the_viewer(hotseat, view, context, tmp_path,
                                                                             snapshot):
    t = hotseat
    guns_of_august(t)
    attack_brussels(t)
    log = t.log()
    combat = log[log.index("cp chose: from Liege: GE 1, GE 2"):]
    dice_in_play = [int(n) for n in re.findall(r"^rolled (\d+)$", "\n".join(combat), re.MULTILINE)]
    assert len(dice_in_play) == 2  # both sides fire, a die each
    t.click_unit("GE 1")
    with t.page.expect_download() as saving:
        t.page.click("#save")
    save = tmp_path / "opening.json"
    saving.value.save_as(save)

    viewer = context.new_page()
    errors: list[str] = []
    viewer.on("pageerror", lambda err: errors.append(str(err)))
    viewer.goto(view(save).url)
    steps = viewer.locator("#step")
    viewer.wait_for_function("() => document.getElementById('step').dataset.step === '0'")
    assert steps.get_attribute("data-steps") == "5"  # the five decisions made above

    def at(step: int) -> None:
        viewer.wait_for_function(f"() => document.getElementById('step').dataset.step === '{step}'")

    def chosen() -> str:
        return viewer.inner_text('#options button[data-chosen="yes"]')

    def board(name: str):
        return viewer.locator(f'#board g.space[data-space="{name}"]')

    # Step 0: the set-up, and the first choice the Central Powers made.
    assert chosen() == "start with Guns of August in hand: yes"
    assert board("Liege").get_attribute("data-fort") == "intact"
    assert board("Liege").locator('g.unit[data-unit="GE 1"]').count() == 0
    viewer.click("#step-forward")
    at(1)
    assert chosen() == "play 1 event (Guns of August)"
    viewer.click("#step-forward")
    at(2)  # the event played: the board as the players saw it then
    assert board("Liege").get_attribute("data-fort") == "destroyed"
    assert board("Liege").locator('g.unit[data-unit="GE 1"]').count() == 1
    assert chosen() == "attack Brussels from Liege"
    viewer.keyboard.press("End")
    at(5)
    assert viewer.get_attribute('#board g.unit[data-unit="GE 1"]', "data-strength") == "reduced"
    snapshot(viewer, "viewer-end")
    viewer.click("#step-back")
    at(4)  # before the loss was taken; the combat's dice were rolled in this step
    assert viewer.get_attribute('#board g.unit[data-unit="GE 1"]', "data-strength") == "full"
    assert chosen() == "GE 1 in Liege: flipped"
    assert viewer.get_attribute("#dice", "data-dice") == " ".join(map(str, dice_in_play))
    viewer.keyboard.press("ArrowLeft")
    at(3)
    assert viewer.get_attribute("#dice", "data-dice") == ""  # choosing the attackers rolls nothing
    # The viewer shows no hand unless a side's eyes are chosen.
    assert viewer.locator("#board [data-card], #hand li.card").count() == 0
    assert not errors, f"the viewer raised script errors: {errors}"


# ---------------------------------------------------------------- the board sent in parts
DRAWING = """() => {
    const svg = document.querySelector('#board svg').cloneNode(true);
    for (const el of svg.querySelectorAll('.target, .hover, .forbidden-target')) {
        el.classList.remove('target', 'hover', 'forbidden-target');
        if (!el.getAttribute('class')) el.removeAttribute('class');
    }
    return svg.querySelector('g.spaces').outerHTML + svg.querySelector('g.panel').outerHTML;
}"""


def test_a_board_redrawn_in_parts_is_the_board_drawn_whole(hotseat, context):
    """After a decision the page gets only the spaces and the panel that
    changed; patched in place, they make the same picture as a page that
    loads the position afresh."""
    t = hotseat
    guns_of_august(t)
    attack_brussels(t)
    t.click_unit("GE 1")
    answers = [json.loads(body) for url, body in t.responses if "/api/decide" in url]
    patched = [a["board"]["parts"] for a in answers if a["board"].get("parts")]
    assert patched, "no decision's answer carried the board in parts"
    event = answers[1]["board"]  # Guns of August: Liege's fort and armies, the armies' old spaces, the panel
    assert event["svg"] is None and {"space:Liege", "panel"} <= set(event["parts"]) and len(event["parts"]) < 10
    fresh = context.new_page()
    fresh.goto(t.server.url)
    fresh.wait_for_selector("#options button[data-option]")
    assert fresh.evaluate(DRAWING) == t.page.evaluate(DRAWING)
