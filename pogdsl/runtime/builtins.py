"""The built-in queries and attributes of the vocabulary, at run time.

Each entry here implements one entry of `pogdsl.semantics.vocabulary`; a test
checks the two lists agree.  Everything is generic: spaces, units, cards,
piles, tables — never a rule of a particular game.
"""

from __future__ import annotations

from collections import deque
from itertools import compress, islice
from operator import attrgetter

from ..syntax.ast import BoxDecl as _BoxDecl
from .deps import entity_area
from .errors import GameError, LimitExceeded
from .limits import INT_LIMIT, MAX_INT_DIGITS, MAX_NESTING
from .tables import Table as _Table
from .values import Entity, Found, Pool, scope_key, text_of
from .values import ScopedState as _ScopedState


# ----------------------------------------------------------------- limits
# The checks of limits.py where work is allocated: arithmetic (the
# integer range, and lists joined with `+`), lists built, values stored.
def too_large(n, span=None) -> LimitExceeded:
    return LimitExceeded(f"a number of {len(str(abs(n))) if abs(n) < 10 ** 100 else 'over 100'} digits: the "
                         f"language's integers have at most {MAX_INT_DIGITS} digits", span, limit="integers")


def too_long(g, n: int, span=None, what: str = "a list") -> LimitExceeded:
    return LimitExceeded(f"{what} of {n} items, more than the limit of {g.max_list} "
                         "(`limit list_size N` in the scenario raises it)", span, limit="list_size")


def add(g, a, b, span=None):
    """`a + b`: numbers within the integer range, lists within the list size."""
    r = a + b
    if type(r) is int:
        if -INT_LIMIT < r < INT_LIMIT:
            return r
        raise too_large(r, span)
    if type(r) is list and len(r) > g.max_list:
        raise too_long(g, len(r), span)
    return r


def sub(g, a, b, span=None):
    r = a - b
    if type(r) is int and not -INT_LIMIT < r < INT_LIMIT:
        raise too_large(r, span)
    return r


def mul(g, a, b, span=None):
    """`a * b`: checked before a list or text is repeated, after numbers are multiplied."""
    if type(a) is int and type(b) is int:
        r = a * b
        if -INT_LIMIT < r < INT_LIMIT:
            return r
        raise too_large(r, span)
    if isinstance(a, int) and isinstance(b, (list, str)):
        a, b = b, a
    if isinstance(a, (list, str)) and isinstance(b, int) and len(a) * b > g.max_list:
        raise too_long(g, len(a) * b, span)
    r = a * b
    if isinstance(r, int) and not -INT_LIMIT < r < INT_LIMIT:
        raise too_large(r, span)
    return r


def span_range(g, low: int, high: int, span=None) -> list:
    if high - low + 1 > g.max_list:
        raise too_long(g, high - low + 1, span, f"the range {low}..{high}")
    return list(range(low, high + 1))


def stored(g, v, span=None):
    """A value about to be kept in the state (a local or a state variable):
    a number within the integer range, lists nested at most MAX_NESTING deep
    (the state is written out as JSON: saves, the state hash)."""
    if type(v) is int:
        if not -INT_LIMIT < v < INT_LIMIT:
            raise too_large(v, span)
    elif type(v) is list:
        for x in v:  # (one pass, a C loop when compiled)
            if type(x) is list or type(x) is dict:
                _check_nesting(v, span)
                break
    return v


def _check_nesting(v: list, span) -> None:
    level, depth = [v], 1
    while level:
        inner = [x for item in level for x in item if type(x) is list or type(x) is dict]
        if not inner:
            return
        depth += 1
        if depth > MAX_NESTING:
            raise LimitExceeded(f"lists nested more than {MAX_NESTING} deep", span, limit="nesting")
        level = [x if type(x) is list else list(x.values()) for x in inner]


# ----------------------------------------------------------------- helpers
def iterate(g, value) -> list:
    """The items of a list, a pile or a space (its units), to walk: every
    walk of a comprehension, an aggregate, a choice's source or a `for` goes
    through here, and counts its items against the game's work (limits.py)."""
    if value is None:
        return []
    if isinstance(value, list):
        left = g.work_left = g.work_left - len(value)
        if left < 0:
            raise out_of_work(g)
        return value
    if isinstance(value, Entity):
        if value.kind == "pile":
            return [g.w.cards[i] for i in g.s["piles"][value.key]]
        if value.kind in ("space", "box"):
            return units_in(g, None, value)
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    raise GameError(f"{text_of(value)} is not a list")


def out_of_work(g) -> LimitExceeded:
    g.work_left = g.max_work  # (the error is the game's end; a caller going on starts afresh)
    return LimitExceeded(f"more than {g.max_work} items walked without a decision: loops inside loops over long "
                         "lists? (`limit work N` in the scenario raises it)", limit="work")


def members(g, value):
    """What `x in value` tests membership of: a search's set (Found), or
    the items of anything else that is a list (`iterate`)."""
    if type(value) is Found:
        return value.as_set()
    return iterate(g, value)


def membership(value):
    """What `x in value` is tested on when it is worked out once for many
    tests (codegen.Generator.hoisted_members): a plain list as it is, a
    search's result (Found) by its set; None for anything else, which each
    test then passes to `members` (and its error or count of work, where it
    always met them)."""
    if type(value) is list:
        return value
    if type(value) is Found:
        return value.as_set()
    return None


def read_scoped(g, name: str, key) -> object:
    return g.s["vars"][name].get(scope_key(key), g.w.state_start[name])


def value_of(g, name: str, args: tuple, key=None):
    """A declared value: its base expression, then its modifiers (`:=` first,
    in source order unless a modifier says it comes `after` another, then every
    `+=` / `-=` whose condition holds).

    Values that do real work are remembered (`g.vcache`), incrementally, the
    way build systems and Salsa do it:

    * each remembered result notes the revision it was last checked at, the
      revision its result last changed at, and the remembered values it
      called (recorded while it ran);
    * at a later revision it is still good if no area it reads itself (see
      deps.py) was written since it was checked, and none of the values it
      called has changed since — each of those is brought up to date first,
      the same way;
    * a value worked out again whose result equals the old one keeps its old
      result and its old change revision, so what was built on it stays good.

    A one-line value is simply recomputed, and a value that cannot be
    remembered across decisions (it draws on chance, or on which cards are
    playable) is remembered only while one decision's options are listed
    (`g.memo`).  `key`: the key of a remembered value's result when the
    caller has built it (None: built here)."""
    w = g.w
    if name not in w.value_costly:
        return _value_of(g, name, args)
    if name in w.static_values:
        return static_value(g, name, args)
    plan = w.value_areas.get(name)
    if name in w.uncached:
        calls = g.calls
        if calls is None:
            return _value_of(g, name, args)
        if g.listing:
            result = _value_of(g, name, args)
            calls.append(worked_out(w, name, args, result))  # for the value calling it
            return result
        calls.append((None, _areas(w, name, args)))  # what it reads, for the value calling it
        return _value_of(g, name, args)
    if plan is None or not g._cache_values or g._trace is not None:  # (the attributes behind Game's properties)
        # While a trace is kept every value is worked out afresh, so the trace
        # shows every modifier that applies at each decision.
        return _memoised(g, name, args)
    if key is not None:
        return remembered(g, key, g.vcache.get(key), name, args)
    try:
        key = (name, args)
        entry = g.vcache.get(key)
    except TypeError:  # a list argument: keyed by its items
        try:
            key = (name, _frozen(args))
            entry = g.vcache.get(key)
        except TypeError:
            return _memoised(g, name, args)
    return remembered(g, key, entry, name, args)


