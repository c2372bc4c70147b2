"""A placeholder in angle brackets as an input's value is the workflow input or the gathered results it
names (`plan.steps34b`); one the plan has no value for stays the literal. Each in a kind of its own."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

S = {"type": "string"}
A = {"type": "array"}

CATALOG = FakeCatalog(
    skill("fetch-kegs", input_schema=obj(("day",), day=S), output_schema=obj(("kegs",), kegs=A)),
    skill("taste-beer", input_schema=obj(("keg",), keg={"type": "object"}), output_schema=obj(("score",), score=S)),
    skill("qc-report", input_schema=obj(("scores", "brewer"), scores=A, brewer=S),
          output_schema=obj(("report",), report=S)),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.yaml", "yaml"), CATALOG, settings=SETTINGS)


# a brewery's QC run written in its own schema: the operator's values and the gather as placeholders
BREWERY = """\
name: qc-run
inputs: {day: {type: string}, brewer: {type: string}}
steps:
  - id: fetch
    skill: fetch-kegs
    input: {day: "<operator: day>"}
  - id: taste
    skill: taste-beer
    for_each: keg in steps.fetch.output.kegs
    input: {keg: "{{ item }}"}
  - id: report
    skill: qc-report
    after: [taste]
    input:
      scores: <everything taste produced>
      brewer: "<ask: brewer>"
"""


def test_a_brewery_run_s_operator_placeholders_are_its_workflow_inputs() -> None:
    plan = _plan(BREWERY)
    steps = {s.id: s for s in plan.steps}
    assert steps["fetch"].inputs["day"].source == "input" and steps["fetch"].inputs["day"].name == "day"
    assert steps["report"].inputs["brewer"].source == "input" and steps["report"].inputs["brewer"].name == "brewer"
    assert any("<operator: day>" in w.message and "inputs.day" in w.message for w in plan.warnings)


def test_a_brewery_run_s_everything_placeholder_gathers_the_loop() -> None:
    scores = {s.id: s for s in _plan(BREWERY).steps}["report"].inputs["scores"]
    assert scores.source == "step" and scores.step == "taste" and scores.gather
    assert scores.pointer == "/score"  # each keg's `score`, the input's singular


# a lab protocol: a placeholder for an input the run does not declare stays the text
LAB = """\
name: plate-read
inputs: {day: {type: string}}
steps:
  - id: fetch
    skill: fetch-kegs
    input: {day: "<operator: shift>"}
"""


def test_a_lab_protocol_s_placeholder_for_no_declared_input_stays_the_text() -> None:
    day = _plan(LAB).steps[0].inputs["day"]
    assert day.source == "literal" and day.value == "<operator: shift>"


# a ticket's YAML: the placeholder names a step that runs once (no loop): no gather
TICKET = """\
name: ticket
inputs: {day: {type: string}, brewer: {type: string}}
steps:
  - id: fetch
    skill: fetch-kegs
    input: {day: "{{ inputs.day }}"}
  - id: report
    skill: qc-report
    after: [fetch]
    input:
      scores: <all of what fetch gave>
      brewer: "{{ inputs.brewer }}"
"""


def test_a_ticket_s_gathering_placeholder_over_a_step_that_runs_once_stays_the_text() -> None:
    report = {s.id: s for s in _plan(TICKET).steps}["report"]
    assert report.inputs["scores"].source == "literal" and report.inputs["scores"].value == "<all of what fetch gave>"
