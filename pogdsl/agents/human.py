"""A person at the terminal: numbered options, and commands to look around.

Everything goes through `input_fn` and `out`, so a test can feed it lines.
"""

from __future__ import annotations

import sys

from ..numbers import digits_key, is_digits
from ..runtime import builtins as B
from ..runtime.errors import BadSave
from ..runtime.hidden import undo_reveals
from ..runtime.values import text_of
from .base import AGAIN, QUIT, Agent

HELP = """\
Answer with an option's number or its text (a unique beginning is enough).
Commands:
  options [N|all]  list the options again (a long list: its page N, or all of it)
  more             the next page of a long list of options
  space NAME       a space (or box): its facts, control and the units in it
  hand [SIDE]      your hand; of the other side's, only its size
  unit NAME        a unit: its nation, factors, side up and where it is
  card CARD        a card's values, text and pile, named as `AP 6` or by name
                   (a name both sides' cards bear means the side choosing's)
  tracks [all]     the tracks the scenario declares (turn, VP, war status...)
                   (`tracks all`: every state variable)
  log [N]          the last N lines of the log (default 10), with their rules
  why [TEXT]       why TEXT is legal, forbidden or not offered now, down to the condition that
                   decided; `why` alone lists the forbidden options with their reasons;
                   `why log [N]`: which blocks wrote the N-th last line of the log
  undo [N]         take back your last N decisions (and the replies to them), unless a
                   die was rolled or a hidden card seen since
  save FILE        save the game to FILE (load it with `pogdsl play --load FILE`)
  help             this text
  quit             stop playing"""

COMMANDS = ("help", "options", "more", "space", "unit", "hand", "card", "tracks", "log", "why", "undo", "save",
            "quit")


def format_log_entry(entry: dict) -> str:
    rules = f"  [{', '.join(entry['rules'])}]" if entry.get("rules") else ""
    return f"{entry['text']}{rules}"


