"""A condition's value named by what it means ("the computed refund") is the one output whose name
shares its words with the words of the value and of what produced it (`plan.meaning`): taken only
when unique, shown in the plan and warned; otherwise the error names the values it may mean."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.errors import PlanError
from orchestrator.plan import build_plan
from orchestrator.plan.meaning import Value, by_meaning
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("probe-endpoint", output_schema=obj(("latency_ms",), latency_ms="number", status="string")),
    skill("page-oncall"),
    skill("parse-rows", output_schema=obj(("row_count",), row_count="integer", rows="array")),
    skill("load-rows"),
    skill("compute-refund", output_schema=obj(("refund_amount",), refund_amount="number", refund_fee="number")),
    skill("issue-refund"),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)


STATUS_PAGE = """# Status page: API latency

## Steps

### Step 1: Measure latency
`probe-endpoint` on the public API.

### Step 2: Page
Only when the measured latency is over 250: `page-oncall`.
"""

DOCSTRING = """# load_nightly()

## Steps

### Step 1: Parse
`parse-rows` on the export.

### Step 2: Load
`load-rows`. Runs only when the parsed count is above 10.
"""


def test_a_status_page_condition_on_the_measured_latency_is_the_probe_s_latency_ms_and_is_warned() -> None:
    plan = _plan(STATUS_PAGE)
    assert plan.step("step-2").when == "steps['step-1'].output.latency_ms > 250"
    warned = [w for w in plan.warnings if w.code == "plan.value-by-meaning"]
    assert [w.line for w in warned] == [9] and "`latency_ms`" in warned[0].message
    assert "by its meaning" in plan.step("step-2").provenance["when"].note


def test_a_docstring_condition_on_the_parsed_count_is_the_parser_s_row_count() -> None:
    assert _plan(DOCSTRING).step("step-2").when == "steps['step-1'].output.row_count > 10"


def test_a_support_macro_value_two_outputs_may_mean_is_an_error_naming_both() -> None:
    text = ("# Macro: refunds\n\n## Steps\n\n### Step 1: Compute\n`compute-refund`.\n\n"
            "### Step 2: Issue\n`issue-refund`. Only when the computed refund is over 200.\n")
    with pytest.raises(PlanError) as raised:
        _plan(text)
    (found,) = [d for d in raised.value.diagnostics if d.code == "condition"]
    assert "`refund_amount`" in found.message and "`refund_fee`" in found.message
    assert "confidence < 0.7" not in found.message  # the author's values, not a generic example


def test_a_value_no_output_shares_a_word_with_lists_the_values_there_are() -> None:
    values = [Value("latency_ms", "p1", "step-1's output", "probe-endpoint"), Value("env", "inputs.env", "input")]
    assert by_meaning(("colour",), values) == (None, "; the values there are: `latency_ms` (step-1's output), "
                                                     "`env` (input); write the one meant by its name")
    found, note = by_meaning(("measured", "latency"), [Value("latency_ms", "p1", "step-1's output", "measure it")])
    assert found is not None and found.name == "latency_ms" and "by its meaning" in note
    assert by_meaning(("latency",), [Value("status", "p2", "x", "latency probe")])[0] is None  # its name must share
