"""Explanations: why an option of a decision is legal, forbidden or not
offered, down to the sub-condition that decided, and which blocks wrote a
line of the log.

Everything here reads the running game and its compiled program (the AST
with its spans, rule citations and notes); the runtime never imports it, and
nothing is worked out until it is asked (play runs at full speed).

The API (what `why`, `pogdsl explain` and the browser board call)::

    from pogdsl.explain import explain_option, forbidden_options, trace_log

    e = explain_option(game, "play 1 event")   # matched as answers are: any case,
    e.verdict        # a unique beginning, or the option's number
    # "legal" | "forbidden" | "not offered" | "unknown" | "no decision"
    print(e.to_text())
    e.to_json()      # plain JSON data, below

    for e in forbidden_options(game):          # every forbidden option, with why
        print(e.to_text())

    for entry in trace_log(opened, seed, events):   # each log line, with the
        entry.to_json()                             # blocks that were running

`Explanation.to_json()`::

    {"option": "play 1 event (Russian Reinforcements)",  # as the game writes it
     "asked": "play 1 event", "verdict": "forbidden", "choice": "take_action", "by": "ap",
     "message": "'play 1 event' (…) is forbidden by reinforcement_play (rule 9.5.3.1, 9.5.3.3): …",
     "block": "reinforcement_play",       # the restriction (or the choice, for its domain) that decided
     "file": "rules/09-events.pog", "line": 189,   # its clause: the `forbid`, the `where`, the source
     "rules": ["9.5.3.1", "9.5.3.3"], "note": "…",  # the block's citations and own-words note
     "condition": "turn > 1", "value": false,        # the sub-condition that decided, its value,
     "values": {"turn": 1},                          # the values it saw,
     "condition_file": "rules/09-events.pog", "condition_line": 172,   # where it is written, and
     "condition_block": "reinforcements_allowed",    # the block it is written in (a value it
     "condition_rules": ["9.5.3.1"], "condition_note": "…",   # called, opened), with its rules
     "reasons": [{"block", "kind", "decides", "file", "line", "rules", "note", "condition", …,
                  "when": TREE, "unless": TREE}, …],   # "kind": restriction | filter | source
     "suggestions": ["…"]}                # for "unknown": the option meant (did you mean)

A TREE is ``{"condition", "value", "file", "line", "values", "parts": [TREE, …]}``
(with "opens": a value's name where a call to it was opened, "note",
"error").  For a legal option the reasons are the restriction clauses it
passed, each with the part that failed (`when`) or held (`unless`); for a
forbidden one, the clauses that forbid it; for one not offered, the choice's
`where` or the `for … in` source that leaves it out.

What decides, part by part (conditions.py): for `and`, the first false part
(all true: every part, the last taken as the deciding one); for `or`, the
first true part (all false: every part); `not`; a comparison with the values
it saw; a call to a value opened down to its own expression; `any`/`all`
with the item that settled it.
"""

from .conditions import Block, Evaluator, Finding
from .logtrace import LogLine, trace_log
from .options import Explanation, Reason, explain_option, forbidden_options

__all__ = ["Block", "Evaluator", "Explanation", "Finding", "LogLine", "Reason", "explain_option",
           "forbidden_options", "trace_log"]
