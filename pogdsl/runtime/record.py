"""Game records: plain-text scripts a rules lawyer writes by hand, JSON saves,
and the session that plays either back.

A script, one statement a line (``#`` starts a comment)::

    scenario toy
    seed 3
    option vp_bid 2           # a scenario option (before the first decision); the others keep their default
    dice 4 2 6                # forced dice, used before the generator's
    hand ap 'Fog', 'Rain'     # ap's hand is exactly these cards now ('AP 6' names a card too)
    cp: move GE 1 to Sedan    # a decision: the side, then the option's text (or its number)
    ap: pick 2
    expect vp 14              # checks: a state variable, score[ap], hash, winner, turn, phase,
    expect winner cp          #   over, options, legal, illegal, control, location, hand, dice

The checks, each on its own line:
  expect VAR VALUE / expect VAR[KEY] VALUE   a state variable (`vp 12`, `score[ap] 3`, `attacked yes`)
  expect hash H            the state's hash (at least its first 8 hex digits)
  expect winner SIDE|draw  the game is over and SIDE won;  `expect over`: it is over
  expect result NAME|none  it ended as the result NAME its scenario declares (none: a plain win or draw)
  expect turn N / expect phase NAME
  expect options A | B     exactly these legal options, in this order
  expect legal TEXT        TEXT names a legal option (matched as an answer is: whole text, or a unique beginning)
  expect illegal TEXT [by NAME, ...] [rule N, ...]
                           TEXT names an option a restriction forbids (a legal option fails; a text that
                           is no option at all is an error); `by`: restrictions (name or rule) among those
                           forbidding it; `rule`: exactly the rules that forbid it
  expect control SPACE SIDE / expect location UNIT PLACE / expect hand SIDE CARD, ...
  expect dice N N ...      the forced dice not used yet

``dice`` lines add to the forced dice where they stand; those before the
first decision are there before the game starts, since the set-up may roll.
A card is named by its name or by side and number (``AP 6``, ``cp 56``);
a name two cards bear (``Withdrawal``) means, on a ``hand`` or ``expect
hand`` line, the card of the side the line names, and otherwise must be
written by side and number (see pogdsl/cardref.py).

A ``hand`` line sets a side's hand at the decision the game has reached
(before the first decision line: at the first decision, once the set-up has
dealt): cards it does not name go back to the bottom of the draw pile, and
the cards it names are taken from wherever they are.

A save is JSON: the scenario's name (never a path), seed, options, the
rules' fingerprint (a digest of each source file's content), the list of
decisions and inputs (so the game can be played again and checked), the
state, the state's hash, and a seal over every field.  Nothing in it depends
on the current folder or where the project lies.  Loading checks the seal,
the scenario's name and the fingerprint before opening the scenario, then
replays the decisions and refuses a file whose state does not match them.
The seal is a checksum without a key (anyone can compute it again after an
edit): it catches damage, and what a save proves rests on the replay — its
decisions lead from its seed to its state — not on the seal; dice and hands
set by hand are inputs of the record, named by `Session.forced`.  A
save under changed rules can be replayed under the current ones on request
(`under_current_rules`), naming the first decision no longer legal.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from attrs import define, field

from ..numbers import NumberError, parse_whole, shown
from ..safe_io import RECORD_LIMIT, escape_controls, read_bytes, read_text, write_file
from . import builtins as B
from .errors import BadSave, GameError, IllegalOption
from .interpreter import Decision, Game, state_hash
from .positions import VERBS as POSITION_VERBS, apply_setup
from .values import Entity, decode, text_of
from ..opening import Opened, ScenarioError, open_scenario  # opening uses nothing of this module

SAVE_FORMAT = "pogdsl-save/2"
SCRIPT_KEYWORDS = ("scenario", "seed", "option", "dice", "hand", "expect", "place", "remove", "set")


# ================================================================ seeds, digests
def derive_seed(seed: int, *parts) -> int:
    """A seed derived from another and some labels (a game number, a side):
    the same in every process, and 48 bits so it reads well in a message."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(f"pogdsl:{text}".encode()).digest()[:6], "big")


# ================================================================ scripts
@define
class Event:
    """One line of a record: a decision, an input (dice, hand) or a check."""

    kind: str              # "decision" | "dice" | "hand" | "setup" | "expect"
    line: int = 0          # line number in a script (0 when from a save)
    by: str | None = None  # decision: the side;  hand: the side
    text: str = ""         # decision: the option;  setup: its verb;  expect: what is checked
    values: list = field(factory=list)  # dice: numbers;  hand: card names;  setup, expect: its arguments

    def to_json(self) -> dict:
        if self.kind == "decision":
            return {"by": self.by, "option": self.text}
        if self.kind == "dice":
            return {"dice": list(self.values)}
        if self.kind == "hand":
            return {"hand": self.by, "cards": list(self.values)}
        if self.kind == "setup":
            return {"setup": self.text, "args": list(self.values)}
        raise ValueError("expectations are not saved")

    def to_line(self) -> str:
        if self.kind == "decision":
            return f"{self.by}: {_quote_option(self.text)}"
        if self.kind == "dice":
            return "dice " + " ".join(str(v) for v in self.values)
        if self.kind == "hand":
            return f"hand {self.by} " + ", ".join(_quote(c) for c in self.values)
        if self.kind == "setup":
            return self.text + "".join(" " + _quote(v) for v in self.values)
        if self.text == "options":
            return "expect options " + " | ".join(self.values)
        if self.text in ("legal", "illegal"):
            return f"expect {self.text} {self.values[0]}"
        return "expect " + self.text + "".join(" " + _quote(v) for v in self.values)


