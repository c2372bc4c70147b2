"""The spec readers' patterns made linear (issue 25) find what they found before: each is run
beside the pattern it replaced (kept here, as it was written) on random and adversarial inputs
built from its own words (`regex_diff`), and must give the same spans and groups on each.

`FUZZ` inputs per pattern here; the commits that changed them quote a longer run."""

from __future__ import annotations

import re

import pytest
from regex_diff import differences, texts

from orchestrator.spec import grammar as g
from orchestrator.spec import phrase_value, step_prose, yaml_keys

FUZZ = 3_000

# The policy grammar before: durations tried from every digit of a run, blank runs split
# between two `\s` repeats. (written now, written before) for the rows' text, and the bodies.
_ROW_EDITS = (
    (r"\b(?:after|at|in)\s++(?P<seq>", r"\b(?:after|at|in)\s+(?P<seq>"),
    (r"(?:(?<!\s)|(?!\s))(?P<seq>{SERIES})\s+(?:apart", r"(?P<seq>{SERIES})\s+(?:apart"),
    (r"(?:fixed|constant|flat|linear)\s++(?:delay|wait|backoff|back-off|interval|pause)?\s*+(?:of",
     r"(?:fixed|constant|flat|linear)\s+(?:delay|wait|backoff|back-off|interval|pause)?\s*(?:of"),
    (r"(?:if|when|once|should)\s++(?:it|that|this|the\s+(?:step|call|request|\w+))?\s*+(?:still",
     r"(?:if|when|once|should)\s+(?:it|that|this|the\s+(?:step|call|request|\w+))?\s*(?:still"),
    (r"(?:mark|set|record|treat|label|tag|report|return|flag)\s++(?:the",
     r"(?:mark|set|record|treat|label|tag|report|return|flag)\s+(?:the"),
)
# with the rule added since (r32): a number glued to a letter ("k8s", "arm64") is no time, so the
# pattern starts at a number's first character as the linear one does
OLD_DURATION = rf"(?:(?<![A-Za-z\d])\d+(?:\.\d+)?\s*(?:-\s*)?(?:{g.UNITS})(?![a-z]))"
OLD_SERIES = (g.SERIES.replace(g.DURATION, OLD_DURATION).replace(r"\+?\s*+(?:", r"\+?\s*(?:")
              .replace(r"|(?<!\d)(?>\d+", r"|(?>\d+"))
OLD_INLINE = (r"\$\{\{\s*([^}]+?)\s*\}\}|\$\{\s*([^}]+?)\s*\}|\$\(\s*([\w.]+)\s*\)|"
              r"\$((?:inputs?|params|steps|needs|tasks)\.[\w.-]*\w)")
OLD_NEGATED_PART = (r"(?i)[(,;]?\s*(?:but\s+)?\b(?:does(?:n['’]t| not)|do(?:n['’]t| not)|is(?:n['’]t| not)|not|never|"
                    r"without|no need to)\s+(?:wait\w*|depend\w*|need\w*|after|on)\b[^)]*\)?")
OLD_AMOUNT_UNIT = (rf"(?P<amount>\d+(?:\.\d+)?|{g.WORDS}|half\s+an?|an?|another|\b)\s*-?\s*"
                   rf"(?P<unit>{g.UNITS}|{g.LONG_UNITS})(?![a-z])")


def _old_grammar(written: str) -> str:
    for now, before in _ROW_EDITS:
        written = written.replace(now, before)
    return g.expand(written).replace(g.SERIES, OLD_SERIES).replace(g.DURATION, OLD_DURATION)


def _changed_grammar() -> list[str]:
    return [w for w in g._every_pattern() if _old_grammar(w) != g.expand(w)]


def test_the_old_grammar_is_rebuilt_from_the_edits_it_names() -> None:
    """Every edit still applies (a row rewritten again must be listed again), and the rows
    that changed are the ones that repeat a duration or a blank run."""
    every = g._every_pattern()
    for now, _ in _ROW_EDITS:
        assert any(now in w for w in every), now
    assert g.SERIES != OLD_SERIES
    assert len(_changed_grammar()) > 40


@pytest.mark.parametrize("written", _changed_grammar(), ids=lambda w: w[:50])
def test_a_policy_row_made_linear_reads_the_same_spans_and_groups(written: str) -> None:
    old = re.compile(_old_grammar(written), re.I)
    diff = differences(old, g.compiled(written), texts(written, FUZZ, seed=len(written)))
    assert not diff, diff[:3]


@pytest.mark.parametrize(("name", "old", "flags", "new"), [
    ("phrase_value._DURATION_PART", OLD_DURATION, re.I, phrase_value._DURATION_PART),
    ("phrase_value._AMOUNT_UNIT", OLD_AMOUNT_UNIT, re.I, phrase_value._AMOUNT_UNIT),
    ("yaml_keys._INLINE", OLD_INLINE, 0, yaml_keys._INLINE),
    ("step_prose._NEGATED_PART", OLD_NEGATED_PART, 0, step_prose._NEGATED_PART),
])
def test_a_reader_pattern_made_linear_finds_the_same_spans_and_groups(name: str, old: str, flags: int,
                                                                      new: re.Pattern[str]) -> None:
    before = re.compile(old, flags)
    inputs = texts(old, FUZZ * 3, seed=7)
    diff = differences(before, new, inputs)
    assert not diff, diff[:3]
    assert [before.sub(" ", t) for t in inputs] == [new.sub(" ", t) for t in inputs]  # as the readers use them
