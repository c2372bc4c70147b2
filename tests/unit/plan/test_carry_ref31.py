"""A value to go on with that names earlier data: another step's output or a workflow input
(`plan.carry_ref31`). Documents: a nightly-sync runbook, a YAML job file of its own schema, a lab
protocol in plain numbered lines, a bakery prep sheet; validation errors at the line; negatives: a
quoted value, a step named with no field, a dotted word that names no step, plain words naming nothing."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.engine.carry import carried_value
from orchestrator.plan.build import draft_plan
from orchestrator.plan.carry_ref31 import said_ref
from orchestrator.plan.checks import check_plan
from orchestrator.policy import Carried, Fallback, FallbackAction
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

IDS = {"type": "array", "items": {"type": "string"}}
FETCH = skill("fetch-ids", input_schema=obj(("date",), date="string"), output_schema=obj(("ids",), ids=IDS))
FILTER = skill("filter-ids", input_schema=obj(("ids",), ids="array"), output_schema=obj(("ids",), ids=IDS))
STAMP = skill("stamp", input_schema=obj(("date",), date="string"), output_schema=obj(("date",), date="string"))
REPORT = skill("report", input_schema=obj(("ids",), ids="array"), output_schema=obj(("ids",), ids=IDS))
SYNC = (FETCH, FILTER, STAMP, REPORT)


def _plan(text: str, fmt: str, *skills: Any, path: str = "doc.md") -> tuple[Any, list[str]]:
    """The plan and the errors `validate` reports (building and checking)."""
    catalog = FakeCatalog(*skills)
    spec = parse_spec_text(text, path, fmt, Vocabulary.of([(s.name, None) for s in skills]))
    plan, errors = draft_plan(spec, catalog, settings=SETTINGS)  # type: ignore[arg-type]
    found = [*errors, *(d for d in check_plan(plan, spec) if d.severity.value == "error")]
    return plan, [d.render() for d in found]


def _carry(plan: Any, step_id: str) -> tuple[Carried, ...]:
    return next(s for s in plan.steps if s.id == step_id).policy.fallback.carry


RUNBOOK = """# Nightly sync

Inputs: `date`

## Step 1: fetch
Use `fetch-ids` with the date. It returns `ids`.

## Step 2: filter
Use `filter-ids` on the ids from step 1.
If it fails, carry on with the list from step 1.

## Step 3: stamp
Use `stamp` with the date. If it fails, use the input date instead.

## Step 4: report
Use `report` with the ids from step 2. If it fails, fall back to whatever 2 gave.
"""


def test_a_runbook_carries_on_with_a_step_s_list_the_input_and_a_whole_output() -> None:
    plan, errors = _plan(RUNBOOK, "markdown", *SYNC)
    assert errors == []
    (listed,) = _carry(plan, "step-2")
    assert (listed.field, listed.step, listed.pointer, listed.where) == ("ids", "step-1", "/ids", "doc.md:10")
    (dated,) = _carry(plan, "step-3")
    assert (dated.field, dated.input) == ("date", "date")
    (whole,) = _carry(plan, "step-4")
    assert (whole.field, whole.step, whole.pointer) == ("", "step-2", "")
    assert all(s.policy.fallback.action is FallbackAction.DEFAULT for s in plan.steps[1:])
    assert not [w for w in plan.warnings if w.line in (13, 16) and "not understood" in w.message]


JOB_YAML = """name: sync
inputs:
  date: {type: string}
steps:
  - id: fetch
    skill: fetch-ids
    inputs: {date: "{{ inputs.date }}"}
  - id: tidy
    skill: filter-ids
    inputs: {ids: "{{ steps.fetch.output.ids }}"}
    on_fail: {continue_with: {ids: fetch.ids}}
  - id: stamp
    skill: stamp
    inputs: {date: "{{ inputs.date }}"}
    on_fail: {continue_with: {date: inputs.date}}
"""


def test_a_yaml_job_s_continue_with_names_a_step_s_field_and_an_input() -> None:
    plan, errors = _plan(JOB_YAML, "yaml", FETCH, FILTER, STAMP, path="job.yaml")
    assert errors == []
    (ids,) = _carry(plan, "tidy")
    assert (ids.field, ids.step, ids.pointer) == ("ids", "fetch", "/ids")
    (date,) = _carry(plan, "stamp")
    assert (date.field, date.input) == ("date", "date")


SAMPLES = skill("sample-list", input_schema=obj(("batch",), batch="string"),
                output_schema=obj(("samples",), samples={"type": "array", "items": obj(("tube",), tube="string",
                                                                                       site="string")}))
PLATE = skill("plate-map", input_schema=obj(("samples",), samples="array"),
              output_schema=obj(("wells", "spare"), wells={"type": "array"}, spare={"type": "array"}))
PROTOCOL = """PCR PLATE SET-UP - lab protocol v3

