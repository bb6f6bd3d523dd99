"""Agents answer decisions: random (seeded), scripted (from a file), human
(the terminal).  `play` runs a session with one agent per side.

An agent spec, as the command line gives it:
  human           a person at the terminal
  random          random choices, seeded from the game's seed and the side
  random:SEED     random choices from SEED
  greedy          takes the option its side's declared evaluation judges best
                  after a short look-ahead (agents/greedy.py), seeded from the
                  game's seed and the side; greedy:K looks at K options (4),
                  greedy:K:F plays F of its own decisions on after each option
                  of a decision that opens its action (0 to 100, default 6;
                  0: only the next)
  mcts:N          looks ahead: N random playouts a decision (agents/mcts.py),
                  seeded from the game's seed and the side; mcts:N:D cuts
                  each playout after D decisions (default 30)
  ismcts:N        searches: at a decision that opens its action where
                  greedy's look-ahead finds its best options close, N
                  iterations of information-set Monte Carlo tree search over
                  them, greedy playing the playouts through the other side's
                  reply (agents/ismcts.py), seeded likewise; elsewhere
                  greedy's answer; ismcts:N:H plays each playout for at most
                  H decisions after the tree (default 40); ismcts:N:H:Z takes
                  a searched option over greedy's only when it leads by Z
                  standard errors (default 0: any lead); ismcts:N:H:Z:F
                  has its greedy (the screen and the playouts) play F of its
                  own decisions on after each option (greedy:K:F's F,
                  default 6); an empty number is its default: ismcts:16:::2
  script:FILE     the FILE's decision lines for that side, in order
"""

from __future__ import annotations

import functools
import sys
from collections import Counter

from ..runtime.errors import GameError, IllegalOption
from ..runtime.record import derive_seed
from .base import AGAIN, QUIT, Again, Agent, Stop
from .greedy import GreedyAgent
from .human import HumanAgent, format_log_entry
from .ismcts import IsmctsAgent
from .mcts import MctsAgent
from .random_agent import RandomAgent
from .scripted import ScriptedAgent, ScriptExhausted

__all__ = [
    "AGAIN",
    "QUIT",
    "Agent",
    "GreedyAgent",
    "HumanAgent",
    "IsmctsAgent",
    "MctsAgent",
    "RandomAgent",
    "ScriptExhausted",
    "ScriptedAgent",
    "agent_seed",
    "format_trace",
    "make_agent",
    "play",
    "player_identity",
]

AGENT_SPECS = ("human | random | random:SEED | greedy | greedy:K | greedy:K:F | mcts:N | mcts:N:D | ismcts:N | ismcts:N:H | ismcts:N:H:Z "
               "| ismcts:N:H:Z:F | script:FILE")


def agent_seed(game_seed: int, side: str) -> int:
    """The seed of a random agent that was given none: derived from the game's
    seed and its side, so `simulate` and `play --seed S` agree."""
    return derive_seed(game_seed, "agent", side)


def make_agent(spec: str, side: str, game_seed: int, **human_options) -> Agent:
    """An agent from its spec; raises ValueError with a readable message."""
    kind, _, arg = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "human" and not arg:
        return HumanAgent(side, **human_options)
    if kind == "random":
        if not arg:
            agent = RandomAgent(agent_seed(game_seed, side))
            agent.label = "random"
            return agent
        from ..numbers import NumberError, parse_whole

        try:
            return RandomAgent(parse_whole(arg))
        except NumberError as err:
            raise ValueError(f"random:SEED needs a whole number: {err}") from None
    if kind == "mcts":
        from .mcts import parse_spec

        if not arg:
            raise ValueError("mcts needs its number of playouts a decision: mcts:N, e.g. mcts:200")
        return parse_spec(arg, agent_seed(game_seed, side))
    if kind == "greedy":
        from .greedy import parse_spec as greedy_spec

        return greedy_spec(arg, agent_seed(game_seed, side))
    if kind == "ismcts":
        from .ismcts import parse_spec as parse_ismcts

        if not arg:
            raise ValueError("ismcts needs its number of iterations a decision: ismcts:N, e.g. ismcts:100")
        return parse_ismcts(arg, agent_seed(game_seed, side))
    if kind == "script" and arg:
        return ScriptedAgent.from_file(arg, side)
    raise ValueError(f"unknown agent '{spec}' for {side}: use {AGENT_SPECS}")


