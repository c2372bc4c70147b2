"""A value to go on with said as what the step came back with ("carry on as if free_gb came back as 50",
"pretend it returned 0", "act as though the count was 12"), read only with a name the step's skill returns
or "it" (`spec.as_if30`): a warehouse runbook, a lab protocol, a YAML job's notes; and an as-if that names
no output, one that does not say the step failed or goes on, a bare word after a name that is no output."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.as_if30 import _rewrite
from orchestrator.spec.vocabulary import Vocabulary

OUTPUTS = {"scale-read": frozenset({"count"}), "quota-check": frozenset({"free_gb", "collection"}),
           "gauge-read": frozenset({"depth_m", "high_water"})}


def _spec(text: str, name: str, fmt: str = "markdown") -> Any:
    words = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(lambda s: OUTPUTS.get(s, frozenset()))
    return parse_spec_text(text, name, fmt, words)


def _values(spec: Any) -> list[Any]:
    return [r.statement.on_failure.value for r in spec.readings
            if r.statement.on_failure is not None and r.statement.on_failure.value is not None]


RUNBOOK = """\
# Stock take

## Step 1: Weigh
- Skill: `scale-read`

If the scale dies, act as though the count was 12 and move on.
"""

LAB = """\
## Step 1: Tide gauge
- Skill: `gauge-read`

Should the gauge fail, carry on as if depth_m came back as 0, high_water "unknown".
"""

JOB = """\
steps:
  - id: quota
    skill: quota-check
    notes: if it does not answer, just carry on as if free_gb came back as 50, collection PHOTO-ARCH
"""


def test_what_the_step_came_back_with_is_the_value_to_go_on_with() -> None:
    for text, name, fmt, want in ((RUNBOOK, "stock.md", "markdown", {"count": 12}),
                                  (LAB, "tides.md", "markdown", {"depth_m": 0, "high_water": "unknown"}),
                                  (JOB, "quota.yaml", "yaml", {"free_gb": 50, "collection": "PHOTO-ARCH"})):
        spec = _spec(text, name, fmt)
        assert _values(spec) == [want], (name, spec.readings, spec.warnings)
        assert not any("was not read" in w.message for w in spec.warnings)


def test_it_returned_is_the_one_output_or_the_value_alone() -> None:
    assert "`{\"count\": 0}`" in _rewrite("if the lookup fails, pretend it returned 0", frozenset({"count"}))[0]
    assert "continue with `0`" in _rewrite("if the lookup fails, pretend it returned 0", None)[0]


def test_an_as_if_that_is_no_value_to_go_on_with_is_left_alone() -> None:
    outputs = frozenset({"count", "free_gb"})
    for text in ("act as if the server is down and page Jo",                  # no output named
                 "write it up as if the count was 12",                         # no failure, no going on
                 "if it fails, carry on as if nothing happened",               # no value
                 "if it fails, carry on as if the weather was fine",           # `weather` is no output
                 "if it fails, carry on as if it was fine"):                   # a bare word after "it": no value
        assert _rewrite(text, outputs) is None, text
