"""'<input> from <step>': an input named with the step it comes from, the step called by its mark
(`plan.said_from39`), and a success check on a field the step's skill does not output, warned
(`plan.unoutput39`)."""

from __future__ import annotations

from orchestrator.plan.list35 import Before, skill_words
from orchestrator.plan.said_from39 import opening_mark, said_from
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill


def _before(*rows: tuple[str, str, tuple[str, ...]]) -> tuple[list[Before], dict[str, str]]:
    steps = [Before(id=sid, position=i + 1, mark="", words=skill_words(name), fields=fields)
             for i, (sid, name, fields) in enumerate(rows)]
    return steps, {}


LAB, _ = _before(("step-1", "plate-reader", ("wells", "od_values")),
                 ("step-2", "outlier-flag", ("flagged_wells", "run_date")))
HEADS = {"step-1": "## A. Read the plate", "step-2": "## B. Flag outliers"}


def _mark(b: Before) -> str:
    return opening_mark(HEADS[b.id])


def test_a_lab_protocol_table_cell_names_the_input_and_its_step_by_the_heading_letter() -> None:
    got = said_from(["| Fed by | date from B; wells from A |"], ["date", "wells"], LAB, _mark)
    assert (got["date"].step, got["date"].field, got["date"].guessed) == ("step-2", "run_date", True)
    assert (got["wells"].step, got["wells"].field, got["wells"].guessed) == ("step-1", "wells", False)


def test_a_ticket_names_the_step_by_number_or_parenthesised_mark() -> None:
    marks = {"step-1": "1) fetch the logs", "step-2": "2) count errors"}
    steps, _ = _before(("step-1", "fetch-logs", ("lines",)), ("step-2", "error-count", ("error_rate", "errors")))
    got = said_from(["Takes: rate from step 2, lines from (1)"], ["rate", "lines"], steps,
                    lambda b: opening_mark(marks[b.id]))
    assert (got["rate"].step, got["rate"].field) == ("step-2", "error_rate")
    assert (got["lines"].step, got["lines"].field) == ("step-1", "lines")


def test_a_runbook_list_line() -> None:
    steps, _ = _before(("step-1", "host-list", ("hosts",)), ("step-2", "patch-audit", ("unpatched_hosts",)))
    marks = {"step-1": "- Step 1: list hosts", "step-2": "- Step 2: audit"}
    got = said_from(["- needs: hosts from 2"], ["hosts"], steps, lambda b: opening_mark(marks[b.id]))
    assert (got["hosts"].step, got["hosts"].field) == ("step-2", "unpatched_hosts")


def test_negatives_nothing_is_guessed() -> None:
    # more words than "<input> from <step>"; a mark no step has; a field word two outputs share; not read
    assert said_from(["the date from B"], ["date"], LAB, _mark) == {}
    assert said_from(["date from Q"], ["date"], LAB, _mark) == {}
    assert said_from(["crew from whichever of C/D ran"], ["crew"], LAB, _mark) == {}
    two, _ = _before(("step-1", "x-y", ("start_day", "end_day")),)
    assert said_from(["day from A"], ["day"], two, lambda b: "a") == {}
    assert said_from(["date from B"], ["wells"], LAB, _mark) == {}
    assert [opening_mark(x) for x in ("## B. Flag", "C) go", "(3) run", "Step 4: x", "Warm-up at 7")] == \
        ["b", "c", "3", "4", ""]


FETCH = skill("fetch-rows", input_schema=obj(("source",), source="string"),
              output_schema=obj(("rows", "row_count"), rows="array", row_count="integer"))
LOAD = skill("load-rows", input_schema=obj(("rows",), rows="array"), output_schema=obj(("loaded",), loaded="integer"))


def _warned(text: str) -> list[str]:
    plan = plan_of_text(text, FakeCatalog(FETCH, LOAD))
    return [w.message for w in plan.warnings if w.code == "plan.check-not-output"]


def test_a_check_after_the_last_step_on_a_field_it_does_not_output_is_warned() -> None:
    text = ("# Nightly load\n\nInputs: source\n\n## Step 1: fetch-rows\nGet them.\n\n## Step 2: load-rows\n"
            "Load them.\n\nThe run counts as good when row_count >= 10.\n")
    got = _warned(text)
    assert len(got) == 1 and "`row_count`" in got[0] and "step-1 outputs it" in got[0]


def test_a_check_on_a_field_the_step_outputs_is_not_warned() -> None:
    text = ("# Nightly load\n\nInputs: source\n\n## Step 1: fetch-rows\nGet them.\n\n## Step 2: load-rows\n"
            "Load them.\n\nThe run counts as good when loaded >= 10.\n")
    assert _warned(text) == []
