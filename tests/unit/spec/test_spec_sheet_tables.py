"""A spreadsheet tab pasted as the steps table: extra columns (Reads from, Yields, Assignee, Status), rows named by number, a policy
column whose header lists kinds of policy, and a summary row that is no step."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "tab.md", "markdown")


def line(where: str | None) -> int:
    assert where is not None
    return int(where.rsplit(":", 1)[1])


SHEET = """**Monthly invoicing** (pasted from the ops tracker)

Params (column C) → `ledger` = the month's ledger export, `currency` = EUR for now

| No | Task | Skill | Reads from | Yields | Assignee | Retries & timeouts | Status |
|----|------|-------|------|-------|----------|--------------------|--------|
| 1 | Load ledger | load-ledger | ledger | rows | @kim | 45s timeout | done |
| 2 | Price rows | price-rows | rows from #1, currency | priced, total | @kim | retry every 5s, give up after 4 retries | wip |
| 3 | Send invoices | send-invoices | priced + total from #2 | sent | @lee | hard stop at 2 min | todo |
| | Overall | | | | | the whole tab has to finish within 30 min | |
"""


def test_a_summary_row_is_no_step_and_its_limit_is_the_whole_runs() -> None:
    spec = parse(SHEET)
    assert [(s.id, s.name) for s in spec.steps] == [
        ("step-1", "Load ledger"), ("step-2", "Price rows"), ("step-3", "Send invoices")]
    (whole,) = [r for r in spec.readings if r.statement.whole_run]
    assert (whole.statement.timeout_s, line(whole.where), whole.steps) == (1800, 10, ())


def test_a_summary_row_that_states_no_limit_is_warned_and_gives_no_step_a_policy() -> None:
    spec = parse(SHEET.replace("the whole tab has to finish within 30 min", "3 retries"))
    assert len(spec.steps) == 3
    assert not [r for r in spec.readings if line(r.where) == 10]
    assert [(w.line, w.code) for w in spec.warnings if "Overall" in w.message] == [(10, "spec.unread")]


def test_a_header_that_lists_kinds_of_policy_lets_each_cell_say_its_own() -> None:
    spec = parse(SHEET)
    effects = {r.steps: effect_of(r.statement) for r in spec.readings if r.steps}
    load = effects[("step-1",)]
    assert load.attempt_timeout_s == 45 and load.retry is None
    assert not [w for w in spec.warnings if w.line == 7 and "retry" in w.message]
    price = effects[("step-2",)]
    assert price.retry is not None and price.retry.max_retries == 4 and price.retry.delays_s == (5.0,)
    assert effects[("step-3",)].attempt_timeout_s == 120


def test_uses_and_gives_columns_and_row_numbers_wire_the_steps() -> None:
    spec = parse(SHEET)
    price, send = spec.steps[1], spec.steps[2]
    assert [(f.name, f.source) for f in price.inputs] == [("rows", "steps.step-1.output.rows"), ("currency", None)]
    assert [(f.name, f.source) for f in send.inputs] == [
        ("priced", "steps.step-2.output.priced"), ("total", "steps.step-2.output.total")]
    assert [f.name for f in price.outputs] == ["priced", "total"]


def test_a_labelled_line_of_named_values_declares_the_inputs() -> None:
    spec = parse(SHEET)
    assert [(i.name, i.description) for i in spec.inputs or ()] == [
        ("ledger", "the month's ledger export"), ("currency", "EUR for now")]


@pytest.mark.parametrize(
    ("sentence", "field", "value"),
    [
        ("if the rates API is still unavailable use rates = {}", "rates", {}),
        ("When it fails, carry on with matched = 0 and flag it.", "matched", 0),
        ("on error continue with notes = []", "notes", []),
    ],
)
def test_a_field_set_to_a_value_is_what_the_run_goes_on_with(sentence: str, field: str, value: object) -> None:
    failure = read_phrase(sentence).statement.on_failure
    assert failure is not None and failure.kind == "continue_with_value"
    # the value of that one field, or an output that holds only that field: the same output goes on
    assert (failure.field, failure.value) in ((field, value), (None, {field: value}))


@pytest.mark.parametrize(
    ("sentence", "seconds", "whole"),
    [
        ("hard limit of 90s, then give up", 90, False),
        ("Every lookup must return within 4 seconds.", 4, False),
        ("Total runtime: at most 2 hours.", 7200, True),
        ("The entire batch should complete within the 45 min slot.", 2700, True),
    ],
)
def test_time_limits_in_other_words(sentence: str, seconds: float, whole: bool) -> None:
    statement = read_phrase(sentence).statement
    assert (statement.timeout_s, statement.whole_run) == (seconds, whole)


def test_rows_are_named_as_rows_too() -> None:
    spec = parse(SHEET.replace("rows from #1", "rows from row 1").replace("priced + total from #2",
                                                                         "priced + total from R2"))
    assert (spec.steps[1].inputs[0].name, spec.steps[1].inputs[0].source) == ("rows", "steps.step-1.output.rows")
    assert [f.source for f in spec.steps[2].inputs] == ["steps.step-2.output.priced", "steps.step-2.output.total"]


def test_a_row_without_number_or_skill_is_no_step_whatever_its_name() -> None:
    spec = parse(SHEET.replace("| | Overall |", "| | Sign-off by finance |").replace(
        "the whole tab has to finish within 30 min", "ask Dana"))
    assert len(spec.steps) == 3
    (said,) = [w for w in spec.warnings if "Sign-off by finance" in w.message]
    assert said.line == 10 and "give it its number and skill" in said.message


@pytest.mark.parametrize(
    ("header", "cell", "timeout", "retries", "waits"),
    [
        ("Timeout (min)", "5", 300, None, None),
        ("Time limit [s]", "40", 40, None, None),
        ("Retries / wait", "3 / 10s", None, 3, (10.0,)),
        ("Waits & retries", "twice, 30s apart", None, 2, (30.0,)),
    ],
)
def test_a_policy_column_reads_its_header_unit_and_pairs(header: str, cell: str, timeout: float | None,
                                                         retries: int | None, waits: tuple[float, ...] | None) -> None:
    spec = parse(f"# T\n\n| # | Step | Skill | {header} |\n|---|---|---|---|\n| 1 | Go | go-now | {cell} |\n"
                 "| 2 | Stop | stop-now | - |\n")
    effects = [effect_of(r.statement) for r in spec.readings if r.steps == ("step-1",)]
    assert spec.steps[0].timeout_s == timeout or [e.attempt_timeout_s for e in effects] == [timeout]
    if retries is not None:
        (effect,) = effects
        assert effect.retry is not None and (effect.retry.max_retries, effect.retry.delays_s) == (retries, waits)
    assert not spec.warnings