class HumanAgent(Agent):
    human = True
    batch = False  # a person at a terminal

    def __init__(self, side: str, *, input_fn=input, out=None, terminal=None):
        self.side = side
        self.input_fn = input_fn
        self.out = out
        # The prompt_toolkit prompt (agents/terminal.py) when a person is at a
        # terminal: it reads the lines, and long option lists are paged.
        self.terminal = terminal
        self._page = 1
        self.human_sides: set[str] = {side}
        self.label = "human"
        self._shown = None
        self._helped = False

    def say(self, text: str = "") -> None:
        print(text, file=self.out or sys.stdout)

    # ------------------------------------------------------------ answering
    def choose(self, session, decision):
        g = session.game
        key = (g.s["decisions"], decision.by, tuple(decision.options))
        if key != self._shown:
            self._shown = key
            self._print_decision(session, decision)
        while True:
            try:
                line = self._read(session, decision)
            except EOFError:
                self.say("(end of input: stopping)")
                return QUIT
            text = " ".join(line.split())
            if not text:
                self._print_options(decision, session)
                continue
            lowered = [o.lower() for o in decision.options]
            if is_digits(text) or text.lower() in lowered:
                return text
            word, _, rest = text.partition(" ")
            if word.lower() in COMMANDS:
                result = getattr(self, "cmd_" + word.lower())(session, decision, rest.strip())
                if result is not None:
                    return result
                continue
            return text  # not an exact option: the game resolves it, or says why not

    def refused(self, session, decision, answer, error) -> None:
        rules = f" (rule {', '.join(error.rules)})" if error.rules and "rule" not in error.message else ""
        if "beginning of several" in error.message:
            self.say(error.message)
            return
        self.say(f"Not legal: {error.message}{rules}")

    # ------------------------------------------------------------ printing
    def _print_decision(self, session, d) -> None:
        s = session.game.s
        rules = f" · rule {', '.join(d.rules)}" if d.rules else ""
        self.say("")
        self.say(f"── turn {s['turn']} · {s['phase'] or 'set-up'} ── {d.by} to choose: {d.choice}{rules}")
        if d.prompt:
            self.say(f"   {d.prompt}")
        self._page = 1
        self._print_options(d, session)
        if not self._helped:
            self._helped = True
            self.say("Type a number or an option; `help` lists the commands.")

    def _read(self, session, decision) -> str:
        if self.terminal is not None:
            return self.terminal.read(session, decision, COMMANDS)
        return self.input_fn(f"{decision.by}> ")

    def _print_options(self, d, session=None, page: int | None = None) -> None:
        if self.terminal is None or session is None or len(d.options) <= self.terminal.page_lines:
            width = len(str(len(d.options)))
            for i, option in enumerate(d.options, 1):
                self.say(f"  {i:>{width}}. {option}")
            return
        self._print_page(session, d, page or self._page)

    def _pages(self, session, d) -> list[list[str]]:
        """A long list's lines, grouped by space or unit, cut into pages."""
        from .terminal import option_lines, pages

        return pages(option_lines(session.game, d.options, self.terminal.width), self.terminal.page_lines)

    def _print_page(self, session, d, page: int | str) -> None:
        every = self._pages(session, d)
        if page == "all":
            for line in (line for one in every for line in one):
                self.say(line)
            return
        self._page = min(max(1, page), len(every))
        for line in every[self._page - 1]:
            self.say(line)
        if len(every) > 1:
            nxt = "`more` for the next, " if self._page < len(every) else ""
            self.say(f"  (page {self._page} of {len(every)}, {len(d.options)} options: {nxt}`options N` for page N, "
                     "`options all` for every one; Tab completes an option's text)")

    # ------------------------------------------------------------ commands
    def cmd_help(self, session, d, rest):
        self.say(HELP)

    def cmd_options(self, session, d, rest):
        word = rest.strip().lower()
        if word and word != "all" and not is_digits(word):
            self.say("options [N|all]: N is a page number")
            return
        self._print_options(d, session, "all" if word == "all" else int(word) if word else None)

    def cmd_more(self, session, d, rest):
        if self.terminal is None or len(d.options) <= self.terminal.page_lines:
            self._print_options(d, session)
            return
        count = len(self._pages(session, d))
        if self._page >= count:
            self.say(f"(no more: page {count} of {count} was the last; `options 1` shows the first again)")
            return
        self._print_options(d, session, self._page + 1)

    def cmd_quit(self, session, d, rest):
        return QUIT

    def cmd_space(self, session, d, rest):
        w, s = session.world, session.game.s
        if not rest:
            self.say("space NAME: which space? e.g. `space " + (w.spaces[0].key if w.spaces else "Paris") + "`")
            return
        name = rest.strip("'\"")
        found = _find(w.by_kind.get("space", {}), name) or _find(w.by_kind.get("box", {}), name)
        if found is None:
            from ..diagnostics import did_you_mean

            hint = did_you_mean(name, list(w.by_kind.get("space", {})))
            self.say(f"no space named '{name}'" + (f" ({hint})" if hint else ""))
            return
        units = B.units_in(session.game, None, found)
        if found.kind == "space":
            data = found.data
            facts = [f"nation {text_of(data.nation)}", f"terrain {text_of(data.terrain)}",
                     f"control {s['control'][found.index] or 'none'}"]
            if data.vp:
                facts.append("VP space")
            if data.fort:
                facts.append(f"fort {data.fort}" + (" (destroyed)" if s["fort_destroyed"][found.index] else ""))
            if data.capital:
                facts.append("capital")
            if data.supply:
                facts.append("supply source")
            self.say(f"{found.key}: " + ", ".join(facts))
            self.say("  next to: " + ", ".join(sp.key for sp in B.adjacent(session.game, None, found)))
        else:
            self.say(f"{found.key} (box)")
        self.say("  units: " + (", ".join(_unit_text(session, u) for u in units) if units else "none"))
        for name_, decl in w.state_decls.items():
            if decl.scope is not None and decl.scope.text == found.kind:
                self.say(f"  {name_}: {text_of(B.read_scoped(session.game, name_, found))}")

    def cmd_hand(self, session, d, rest):
        w = session.world
        side_key = rest.strip() or str(d.by)
        side = _find(w.by_kind.get("side", {}), side_key)
        if side is None:
            self.say(f"no side named '{side_key}' (sides: {', '.join(s.key for s in w.sides)})")
            return
        piles = session.game.s["piles"]
        cards = [w.cards[i] for i in piles[f"hand:{side.key}"]]
        if d is not None and side.key != str(d.by):
            # Each side sees its own hand; of the other's, only how many cards.
            self.say(f"{side.key}'s hand: {len(cards)} card{'s' * (len(cards) != 1)} (hidden from {d.by})")
            return
        self.say(f"{side.key}'s hand ({len(cards)} card{'s' * (len(cards) != 1)}):")
        for c in cards:
            data = c.data
            values = [f"ops {data.ops}" if data.ops is not None else "", f"sr {data.sr}" if data.sr else ""]
            extra = " ".join(v for v in values if v)
            self.say(f"  #{data.number} {data.name.text}" + (f"  ({extra})" if extra else ""))
        sizes = {k: len(piles[f"{k}:{side.key}"]) for k in ("draw", "discard", "removed")}
        self.say("  " + ", ".join(f"{k} pile {n}" for k, n in sizes.items()))

    def cmd_card(self, session, d, rest):
        if not rest:
            self.say("card CARD: which card? e.g. `card AP 6` or `card Entrench`")
            return
        try:
            card = session.card(rest, str(d.by) if d is not None else None)
        except ValueError as err:
            self.say(str(err))
            return
        data = card.data
        self.say(f"{data.side.text.upper()} {data.number} {data.name.text}"
                 + (f" ({data.deck.text} deck)" if data.deck else ""))
        if data.note:
            self.say(f"  {data.note}")
        values = [f"ops {data.ops}", f"sr {data.sr}"]
        if data.rp:
            values.append("rp " + " ".join(f"{n.text} {v}" for n, v in data.rp))
        if data.war_status:
            values.append(f"war status {data.war_status}")
        flags = [f for f, on in (("combat card", data.combat), ("removed after its event", data.removed)) if on]
        self.say("  " + ", ".join(values + flags))
        if data.event is None:
            self.say("  its event is not written: it can be played for operations, SR or RP only")
        self.say(f"  {_card_place(session, card, d)}")

    def cmd_tracks(self, session, d, rest):
        from ..board.tracks import declared_tracks

        every_one = rest.strip().lower() == "all"
        if every_one or not declared_tracks(session.world.program):
            self._print_state(session, every_one)
        else:
            self._print_declared_tracks(session)

    def _print_declared_tracks(self, session) -> None:
        """The tracks the scenario's display blocks declare, by their labels."""
        from ..board.tracks import readings

        found = readings(session.game)
        width = max(len(r.label) for r in found) if found else 0
        s = session.game.s
        self.say(f"turn {s['turn']}, phase {s['phase'] or 'set-up'}, {s['decisions']} decisions so far")
        for r in found:
            self.say(f"  {r.label:<{width}}  {', '.join(r.values)}")
        self.say("  (`tracks all`: every state variable)")

    def _print_state(self, session, every_one: bool) -> None:
        """The state variables: those that moved from their start (all of them
        with EVERY_ONE), for a scenario that declares no tracks or a rules lawyer."""
        g, w = session.game, session.world
        s = g.s
        self.say(f"turn {s['turn']} (of {w.first_turn}..{w.last_turn}), phase {s['phase'] or 'set-up'}, "
                 f"{s['decisions']} decisions so far")
        hidden = 0
        for name, decl in w.state_decls.items():
            start = w.state_start.get(name)
            if decl.scope is None:
                if not every_one and s["vars"][name] == start:
                    hidden += 1
                    continue
                self.say(f"  {name} = {text_of(s['vars'][name])}")
                continue
            values = s["vars"][name]
            moved = {k: v for k, v in values.items() if v != start}
            if not every_one and not moved:
                hidden += 1
                continue
            every = w.by_kind.get(decl.scope.text, {})
            if every_one and 0 < len(every) <= 12 and decl.scope.text != "unit":
                shown = ", ".join(f"{k} {text_of(B.read_scoped(g, name, e))}" for k, e in every.items())
            else:
                shown = ", ".join(f"{_scope_label(w, decl, k)} {text_of(v)}"
                                  for k, v in sorted((values if every_one else moved).items()))
            self.say(f"  {name} (per {decl.scope.text}, start {text_of(start)})" + (f": {shown}" if shown else ""))
        war = [n for n, at in s["at_war"].items() if at]
        if war:
            self.say(f"  at war: {', '.join(war)}")
        if s["dice"]:
            self.say(f"  forced dice to come: {' '.join(str(v) for v in s['dice'])}")
        if hidden:
            self.say(f"  ({hidden} more at their start values: `tracks all` shows them)")

    def cmd_unit(self, session, d, rest):
        w = session.world
        if not rest:
            self.say("unit NAME: which unit? e.g. `unit " + (w.units[0].key if w.units else "GE 1") + "`")
            return
        name = " ".join(rest.strip("'\"").split())
        found = [u for u in w.units if u.key.lower() == name.lower()]
        if not found:
            from ..diagnostics import did_you_mean

            hint = did_you_mean(name, list(dict.fromkeys(u.key for u in w.units)))
            self.say(f"no unit named '{name}'" + (f" ({hint})" if hint else ""))
            return
        for u in found:  # identical pieces share a name: each one
            data = u.data
            kind = text_of(data.type) if data.type is not None else "unit"
            self.say(f"{_unit_text(session, u)}: {text_of(data.nation)} {kind}, at {_unit_place(session, u)}")

    def cmd_log(self, session, d, rest):
        try:
            n = int(rest) if rest else 10
        except ValueError:
            self.say("log N: N is a number of lines")
            return
        entries = session.game.s["log"][-n:] if n > 0 else []
        if not entries:
            self.say("the log is empty")
        for e in entries:
            self.say(f"  T{e['turn']} {e['phase'] or 'set-up'}: {format_log_entry(e)}")

    def cmd_why(self, session, d, rest):
        from ..explain import explain_option, forbidden_options

        if not rest:  # every forbidden option, each with the sub-condition that forbids it
            forbidden = forbidden_options(session.game, viewer=str(d.by))  # shown as d.by may see them
            if not forbidden:
                self.say("no option is forbidden now (`why TEXT` also says why an option is left out)")
                return
            self.say(f"{len(forbidden)} forbidden now (`why TEXT` for the whole reasoning):")
            for e in forbidden:
                self.say(f"  {e.headline}")
                decisive = e.decisive()
                if decisive is not None and decisive.deciding() is not None:
                    self.say(f"    because {decisive.headline()}")
            return
        words = rest.split()
        if words[0].lower() == "log" and not any(o.lower().startswith("log") for o in d.options):
            self._why_log(session, words[1:])
            return
        # matched as an answer is: the whole text, or a unique beginning
        self.say(explain_option(session.game, rest.strip("'\""), viewer=str(d.by)).to_text())

    def _why_log(self, session, words):
        """`why log [N]`: the N-th last line of the log (1, the last) with the
        blocks that wrote it (the game is played again from its record)."""
        from ..explain import trace_log
        from ..runtime.errors import BadSave

        if len(words) > 1 or (words and not (is_digits(words[0]) and 0 < len(words[0]) < 7 and int(words[0]) > 0)):
            self.say("why log [N]: N counts the log's lines from the last (1, the last one)")
            return
        back = int(words[0]) if words else 1
        try:
            lines = trace_log(session)
        except BadSave as err:
            self.say(str(err))
            return
        if back > len(lines):
            self.say(f"the log has {len(lines)} line{'s' if len(lines) != 1 else ''}")
            return
        self.say(lines[-back].to_text())

    def cmd_undo(self, session, d, rest):
        try:
            n = int(rest) if rest else 1
        except ValueError:
            self.say("undo N: N is a number of decisions")
            return
        if not session.game.keep_history:
            self.say("undo is not available in this game")
            return
        # Back to the N-th last decision made at this terminal, taking back the
        # replies of the players who are not here with it.
        steps = session.steps_back(self.human_sides, n)
        if not steps:
            self.say("nothing to undo: no decision of yours yet")
            return
        if steps > len(session.game.history):
            self.say("cannot undo that far: only the decisions made since the game was started or loaded here")
            return
        # Going back past a die or a card seen would let the player fish for
        # luck or unlearn what the game showed: the board refuses it too.
        reason = undo_reveals(session.game.history[-steps], session.game.s, str(d.by))
        if reason:
            self.say(f"cannot take back that decision: {reason}")
            return
        done = session.undo(steps)
        self.say(f"took back {done} decision{'s' * (done != 1)}")
        self._shown = None
        return AGAIN

    def cmd_save(self, session, d, rest):
        from ..runtime.record import write_save

        if not rest:
            self.say("save FILE: where to? e.g. `save game.json`")
            return
        try:
            write_save(session, rest)
        except (OSError, BadSave) as err:
            self.say(f"cannot save to {rest}: {getattr(err, 'strerror', None) or err}")
            return
        self.say(f"saved to {rest}")


