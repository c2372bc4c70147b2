"""A step's input given as an earlier step's field of another name, that step named by its skill or
number (`plan.field_equals`): "low_stock = check-glycol's low", "`grade` from step 2's `band`"."""

from __future__ import annotations

from orchestrator.plan.field_equals import field_equals
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill

WEIGH = skill("weigh-stores", input_schema=obj(("manifest",), manifest="array"),
              output_schema=obj(("per_head", "days_left"), per_head="number", days_left="number"))
CREW = skill("count-crew", input_schema=obj(("roster",), roster="array"),
             output_schema=obj(("aboard",), aboard="integer"))
ISSUE = skill("issue-rations", input_schema=obj(("ration", "crew"), ration="number", crew="integer"),
              output_schema=obj(("issued",), issued="boolean"))


def _binding(plan, skill_name: str, name: str) -> tuple[str | None, str | None, str]:  # type: ignore[no-untyped-def]
    step = next(s for s in plan.steps if s.skill == skill_name)
    b = step.inputs[name]
    return b.source, b.step, b.pointer


def test_a_ship_s_stores_list_gives_an_input_another_step_s_field_by_its_skill() -> None:
    text = ("# Stores muster\n\n"
            "- `weigh-stores` on the manifest.\n"
            "- `count-crew` on the roster.\n"
            "- then `issue-rations`: ration ← weigh-stores's per_head, crew = count-crew's aboard.\n")
    plan = plan_of_text(text, FakeCatalog(WEIGH, CREW, ISSUE))
    assert _binding(plan, "issue-rations", "ration") == ("step", "step-1", "/per_head")
    assert _binding(plan, "issue-rations", "crew") == ("step", "step-2", "/aboard")
    issue = next(s for s in plan.steps if s.skill == "issue-rations")
    assert set(issue.depends_on) == {"step-1", "step-2"}


MARK = skill("mark-essay", input_schema=obj(("essay",), essay="string"),
             output_schema=obj(("band", "comments"), band="string", comments="string"))
ATTEND = skill("take-register", input_schema=obj(("class_list",), class_list="array"),
               output_schema=obj(("present",), present="array"))
REPORT = skill("write-report", input_schema=obj(("grade", "present"), grade="string", present="array"),
               output_schema=obj(("report",), report="string"))


def test_a_lesson_plan_names_the_step_by_its_number_and_the_step_waits_for_it() -> None:
    text = ("# Friday lesson\n\n"
            "1. `mark-essay` marks the essay.\n"
            "2. `take-register` takes the register.\n"
            "3. `write-report` writes it up; `grade` from step 1's `band`.\n")
    plan = plan_of_text(text, FakeCatalog(MARK, ATTEND, REPORT))
    assert _binding(plan, "write-report", "grade") == ("step", "step-1", "/band")
    report = next(s for s in plan.steps if s.skill == "write-report")
    assert "step-1" in report.depends_on


PROOF = skill("proof-dough", input_schema=obj(("dough",), dough="string"),
              output_schema=obj(("rise_pct",), rise_pct="number"))
BAKE = skill("bake-loaf", input_schema=obj(("rise",), rise="number"), output_schema=obj(("loaf",), loaf="string"))


def test_a_recipe_card_naming_a_field_the_step_does_not_output_is_said_and_not_bound() -> None:
    text = ("# Sourdough\n\n"
            "1. `proof-dough` proves it.\n"
            "2. `bake-loaf` bakes; rise = proof-dough's height.\n")
    plan = plan_of_text(text, FakeCatalog(PROOF, BAKE))
    assert any(w.code == "plan.field-not-output" and "`height`" in w.message for w in plan.warnings)
    bake = next(s for s in plan.steps if s.skill == "bake-loaf")
    assert bake.inputs.get("rise") is None or bake.inputs["rise"].pointer != "/height"


def test_the_pairs_read_and_those_left() -> None:
    # a lab protocol's line, an HR checklist's line: the name must be read, the step earlier, the field its output
    steps = {"spin-down": "step-1", "label-tubes": "step-2"}
    outputs = {("step-1", "pellet_ml"), ("step-2", "tube_ids")}
    found, unread = field_equals(
        ["volume = spin-down's pellet_ml; tubes from the label-tubes step's output tube_ids; other = fetch's x; "
         "badge = step 9's photo"],
        ["volume", "tubes", "badge"], steps, 2, lambda n: f"step-{n}", lambda sid, f: (sid, f) in outputs)
    assert {n: (s.step, s.field) for n, s in found.items()} == {"volume": ("step-1", "pellet_ml"),
                                                                 "tubes": ("step-2", "tube_ids")}
    assert unread == []


def test_a_name_given_a_step_s_field_in_backticks_is_no_workflow_input_to_ask_for() -> None:
    # the text writes the name as a name (`ration`), which alone would make it a value from outside the run
    text = ("# Stores muster\n\n"
            "- `weigh-stores` on the manifest.\n"
            "- `count-crew` on the roster.\n"
            "- then `issue-rations`: `ration` = weigh-stores's per_head, `crew` = count-crew's aboard.\n")
    plan = plan_of_text(text, FakeCatalog(WEIGH, CREW, ISSUE))
    assert "ration" not in {i.name for i in plan.inputs} and "crew" not in {i.name for i in plan.inputs}
    assert _binding(plan, "issue-rations", "ration") == ("step", "step-1", "/per_head")