@define
class Script:
    path: str
    scenario: str | None = None
    seed: int = 0
    events: list[Event] = field(factory=list)
    header_line: int = 0
    options: dict[str, str] = field(factory=dict)  # `option NAME VALUE` lines: NAME → VALUE
    option_line: int = 0  # the first of them

    def decisions_for(self, side: str) -> list[Event]:
        return [e for e in self.events if e.kind == "decision" and e.by.lower() == side.lower()]


class ScriptError(BadSave):
    """A script line that cannot be read or does not hold; names the line."""

    def __init__(self, path: str, line: int, message: str):
        where = f"{path}:{line}: " if line else f"{path}: "
        super().__init__(where + message)
        self.path, self.line, self.message = path, line, message


_TOKEN = re.compile(r"'([^']*)'|\"([^\"]*)\"|([^\s,]+)")
_DECISION = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")


def _strip_comment(line: str) -> str:
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def _tokens(text: str) -> list[str]:
    return [m.group(1) if m.group(1) is not None else m.group(2) if m.group(2) is not None else m.group(3)
            for m in _TOKEN.finditer(text)]


def _quote(text) -> str:
    text = str(text)
    if text and re.fullmatch(r"[\w.+\-\[\]]+", text):
        return text
    return f"'{text}'" if "'" not in text else f'"{text}"'


def _quote_option(text: str) -> str:
    if "#" in text or text != text.strip() or (text[:1] in "'\"" and text[-1:] == text[:1]):
        return f"'{text}'" if "'" not in text else f'"{text}"'
    return text


def _unquote(text: str) -> str:
    if len(text) >= 2 and text[0] in "'\"" and text[-1] == text[0]:
        return text[1:-1]
    return text


def parse_script(text: str, path: str = "<script>") -> Script:
    """Read a script; a line that makes no sense raises ScriptError naming it."""
    script = Script(path)
    for number, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw).strip()
        if not line:
            continue
        m = _DECISION.match(line)
        if m and m.group(1).lower() not in SCRIPT_KEYWORDS:
            option = _unquote(m.group(2).strip())
            if not option:
                raise ScriptError(path, number, f"the decision for {m.group(1)} names no option")
            script.events.append(Event("decision", number, m.group(1), " ".join(option.split())))
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        word = word.lower()
        if word == "scenario":
            if not rest:
                raise ScriptError(path, number, "`scenario` needs a scenario name")
            if script.events:
                raise ScriptError(path, number, "`scenario` must come before the game's first line")
            script.scenario = _unquote(rest)
            if not _NAME.match(script.scenario) and not script.scenario.lower().endswith(".pog"):
                shown_name = script.scenario if len(script.scenario) <= 60 else script.scenario[:60] + "…"
                raise ScriptError(path, number, f"`scenario` names a scenario (a name, NAME+RULESET, or a .pog "
                                                f"file), not {shown_name!r}: a script may not make pogdsl read "
                                                "any other file")
            script.header_line = number
        elif word == "option":
            name, _, value = rest.partition(" ")
            if not name or not value.strip() or " " in value.strip():
                raise ScriptError(path, number, "`option` needs a name and a value, e.g. `option optional_cards on`")
            if script.events:
                raise ScriptError(path, number, "`option` must come before the game's first line")
            script.options[name] = value.strip()
            script.option_line = script.option_line or number
        elif word == "seed":
            if script.events:
                raise ScriptError(path, number, "`seed` must come before the game's first line")
            try:
                script.seed = parse_whole(rest)
            except NumberError as err:
                raise ScriptError(path, number, f"`seed` needs a whole number: {err}") from None
        elif word == "dice":
            values = rest.replace(",", " ").split()
            try:
                results = [parse_whole(v, signed=False) for v in values]
            except NumberError as err:
                raise ScriptError(path, number, f"`dice` needs die results, e.g. `dice 4 2 6`: {err}") from None
            if not results or min(results) < 1:
                raise ScriptError(path, number, "`dice` needs die results, e.g. `dice 4 2 6`")
            script.events.append(Event("dice", number, values=results))
        elif word == "hand":
            side, _, cards = rest.partition(" ")
            names = _tokens(cards)
            if not side or not names:
                raise ScriptError(path, number, "`hand` needs a side and cards, e.g. `hand ap 'Guns of August'`")
            script.events.append(Event("hand", number, side, values=names))
        elif word in POSITION_VERBS:
            if not rest:
                raise ScriptError(path, number, f"`{word}` needs what to {word}, e.g. "
                                                + {"place": "`place 'GE 1' at Liege`", "remove": "`remove 'RU 2'`",
                                                   "set": "`set trench[Verdun] 2`"}[word])
            script.events.append(Event("setup", number, text=word, values=_tokens(rest)))
        elif word == "expect":
            what, _, args = rest.partition(" ")
            if not what:
                raise ScriptError(path, number, "`expect` needs something to check, e.g. `expect vp 12`")
            if what in ("options", "legal", "illegal"):
                values = [_unquote(a.strip()) for a in args.split("|")] if what == "options" else [args.strip()]
            else:
                values = _tokens(args)
            script.events.append(Event("expect", number, text=what, values=values))
        else:
            raise ScriptError(path, number, f"cannot read '{raw.strip()}': expected `SIDE: OPTION`, or a line "
                                            f"starting with {', '.join(SCRIPT_KEYWORDS)}")
    return script


