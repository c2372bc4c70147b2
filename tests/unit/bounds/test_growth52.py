"""Bounded time on big input (round 52): the work a reader does grows linearly with the spec. Each test times
the same reading at n and 4n and asserts the ratio (linear: about 4; quadratic: about 16), never an absolute
time, so a loaded machine does not fail it."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_hold import approval_in, approval_in_run
from orchestrator.spec.source import Source

_LINEAR = 8.0  # the ratio at 4n a linear reading stays under; a quadratic one is about 16


def _seconds(run: Callable[[], object]) -> float:
    """The best of two runs, the garbage collector paused (its walks grow with everything alive, not with the work)."""
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(2):
            start = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - start)
    finally:
        gc.enable()
    return best


def _grows_linearly(make: Callable[[int], Callable[[], object]], n: int) -> None:
    small, big = _seconds(make(n)), _seconds(make(4 * n))
    assert big / max(small, 1e-3) < _LINEAR, f"n={n}: {small:.3f}s, 4n: {big:.3f}s"


_PERL = """\
#!/usr/bin/perl
use strict;
my $ward = shift @ARGV or die "need the ward";
sub run_skill { die "stub"; }
# 1) open the bags
my $batch = run_skill('open-batch', { ward => $ward });
# 2) count them
my $tally = run_skill('tally-returns', { ward => $ward, batch => $batch->{trays} });
print "done\\n";
"""


def _notes(n: int) -> str:
    return "".join(f"# note {i}: tray {i} was checked by clerk {i} and sent on\n" for i in range(n))


def test_a_script_with_thousands_of_comment_lines_after_its_last_call_is_read_in_linear_time() -> None:
    _grows_linearly(lambda n: lambda: parse_spec_text(_PERL + _notes(n), "returns.pl", "markdown"), 150)


def test_the_approval_search_over_a_long_comment_run_is_linear() -> None:
    lines = [f"tray {i} was checked by clerk {i} and sent on" for i in range(4_000)]
    _grows_linearly(lambda n: lambda: approval_in_run(lines[:n], Source("", "r.pl")), 250)


def _each_suffix(texts: list[str]) -> tuple[int, tuple[object, str, str | None]] | None:
    """The search as it was (every line's block read whole, quadratic): the oracle for short runs."""
    for k in range(len(texts)):
        if (found := approval_in(" ".join(texts[k:]), Source("", "r.pl"))) is not None:
            return k, found
    return None


RUNS = [
    ["the tallies are kept", "a supervisor must approve the letters before they go", "then post them"],
    ["TODO wire the", "manager approves it first.", "Then the letters go."],
    ["the letters are printed in the", "print room; the duty officer signs off on it first", "no answer in 20 min = reject"],
    ["hard-coded until the board signs off", "in 2028"],
    ["nothing here asks anyone", "for anything at all."],
]


def test_a_run_read_linearly_finds_what_reading_every_line_on_found() -> None:
    for run in RUNS:
        assert approval_in_run(run, Source("", "r.pl")) == _each_suffix(run), run


def test_an_approval_after_thousands_of_comment_lines_is_still_found() -> None:
    said = ["the tallies are kept", "a supervisor must approve the letters before they go", "then post them"]
    found = approval_in_run([*(f"note {i}" for i in range(2_000)), *said], Source("", "r.pl"))
    assert found is not None and found[0] == 0 and "supervisor must approve" in found[1][1]
    assert approval_in_run([f"note {i}" for i in range(2_000)], Source("", "r.pl")) is None  # near miss


def _many_steps(n: int) -> str:
    """n steps, each with a sentence naming two steps to start together, one that does not wait, and a retry."""
    out = ["# Bays\n\n## Inputs\n- site (string): the site\n\n## Workflow Steps\n"]
    for i in range(1, n + 1):
        out.append(f"\n### Step {i}: Sweep bay {i}\n- Skill: `sweep-bay-{i % 7}`\n- Input: site\n\n"
                   f"Steps {i} and {i % n + 1} go side by side. Sweep bay {i} needn't wait on step {max(1, i - 1)}.\n"
                   "Retry 2 times, 5 s apart.\n")
    return "".join(out)


def test_sentences_naming_steps_are_matched_in_time_linear_in_the_steps() -> None:
    from orchestrator.spec.steps_together import _Named

    def make(n: int) -> Callable[[], object]:
        steps = parse_spec_text(_many_steps(n), "bays.md", "markdown").steps
        named = _Named(list(steps), {})
        texts = [t.text for s in steps for t in s.texts]
        return lambda: [named.refs(t) for _ in range(10) for t in texts]

    _grows_linearly(make, 100)


def test_a_name_is_found_where_it_stands_alone_not_inside_another_word() -> None:
    from orchestrator.spec.model import StepSpec
    from orchestrator.spec.steps_together import _Named

    steps = [StepSpec(id="step-1", name="Book the hall", where="x.md:1", skill="book-hall"),
             StepSpec(id="step-2", name="Hire the band (live)", where="x.md:2", skill="hire-band")]
    named = _Named(steps, {})
    assert named.refs("hire the band (live) with book-hall") == ["step-2", "step-1"]
    assert named.refs("rebook-hall first, then book-hall") == ["step-1"]  # the word, not the one inside rebook-hall
    assert named.refs("the hall is booked") == []  # near miss: no name said whole


def test_each_steps_policy_is_drafted_in_time_linear_in_the_steps() -> None:
    from orchestrator.plan.recovery import _LAST, _said

    def make(n: int) -> Callable[[], object]:
        spec = parse_spec_text(_many_steps(n), "bays.md", "markdown")

        def draft() -> None:
            for _ in range(20):  # each time from scratch: the spec's index built again
                _LAST.clear()
                [_said(spec, s) for s in spec.steps]
        return draft

    _grows_linearly(make, 100)
