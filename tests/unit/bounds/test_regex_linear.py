"""Every regular expression orchestrator/ compiles runs in time linear in its input (issue
25: parsing stays linear): no catastrophic, nor quadratic, backtracking.

`regex_audit` finds the patterns (module constants, tables, the policy grammar, literal
`re.*` calls in functions) and builds inputs meant to make each one backtrack: runs of what
it repeats, then a character that fits nowhere. Each input is searched (matched, for a
pattern the code only ever matches at the start) at 2 000 and 20 000
characters; ten times the input may cost at most 30 times the time (`RATIO`). Memory
caches can make the longer search dearer per character than the shorter one, so a pattern
between the ratio and `CLEARLY` is measured again a decade up, 20 000 against 200 000; it
fails only if it is over there too. A quadratic search of 20 000 characters takes hundreds
of times a linear one, far past the ratio, so the shorter inputs lose no finding and cost
the suite a fifth of the longer ones (`test_the_audit_tells_a_quadratic_pattern_from_a_linear_one`
keeps that true). Every search runs under an interval
timer, so a pattern that would backtrack for hours fails in seconds. Times and timers count
this process's CPU time, not the wall clock: on a loaded host (the suite's other worker, a
busy loop on every core) a linear search waiting for a core is not slower in CPU time. Times under `FLOOR_S`
are the timer's noise and count as `FLOOR_S`.

`KNOWN` lists the patterns still quadratic (their first 80 characters), each with where it
is: a pattern that is fixed (so no longer found as written) must leave the list, and a new
one must not join it.
"""

from __future__ import annotations

import functools
import signal
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from re import Pattern

import pytest
from regex_audit import Found, build, patterns, shapes

RATIO = 30
FLOOR_S = 1e-3
SMALL, BIG, CONFIRM = 2_000, 20_000, 200_000
FIRST_LIMIT_S = 1.0  # 2 000 characters in more than this: quadratic at least
BIG_LIMIT_S = 5.0  # 20 000 characters in more than this: the same (linear ones take well under 0.1 s)
CLEARLY = 100  # 10x the input for this many times the time: no cache explains it
SHARDS = 6  # the audit in parts, so the suite's workers share it

# Quadratic on a long run of what they repeat, and left so: pattern (its first 80 characters) ->
# where it is, and why no reader can hand it such a run. A pattern fixed (so no longer found as
# written) must leave the list, and a new one must not join it. The others of issue 25's list were
# made linear with the same matches (`test_regex_same`); every spec line is at most
# `spec.linecap.LINE_LIMIT` characters when the readers see it.
KNOWN: dict[str, str] = {
    '\\bescalat(?:e|es|ed|ing|ion)(?:\\s+(?:it\\s+)?(?P<msg>to\\s+(?:\\([^)]*\\)|[^.;,!?()]':
        "orchestrator.spec.grammar: the `escalate` row (a lazy message read up to a blank run "
        "followed by 'after', 'if'...): only `phrase.read_phrase` reads the grammar's rows, and it "
        "reads at most 2 000 characters of a sentence, each run of 3 or more blanks as one blank",
    '^\\s*`?([\\w *-]+?)`?\\s*(?:→|->|=>|:)\\s*`?([\\w -]+?)`?\\s*$':
        "orchestrator.spec.step._ROUTE (a lazy branch name before a blank run): `read_routes` "
        "matches it only on a part of at most `_ROUTE_MAX` (240) characters",
    '(?i)^\\s*(?:and\\s+|or\\s+|while\\s+|whereas\\s+)?(?P<branch>.+?)\\s*(?:\\((?P<aside>[^':
        "orchestrator.spec.step_prose._CLAUSE (a lazy branch before a blank run): matched only on a "
        "clause of at most `_CLAUSE_MAX` (240) characters",
}


class _Slow(Exception):
    pass


@contextmanager
def _limit(seconds: float) -> Iterator[None]:
    def stop(signum: int, frame: object) -> None:
        raise _Slow

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _best(found: Found, regex: Pattern[str], text: str, runs: int, limit_s: float) -> float | None:
    """The least time of `runs` searches; None when one takes over `limit_s`."""
    best = float("inf")
    for _ in range(runs):
        try:
            with _limit(limit_s):
                start = time.process_time()
                found.run(regex, text)
                best = min(best, time.process_time() - start)
        except _Slow:
            return None
    return best


