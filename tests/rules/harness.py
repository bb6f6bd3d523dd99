"""A position builder for rule tests: start from an empty Campaign board,
place units, fix dice, run one procedure with scripted answers, and look at
the result — so each test reads like the rule it checks.

    pos = Position()
    pos.place("GE 1", "Liege")
    pos.control("Liege", "cp")
    pos.run("some_procedure", "cp", answers=["activate Liege attack"], dice=[4])
    assert pos.units_at("Liege") == ["GE 1"]
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pogdsl.runtime.interpreter import Game
from pogdsl.runtime.values import Entity

ROOT = Path(__file__).resolve().parents[2]


def play_randomly(w, seed: int, decisions: int, log: bool = False, each=None) -> Game:
    """A new game of world `w`, played for up to `decisions` decisions by a
    seeded random chooser that follows the options' weights when given.
    `each(game, decision)`, if given, looks at every decision first."""
    import random

    game = Game.new(w, seed=seed, log=log)
    rng = random.Random(seed)
    d = game.run()
    for _ in range(decisions):
        if d is None:
            break
        if each is not None:
            each(game, d)
        pick = rng.choices(range(len(d.options)), weights=d.weights)[0] if d.weights else rng.randrange(len(d.options))
        d = game.choose(pick + 1)
    return game


def check_along_a_game(w, seed: int, check, every: int = 25, decisions: int = 300) -> int:
    """Play a random game of world `w` and call `check(game, side)` for each
    side at every `every`-th decision; the number of positions checked."""
    checked = 0

    def each(game, decision):
        nonlocal checked
        if game.s["decisions"] % every == 0:
            for side in w.sides:
                check(game, side)
            checked += 1

    play_randomly(w, seed, decisions, each=each)
    return checked


@lru_cache(maxsize=None)
def world(scenario: str = "campaign"):
    """The world of SCENARIO, named in any spelling the CLI takes
    (`suicide-of-europe` is `suicide_of_europe`, `NAME+RULESET` composes, a
    .pog file declares it)."""
    from pogdsl.opening import ScenarioError, open_scenario

    try:
        return open_scenario(scenario, ROOT).world
    except ScenarioError as err:
        raise AssertionError(f"{err.message}\n{err.text}") from None


class Unanswered(AssertionError):
    pass


class Position:
    def __init__(self, scenario: str = "campaign", seed: int = 0, empty: bool = True):
        self.w = world(scenario)
        self.game = Game.new(self.w, seed=seed)
        self.s = self.game.s
        self.asked: list = []  # every decision offered while running, with its options
        if empty:
            self.clear_board()

    # ---------------------------------------------------------- building
    def clear_board(self) -> None:
        s = self.s
        s["loc"] = [None] * len(self.w.units)
        s["reduced"] = [False] * len(self.w.units)
        s["occ"] = [[] for _ in range(self.w.location_count)]
        self.game.invalidate()

    def entity(self, kind: str, name: str) -> Entity:
        if kind == "card":
            return self.w.by_kind["card_name"][name]
        return self.w.by_kind[kind][name]

    def place(self, unit: str, where: str, reduced: bool = False) -> Entity:
        u = self.entity("unit", unit)
        piece = self.game.take_piece(u, _NoStep)
        loc = self._location(where)
        self.game.move_unit(piece, loc)
        self.s["reduced"][piece.index] = reduced
        return piece

    def _location(self, where: str) -> int:
        if where in self.w.by_kind["space"]:
            return self.w.location(self.w.by_kind["space"][where])
        return self.w.location(self.w.by_kind["box"][where])

    def control(self, space: str, side: str | None) -> None:
        self.s["control"][self.entity("space", space).index] = side
        self.game.invalidate()

    def set(self, name: str, value, key: str | None = None) -> None:
        value = self._value(value)
        if key is None:
            self.s["vars"][name] = value
        else:
            self.s["vars"][name][key] = value
        self.game.invalidate()

    def activate(self, space: str, mode: str) -> None:
        """Put a Move or Attack marker on a space as an operation does (9.2.5),
        which also records its units' supply at that moment (14.1.1.1)."""
        self.run("mark_activated", space, mode)

    def _value(self, value):
        if isinstance(value, str):
            for kind in ("side", "nation", "space"):
                if value in self.w.by_kind.get(kind, {}):
                    return self.w.by_kind[kind][value]
            for enum in self.w.program.all("enum"):
                if value in self.w.by_kind.get(enum.key, {}):
                    return self.w.by_kind[enum.key][value]
        return value

    # ---------------------------------------------------------- running
    def run(self, procedure: str, *args, answers=(), dice=()) -> None:
        """Run one procedure to its end.  Decisions are answered from
        `answers` in order (option text, a unique beginning, or a number);
        a decision with a single option answers itself."""
        g = self.game
        code = self.w.codes[f"procedure:{procedure}"]
        values = [self._value(a) if isinstance(a, str) else a for a in args]
        self.s["stack"] = [{"code": f"procedure:{procedure}", "pc": 0, "l": dict(zip(code.params, values))}]
        self.s["dice"] = list(dice)
        self.s["result"] = None
        self.game.invalidate()
        answers = list(answers)
        d = g.run()
        while d is not None:
            self.asked.append(d)
            if not answers:
                raise Unanswered(f"no answer left for {d.by}'s '{d.choice}': options {d.options}")
            d = g.choose(answers.pop(0))
        if self.s["result"] is not None and self.s["result"]["reason"] == "nothing left to run":
            self.s["result"] = None
        # As a script's replay refuses a decision line it never used, a test
        # refuses answers the procedure never asked for: the test did not
        # check what it says it checks.  (Forced dice may be left: a test
        # shows that way that nothing was rolled.)
        if answers:
            raise AssertionError(f"answers left over, never asked for: {answers}")

    # ---------------------------------------------------------- cards
    def card(self, side: str, number: int) -> Entity:
        """A card by side and number (names are not unique: both sides have an
        Entrench, a Withdrawal, a Severe Weather...)."""
        for c in self.w.cards:
            if c.data.side.text == side and c.data.number == number:
                return c
        raise KeyError(f"no card {side} {number}")

    def _card(self, card) -> Entity:
        return card if isinstance(card, Entity) else self.entity("card", card)

    def play_event(self, side: str, card, answers=(), dice=()) -> None:
        """Play a card as an event the way an action round does (9.5.1):
        `play_as_event` adds its war status, runs its event, then removes or
        discards it.  `card` is a name or an entity from `card()`."""
        self.run("play_as_event", side, self._card(card), answers=answers, dice=dice)

    def event_forbidden_by(self, side: str, card) -> list[str]:
        """The restrictions that would refuse playing the card as its side's
        event action now (empty: it may be played)."""
        c = self._card(card)
        values = (self.w.by_kind["side"][side], self._value("event"), c)
        self.game.invalidate()
        return [d.key for d in self.game._forbidden("take_action", values)]

    def may_play_event(self, side: str, card) -> bool:
        return not self.event_forbidden_by(side, card)

    def pile(self, kind: str, side: str) -> list[str]:
        """The names of the cards in a pile: hand, draw, discard, removed, in_play."""
        return [self.w.cards[i].data.name.text for i in self.s["piles"][f"{kind}:{side}"]]

    # ---------------------------------------------------------- looking
    def units_at(self, where: str) -> list[str]:
        return sorted(self.w.units[i].key for i in self.s["occ"][self._location(where)])

    def reduced(self, unit_index: int) -> bool:
        return self.s["reduced"][unit_index]

    def var(self, name: str, key: str | None = None):
        v = self.s["vars"][name]
        if key is not None:
            v = v.get(key, self.w.state_start[name])
        return getattr(v, "key", v)

    def log(self) -> list[str]:
        return [e["text"] for e in self.s["log"]]


class _NoStep:
    span = None
    cites = ()