def static_value(g, name: str, args: tuple):
    """A value that reads no state (deps.py finds no area behind it): its
    result at these arguments is the same in every game of the world, so it
    is worked out once per world.  A game that remembers nothing
    (`cache_values` off, or a trace kept) works it out each time."""
    if not g._cache_values or g._trace is not None:
        return _value_of(g, name, args)
    store = g.w.static_results
    try:
        key = (name, args)
        return store[key]
    except KeyError:
        pass
    except TypeError:  # a list argument: keyed by its items
        try:
            key = (name, _frozen(args, identity=False))
            return store[key]
        except KeyError:
            pass
        except TypeError:
            return _value_of(g, name, args)
    return _kept_static(g, key, args)


def static_missed(g, key: tuple, args: tuple):
    """A value that reads no state, not yet worked out at these arguments
    (`static_value`), kept under KEY (its name and the arguments as
    `_frozen` keys them without identities), which the generated `V_name`
    built and looked up."""
    return _kept_static(g, key, args)


# How many results of values that read no state a world keeps.  Those
# called with a list (a stack of units) meet new arguments in every game,
# some hundreds a game: without a bound a long simulation's world would
# grow without end.  Past it a result is still worked out, only not kept.
STATIC_RESULTS_KEPT = 100_000


def _kept_static(g, key: tuple, args: tuple):
    """The value KEY[0] at ARGS, worked out and kept under KEY while the
    world's store has room."""
    outer = g.calls
    g.calls = None  # nothing it calls can change: the caller need not note it
    try:
        result = _value_of(g, key[0], args)
    finally:
        g.calls = outer
    store = g.w.static_results
    if len(store) < STATIC_RESULTS_KEPT:
        store[key] = result
    return result


def remembered(g, key, entry, name: str, args: tuple):
    """The result of a remembered value whose entry (or None) was looked up
    under `key`: checked, or worked out again (the generated `V_name` calls
    this directly once it has the entry)."""
    stats = g.w.cache_stats[name]  # [calls worked out, calls found good, last revision worked out at, revisions]
    if entry is None or (entry[1] != g.clock and not _still_good(g, entry)):
        entry = _recompute(g, key, name, args, entry)
        stats[0] += 1
        if stats[2] != g.clock:
            stats[2] = g.clock
            stats[3] += 1
        good = stats[1]
        calls = stats[0] + good
        if (stats[3] >= REVIEW_REVISIONS or not g.listing) and ((calls > REVIEW_AFTER and good < calls * WORTH_KEEPING)
                or (calls > MID_REVIEW_AFTER and good < calls * MID_WORTH_KEEPING)
                or (calls > QUICK_REVIEW_AFTER and good < calls * QUICK_WORTH_KEEPING)) \
                and name not in g.w.space_filters:
            # (a space filter is brought up to date a few spaces at a time,
            # however often that is needed: always worth keeping)
            _stop_remembering(g, name)
    else:
        stats[1] += 1
    calls = g.calls
    if calls is not None:
        calls.append(entry)
    return entry[0]


def _areas(w, name: str, args: tuple) -> tuple:
    """The areas a value reads at these arguments: its whole areas, and the
    own areas of the arguments whose own state it reads."""
    whole, own = w.value_areas[name]
    if not own:
        return whole
    out = list(whole)
    for i, area in own:
        a = entity_area(w, area, args[i]) if i < len(args) else None
        out.append(a if a is not None else area)
    return tuple(out)


# A remembered value that is found still good in fewer than this share of its
# calls, once it has been called this often, is worked out afresh from then on
# (remembering it costs more than it saves; see _stop_remembering).  Three
# reviews, sooner for the plainer verdicts:
# * the quick one drops the values almost never found good (a search keyed by
#   a unit that moved, say, or by a list built afresh): plain after 40 calls;
# * the middle one drops those found good in under a fifth of 300 calls (the
#   supply of one space, the targets of an attack): a third review alone kept
#   them for a thousand calls, most of a game, at a loss;
# * the last one waits for a thousand calls to judge the values found good a
#   third of the time, worth keeping once listing asks them over and over
#   (judging those at 300 calls made listing slower).
# Measured on random Campaign games (bench_instructions): the quick review at
# 40 rather than 100 and the middle one cut the work per decision by 1% in a
# fresh process's first games and 2.5% in the next two; after eight games a
# process has learnt the same either way.  Listing's latency is unchanged.
REVIEW_AFTER, WORTH_KEEPING = 1000, 0.5
MID_REVIEW_AFTER, MID_WORTH_KEEPING = 300, 0.2
QUICK_REVIEW_AFTER, QUICK_WORTH_KEEPING = 40, 0.05
# While every option of a decision is listed (Game.listing), no review judges
# a value worked out at fewer revisions than this: a result is found good
# only at a later revision than the one it was worked out at, so a value
# first asked for every option (sixty new results at one revision: the cost
# of each space an operation may activate) would be judged on no evidence,
# and dropped before its first reuse.  Outside listings the reviews judge as
# they did (values worked out for every unit at once, attrition's supply,
# are dropped at once, and sooner is better there: 1.9% fewer instructions
# in simulate's games than waiting for them too).
REVIEW_REVISIONS = 3


def _stop_remembering(g, name: str) -> None:
    """From now on, in this process, work `name` out at each call.  This
    changes no result, only the work done: a value calling it then depends on
    the areas it reads and on its result (recorded by `worked_out`, see
    _still_good)."""
    w = g.w
    w.uncached.add(name)
    rebind = w.rebind_uncached
    if rebind is not None:
        rebind(name)


def worked_out(w, name: str, args: tuple, result) -> tuple:
    """What a remembered value notes of a value it called that is not
    remembered: ``(None, areas it reads, name, arguments, result)``.  When
    one of those areas is written, the caller is still good if the value,
    worked out again, gives the same result (`_same_again`): a value dropped
    from remembering (cheap to work out, and its areas often written, like
    the ones reading the action round) keeps its callers' early cut-off.
    Only while every option of a decision is listed (Game.listing), where a
    value is checked for each of sixty options after one step; elsewhere the
    record is ``(None, areas)`` and a written area expires the caller, as
    simulate's games were tuned for (the results kept, and the callers kept
    good where the reviews had dropped them, cost them 2% more instructions:
    bench_instructions, Historical)."""
    return (None, _areas(w, name, args), name, args, result)