def _find(table: dict, name: str):
    if name in table:
        return table[name]
    lowered = {k.lower(): v for k, v in table.items()}
    return lowered.get(name.lower())


def _card_place(session, card, d) -> str:
    """Where a card is, as far as the side choosing may know: its own hand and
    the open piles, never the other hand or a draw pile."""
    piles = session.game.s["piles"]
    for pile, cards in piles.items():
        if card.index in cards:
            kind, _, owner = pile.partition(":")
            if kind == "hand":
                return "in your hand" if d is not None and owner == str(d.by) else "not in your hand"
            if kind == "draw":
                return "not in your hand"
            return f"in the {kind.replace('_', ' ')} pile" + (f" of {owner}" if owner else "")
    return "not in the game"


def _unit_text(session, u) -> str:
    reduced = session.game.s["reduced"][u.index]
    factors = u.data.reduced if reduced and u.data.reduced else u.data.full
    return f"{u.key} {'-'.join(str(f) for f in factors)}" + (" (reduced)" if reduced else "")


def _unit_place(session, u) -> str:
    place = session.world.place_entity(session.game.s["loc"][u.index])
    return place.key if place is not None else "no place (not in play)"


def _scope_label(w, decl, key: str) -> str:
    if decl.scope.text == "unit" and digits_key(key) is not None and int(key) < len(w.units):
        return w.units[int(key)].key
    return key