def problem(found: Found, tries: int = 3) -> str | None:
    """Why `found` is not linear (the first input that shows it), or None. A pattern is
    measured again when it looks slow, and fails only when every try finds it slow: on a
    loaded host one search can be stalled for longer than a linear one takes, three in a
    row for the same pattern are not, and a super-linear pattern is slow every time."""
    why = None
    for _ in range(tries):
        why = _problem_once(found)
        if why is None:
            return None
    return why


def _problem_once(found: Found) -> str | None:
    regex = found.compiled()
    for label, prefix, unit, tail in shapes(found):
        text = build(prefix, unit, tail, SMALL)
        small = _best(found, regex, text, 1, FIRST_LIMIT_S)
        if small is not None and small > FLOOR_S:  # past the timer's noise: the best of three sets the budget
            small = _best(found, regex, text, 3, FIRST_LIMIT_S)
        if small is None:
            return f"{label}: over {FIRST_LIMIT_S} s at {SMALL:,} characters"
        budget = RATIO * max(small, FLOOR_S)
        big = _best(found, regex, build(prefix, unit, tail, BIG), 1, min(CLEARLY * budget / RATIO, BIG_LIMIT_S))
        if big is None:
            return f"{label}: over {CLEARLY}x the time (or {BIG_LIMIT_S:g} s) for 10x the input ({SMALL:,} to {BIG:,} characters)"
        if big <= budget:
            continue
        confirm = _best(found, regex, build(prefix, unit, tail, CONFIRM), 1, RATIO * max(big, FLOOR_S))
        if confirm is None:
            return f"{label}: over {RATIO}x the time for 10x the input, at {SMALL:,} and again at {BIG:,} characters"
    return None


def _key(found: Found) -> str:
    return found.pattern[:80]


@functools.cache
def _checked() -> dict[str, Found]:
    """Every pattern found, by its key: found once per test process."""
    return {_key(f): f for f in patterns()}


def test_the_audit_finds_the_patterns_of_every_kind_of_place() -> None:
    found = list(_checked().values())
    places = [w for f in found for w in f.where]
    assert len(found) > 300, len(found)
    assert any(w.startswith("orchestrator.spec.grammar: ") for w in places)  # the policy grammar's rows
    assert any(w.startswith("orchestrator.spec.normalize._") for w in places)  # compile_many's results
    assert any(w.startswith("orchestrator.plan.conditions:") for w in places)  # a literal re.search in a function
    assert any(w.startswith("orchestrator.templating.") for w in places)  # a module constant


def test_each_known_quadratic_pattern_is_still_written_as_listed() -> None:
    stale = sorted(k for k in KNOWN if k not in _checked())
    assert not stale, f"fixed (or moved): take them out of KNOWN: {stale}"


@pytest.mark.parametrize(
    ("pattern", "linear"),
    [
        (r"\s+$", False),  # searched: each start scans the run of blanks to its end
        (r"[a-z]+ *= *\d+;", False),
        (r"x\s+y", True),
        (r";[^;]*;", True),
        (r"^\s*(\w+):\s*(.*)$", True),
    ],
)
def test_the_audit_tells_a_quadratic_pattern_from_a_linear_one(pattern: str, linear: bool) -> None:
    found = Found(pattern=pattern, flags=0, anchored=False, where=["test"])
    assert (problem(found, tries=1) is None) is linear


@pytest.mark.slow
@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_regex_in_orchestrator_searches_in_linear_time(shard: int) -> None:
    checked = {key: f for key, f in _checked().items() if zlib.crc32(key.encode("utf-8", "surrogatepass")) % SHARDS == shard}
    failed = {}
    for key, f in checked.items():
        if key in KNOWN:
            continue
        why = problem(f)
        if why is not None:
            failed[key] = why
    listing = "\n".join(f"{', '.join(checked[key].where)}: {key!r}: {why}" for key, why in sorted(failed.items()))
    assert not failed, f"{len(failed)} of {len(checked)} patterns backtrack:\n{listing}"