def _same_again(g, dep: tuple) -> bool:
    """Whether a value not remembered (`worked_out`'s record) gives the same
    result now, of the same type (`1` is not `true`).  Worked out outside any
    caller's record (nothing of it is noted: its result alone is compared);
    an error working it out (the state moved on) counts as a change, and the
    caller, worked out again, meets it if it must."""
    outer = g.calls
    g.calls = None
    try:  # (while options are listed, a value called for several options is worked out once: _memoised)
        now = _memoised(g, dep[2], dep[3])
    except GameError:
        return False
    finally:
        g.calls = outer
    old = dep[4]
    return type(now) is type(old) and now == old


def key_part(a):
    """One argument as `_frozen` keys it (identity on)."""
    if type(a) is Found:
        return (_BY_IDENTITY, id(a))
    if isinstance(a, list):
        return tuple(a)
    return a


def _frozen(args: tuple, identity: bool = True) -> tuple:
    """A key for arguments that include lists: each list is keyed by its
    items — a list built afresh at each call, `land + ports`, is found again
    — except a search's result (Found), keyed by its identity: it is the
    remembered result of a value, passed again and again while it holds
    (early cut-off keeps the object), and it can be long.  The entry keeps
    the arguments, so that object lives, and its id names no other, while
    the entry does.  `identity` False keys every list by its items (for a
    store that does not keep the arguments)."""
    if identity:
        return tuple(map(key_part, args))
    return tuple(tuple(a) if isinstance(a, list) else a for a in args)


_BY_IDENTITY = object()  # marks a key part that is an object's id, never equal to an argument


# Past this many remembered results the cache starts again from empty: stale
# results keyed by lists no longer in use would otherwise pile up.
CACHE_LIMIT = 200_000


def _memoised(g, name: str, args: tuple):
    memo = g.memo
    if memo is None:
        return _value_of(g, name, args)
    try:
        return memo[(name, args)]
    except KeyError:
        result = memo[(name, args)] = _value_of(g, name, args)
        return result
    except TypeError:
        return _value_of(g, name, args)


# A remembered result: [result, checked at, changed at, values called (their
# entries, or (None, areas) for one no longer remembered), arguments, areas
# read, which spaces a space filter holds (None for other values), its key],
# and for a space filter one more: the spaces whose neighbour test holds
# (World.filter_inner; None for a filter without one).
RESULT, CHECKED, CHANGED, CALLED, ARGS, AREAS, MEMBER, KEY, INNER = range(9)


def _spaces_written(changed: dict, wholes, checked: int, note) -> bool:
    """Pass to NOTE the index of each space written in the areas WHOLES
    since CHECKED, newest first; False when one was written whole (no space
    to name)."""
    for whole in wholes:
        log = changed.get(whole)
        if not log:
            continue
        for i in range(len(log) - 1, -1, -1):
            clock, e = log[i]
            if clock <= checked:
                break
            if e is None:  # the whole area was written
                return False
            if e.kind == "space":
                note(e.index)
    return True


def _war_spaces(g, nation) -> list:
    """The spaces whose test may read whether NATION is at war, for a space
    filter reading it by space (deps.space_filter): the nation's own spaces
    and the spaces its units stand in now (a unit that moved since the
    filter was checked left and entered spaces noted on the board anyway)."""
    w = g.w
    try:
        own = w.spaces_by_nation[nation]
    except KeyError:
        own = w.spaces_by_nation[nation] = [s.index for s in w.spaces if s.data.nation is nation]
    loc = g.s["loc"]
    count = len(w.spaces)
    return own + [i for u in _pieces_of(w, nation) if (i := loc[u.index]) is not None and 0 <= i < count]


def _nations_written(changed: dict, checked: int, note) -> bool:
    """Pass to NOTE each nation whose war status was written since CHECKED;
    False when the whole area was written (no nation to name)."""
    log = changed.get("war")
    if not log:
        return True
    for i in range(len(log) - 1, -1, -1):
        clock, e = log[i]
        if clock <= checked:
            break
        if e is None:
            return False
        note(e)
    return True


def _add_war_spaces(g, touched: set):
    """A NOTE for `_nations_written` that adds to TOUCHED the spaces whose
    test may read whether the nation is at war (`_war_spaces`)."""
    return lambda nation: touched.update(_war_spaces(g, nation))


def _add_neighbours(touched: set, neighbour_of):
    """A NOTE for `_spaces_written` that adds a space's neighbours to TOUCHED."""
    return lambda index: touched.update(neighbour_of[index])


def _patch_filter(g, space_filter, entry: list, args: tuple, near: frozenset | None = None,
                  inner=None) -> bool:
    """Bring a space filter's result up to date by testing again only the
    spaces whose own state changed since it was checked (deps.space_filter),
    and, when its test reads the state of its space's neighbours (`near`:
    those areas), the spaces next to a space whose state changed; or, when
    the test is `any(P for x in adjacent(t))` (`inner`: P, kept for every
    space in the entry), P of each space whose state changed, and the
    spaces next to one whose P changed.
    False when that is not enough: another area it reads changed, or the
    record of changes does not reach back far enough."""
    own, others, cond = space_filter
    checked = entry[CHECKED]
    if checked < g.changed_since:
        return False
    ver = g.ver
    for area in others:
        if ver.get(area, 0) > checked:
            return False
    touched = set()
    changed = g.changed
    if not _spaces_written(changed, own, checked, touched.add):
        return False
    if "war" in own and not _nations_written(changed, checked, _add_war_spaces(g, touched)):
        return False
    written = set()
    if inner is not None:
        if not _spaces_written(changed, near, checked, written.add):
            return False
    elif near and not _spaces_written(changed, near, checked, _add_neighbours(touched, g.w.neighbour_of)):
        return False
    member = entry[MEMBER]
    spaces = g.w.spaces
    flipped = []
    outer = g.calls
    g.calls = None  # the areas above cover what the test reads
    try:
        if written:
            held = entry[INNER]
            neighbour_of = g.w.neighbour_of
            for x in written:
                now = 1 if inner(g, spaces[x], *args) else 0
                if now != held[x]:
                    held[x] = now
                    touched.update(neighbour_of[x])
        for i in touched:
            now = 1 if cond(g, spaces[i], *args) else 0
            if now != member[i]:
                member[i] = now
                flipped.append(i)
    finally:
        g.calls = outer
    if flipped:
        entry[RESULT] = _patched_result(entry[RESULT], member, flipped, spaces)
        entry[CHANGED] = g.clock
    entry[CHECKED] = g.clock
    return True


