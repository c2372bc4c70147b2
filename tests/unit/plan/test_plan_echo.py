"""A key a step's skill reads and gives back unchanged in name (`sample_id` in, `sample_id` out) is an
echo: later steps that read it take the workflow input and do not wait for the echoing step, said
once at that step's line; data a chain of steps reworks (`rows`, a list) and a value the text takes
from a step by name stay the step's."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text

LABEL = skill("label-tubes", input_schema=obj(("sample_id",), sample_id="string"),
              output_schema=obj(("sample_id", "labels"), sample_id="string", labels="integer"))
WEIGH = skill("weigh-tube", input_schema=obj(("sample_id",), sample_id="string"),
              output_schema=obj(("sample_id", "mass"), sample_id="string", mass="number"))
LOG = skill("log-result", input_schema=obj(("sample_id", "labels", "mass"), sample_id="string", labels="integer",
                                           mass="number"), output_schema=obj(("logged",), logged="boolean"))
NOTE = skill("note-tube", input_schema=obj(("sample_id", "labels"), sample_id="string", labels="integer"),
             output_schema=obj(("noted",), noted="boolean"))
CLEAN = skill("clean-rows", input_schema=obj(("rows",), rows="array"),
              output_schema=obj(("rows",), rows="array"))
DEDUPE = skill("dedupe-rows", input_schema=obj(("rows",), rows="array"),
               output_schema=obj(("count",), count="integer"))
CATALOG = FakeCatalog(LABEL, WEIGH, LOG, NOTE, CLEAN, DEDUPE)


def _plan(text: str, name: str = "p.md", fmt: str = "markdown"):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, name, fmt), CATALOG, settings=SETTINGS)


_PROTOCOL = """\
# Bench protocol: tube prep

## Inputs

- sample_id: the sample's id

## Steps

1. Label the tubes with `label-tubes`.
2. Weigh one with `weigh-tube`.
   - Depends on: none
3. Log it with `log-result` (the labels from step 1, the mass from step 2).
4. Note it with `note-tube` (the labels from step 1).
"""


def test_a_lab_protocol_s_echoed_sample_id_adds_no_wait_and_copies_give_way_to_the_input() -> None:
    plan = _plan(_PROTOCOL)
    assert plan.step("step-2").depends_on == ()  # its `sample_id` is no reason to wait for step 1
    assert plan.step("step-2").inputs["sample_id"].source == "input"
    assert plan.step("step-3").inputs["sample_id"].source == "input"  # steps 1 and 2 both give back copies
    assert plan.step("step-4").inputs["sample_id"].step == "step-1"  # it waits for step 1 anyway: its value
    [warned] = [w for w in plan.warnings if w.code == "plan.input-echo"]
    assert warned.line == 9 and "step-2, step-3 read `sample_id`" in warned.message
    assert "`sample_id (from Step 1)`" in warned.message
    assert not [w for w in plan.warnings if "both an output of" in w.message and w.line in (10, 12)]


def test_a_ship_s_log_in_yaml_says_the_same() -> None:
    text = ("name: watch-log\ninputs:\n  sample_id: {type: string}\nsteps:\n"
            "  - id: a\n    skill: label-tubes\n  - id: b\n    skill: weigh-tube\n    depends_on: []\n  - id: c\n    skill: log-result\n")
    plan = _plan(text, "log.yaml", "yaml")
    assert plan.step("b").inputs["sample_id"].source == "input"
    assert plan.step("c").inputs["sample_id"].source == "input"
    assert [w.line for w in plan.warnings if w.code == "plan.input-echo"] == [5]


def test_a_step_that_names_the_echoing_step_takes_its_value() -> None:
    text = _PROTOCOL.replace("Log it with `log-result` (the labels from step 1, the mass from step 2).",
                             "Log it with `log-result`.\n   - Input: sample_id (from Step 1), labels (from Step 1), "
                             "mass (from Step 2)")
    plan = _plan(text)
    assert plan.step("step-3").inputs["sample_id"].step == "step-1"


def test_a_data_cleaning_checklist_s_reworked_rows_stay_the_step_s() -> None:
    text = ("# Data cleaning checklist\n\n## Inputs\n\n- rows: the export\n\n## Steps\n\n"
            "1. Clean with `clean-rows`.\n2. Dedupe with `dedupe-rows`.\n")
    plan = _plan(text)
    assert plan.step("step-2").inputs["rows"].step == "step-1"
    assert not [w for w in plan.warnings if w.code == "plan.input-echo"]
