"""A literal input in words that gathers a loop's results, or speaks of the loop's item in a step that
runs per item, is bound so and warned (`plan.gather_words`); one the plan has no such value for stays
the text, warned as before (`plan.literal-words`). Each in a kind of its own."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

S = {"type": "string"}
A = {"type": "array"}

CATALOG = FakeCatalog(
    skill("walk-dog", input_schema=obj(("dog",), dog={"type": "object"}), output_schema=obj(("walked",), walked=S)),
    skill("rota-sheet", input_schema=obj(("walks",), walks=A), output_schema=obj(("sheet",), sheet=S)),
    skill("taste-beer", input_schema=obj(("keg",), keg={"type": "object"}), output_schema=obj(("score",), score=S)),
    skill("qc-report", input_schema=obj(("scores",), scores=A), output_schema=obj(("report",), report=S)),
    skill("fetch-kegs", input_schema=obj(("day",), day=S), output_schema=obj(("kegs",), kegs=A)),
)


def _plan(text: str, name: str = "doc.yaml") -> Plan:
    return build_plan(parse_spec_text(text, name, "yaml"), CATALOG, settings=SETTINGS)


def _codes(plan: Plan) -> list[str]:
    return [w.code for w in plan.warnings]


# a kennel's walking rota: steps keyed by numbers, the loop's item and the gather both in words
KENNEL = """\
name: kennel-rota
inputs: {dogs: {type: array}}
steps:
  "10":
    skill: walk-dog
    for_each: dog in inputs.dogs
    input:
      dog: the dog this go is about
  "20":
    skill: rota-sheet
    after: ["10"]
    input:
      walks: all the step-10 results, as one list
"""
# a brewery's QC run: steps with ids, the gather names no step (the nearest loop before)
BREWERY = """\
name: qc-run
inputs: {day: {type: string}}
steps:
  - id: fetch
    skill: fetch-kegs
  - id: taste
    skill: taste-beer
    for_each: keg in steps.fetch.output.kegs
    input: {keg: "{{ item }}"}
  - id: report
    skill: qc-report
    input:
      scores: each of the tasting results
"""
# a lesson plan's marking: the gather names the loop step by its id among its words
LESSON = """\
name: marking
inputs: {day: {type: string}}
steps:
  - id: fetch
    skill: fetch-kegs
  - id: mark
    skill: taste-beer
    for_each: keg in steps.fetch.output.kegs
    input: {keg: "{{ item }}"}
  - id: sheet
    skill: qc-report
    input:
      scores: all the mark answers
"""
# a podcast run sheet: the gather names a step that runs once (no loop): the text stays, warned
PODCAST = """\
name: run-sheet
inputs: {day: {type: string}}
steps:
  "1":
    skill: fetch-kegs
  "2":
    skill: qc-report
    input:
      scores: all the step 1 answers
"""


def test_a_kennel_rota_gathers_the_loop_it_names_and_gives_each_walk_its_dog() -> None:
    plan = _plan(KENNEL)
    walk, rota = plan.steps
    assert walk.inputs["dog"].source == "item" and walk.inputs["dog"].pointer == ""
    fits = rota.inputs["walks"]
    assert (fits.source, fits.step, fits.gather) == ("step", "step-10", True)
    said = [w.message for w in plan.warnings if w.code == "plan.gather-words"]
    assert len(said) == 2 and any("every result of step-10" in m for m in said)
    assert "plan.literal-words" not in _codes(plan)


def test_a_brewery_gather_that_names_no_step_takes_the_nearest_loop() -> None:
    plan = _plan(BREWERY)
    scores = plan.steps[2].inputs["scores"]
    assert (scores.source, scores.step, scores.gather) == ("step", "taste", True)
    assert scores.pointer == "/score"  # each keg's `score`, as the input's singular says
    assert "the nearest For each step before" in next(w.message for w in plan.warnings
                                                     if w.code == "plan.gather-words")


def test_a_lesson_plan_gather_names_the_loop_by_its_id() -> None:
    plan = _plan(LESSON)
    scores = plan.steps[2].inputs["scores"]
    assert (scores.source, scores.step, scores.gather) == ("step", "mark", True)


def test_a_gather_of_a_step_that_runs_once_stays_the_text() -> None:
    plan = _plan(PODCAST)
    scores = plan.steps[1].inputs["scores"]
    assert scores.source == "literal" and scores.value == "all the step 1 answers"
    assert "plan.literal-words" in _codes(plan) and "plan.gather-words" not in _codes(plan)


def test_the_item_in_words_outside_a_loop_stays_the_text() -> None:
    plan = _plan(KENNEL.replace("    for_each: dog in inputs.dogs\n", ""))
    assert plan.steps[0].inputs["dog"].source == "literal"
    assert "plan.literal-words" in _codes(plan)