# A space filter's result of at most this many spaces is patched from the
# old result (the spaces still in it, those added put in map order); a
# longer one is read off the membership of every space (see _patched_result).
SMALL_FILTER_RESULT = 40
_by_index = attrgetter("index")


def _patched_result(old: list, member: bytearray, flipped: list, spaces: list) -> Found:
    """A space filter's new result, in map order, after the spaces FLIPPED
    changed membership (MEMBER already says which spaces it holds now).  The
    attack and move markers, the front: a few spaces of the map's few
    hundred, and reading every space's membership cost more than the few
    spaces they hold."""
    if len(old) > SMALL_FILTER_RESULT:
        return Found(compress(spaces, member))
    now = [s for s in old if member[s.index]]
    added = [spaces[i] for i in flipped if member[i]]
    if added:
        now += added
        now.sort(key=_by_index)
    return Found(now)


def _still_good(g, entry: list) -> bool:
    """Whether a remembered result holds at the current revision (and if so,
    note that it was checked now)."""
    checked = entry[CHECKED]
    ver = g.ver
    for area in entry[AREAS]:
        if ver.get(area, 0) > checked:
            return False
    for dep in entry[CALLED]:
        if type(dep) is tuple:  # a value no longer remembered: its areas, else its result (worked_out)
            for area in dep[1]:
                if ver.get(area, 0) > checked:
                    if len(dep) == 2 or not g.listing or not _same_again(g, dep):
                        return False
                    break
            continue
        if dep[CHECKED] != g.clock and not _still_good(g, dep):
            key = dep[KEY]
            _recompute(g, key, key[0], dep[ARGS], dep)  # (rewritten in place)
        if dep[CHANGED] > checked:
            return False
    entry[CHECKED] = g.clock
    return True


def _recompute(g, key, name: str, args: tuple, old: list | None) -> list:
    space_filter = g.w.space_filters.get(name)
    inner = g.w.filter_inner.get(name) if space_filter is not None else None
    if space_filter is not None and old is not None and _patch_filter(g, space_filter, old, args,
                                                                      g.w.filter_neighbours.get(name), inner):
        return old
    outer = g.calls
    g.calls = called = []
    try:
        result = _value_of(g, name, args)
    finally:
        g.calls = outer
    clock = g.clock
    if space_filter is not None:
        # Kept up to date one space at a time: its areas say when to look.
        own, others, _ = space_filter
        result = Found(result)  # tested for membership by the searches through it
        member = bytearray(len(g.w.spaces))
        for s in result:
            member[s.index] = 1
        held = _inner_of_every_space(g, inner, args) if inner is not None else None
        areas = tuple(own) + others + tuple(g.w.filter_neighbours.get(name, ()))
        if old is not None and old[RESULT] == result:
            old[CHECKED], old[MEMBER], old[INNER] = clock, member, held
            return old
        return _store(g, key, old, [result, clock, clock, [], args, areas, member, key, held])
    if old is not None and old[RESULT] == result:
        # Early cut-off: the same result as before, so the values built on it
        # need not be worked out again; the old object is kept (it may carry
        # an index built on first use, see Found).
        old[CHECKED], old[CALLED], old[ARGS] = clock, called, args
        return old
    return _store(g, key, old, [result, clock, clock, called, args, _areas(g.w, name, args), None, key])


def _inner_of_every_space(g, inner, args: tuple) -> bytearray:
    """A filter's neighbour test (World.filter_inner) of every space, worked
    out as the patches work it out (nothing noted in a caller's record)."""
    outer = g.calls
    g.calls = None
    try:
        return bytearray(1 if inner(g, s, *args) else 0 for s in g.w.spaces)
    finally:
        g.calls = outer


def copy_remembered(vcache: dict, dropped: set = frozenset()) -> dict:
    """A copy of a game's remembered values for a copy of the game
    (Game.inherit_values): every entry copied, and each entry's record of
    the values it called pointing at their copies, so bringing an entry up
    to date in one game never touches the other's.  An entry called but no
    longer under a key (the cache was emptied at CACHE_LIMIT) is copied too.
    The results are shared: nothing changes a result in place (a space
    filter's membership, which is patched in place, is copied).  The entries
    of values no longer remembered (`dropped`: World.uncached) are left out:
    nothing looks them up by key again (an entry still called is copied
    with its caller)."""
    if dropped:
        vcache = {key: entry for key, entry in vcache.items() if key[0] not in dropped}
    copies = {id(entry): entry.copy() for entry in vcache.values()}
    out = {key: copies[id(entry)] for key, entry in vcache.items()}
    todo = list(copies.values())
    get = copies.get
    while todo:
        twin = todo.pop()
        called = twin[CALLED]
        if called:
            mapped = [get(id(dep)) for dep in called]
            if None in mapped:  # a value no longer remembered (None, areas), or an entry under no key
                for i, dep in enumerate(called):
                    if mapped[i] is None:
                        if type(dep) is tuple:
                            mapped[i] = dep
                        else:
                            mapped[i] = copies[id(dep)] = dep.copy()
                            todo.append(mapped[i])
            twin[CALLED] = mapped
        if twin[MEMBER] is not None:
            twin[MEMBER] = bytearray(twin[MEMBER])
            if twin[INNER] is not None:
                twin[INNER] = bytearray(twin[INNER])
    return out


def _store(g, key, old: list | None, entry: list) -> list:
    """A result worked out anew, kept under its key.  An entry replaced is
    rewritten in place: the remembered values that called it hold the entry
    itself (CALLED), not its key, and see the new result there."""
    if old is not None:
        old[:] = entry
        return old
    if len(g.vcache) >= CACHE_LIMIT:
        g.vcache.clear()
    g.vcache[key] = entry
    return entry


def _value_of(g, name: str, args: tuple):
    w = g.w
    result = w.values[name][1](g, *args)
    entries = w.modifiers.get(name)
    if not entries:
        return result
    adds = 0
    in_play = None
    for hooked, contribution, fn, when in entries:
        owner = hooked.owner
        if owner is not None:
            # (the cards in play gathered once for all the entries: most
            # belong to cards, a combat's DRM has some twenty)
            if in_play is None:
                in_play = _cards_in_play(g)
            if owner not in in_play:
                continue
            bound = dict(zip(hooked.var_names, args))
            bound["this_card"] = w.cards[owner]
        else:
            bound = dict(zip(hooked.var_names, args))
        if when is not None and not when(g, bound):
            continue
        if g._trace is not None:
            g._trace.append(("modifier", hooked.decl.key, [c.number for c in hooked.decl.cites]))
        amount = fn(g, bound)
        if contribution.op == ":=":
            result = amount
        elif contribution.op == "+=":
            adds += amount
        else:
            adds -= amount
    return result + adds if adds else result


