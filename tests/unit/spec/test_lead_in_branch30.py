"""A branch written as a bold lead-in with its condition in brackets (`spec.lead_in_branch30`): "**Angry
customers** (sentiment < -0.5):" runs only then, "**Everyone else** (sentiment -0.5 or more):" is its other
branch; and a join's "`note` ← the `reply` from step 2 or 3" takes the field from whichever ran."""

from __future__ import annotations

import pytest

from orchestrator.errors import Severity
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.either_input import alternatives, either_inputs
from orchestrator.spec.lead_in_branch30 import aside_compare, field_of_steps, load_reason_spans
from tests.unit.spec.phrase_probe import plain_effect


def _read(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown")


def _codes(spec: WorkflowSpec, line: int) -> list[str]:
    return [w.code for w in spec.warnings if w.line == line and w.severity is Severity.WARNING]


SUPPORT_MACRO = """# Macro: complaint routing

Use this macro for every new complaint ticket.

1. `sentiment-check` reads the `ticket_text`.
2. **Angry customers** (sentiment < -0.5): `escalate-ticket` with the `ticket_text`.
3. **Everyone else** (sentiment -0.5 or more): `canned-reply` with the `ticket_text`.
4. `close-ticket` after whichever of 2/3 happened, with `note` ← the `reply` from step 2 or 3.
"""


def test_a_support_macro_s_bold_cases_are_a_condition_and_its_other_branch() -> None:
    spec = _read(SUPPORT_MACRO)
    angry, rest, close = spec.steps[1], spec.steps[2], spec.steps[3]
    assert angry.name == "Angry customers" and angry.when == "sentiment < -0.5"
    assert rest.when is None and rest.otherwise_of == "step-2"
    assert "spec.lead-condition" in _codes(spec, 6) and "spec.lead-condition" in _codes(spec, 7)
    assert close.join == "any" and set(close.depends_on) == {"step-2", "step-3"}
    (note,) = [r for r in either_inputs(close) if r.name == "note"]
    assert [(a.words, a.step) for a in note.alternatives] == [("reply", "step 2"), ("reply", "step 3")]
    assert note.deliberate


RECIPE = """# Berry crumble

## Method
1. `weigh-fruit` for the `berries`.
2. **If using frozen** (`frozen_share` over 0.5): `thaw-fruit` on the `fruit_weight` from step 1.
3. **Fresh berries** (frozen_share 0.5 or less): `rinse-fruit` on the same weight.
4. **If the oven is hot**: `bake-crumble` with the fruit.
"""


def test_a_recipe_s_if_lead_in_takes_its_aside_and_a_case_that_is_no_complement_is_its_own() -> None:
    spec = _read(RECIPE)
    frozen, fresh, bake = spec.steps[1], spec.steps[2], spec.steps[3]
    assert frozen.when == "`frozen_share` over 0.5"
    assert "spec.condition-not-read" not in _codes(spec, 5)
    assert fresh.when == "frozen_share 0.5 or less" and fresh.otherwise_of is None  # not an otherwise word
    assert bake.when == "the oven is hot"  # no aside: the title's own words, as `spec.lead_condition` reads them


WIKI = """= Incident paging =

* **Sev 1** (`priority` above 3) — `page-oncall` with the `incident_id`.
* **Otherwise** — `file-ticket` with the `incident_id`.
* `post-summary` to the channel.
"""


def test_a_wiki_page_s_bold_case_labels_are_a_condition_and_its_otherwise() -> None:
    spec = _read(WIKI)
    sev, other, post = spec.steps
    assert sev.name == "Sev 1" and sev.when == "`priority` above 3"
    assert other.otherwise_of == "step-1"
    assert post.when is None and post.otherwise_of is None


PULL_REQUEST = """# PR #88: route invoices by size

## How it runs
1. `invoice-load` reads the `invoice_id`.
2. **Large invoices** (`total` at least 5000): `cfo-review` on the invoice.
3. **Everything else** (total under 4000): `auto-pay` on the invoice.
"""


def test_an_otherwise_label_whose_aside_is_no_complement_is_a_condition_of_its_own_warned() -> None:
    spec = _read(PULL_REQUEST)
    large, rest = spec.steps[1], spec.steps[2]
    assert large.when == "`total` at least 5000"
    assert rest.otherwise_of is None and rest.when == "total < 4000"
    assert "spec.lead-condition" in _codes(spec, 5)


NOT_CONDITIONS = """# Release checklist

1. `build-app` for the `tag`.
2. **Important** (read this first): `backup-db` before anything else.
3. **Slow one** (takes over 10 minutes): `reindex-search` on the new build.
4. **Heads-up** (about 3 people watch this): `notify-team` with the `tag`.
5. Run `smoke-test` (over 100 checks): the **whole** suite.
"""


def test_bold_text_that_is_only_emphasis_or_a_duration_is_no_condition() -> None:
    spec = _read(NOT_CONDITIONS)
    assert all(s.when is None and s.otherwise_of is None for s in spec.steps)
    assert not any(w.code == "spec.lead-condition" for w in spec.warnings)


def test_an_aside_is_a_comparison_only_with_a_number_and_a_named_value() -> None:
    assert aside_compare("(order `amount` over 100): `x`") is not None
    assert aside_compare("(sentiment < -0.5) — `x`") is not None
    assert aside_compare("(read this first): `x`") is None
    assert aside_compare("(over 20 minutes): `x`") is None
    assert aside_compare("order (amount over 100): `x`") is None  # not at the opening


def test_one_field_of_numbered_steps_is_a_join_s_alternatives_and_one_step_is_not() -> None:
    said = field_of_steps("the `verdict` from step 2 or 3")
    assert said is not None and [(a.words, a.step) for a in said] == [("verdict", "step 2"), ("verdict", "step 3")]
    said = alternatives("total out of step 2 or step 3 (whichever ran)")
    assert said is not None and [a.step for a in said] == ["step 2", "step 3"]
    assert field_of_steps("the verdict from step 2") is None
    assert field_of_steps("2 or 3 tubes from step 1") is None
    assert field_of_steps("the verdict from step 2 or the queue") is None


# -- a failure seen under load, before a dash, is the reason -----------------------------------------------

@pytest.mark.parametrize("text", [
    "The VPN drops out at night — retry 3 times, 1 minute apart.",  # a runbook
    "Label printer hangs under heavy load; give it 2 more goes.",  # a warehouse shift sheet
    "Card terminal times out at peak times: retry twice, 5 s apart.",  # a shop's till procedure
])
def test_a_failure_seen_under_load_before_a_break_does_not_keep_the_retry_to_it(text: str) -> None:
    got = plain_effect(text, continues=True, on=True)
    assert "on" not in got and got.get("retries")
    assert load_reason_spans(text)


def test_an_if_before_the_break_keeps_the_failure_class() -> None:
    assert load_reason_spans("If it times out under load — retry 3 times.") == []
    assert plain_effect("If it times out under load — retry 3 times.", continues=True, on=True).get("on") == "timeout"
    assert load_reason_spans("The DB times out — retry 3 times.") == []  # no circumstance: the failure said