@functools.lru_cache(maxsize=256)
def player_identity(spec: str) -> str:
    """Who SPEC plays as: the label of the computer player it makes, every
    number written out that differs from its default, so that two
    spellings of one player (``ismcts:16:::2`` and ``ismcts:16:40:0:2``,
    ``greedy:4`` and ``greedy``, ``mcts:8:30`` and ``mcts:8``) are one
    player where games are counted by player (a ladder).  A spec that makes
    no computer player (a person, a script, a malformed spec) is itself."""
    kind = spec.partition(":")[0].strip().lower()
    if kind in ("human", "script"):
        return spec.strip()
    try:
        return make_agent(spec, "ap", 0).label
    except Exception:  # noqa: BLE001 - a spec no player is made from names itself
        return spec.strip()


def explain_move(agent, decision, index: int) -> str | None:
    """Why a computer player took option INDEX of DECISION, for a person
    watching (shown under the move's log line, which cites the decision's
    rules): the option's score against the next best's, and the terms of
    the evaluation that made the difference."""
    if not hasattr(agent, "last") or len(decision.options) < 2:
        return None
    judgement = agent.last
    if judgement is None or judgement.option != index or judgement.score < 0:
        return (f"    why ({agent}): the choice's weight favours it (its look-ahead has told these options "
                "apart by nothing)")
    line = f"    why ({agent}): judged {judgement.score:.2f}"
    if judgement.runner_up is not None:
        line += (f" against {judgement.runner_up_score:.2f} for '{decision.options[judgement.runner_up]}'"
                 f" (best of {judgement.looked_at} looked at)")
    if judgement.terms:
        line += "; it differs in " + ", ".join(f"{name} {delta:+d}" for name, delta in judgement.terms)
    return line


def format_trace(entries) -> list[str]:
    """Trace entries, grouped: which restrictions, modifiers, triggers and
    segments applied, with their rules and how many times."""
    counts = Counter((kind, name, tuple(rules)) for kind, name, rules in entries)
    lines = []
    for (kind, name, rules), n in counts.items():
        times = f" ×{n}" if n > 1 else ""
        cited = f" (rule {', '.join(rules)})" if rules else ""
        lines.append(f"{kind} {name}{cited}{times}")
    return lines


def play(session, agents: dict, *, out=None, show_log: bool = False, trace: bool = False,
         echo: bool = True) -> str:
    """Play until the game is over ("over") or an agent stops it ("quit").
    Errors of the game (GameError) and of scripts (BadSave) propagate."""
    out = out or sys.stdout
    g = session.game
    humans = {side for side, a in agents.items() if a.human}
    for a in agents.values():
        if a.human:
            a.human_sides = humans
    show_log = show_log or bool(humans)  # a person sees what happened since their last decision
    if humans:
        g.keep_history = True
        for a in agents.values():
            if not a.human and hasattr(a, "explain"):
                a.explain = True  # a person sees why the computer moved as it did
    if trace:
        if g.trace is None:
            g.trace = []
        g.cache_values = False  # a value read from a cache would not show its modifiers
    seen = 0 if session.decisions_made == 0 else len(g.s["log"])  # a loaded game: only what is new
    why = None  # a computer player's reasons for its last move, shown after the move's log

    def say(text):
        print(text, file=out)

    while True:
        if show_log:
            log = g.s["log"]
            seen = min(seen, len(log))  # an undo may have shortened it
            for entry in log[seen:]:
                say(f"  · {format_log_entry(entry)}")
                if why:  # right under the move's own line ("cp chose: …", with the decision's rules)
                    say(why)
                    why = None
            seen = len(log)
        if why:
            say(why)
            why = None
        d = session.decision
        if d is None:
            return "over"
        if trace and g.trace:
            for line in format_trace(g.trace):
                say(f"  [trace] {line}")
            g.trace.clear()
        agent = agents.get(str(d.by))
        if agent is None:
            raise GameError(f"'{d.by}' must choose {d.choice}, but only sides have agents "
                            f"({', '.join(agents)})", None, d.rules)
        answer = agent.choose(session, d)
        if isinstance(answer, Stop):
            return "quit"
        if isinstance(answer, Again):
            seen = min(seen, len(g.s["log"]))
            continue
        try:
            index = session.resolve(answer)
            session.choose(index + 1)
        except IllegalOption as err:
            agent.refused(session, d, answer, err)
            continue
        if echo and not show_log and not humans:
            say(f"{d.by} ({agent}): {d.options[index]}")
        if humans and not agent.human:
            why = explain_move(agent, d, index)