def _cards_in_play(g) -> list:
    """The indexes of the cards in every side's in-play pile (as
    Game.card_in_play looks for one)."""
    piles = g.s["piles"]
    keys = g.w.in_play_piles
    if keys is None:
        keys = g.w.in_play_piles = tuple(f"in_play:{side.key}" for side in g.w.sides)
    out = []
    for key in keys:
        out += piles[key]
    return out


def reach(g, span, start, cond):
    """`reach(t from start where cond)`: the start spaces, then every space
    joined to them by lines through spaces where `cond(t)` holds, in the order
    found (breadth first)."""
    spaces = g.w.spaces
    order, seen = _starts(span, start)
    if cond is None:
        return _spread(g, order, seen)
    return _spread(g, order, seen, admit=lambda j: cond(spaces[j]))


def reach_in_region(g, span, start, region):
    """`reach(t from start where t in region)` with a region that does not
    depend on t: the membership test is one set lookup by space index, the
    set built once per region object (a remembered region is shared by every
    search through it)."""
    if not isinstance(region, list):
        return reach(g, span, start, lambda t: t in iterate(g, region))
    allowed = _space_indexes(region)
    order, seen = _starts(span, start)
    return _spread(g, order, seen, allowed)


def _space_indexes(region: list) -> frozenset:
    """The indexes of the spaces in a list, kept on a Found (a remembered
    region is shared by every search through it)."""
    try:
        return region._indexes
    except AttributeError:
        pass
    try:
        allowed = frozenset([s.index for s in region if s.kind == "space"])
    except AttributeError:  # none, or not an entity, among the items
        allowed = frozenset(s.index for s in region if getattr(s, "kind", None) == "space")
    if isinstance(region, Found):
        region._indexes = allowed
    return allowed


def _starts(span, start) -> tuple[Found, set]:
    """The start spaces of a search, each once, and the set of their indexes."""
    seen = set()
    order = Found()
    for s in start if isinstance(start, list) else [start]:
        if s is None or getattr(s, "kind", None) != "space":
            raise GameError(f"reach starts from spaces, not {text_of(s)}", span)
        if s.index not in seen:
            seen.add(s.index)
            order.append(s)
    return order, seen


def _spread(g, order: Found, seen: set, allowed: frozenset | None = None, keys: set | None = None,
            admit=None, closed: int = 0) -> Found:
    """Breadth first from the spaces in `order` (their indexes in `seen`)
    into the spaces whose indexes are `allowed` (None: any), along solid
    lines and, with `keys`, the dotted lines of those nationalities (None:
    every line), and where `admit(j)` holds (None: everywhere).  The common
    tests are written inline: supply and SR search with `allowed` and `keys`,
    and a call per line crossed would cost more than the test.  `closed`:
    how many of the first spaces of `order` have every space next to them
    that the search may enter in `order` already (closed_prefix), so that
    nothing is searched from them."""
    spaces, adjacency = g.w.spaces, g.w.adjacency
    if allowed is not None and admit is None:
        # The searches of supply and SR: one set of the spaces still to be
        # found, so a line is judged by one lookup (the same order found).
        left = set(allowed)
        left -= seen
        for here in (islice(order, closed, None) if closed else order):
            for j, only in adjacency[here.index]:
                if j in left and (only is None or keys is None or not keys.isdisjoint(only)):
                    left.discard(j)
                    order.append(spaces[j])
        return order
    for here in order:  # (a list's iterator goes on through the items appended meanwhile)
        for j, only in adjacency[here.index]:
            if j in seen or (allowed is not None and j not in allowed):
                continue
            if only is not None and keys is not None and keys.isdisjoint(only):
                continue
            if admit is not None and not admit(j):
                continue
            seen.add(j)
            order.append(spaces[j])
    return order


# ----------------------------------------------------------------- constants
def _units_in_play(g, l):
    # (location 0 is a space like any other: None or a negative location
    # means out of play)
    loc = g.s["loc"]
    return [u for u in g.w.units if loc[u.index] is not None and loc[u.index] >= 0]


CONSTANTS = {
    "spaces": lambda g, l: g.w.spaces,
    "units": _units_in_play,
    "cards": lambda g, l: g.w.cards,
    "nations": lambda g, l: g.w.nations,
    "sides": lambda g, l: g.w.sides,
    "hostile_sides": lambda g, l: g.w.hostile_sides,
    "turn": lambda g, l: g.s["turn"],
    "first_turn": lambda g, l: g.w.first_turn,
    "last_turn": lambda g, l: g.w.last_turn,
}


# ----------------------------------------------------------------- functions
def units_in(g, span, where):
    kind = getattr(where, "kind", None)
    if kind == "space":  # (its location is its index: World.location)
        units = g.w.units
        return [units[i] for i in g.s["occ"][where.index]]
    if kind == "box" and isinstance(where, Entity):
        units = g.w.units
        return [units[i] for i in g.s["occ"][g.w.location(where)]]
    raise GameError(f"units_in needs a space or box, not {text_of(where)}", span)


def units_of(g, span, owner):
    if not isinstance(owner, Entity):
        raise GameError(f"units_of needs a nation or side, not {text_of(owner)}", span)
    loc = g.s["loc"]
    return [u for u, i in _numbered_pieces(g.w, owner) if (at := loc[i]) is not None and at >= 0]


def _numbered_pieces(w, owner: Entity) -> list:
    """(unit, its number) for every unit of a nation or side (`_pieces_of`)."""
    try:
        return w.numbered_pieces[owner]
    except KeyError:
        pass
    found = w.numbered_pieces[owner] = [(u, u.index) for u in _pieces_of(w, owner)]
    return found


def _pieces_of(w, owner: Entity) -> list:
    """Every unit of a nation or side, in play or not (fixed for a world:
    kept on it, so `units_of` walks a side's or nation's pieces only)."""
    try:
        return w.pieces_by_owner[owner]
    except KeyError:
        pass
    if owner.kind == "nation":
        found = [u for u in w.units if u.data.nation is owner]
    else:
        found = [u for u in w.units if u.data.side is owner]
    w.pieces_by_owner[owner] = found
    return found


def units_at(g, span, where, owner):
    return [u for u in units_in(g, span, where) if u.data.side is owner or u.data.nation is owner]


def adjacent(g, span, s):
    return list(g.w.neighbours[s.index])


def adjacent_walk(g, span, s):
    """`for x in adjacent(s)` in generated code: the neighbours as the world
    keeps them (a tuple, no list copied to be walked once), counted against
    the game's work as `iterate` counts a list."""
    items = g.w.neighbours[s.index]
    left = g.work_left = g.work_left - len(items)
    if left < 0:
        raise out_of_work(g)
    return items