1. sample-list for the batch.
2. plate-map takes the samples. If the robot errors, carry on with spare = [] and wells = the samples' tubes
   (we pipette by hand from the tube list).
"""


def test_a_lab_protocol_sets_a_field_to_each_item_s_field_of_an_earlier_list() -> None:
    plan, errors = _plan(PROTOCOL, "markdown", SAMPLES, PLATE, path="protocol.txt")
    assert errors == []
    plate = plan.steps[1]
    assert plate.policy.fallback.value == {"spare": [], "wells": []} or plate.policy.fallback.value == {"spare": []}
    (wells,) = plate.policy.fallback.carry
    assert (wells.field, wells.step, wells.pointer, wells.each) == ("wells", plan.steps[0].id, "/samples", "tube")
    assert not [w for w in plan.warnings if w.code == "policy-value"]


# -- validation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("said", "why"), [
    ("carry on with step 4's ids", "is not a step this one runs after"),  # a later step
    ("carry on with step 1's rows", "output has no `rows`"),  # no such field
    ("use step 1's ids instead", "does not fit step-3's output"),  # a list where a text goes
    ("carry on with the input day", "names no step's output nor workflow input"),  # no such input
])
def test_a_reference_that_cannot_be_read_when_the_fallback_applies_is_an_error_at_its_line(said: str, why: str) -> None:
    text = RUNBOOK.replace("If it fails, use the input date instead.", f"If it fails, {said}.")
    _, errors = _plan(text, "markdown", *SYNC)
    assert any(e.startswith("doc.md:13:") and why in e for e in errors), errors


def test_a_step_that_runs_only_on_a_condition_is_refused_as_a_source() -> None:
    text = JOB_YAML.replace("    skill: fetch-ids\n", "    skill: fetch-ids\n    when: \"{{ inputs.date != '' }}\"\n")
    _, errors = _plan(text, "yaml", FETCH, FILTER, STAMP, path="job.yaml")
    assert any("fetch may be skipped" in e and e.startswith("job.yaml:") for e in errors), errors


# -- negatives -------------------------------------------------------------------------------------


@pytest.mark.parametrize("words", ["'step 2'", "step 2", "v1.2", "release.notes", "as if nothing is held", ""])
def test_words_that_are_no_reference_are_not_read_as_one(words: str) -> None:
    ref = said_ref(words)
    assert ref is None or not ref.explicit


def test_a_quoted_step_name_is_a_literal_value_to_go_on_with() -> None:
    """Decided: "continue with 'step 2'" means the text `step 2` (quoted), never step 2's output; the
    field is a plain string, so the value is the literal."""
    text = RUNBOOK.replace("If it fails, use the input date instead.", "If it fails, continue with 'step 2'.")
    plan, errors = _plan(text, "markdown", *SYNC)
    assert errors == []
    stamp = plan.steps[2].policy.fallback
    assert stamp.carry == () and stamp.value == {"date": "step 2"}


def test_a_yaml_literal_that_names_no_step_stays_literal() -> None:
    text = JOB_YAML.replace("{date: inputs.date}", "{date: release.notes}")
    plan, errors = _plan(text, "yaml", FETCH, FILTER, STAMP, path="job.yaml")
    assert errors == []
    assert plan.steps[2].policy.fallback.carry == () and plan.steps[2].policy.fallback.value == {"date": "release.notes"}


def test_plain_words_naming_no_earlier_field_keep_the_warning() -> None:
    """A bakery prep sheet: "leftovers = all the trays' loaves" where no earlier step gives trays."""
    text = PROTOCOL.replace("the samples' tubes", "all the trays' loaves")
    plan, errors = _plan(text, "markdown", SAMPLES, PLATE, path="prep.txt")
    assert errors == []
    assert plan.steps[1].policy.fallback.carry == ()
    assert any(w.code == "policy-value" and "trays" in w.message for w in plan.warnings)


# -- the engine's reading --------------------------------------------------------------------------


def test_the_value_is_read_from_the_run_s_outputs_and_inputs_and_says_where_from() -> None:
    fallback = Fallback(action=FallbackAction.DEFAULT, value={"spare": []}, carry=(
        Carried(field="wells", said="the samples' tubes", step="s1", pointer="/samples", each="tube"),
        Carried(field="batch", said="the input batch", input="batch")))
    value, said = carried_value(fallback, fallback.value, {"batch": "B7"},
                                {"s1": {"samples": [{"tube": "T1"}, {"tube": "T2"}]}})
    assert value == {"spare": [], "wells": ["T1", "T2"], "batch": "B7"}
    assert said == "wells carried from s1's output samples (each tube); batch carried from workflow input batch"
    with pytest.raises(KeyError):
        carried_value(fallback, fallback.value, {}, {"s1": {"samples": []}})