def read_script(path: str | Path) -> Script:
    try:
        text = read_text(path, RECORD_LIMIT, "script")
    except OSError as err:
        raise BadSave(f"cannot read {path}: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise BadSave(f"{path} is not a text file (it is not valid UTF-8)") from None
    return parse_script(text, str(path))


# ================================================================ the session
class Session:
    """A game plus its record: every decision and input that made it, so it
    can be saved, written as a script, undone and replayed."""

    def __init__(self, opened: Opened, game: Game, events: list[Event] | None = None, path: str = "<game>"):
        self.opened = opened
        self.game = game
        self.events: list[Event] = events if events is not None else []
        self.path = path
        self.replayed_differs = False  # loaded under the current rules: the position differs from the saved one
        self.replayed_old = False      # loaded from a save of an older format
        self.from_save = False         # loaded from a save (not a script)

    @classmethod
    def new(cls, opened: Opened, seed: int, before: list[Event] = (), path: str = "<game>",
            **options) -> Session:
        """A new game; `before` are inputs: dice are there before it starts,
        hands are set at its first decision (after the set-up has dealt)."""
        session = cls(opened, opened.new_game(seed, **options), [], path)
        for event in before:
            if event.kind == "dice":
                session.apply_input(event, started=False)
        session.game.run()
        for event in before:
            if event.kind != "dice":
                session.apply_input(event)
        return session

    # ------------------------------------------------------------ reading
    @property
    def world(self):
        return self.opened.world

    @property
    def decision(self) -> Decision | None:
        return self.game.decision()

    @property
    def decisions_made(self) -> int:
        return sum(1 for e in self.events if e.kind == "decision")

    # ------------------------------------------------------------ acting
    def resolve(self, answer) -> int:
        """The 0-based index of an answer (text or 1-based number); raises IllegalOption."""
        if self.game.s["pending"] is None:
            raise IllegalOption("there is no decision to answer: the game is over" if self.game.over
                                else "there is no decision to answer")
        return self.game._option_index(answer)

    def choose(self, answer, by: str | None = None) -> Decision | None:
        d = self.decision
        if d is not None and by is not None and by.lower() != str(d.by).lower():
            raise IllegalOption(f"the decision is {d.by}'s ({d.choice}), not {by}'s", d.rules)
        index = self.resolve(answer)
        text = d.options[index]
        nxt = self.game.choose(index + 1)
        self.events.append(Event("decision", 0, d.by, text))
        return nxt

    def apply_input(self, event: Event, started: bool = True) -> None:
        """Apply a `dice` or `hand` line; raises BadSave-style errors via ValueError."""
        g = self.game
        if event.kind == "dice":
            g.s["dice"].extend(int(v) for v in event.values)
        elif event.kind == "hand":
            side = self.world.by_kind.get("side", {}).get(event.by)
            if side is None:
                raise ValueError(f"no side named '{event.by}' (sides: "
                                 f"{', '.join(s.key for s in self.world.sides)})")
            wanted = self.cards(event.values, side.key)
            keep = {c.index for c in wanted}
            hand, draw = g.s["piles"][f"hand:{side.key}"], f"draw:{side.key}"
            for index in [i for i in hand if i not in keep]:  # back to the bottom of the draw pile
                g.move_card(self.world.cards[index], draw)
                g.s["piles"][draw].insert(0, g.s["piles"][draw].pop())
            for card in wanted:
                if card.index not in hand:
                    g.move_card(card, f"hand:{side.key}")
            if started and g.s["pending"] is not None:
                refresh_decision(g)
        elif event.kind == "setup":
            apply_setup(g, event.text, [str(v) for v in event.values])
            if started and g.s["pending"] is not None:
                refresh_decision(g)  # (the options of the pending decision may have changed)
            elif started and g.s["result"] is None:
                g.run()  # (a phase set by hand starts: on to its first decision)
        else:
            raise ValueError(f"{event.kind} is not an input")
        values = [self.card_text(c) for c in wanted] if event.kind == "hand" else list(event.values)
        self.events.append(Event(event.kind, 0, event.by, event.text, values))

    @property
    def card_index(self):
        """The scenario's cards, to resolve a card a user names (pogdsl/cardref.py)."""
        index = self.__dict__.get("_card_index")
        if index is None:
            from ..cardref import CardIndex

            index = self._card_index = CardIndex.of_world(self.world)
        return index

    def card(self, name: str, side: str | None = None) -> Entity:
        """The card a user names: `AP 6`, or a name (with SIDE, that side's
        card first); a name two cards bear raises CardNameError (a ValueError)
        listing both."""
        w = self.world
        found = w.by_kind.get("card", {}).get(name)
        if found is not None:
            return found
        return self.card_index.resolve(name, side).card

    def cards(self, names: list[str], side: str | None = None) -> list[Entity]:
        """Cards named in a script line (`AP`, `6` written unquoted are joined)."""
        from ..cardref import join_numbered

        return [self.card(n, side) for n in join_numbered(list(names), self.card_index.sides)]

    def card_text(self, card: Entity) -> str:
        """How a record writes a card: its name, or `AP 6` when two cards bear it."""
        index = self.card_index
        ref = index.by_number[(card.data.side.text.lower(), card.data.number)]
        return index.label(ref)

    def forced(self) -> str:
        """What of this game was set by hand rather than played — forced
        dice, hands set — as a phrase for a verdict ("forced dice: 6 2;
        hand set by hand: ap"), or "" for a game played from its seed alone."""
        dice = [v for e in self.events if e.kind == "dice" for v in e.values]
        hands = [e.by for e in self.events if e.kind == "hand"]
        parts = []
        if dice:
            shown_dice = " ".join(str(v) for v in dice[:12]) + (f" … ({len(dice)} in all)" if len(dice) > 12 else "")
            parts.append(f"forced dice: {shown_dice}")
        if hands:
            parts.append(f"hand{'s' * (len(hands) > 1)} set by hand: {', '.join(dict.fromkeys(hands))}")
        placed = sum(1 for e in self.events if e.kind == "setup")
        if placed:
            parts.append(f"position set by hand: {placed} line{'s' * (placed > 1)}")
        return escape_controls("; ".join(parts), keep_lines=False)

    def at_rest(self) -> bool:
        """Whether the game stands at a decision (or is over) and its record
        holds every decision made: what a save needs.  An interrupt (Ctrl-C)
        while the engine runs leaves it between two decisions."""
        g = self.game
        return (g.s["pending"] is not None or g.over) and g.s["decisions"] == self.decisions_made

    def as_recorded(self) -> Session:
        """This game played again from its record: at its last decision
        answered, whatever an interrupt left in the state.  BadSave if the
        record does not replay (a bug)."""
        again = replay_events(self.opened, self.game.s["seed"], list(self.events), self.path)
        again.from_save, again.replayed_old = self.from_save, self.replayed_old
        return again

    def steps_back(self, sides, count: int = 1) -> int:
        """How many decisions to take back so as to undo the COUNT-th last
        decision made by one of SIDES, with every decision made since (the
        other players' replies); 0 when SIDES made none."""
        made = [e for e in self.events if e.kind == "decision"]
        mine = [i for i, e in enumerate(made) if str(e.by) in sides]
        if count < 1 or not mine:
            return 0
        return len(made) - mine[-min(count, len(mine))]

    def undo(self, count: int = 1) -> int:
        done = self.game.undo(count)
        for _ in range(done):
            for i in range(len(self.events) - 1, -1, -1):
                if self.events[i].kind == "decision":
                    del self.events[i:]
                    break
        return done

    # ------------------------------------------------------------ checks
    def _illegal_args(self, raw: str) -> tuple[str, list[str], list[str] | None]:
        """`expect illegal` arguments: the option's text (quoted or not), then
        optionally `by NAME-OR-RULE, ...` (the restrictions, by name or rule
        number, that must be among those forbidding it) or `rule N, ...`
        (exactly the rules that forbid it).  An unquoted text that is itself
        an option's whole text is taken whole."""
        raw = raw.strip()
        m = re.match(r"""^(?:'([^']*)'|"([^"]*)")\s*(.*)$""", raw)
        if m:
            text, rest = m.group(1) if m.group(1) is not None else m.group(2), m.group(3).strip()
        else:
            text, rest = raw, ""
            whole = " ".join(raw.split()).lower()
            if whole not in self._candidate_texts():
                cut = re.match(r"^(.*?)\s+((?:by|rules?)\s+.+)$", raw)
                if cut:
                    text, rest = cut.group(1), cut.group(2)
        by, exact = [], None
        if rest:
            cm = re.match(r"^(by|rules?)\s+(.+)$", rest)
            if not cm:
                raise ValueError(f"cannot read '{rest}' after the option: write `by NAME` or `rule N`")
            items = [r for r in re.split(r"[,\s]+", cm.group(2)) if r]
            if cm.group(1) == "by":
                by = items
            else:
                exact = items
        return text, by, exact

    def _candidate_texts(self) -> set[str]:
        g = self.game
        found = {o.lower() for o in g.legal_options()}
        spec = g._pending_spec() if g.s["pending"] is not None else None
        if spec is not None:
            found |= {spec.text(v, g).lower() for v in g._candidates(spec, g.s["stack"][-1]["l"])}
        return found

    def check(self, event: Event) -> str | None:
        """An `expect` line: None if it holds, else what was found."""
        g, w = self.game, self.world
        what, args = event.text, event.values

        def need(n):
            if len(args) != n:
                raise ValueError(f"`expect {what}` takes {n} value{'s' * (n != 1)}")

        if what == "hash":
            need(1)
            h = g.state_hash()
            return None if h.startswith(args[0].lower()) and len(args[0]) >= 8 else f"hash {h}"
        if what == "winner":
            need(1)
            if not g.over:
                return "the game is not over"
            winner = g.outcome.winner or "draw"
            want = "draw" if args[0].lower() in ("draw", "none") else args[0]
            return None if winner.lower() == want.lower() else f"winner {winner}"
        if what == "result":  # `expect result NAME`: the declared result it ended as (none: a plain one)
            need(1)
            if not g.over:
                return "the game is not over"
            got = g.outcome.result or "none"
            return None if got.lower() == args[0].lower() else f"result {got}"
        if what == "over":
            return None if g.over else "the game is not over"
        if what == "turn":
            need(1)
            return None if str(g.s["turn"]) == args[0] else f"turn {g.s['turn']}"
        if what == "phase":
            need(1)
            return None if str(g.s["phase"]) == args[0] else f"phase {g.s['phase']}"
        if what in ("options", "legal", "illegal"):
            d = self.decision
            if d is None:
                return "no decision is pending"
            if what == "options":
                return None if [a.lower() for a in args] == [o.lower() for o in d.options] else \
                    "options " + " | ".join(d.options)
            if what == "legal":
                text = _unquote(args[0].strip())
                try:
                    g._option_index(text) if not text.isdigit() else g.why_not(text)
                except IllegalOption as err:
                    if "beginning of several" in err.message:
                        raise ValueError(err.message) from None
                    return f"'{text}' is not legal: {err.message}"
                if text.isdigit():  # an option is named by its text here, not its number
                    raise ValueError(f"`expect legal` takes an option's text, not a number ('{text}')")
                return None
            text, by, exact_rules = self._illegal_args(args[0])
            try:
                shown, legal, forbidding = g.match_candidate(text)
            except IllegalOption as err:
                listed = "; the legal options: " + " | ".join(d.options) if len(d.options) <= 12 else ""
                raise ValueError(f"{err.message}{listed}") from None
            if legal:
                return f"'{shown}' is legal"
            if not forbidding:
                raise ValueError(f"'{shown}' is not offered, but no restriction forbids it: `expect illegal` "
                                 "checks an option a restriction forbids")
            err = Game._forbidden_error(text, shown, forbidding)
            if exact_rules is not None and sorted(err.rules) != sorted(exact_rules):
                return err.message
            names = {r.key.lower() for r in forbidding} | {c.number for r in forbidding for c in r.cites}
            missing = [b for b in by if b.lower() not in names]
            if missing:
                return f"{err.message}, not by {', '.join(missing)}"
            return None
        if what == "control":
            need(2)
            space = w.by_kind.get("space", {}).get(args[0])
            if space is None:
                raise ValueError(f"no space named '{args[0]}'")
            have = g.s["control"][space.index] or "none"
            return None if have.lower() == args[1].lower() else f"control {have}"
        if what == "location":
            need(2)
            unit = w.by_kind.get("unit", {}).get(args[0])
            if unit is None:
                raise ValueError(f"no unit named '{args[0]}'")
            members = getattr(unit, "members", [unit])
            places = [text_of(w.place_entity(g.s["loc"][m.index])) for m in members]
            return None if args[1].lower() in [p.lower() for p in places] else f"location {', '.join(places)}"
        if what == "hand":
            if len(args) < 1:
                raise ValueError("`expect hand SIDE CARD, ...` needs a side")
            side = w.by_kind.get("side", {}).get(args[0])
            if side is None:
                raise ValueError(f"no side named '{args[0]}'")
            have = sorted(g.s["piles"][f"hand:{side.key}"])
            want = sorted(c.index for c in self.cards(args[1:], side.key))
            return None if have == want else "hand " + (", ".join(self.card_text(w.cards[i]) for i in have)
                                                        or "empty")
        if what == "dice":
            left = " ".join(str(d) for d in g.s["dice"])
            return None if left == " ".join(args) else f"dice left: {left or 'none'}"
        # A state variable: `vp 12`, `score[ap] 3`, or `score ap 3`.
        m = re.match(r"^(\w+)(?:\[(.+)\])?$", what)
        name, key = (m.group(1), m.group(2)) if m else (what, None)
        decl = w.state_decls.get(name)
        if decl is None:
            raise ValueError(f"cannot check '{what}': not a state variable, nor one of hash, winner, over, turn, "
                             "phase, options, legal, illegal, control, location, dice")
        if decl.scope is not None:
            if key is None:
                if len(args) != 2:
                    raise ValueError(f"'{name}' is kept per {decl.scope.text}: write `expect {name}[KEY] VALUE`")
                key, args = args[0], args[1:]
            entity = w.by_kind.get(decl.scope.text, {}).get(key)
            if entity is None:
                raise ValueError(f"no {decl.scope.text} named '{key}'")
            value = B.read_scoped(g, name, entity)
        else:
            value = g.s["vars"][name]
        need(1)
        want = {"true": "yes", "false": "no"}.get(args[0].lower(), args[0])
        have = text_of(value)
        return None if have.lower() == want.lower() else f"{what} {have}"


def refresh_decision(game: Game) -> Decision | None:
    """Offer the pending decision again, from the state as it is now (after an
    input such as a fixed hand changed what is legal).  Also what a benchmark
    times: the full cost of listing the legal options."""
    spec = game._pending_spec()
    if spec is None:
        return game.decision()
    frame = game.s["stack"][-1]
    game.s["pending"] = None
    if game.offer(spec, frame) is None:  # a single option, taken at once
        return game.run()
    return game.decision()


# ================================================================ running records
def replay_script(script: Script, root: Path | None = None, *, opened: Opened | None = None,
                  step_budget: int | None = None, chosen: dict[str, str] | None = None,
                  max_decisions: int | None = None) -> Session:
    """Play a script from its first line, checking every decision and `expect`;
    a line that fails raises ScriptError naming it.  `chosen` sets options
    the script's `option` lines do not (OptionError for one it does, with
    another value)."""
    if opened is None:
        if not script.scenario:
            raise ScriptError(script.path, 0, "the script names no scenario: add a line `scenario NAME`")
        opened = open_for_record(script.scenario, root, script.path, script.header_line, script.options,
                                 script.option_line)
        if chosen:
            opened = open_scenario(script.scenario, root,
                                   options=merge_options(script.options, chosen, script.path))
    options = {"step_budget": step_budget} if step_budget else {}
    if max_decisions:
        options["max_decisions"] = max_decisions
    events = list(script.events)
    # Dice before the first decision or check are there before the game
    # starts (the set-up may roll); hands are set once the set-up has dealt.
    first = next((i for i, e in enumerate(events) if e.kind in ("decision", "expect")), len(events))
    session = Session(opened, opened.new_game(script.seed, **options), [], script.path)
    for e in events[:first]:
        if e.kind == "dice":
            session.apply_input(e, started=False)
    try:
        session.game.run()
    except GameError as err:
        line = events[first].line if first < len(events) else 0
        raise ScriptError(script.path, line, f"the game stopped with an error before this line: {err}") from None
    for e in events[:first]:
        if e.kind != "dice":
            run_event(session, e, script.path)
    for e in events[first:]:
        run_event(session, e, script.path)
    return session


def run_event(session: Session, e: Event, path: str) -> None:
    try:
        if e.kind == "decision":
            if session.game.over:
                raise ScriptError(path, e.line, f"the game is already over ({_outcome_text(session.game)}); "
                                                f"'{e.by}: {e.text}' cannot be played")
            try:
                session.choose(e.text, by=e.by)
            except IllegalOption as err:
                d = session.decision
                shown = "; legal: " + " | ".join(d.options) if d and len(d.options) <= 12 else ""
                raise ScriptError(path, e.line, f"{err.message}{shown}") from None
        elif e.kind in ("dice", "hand", "setup"):
            session.apply_input(e)
        else:
            problem = session.check(e)
            if problem is not None:
                shown = e.to_line()[len("expect "):]
                raise ScriptError(path, e.line, f"expected {shown}, found {problem}")
    except ValueError as err:
        raise ScriptError(path, e.line, str(err)) from None
    except GameError as err:
        raise ScriptError(path, e.line, f"the game stopped with an error: {err}") from None


def _outcome_text(game: Game) -> str:
    o = game.outcome
    if o is None:
        return "not over"
    return o.text()


def open_for_record(spec: str, root, path: str, line: int = 0, options: dict[str, str] | None = None,
                    option_line: int = 0) -> Opened:
    from ..compiler import UsageError
    from .world import OptionError

    try:
        return open_scenario(spec, root, options=options)
    except OptionError as err:
        raise ScriptError(path, option_line or line, f"{err}") from None
    except UsageError as err:
        raise ScriptError(path, line, f"{err}") from None
    except ScenarioError as err:
        raise ScriptError(path, line, err.message + (":\n" + err.text if err.text else "")) from None


def script_text(session: Session, note: str = "") -> str:
    """A session written as a script that replays it (and checks where it ends)."""
    lines = ["# pogdsl game record: replay and check it with `pogdsl replay FILE`"]
    if note:
        lines.append(f"# {note}")
    lines += [f"scenario {_quote(session.opened.spec)}", f"seed {session.game.s['seed']}"]
    lines += [f"option {name} {value}" for name, value in session.opened.options_text().items()]
    lines += [e.to_line() for e in session.events]
    lines.append(f"expect hash {session.game.state_hash()}")
    if session.game.over:
        lines.append(f"expect winner {session.game.outcome.winner or 'draw'}")
        if session.game.outcome.result is not None:
            lines.append(f"expect result {session.game.outcome.result}")
    return "\n".join(lines) + "\n"


# ================================================================ saves
SAVE_FORMATS_OLD = ("pogdsl-save/1",)  # their state hash depended on the folder they were made in
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*(\+[A-Za-z_][A-Za-z0-9_-]*)*$")  # a name, or NAME+RULESET…
_SEALED = ("format", "scenario", "scenario_key", "seed", "options", "sources_digest", "sources", "turn", "over",
           "decisions", "state", "hash")


def _encodable(data) -> bool:
    """Whether every text of a loaded JSON value is real text: JSON lets a
    file write half of a surrogate pair (\\ud800) alone, which Python reads
    into a string that no encoding can write."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def save_seal(data: dict) -> str:
    """A digest of every field of a save but the seal itself: a file damaged,
    or a field edited without sealing again, no longer matches it.  It has
    no key: anyone can seal an edit again, so it proves nothing about who
    made the save (the replay is what verifies it: docs/playing.rst)."""
    body = {k: v for k, v in data.items() if k != "seal"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False).encode()).hexdigest()


def save_data(session: Session) -> dict:
    g = session.game
    data = {
        "format": SAVE_FORMAT,
        "scenario": session.opened.key,  # a name: where its file lies is not the save's business
        "scenario_key": session.opened.key,
        "seed": g.s["seed"],
        "options": session.opened.options_text(),
        "sources_digest": session.opened.digest,
        "sources": dict(session.opened.sources),
        "turn": g.s["turn"],
        "over": g.over,
        "decisions": [e.to_json() for e in session.events],
        "state": g.to_json(),
        "hash": g.state_hash(),
    }
    data["seal"] = save_seal(data)
    return data


def save_text(session: Session) -> str:
    data = save_data(session)
    body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v, separators=(',', ':'), ensure_ascii=False)}"
                      for k, v in data.items())
    return "{\n" + body + "\n}\n"


def write_save(session: Session, path: str | Path) -> None:
    """Write the save whole or not at all (safe_io.write_file): a save that
    fails midway (a full disk, a file size limit) leaves the file that was
    at PATH as it was.  OSError with a one-line strerror."""
    write_file(path, save_text(session))


SAVE_DEPTH = 32  # how deeply a save's JSON may nest (a real save: 5 levels)


def _save_int(text: str) -> int:
    # The game's numbers are whole numbers of the language (15 digits); the
    # state also holds the dice generator's 64-bit word, so a save's numbers
    # may have 20 digits, no more.
    if len(text.lstrip("-").lstrip("0")) > 20:
        raise NumberError(f"the number {shown(text)} is too large for a saved game (at most 20 digits)")
    return int(text)


def _check_nesting(data, path) -> None:
    """BadSave if DATA nests deeper than SAVE_DEPTH (walked without recursion)."""
    todo = [(data, 1)]
    while todo:
        item, depth = todo.pop()
        if depth > SAVE_DEPTH:
            raise BadSave(f"{path} is not a valid saved game: its JSON is nested too deeply "
                          f"(more than {SAVE_DEPTH} levels)")
        if isinstance(item, dict):
            todo.extend((v, depth + 1) for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            todo.extend((v, depth + 1) for v in item if isinstance(v, (dict, list)))


def read_save_data(path: str | Path, under_current_rules: bool = False) -> dict:
    """A save's fields, checked for their kinds and against the save's seal
    (BadSave, one line, if anything is amiss).  Nothing is compiled or read
    but the file itself."""
    try:
        raw = read_bytes(path, RECORD_LIMIT, "save")
    except OSError as err:
        raise BadSave(f"cannot read {path}: {err.strerror or err}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadSave(f"{path} is not a saved game: it is not UTF-8 text") from None
    if not text.strip():
        raise BadSave(f"{path} is empty: not a saved game")
    try:
        data = json.loads(text, parse_int=_save_int)
        _check_nesting(data, path)
    except NumberError as err:
        raise BadSave(f"{path} is not a valid saved game: {err}") from None
    except RecursionError:
        raise BadSave(f"{path} is not a valid saved game: its JSON is nested too deeply") from None
    except json.JSONDecodeError as err:
        cut = text.lstrip().startswith("{") and not text.rstrip().endswith("}")
        hint = " (the file looks truncated)" if cut or err.pos >= len(text.rstrip()) - 1 else ""
        raise BadSave(f"{path} is not a valid saved game: bad JSON at line {err.lineno} column {err.colno}: "
                      f"{err.msg}{hint}") from None
    if not _encodable(data):
        raise BadSave(f"{path} is not a valid saved game: it holds a lone surrogate escape (\\ud800 to \\udfff), "
                      "which is no character")
    if not isinstance(data, dict) or "format" not in data:
        raise BadSave(f"{path} is not a pogdsl saved game (no \"format\" field)")
    old = data["format"] in SAVE_FORMATS_OLD
    if old and not under_current_rules:
        raise BadSave(f"{path} was saved by an older pogdsl (format {data['format']!r}) whose saves cannot be "
                      f"verified; to play its decisions again under the current rules: "
                      f"`pogdsl replay --under-current-rules {path}`")
    if data["format"] != SAVE_FORMAT and not old:
        raise BadSave(f"{path} has format {data['format']!r}; this pogdsl reads {SAVE_FORMAT!r}")
    kinds = {"scenario": str, "seed": int, "sources_digest": str, "decisions": list, "state": dict, "hash": str}
    if not old:
        kinds.update({"scenario_key": str, "sources": dict, "turn": int, "over": bool, "seal": str})
    recorded = data.get("options", {})
    if not isinstance(recorded, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                 for k, v in recorded.items()):
        raise BadSave(f"{path} is damaged: the field \"options\" is not a table of option values")
    for key, kind in kinds.items():
        value = data.get(key)
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
            raise BadSave(f"{path} is damaged: the field \"{key}\" is missing or not a {kind.__name__}")
    if not old:
        extra = sorted(set(data) - set(_SEALED) - {"seal"})
        if extra:
            raise BadSave(f"{path} is damaged: it has fields a save does not have ({', '.join(extra)})")
        if data["seal"] != save_seal(data):
            raise BadSave(f"{path} has been edited or damaged since it was saved: its fields do not match its seal")
        from ..opening import fingerprint_digest

        # The seal is a checksum anyone can recompute: what it covers is checked again on its own
        # (under the current rules the save's fingerprints only name what changed: they are not used).
        if not under_current_rules and (
                not all(isinstance(k, str) and isinstance(v, str) for k, v in data["sources"].items())
                or fingerprint_digest(data["sources"]) != data["sources_digest"]):
            raise BadSave(f"{path} has been changed since it was saved: its \"sources\" do not match its "
                          "\"sources_digest\"")
    if not all(_NAME.match(k) and v.isprintable() for k, v in recorded.items()):
        raise BadSave(f"{path} is damaged: an option's name or value in \"options\" is not a name or a value")
    return data


def _events_from_save(data: dict, path) -> list[Event]:
    events = []
    for i, item in enumerate(data["decisions"], 1):
        ok = isinstance(item, dict)
        if ok and "option" in item and isinstance(item.get("by"), str) and isinstance(item["option"], str):
            events.append(Event("decision", 0, item["by"], item["option"]))
        elif ok and isinstance(item.get("dice"), list) and all(isinstance(v, int) and not isinstance(v, bool)
                                                               for v in item["dice"]):
            events.append(Event("dice", 0, values=list(item["dice"])))
        elif ok and isinstance(item.get("hand"), str) and isinstance(item.get("cards"), list) and all(
                isinstance(c, str) for c in item["cards"]):
            events.append(Event("hand", 0, item["hand"], values=list(item["cards"])))
        elif ok and item.get("setup") in POSITION_VERBS and isinstance(item.get("args"), list) and all(
                isinstance(a, str) for a in item["args"]) and len(item["args"]) <= 8:
            events.append(Event("setup", 0, text=item["setup"], values=list(item["args"])))
        else:
            raise BadSave(f"{path} is damaged: entry {i} of \"decisions\" is not a decision or an input")
    return events


def merge_options(recorded: dict[str, str], chosen: dict[str, str] | None, path) -> dict[str, str]:
    """The options a record was played with, plus those `chosen` adds; a
    chosen value that contradicts the record is an OptionError."""
    from .world import OptionError

    merged = dict(recorded)
    for name, value in (chosen or {}).items():
        if name in recorded and recorded[name] != str(value):
            raise OptionError(f"{path} was played with option {name}={recorded[name]}; "
                              f"--option cannot change it to {value}")
        merged[name] = str(value)
    return merged


def rules_changes(saved: dict, here: dict) -> str:
    """Which source files differ between a save's fingerprints and these."""
    changed = sorted(n for n in saved.keys() & here.keys() if saved[n] != here[n])
    gone = sorted(saved.keys() - here.keys())
    new = sorted(here.keys() - saved.keys())
    parts = []
    for label, names in (("changed", changed), ("missing here", gone), ("new here", new)):
        if names:
            shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            parts.append(f"{label}: {shown}")
    return "; ".join(parts)


def load_save(path: str | Path, root: Path | None = None, *, opened: Opened | None = None,
              chosen: dict[str, str] | None = None, scenario: str | None = None,
              under_current_rules: bool = False, **options) -> Session:
    """Read a save, verify it (its seal, its scenario, the rules' fingerprint),
    replay its decisions and check they reach the saved state.  Any problem
    raises BadSave with a message naming it.  The game plays with the options
    the save records (`chosen` may add others: OptionError if it contradicts
    the save).  `scenario`: what the user named on the command line (a name
    or a .pog file); the save's own `scenario` field must be a name.
    `under_current_rules`: the rules may have changed since the save was
    made: its decisions are played again under these, and the first one that
    is no longer legal is named (the session's `replayed_differs` then says
    whether the position differs from the saved one)."""
    from ..compiler import UsageError
    from .world import OptionError

    data = read_save_data(path, under_current_rules)
    old = data["format"] in SAVE_FORMATS_OLD
    recorded = data.get("options", {})
    named = data["scenario"]
    if not _NAME.match(named):
        shown = named if len(named) <= 60 and named.isprintable() else named[:60].encode("unicode_escape").decode()
        raise BadSave(f"{path} names its scenario by a path ({shown!r}), not by a name: a save may not make "
                      "pogdsl read a file it names")
    if opened is None:
        given = merge_options(recorded, chosen, path)
        spec = scenario or named
        try:
            opened = open_scenario(spec, root, options=given, by_name=scenario is None)
        except OptionError as err:
            if chosen and any(name not in recorded for name in chosen):
                raise
            raise BadSave(f"{path} was played with options these sources do not offer: {err}") from None
        except UsageError as err:
            hint = "" if scenario else " (for a scenario of your own, give its .pog file on the command line)"
            raise BadSave(f"{path} is a game of scenario '{named}', which cannot be found here: {err}{hint}") from None
        except ScenarioError as err:
            raise BadSave(f"{path} is a game of scenario '{named}': {err.message}") from None
    key = data.get("scenario_key", named)
    if opened.key != key or (scenario is None and opened.key != named):
        raise BadSave(f"{path} is a game of scenario '{key}', not '{opened.key}'")
    if data["sources_digest"] != opened.digest and not under_current_rules:
        what = rules_changes(data.get("sources") or {}, opened.sources) or "the rules' fingerprint differs"
        raise BadSave(f"{path} was saved under other rules than these ({what}); to play its decisions again "
                      f"under the current rules: `pogdsl replay --under-current-rules {path}` (or `pogdsl play "
                      f"--load {path} --under-current-rules`)")
    if not under_current_rules:
        try:
            state = decode(data["state"], opened.world)
            saved_hash = state_hash(state)
        except Exception as err:  # noqa: BLE001 - the state names things this scenario does not have
            raise BadSave(f"{path} is damaged: its state does not fit scenario '{opened.key}' ({err})") from None
        if saved_hash != data["hash"]:
            raise BadSave(f"{path} has been changed since it was saved: its state does not match its hash")
        if state.get("turn") != data["turn"] or state.get("seed") != data["seed"]:
            raise BadSave(f"{path} has been changed since it was saved: its header does not match its state")
    events = _events_from_save(data, path)
    again = "no longer legal under the current rules" if under_current_rules else "not legal here"
    session = replay_events(opened, data["seed"], events, str(path), again, **options)
    differs = session.game.state_hash() != data["hash"]
    if differs and not under_current_rules:
        raise BadSave(f"{path} has been changed since it was saved: its decisions do not lead to its state")
    if not under_current_rules and (session.game.over != data["over"] or session.game.s["turn"] != data["turn"]):
        raise BadSave(f"{path} has been changed since it was saved: its header does not match its game")
    session.replayed_differs = differs
    session.from_save = True
    session.replayed_old = old
    return session  # with the replay's log: the saved one is not covered by the hash


def replay_events(opened: Opened, seed: int, events: list[Event], path: str = "<game>",
                  again: str = "not legal here", **options) -> Session:
    """A new game of OPENED with SEED, played through EVENTS (decisions and
    inputs, as a save records them); BadSave names the first that fails."""
    first = next((i for i, e in enumerate(events) if e.kind != "dice"), len(events))
    session = Session(opened, opened.new_game(seed, **options), [], path)
    try:
        for e in events[:first]:
            session.apply_input(e, started=False)
        session.game.run()
        for n, e in enumerate(events[first:], first + 1):
            if e.kind == "decision":
                said = escape_controls(f"{e.by}: {e.text}", keep_lines=False)  # (a save's text, on one line)
                if session.game.over:
                    raise BadSave(f"{path} does not replay: entry {n} ({said}) comes after the game ended")
                try:
                    session.choose(e.text, by=e.by)
                except IllegalOption as err:
                    rules = f" (rule {', '.join(err.rules)})" if err.rules and "rule" not in err.message else ""
                    raise BadSave(f"{path} does not replay: entry {n} ({said}) is {again}: "
                                  f"{escape_controls(err.message, keep_lines=False)}{rules}") from None
            else:
                session.apply_input(e)
    except ValueError as err:
        raise BadSave(f"{path} does not replay: {escape_controls(str(err), keep_lines=False)}") from None
    except GameError as err:
        raise BadSave(f"{path} does not replay: the game stopped with an error: {err}") from None
    return session


def load_any(path: str | Path, root: Path | None = None, *, chosen: dict[str, str] | None = None,
             scenario: str | None = None, under_current_rules: bool = False, **options) -> Session:
    """A save (JSON) or a script (text), played back and checked, with the
    options it records (and those `chosen` adds)."""
    try:
        head = read_bytes(path, RECORD_LIMIT, "save or script")[:64].lstrip()
    except OSError as err:
        raise BadSave(f"cannot read {path}: {err.strerror or err}") from None
    if head.startswith(b"{") or Path(path).suffix.lower() == ".json":
        return load_save(path, root, chosen=chosen, scenario=scenario, under_current_rules=under_current_rules,
                         **options)
    return replay_script(read_script(path), root, step_budget=options.get("step_budget"), chosen=chosen,
                         max_decisions=options.get("max_decisions"))