def adjacent_for(g, span, s, u):
    spaces = g.w.spaces
    nation = u.data.nation.key if u.data.nation else None
    return [spaces[j] for j, only in g.w.adjacency[s.index] if only is None or nation in only]


def connected(g, span, a, b):
    return any(j == b.index for j, _ in g.w.adjacency[a.index])


def distance(g, span, a, b):
    """Breadth-first from a until b, or the first space of the list b, is met."""
    targets = {x.index for x in b} if isinstance(b, list) else {b.index}
    if a.index in targets:
        return 0
    seen = {a.index}
    frontier = deque([(a.index, 0)])
    while frontier:
        i, d = frontier.popleft()
        for j, _ in g.w.adjacency[i]:
            if j in targets:
                return d + 1
            if j not in seen:
                seen.add(j)
                frontier.append((j, d + 1))
    return None


def other(g, span, side):
    """The other playing side; none for a hostile side, whose enemies are
    every other side (`enemies_of`)."""
    if side is not None and getattr(side.data, "hostile", False):
        return None
    for s in g.w.sides:
        if s is not side:
            return s
    return None


def _side_of_thing(x):
    if x is None:
        return None
    kind = x.kind
    if kind == "side":
        return x
    if kind == "unit":
        return x.data.side
    if kind == "nation":
        return x.data[1]
    return None


def enemy(g, span, p, x):
    """Whether a side, unit or nation is an enemy of side p: it belongs to a
    side, and not to p.  Playing sides are enemies of each other; a hostile
    side is an enemy of every side, and every side of it."""
    if x is not None and not isinstance(x, Entity):
        raise GameError(f"enemy needs a side, unit or nation, not {text_of(x)}", span)
    q = _side_of_thing(x)
    return p is not None and q is not None and q is not p


def enemies_of(g, span, p):
    """Every side that is an enemy of p: the other playing side(s) and the
    hostile sides (for a hostile side: every other side)."""
    return [s for s in g.w.sides + g.w.hostile_sides if s is not p]


def enemy_units_at(g, span, where, p):
    """The units in a space or box that belong to an enemy side of p."""
    if type(where) is Entity and where.kind == "space":  # (units_in, without its list in between)
        units = g.w.units
        return [u for u in map(units.__getitem__, g.s["occ"][where.index])
                if u.data.side is not None and u.data.side is not p]
    return [u for u in units_in(g, span, where) if u.data.side is not None and u.data.side is not p]


def has_enemy_units_at(g, span, where, p) -> bool:
    """`len(enemy_units_at(where, p)) > 0`, stopping at the first enemy unit
    (generated code writes the test this way: codegen.occupied_test)."""
    if type(where) is Entity and where.kind == "space":
        sides = g.w.unit_sides
        if not sides:
            sides = g.w.unit_sides = tuple(u.data.side for u in g.w.units)
        for i in g.s["occ"][where.index]:
            side = sides[i]
            if side is not None and side is not p:
                return True
        return False
    return len(enemy_units_at(g, span, where, p)) > 0


def side_of(g, span, x):
    if not isinstance(x, Entity):
        raise GameError(f"side_of needs a nation, unit or card, not {text_of(x)}", span)
    if x.kind == "nation":
        return x.data[1]
    if x.kind == "unit":
        return x.data.side
    if x.kind == "card":
        return g.w.by_kind["side"].get(x.data.side.text)
    raise GameError(f"side_of needs a nation, unit or card, not {text_of(x)}", span)


def at_war(g, span, n):
    """A nation at war; none (a space of no nation) is never at war."""
    return isinstance(n, Entity) and g.s["at_war"].get(n.key, False)


def _pile(kind):
    def make(g, span, side):
        return g.pile_entity(f"{kind}:{side.key}")
    return make


def cards_in(g, span, pile):
    return iterate(g, pile)


def played(g, span, c):
    """Whether card C was ever played: a lookup in the set of the cards of
    the state's list (kept for the list last asked about while it keeps its
    length), not a pass over the list.  The list only grows while a game
    runs (Game.move_card appends); a game restored or copied has a list of
    its own, so a list of the same identity and length holds the same cards."""
    order = g.s["played"]
    seen = _played_seen
    if seen[0] is not order or seen[1] != len(order):
        try:
            cards = frozenset(order)
        except TypeError:  # (not a list of card numbers: looked through as it is)
            return c.index in order
        seen[0], seen[1], seen[2] = order, len(order), cards
    return c.index in seen[2]


# The played list `played` last looked at (held, so that its identity is not
# taken by another list), its length then, and its cards as a set.
_played_seen: list = [None, -1, frozenset()]


def playable(g, span, c):
    cond = g.w.playable.get(c.index)
    return True if cond is None else bool(cond(g, {"this_card": c}))


def stack_size(g, span, s):
    return len(g.s["occ"][s.index])


def lookup(g, span, table, row, col=None):
    if isinstance(table, _Table):
        return table.cell_or_error(row, col, span)
    try:
        return table.cell(row, col)
    except Exception as err:  # not a table, or the user's data
        raise GameError(str(err), span) from None


def column_index(g, span, table, key):
    return table.row_at_least(key)


def row_index(g, span, table, key):
    try:
        return table.row_index(key)
    except Exception as err:
        raise GameError(str(err), span) from None


def row_at(g, span, table, i, col):
    return table.cell_at(i, col)


def clamp(g, span, x, lo, hi):
    return max(lo, min(hi, x))


def length(g, span, xs):
    return len(xs) if isinstance(xs, list) else len(iterate(g, xs))  # (a list's length walks nothing)


def option(g, span, name):
    """A scenario option's value: on/off, a number, or a name (text) or none."""
    return g.w.options.get(name, False)


def pool(g, span, u):
    if isinstance(u, Pool):
        return list(u.members)
    by_key = g.w.units_by_key  # (identical pieces share a name: a walk of every unit's name, once)
    if not by_key:
        for m in g.w.units:
            by_key.setdefault(m.key, []).append(m)
    return list(by_key.get(u.key, ()))


def available(g, span, u):
    loc = g.s["loc"]
    return sum(1 for m in pool(g, span, u) if loc[m.index] is None)


def random_pick(g, span, xs):
    items = iterate(g, xs)
    if not items:
        return None
    return items[g.random_below(len(items))]


def adjacent_open(g, span, s, ns):
    keys = {n.key for n in iterate(g, ns) if n is not None}
    spaces = g.w.spaces
    return [spaces[j] for j, only in g.w.adjacency[s.index] if only is None or not keys.isdisjoint(only)]


def reach_along(g, span, ns, starts, within):
    keys = {n.key for n in iterate(g, ns) if n is not None}
    within = iterate(g, within)
    allowed = _space_indexes(within)
    order, seen = Found(), set()
    for s in (starts if isinstance(starts, list) else [starts]):
        if s is not None and s.index not in seen:
            seen.add(s.index)
            order.append(s)
    found = _spread(g, order, seen, allowed, keys, closed=closed_prefix(within, keys, starts))
    _note_region(within, keys, found)
    return found


# How many regions found through one list of spaces are kept with it (the
# networks of one side through its open spaces: a handful).
REGIONS_NOTED = 8


def _note_region(within, keys: set, found: Found) -> None:
    """Keep with a search's `within` (when it is a search's result itself,
    which never changes) the region found through it along the lines of
    `keys`, for `closed_prefix`."""
    if type(within) is not Found:
        return
    try:
        regions = within._regions
    except AttributeError:
        regions = within._regions = []
    if len(regions) < REGIONS_NOTED:
        regions.append((keys, found))


def closed_prefix(within, keys: set, starts) -> int:
    """How many of the first start spaces of a search need not be searched
    from: when the starts begin with a whole region found before through
    the same spaces along the same lines, every space next to it that the
    search may enter is in it already, so searching from its spaces finds
    nothing (supply joins a land region to the ports by searching again from
    the region and the ports: `lines_region(ns, land + ports, p)`).  The
    spaces found, and their order, are the same; 0 when no region fits."""
    if type(within) is not Found or not isinstance(starts, list):
        return 0
    try:
        regions = within._regions
    except AttributeError:
        return 0
    for noted, region in regions:
        n = len(region)
        if n <= len(starts) and noted == keys and starts[:n] == region:
            return n
    return 0


def reach_within(g, span, ns, starts, within, steps):
    """Breadth first as `reach_along`, but no farther than `steps` lines from
    the starts (one step a line crossed: a movement point each, whatever the
    terrain)."""
    keys = {n.key for n in iterate(g, ns) if n is not None}
    allowed = _space_indexes(iterate(g, within))
    spaces, adjacency = g.w.spaces, g.w.adjacency
    order, seen = Found(), set()
    ring = []
    for s in (starts if isinstance(starts, list) else [starts]):
        if s is not None and s.index not in seen:
            seen.add(s.index)
            order.append(s)
            ring.append(s)
    for _ in range(max(0, steps or 0)):
        nxt = []
        for here in ring:
            for j, only in adjacency[here.index]:
                if j in seen or j not in allowed:
                    continue
                if only is not None and keys.isdisjoint(only):
                    continue
                seen.add(j)
                order.append(spaces[j])
                nxt.append(spaces[j])
        if not nxt:
            break
        ring = nxt
    return order


def supply_for(g, span, s):
    return s.data.supply_for


def solid_adjacent(g, span, s):
    spaces = g.w.spaces
    return [spaces[j] for j, only in g.w.adjacency[s.index] if only is None]


def reduced_lf(g, span, u):
    d = u.data
    return (d.reduced or d.full)[1]


def subsets(g, span, xs):
    items = iterate(g, xs)
    if len(items) > 8:
        raise GameError(f"subsets() takes at most 8 items, not {len(items)}", span)
    out = []
    n = len(items)
    for size in range(1, n + 1):
        for mask in range(1, 1 << n):
            if bin(mask).count("1") == size:
                out.append([items[i] for i in range(n) if mask >> i & 1])
    return out


def best_fill(g, span, groups, limit):
    if limit > g.max_list:
        raise LimitExceeded(f"best_fill with limit {limit}, more than the limit of {g.max_list} "
                            "(`limit list_size N` in the scenario raises it)", span, limit="list_size")
    reachable = 1  # bit t set: total t can be made
    full = (1 << (limit + 1)) - 1 if limit >= 0 else 0
    for group in iterate(g, groups):
        step = reachable
        for n in iterate(g, group):
            if isinstance(n, int) and 0 < n <= limit:
                step |= reachable << n
        reachable = step & full
    return reachable.bit_length() - 1 if reachable else 0


def distinct(g, span, xs):
    seen, out = set(), []
    for x in iterate(g, xs):
        marker = id(x) if isinstance(x, Entity) else x
        if marker not in seen:
            seen.add(marker)
            out.append(x)
    return out


def rp_of(g, span, c, n):
    key = getattr(n, "key", n)
    return sum(amount for name, amount in c.data.rp if name.text == key)


def _card_rp_nations(g, c):
    out = []
    for name, _ in c.data.rp:
        e = g.w.by_kind.get("nation", {}).get(name.text) or g.w.by_kind.get("rp_pool", {}).get(name.text)
        if e is not None:
            out.append(e)
    return out


def _card_reinforcements(g, c):
    """The units a card lists, looked up once per world (a card's printed
    facts never change; a random player weighs each card's event by them at
    every action round).  Shared, as a remembered value's result is: nothing
    changes a list in place."""
    found = g.w.card_units.get(c.index)
    if found is None:
        units = g.w.by_kind["unit"]
        found = g.w.card_units[c.index] = [units[n.text] for n in c.data.reinforcements if n.text in units]
    return found


FUNCTIONS = {
    "units_in": units_in, "units_of": units_of, "units_at": units_at, "adjacent": adjacent,
    "adjacent_for": adjacent_for, "connected": connected, "distance": distance, "other": other,
    "enemy": enemy, "enemies_of": enemies_of, "enemy_units_at": enemy_units_at,
    "side_of": side_of, "at_war": at_war, "hand": _pile("hand"), "draw_pile": _pile("draw"),
    "discard_pile": _pile("discard"), "removed_pile": _pile("removed"), "in_play": _pile("in_play"),
    "cards_in": cards_in, "played": played, "playable": playable, "stack_size": stack_size,
    "lookup": lookup, "column_index": column_index, "row_index": row_index, "row_at": row_at,
    "clamp": clamp, "abs": lambda g, span, x: abs(x), "len": length, "option": option, "pool": pool,
    "available": available, "random_pick": random_pick, "distinct": distinct, "rp_of": rp_of,
    "supply_for": supply_for, "adjacent_open": adjacent_open, "reach_along": reach_along, "reach_within": reach_within,
    "solid_adjacent": solid_adjacent, "reduced_lf": reduced_lf, "subsets": subsets, "best_fill": best_fill,
}


# ----------------------------------------------------------------- attributes
def _unit_factors(g, u):
    d = u.data
    return d.reduced if (g.s["reduced"][u.index] and d.reduced) else d.full


def _unit_space(g, u):
    i = g.s["loc"][u.index]
    if i is not None and i >= 0:
        spaces = g.w.spaces
        if i < len(spaces):
            return spaces[i]
    return None


def _unit_location(g, u):
    """World.place_entity of the unit's location, written out: a compiled
    module calls a method of the world (plain Python) at some 1,300
    instructions, and option texts read where units are at every offer."""
    i = g.s["loc"][u.index]
    if i is None or i < 0:
        return None
    spaces = g.w.spaces
    if i < len(spaces):
        return spaces[i]
    return g.w.boxes[i - len(spaces)]


def _unit_on_map(g, u) -> bool:
    i = g.s["loc"][u.index]
    return i is not None and 0 <= i < len(g.w.spaces)


def _unit_attr(attr):
    def loc(g, u):
        return g.s["loc"][u.index]

    table = {
        "name": lambda g, u: u.key,
        "nation": lambda g, u: u.data.nation,
        "side": lambda g, u: u.data.side,
        "type": lambda g, u: u.data.type,
        "cf": lambda g, u: _unit_factors(g, u)[0],
        "lf": lambda g, u: _unit_factors(g, u)[1],
        "mf": lambda g, u: _unit_factors(g, u)[2],
        "full_cf": lambda g, u: u.data.full[0],
        "reduced": lambda g, u: g.s["reduced"][u.index],
        "location": _unit_location,
        "space": _unit_space,
        "on_map": _unit_on_map,
        "near_east": lambda g, u: u.data.near_east,
        "never_replaced": lambda g, u: u.data.never_replaced,
        "rp": lambda g, u: u.data.rp,
        "army": lambda g, u: u.data.type is not None and u.data.type.key == "army",
        "corps": lambda g, u: u.data.type is not None and u.data.type.key == "corps",
        "steps": lambda g, u: 0 if (loc(g, u) is None or loc(g, u) < 0) else
        (1 if (g.s["reduced"][u.index] or not u.data.reduced) else 2),
    }
    return table.get(attr)


def _space_attr(attr):
    table = {
        "name": lambda g, s: s.key,
        "nation": lambda g, s: s.data.nation,
        "terrain": lambda g, s: s.data.terrain,
        "vp": lambda g, s: s.data.vp,
        "fort": lambda g, s: s.data.fort,
        "fort_destroyed": lambda g, s: g.s["fort_destroyed"][s.index],
        "capital": lambda g, s: s.data.capital,
        "control": lambda g, s: g.w.by_kind["side"].get(g.s["control"][s.index]),
        "map": lambda g, s: s.data.map,
        "supply": lambda g, s: s.data.supply,
        "units": lambda g, s: [g.w.units[i] for i in g.s["occ"][s.index]],
        "port": lambda g, s: [p for p in s.data.ports if p is not None],
    }
    return table.get(attr)


def _card_attr(attr):
    def d(c):
        return c.data

    table = {
        "name": lambda g, c: d(c).name.text,
        "side": lambda g, c: g.w.by_kind["side"].get(d(c).side.text),
        "number": lambda g, c: d(c).number,
        "ops": lambda g, c: d(c).ops,
        "sr": lambda g, c: d(c).sr,
        "war_status": lambda g, c: d(c).war_status,
        "deck": lambda g, c: g.w.by_kind.get("deck", {}).get(d(c).deck.text) if d(c).deck else None,
        "removed": lambda g, c: d(c).removed,
        "combat": lambda g, c: d(c).combat,
        "optional": lambda g, c: d(c).optional,
        "rp_nations": _card_rp_nations,
        "reinforcements": _card_reinforcements,
    }
    return table.get(attr)


def _nation_attr(attr):
    table = {
        "name": lambda g, n: n.key,
        "side": lambda g, n: n.data[1],
        "neutral": lambda g, n: n.data[0].neutral,
        "minor": lambda g, n: n.data[0].minor,
        "at_war": lambda g, n: g.s["at_war"].get(n.key, False),
    }
    return table.get(attr)


def _other_attr(attr):
    table = {
        "name": lambda g, e: e.key,
        "units": lambda g, e: units_in(g, None, e) if e.kind == "box" else None,
        "cards": lambda g, e: iterate(g, e) if e.kind == "pile" else None,
        "size": lambda g, e: len(g.s["piles"][e.key]) if e.kind == "pile" else None,
        "hostile": lambda g, e: e.data.hostile if e.kind == "side" else None,
    }
    return table.get(attr)


def kind_reader(world, kind: str, attr: str):
    """reader(g, obj) for `obj.attr` where obj is known to be of `kind`, or None."""
    if kind == "unit":
        return _unit_attr(attr)
    if kind == "space":
        return _space_attr(attr)
    if kind == "card":
        return _card_attr(attr)
    if kind == "nation":
        return _nation_attr(attr)
    return None


def attribute_getter(world, attr: str):
    """getter(g, obj, span) for `obj.attr`, dispatching on the entity's kind;
    scoped state (`space.trench`) is read like an attribute."""
    per_kind = {
        "unit": _unit_attr(attr), "space": _space_attr(attr), "card": _card_attr(attr),
        "nation": _nation_attr(attr),
    }
    scoped = world.state_decls.get(attr)
    scoped_kind = scoped.scope.text if scoped is not None and scoped.scope is not None else None
    fallback = _other_attr(attr)

    per_kind = {k: v for k, v in per_kind.items() if v is not None}
    if scoped_kind is not None:
        per_kind[scoped_kind] = lambda g, obj: read_scoped(g, attr, obj)

    def get(g, obj, span):
        try:
            return per_kind[obj.kind](g, obj)
        except (KeyError, AttributeError):
            pass
        if isinstance(obj, Entity) and fallback is not None:
            return fallback(g, obj)
        if obj is None:
            raise GameError(f"cannot read '.{attr}' of none", span)
        raise GameError(f"{text_of(obj)} has no attribute '{attr}'", span)
    return get


def index(g, obj, args, span):
    if isinstance(obj, _ScopedState):
        return read_scoped(g, obj.name, args[0])
    if isinstance(obj, _Table):
        try:
            return obj.cell(args[0], args[1] if len(args) > 1 else None)
        except Exception as err:
            raise GameError(str(err), span) from None
    if isinstance(obj, list):
        i = args[0]
        if not isinstance(i, int) or not -len(obj) <= i < len(obj):
            raise GameError(f"position {text_of(i)} is outside a list of {len(obj)}", span)
        return obj[i]
    if isinstance(obj, _BoxDecl):
        return _box_of(g, obj, args[0], span)
    raise GameError(f"{text_of(obj)} cannot be indexed", span)


def _box_of(g, decl, of, span):
    """The box DECL holds for the side or nation OF (`reserve[u.side]`):
    found by its name once for each entity, then kept on the world."""
    if type(of) is Entity:  # (keyed by the entity itself: other keys as 1 and true are equal)
        kept = g.w.boxes_by_entity
        box = kept.get((decl.key, of))
        if box is None:
            box = kept[decl.key, of] = _box_named(g, decl, of, span)
        return box
    return _box_named(g, decl, of, span)


def _box_named(g, decl, of, span):
    key = f"{decl.key}[{scope_key(of)}]"
    box = g.w.by_kind["box"].get(key)
    if box is None:
        raise GameError(f"there is no box {key}", span)
    return box

