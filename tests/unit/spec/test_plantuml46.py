"""PlantUML activity diagrams as specs (`spec.plantuml46`): each `:skill(args)\\n-> outputs;` box a step, the
first box's bold names the inputs, `fork` branches starting together, `if/else/endif` a condition and its
otherwise with the box after `endif` the join, notes the words of the box above them, the legend the whole
run's; what it cannot follow (a loop, a box naming no skill, a note beside no step) is warned at its line."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.plantuml46 import is_plantuml
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a bakery's overnight run: `split` branches, an `if` on a number, a block note, a legend
_BAKERY = """\
@startuml
title Overnight bake
start
:Night baker enters `batch_id` and `oven`;
split
  :weigh-flour(batch_id)\\n-> kilos;
  note left
    scale is flaky: 2 retries, 5 s apart
  end note
split again
  :heat-oven(oven)\\n-> temp;
  note right: give it 90s
end split
:mix-dough(kilos, hydration = 70)\\n-> dough_kg;
if (dough_kg > 40) then (yes)
  :bake-large(dough_kg, temp)\\n-> loaves;
else (no)
  :bake-small(dough_kg)\\n-> loaves;
endif
:label-loaves(loaves from whichever oven ran, batch_id);
stop
legend
  Whole run: 2 hours max.
endlegend
@enduml
"""

# a clinic's referral: the condition a yes/no output named with a `?`, then (no) the negation, a multi-line box
_CLINIC = """\
' referral triage, drawn by reception
start
:Receptionist keys in **patient_ref**;
:check-eligibility(patient_ref)
 -> eligible;
if (eligible?) then (no)
  :send-decline(patient_ref);
endif
:close-referral(patient_ref, channel = "post");
while (more letters?)
  :print-letter(patient_ref);
endwhile
:tidy up the desk;
stop
"""

_SKILLS = [
    skill("weigh-flour", input_schema=obj(("batch_id",), batch_id="string"), output_schema=obj(("kilos",), kilos="number")),
    skill("heat-oven", input_schema=obj(("oven",), oven="string"), output_schema=obj(("temp",), temp="number")),
    skill("mix-dough", input_schema=obj(("kilos", "hydration"), kilos="number", hydration="integer"),
          output_schema=obj(("dough_kg",), dough_kg="number")),
    skill("bake-large", input_schema=obj(("dough_kg", "temp"), dough_kg="number", temp="number"),
          output_schema=obj(("loaves",), loaves="integer")),
    skill("bake-small", input_schema=obj(("dough_kg",), dough_kg="number"), output_schema=obj(("loaves",), loaves="integer")),
    skill("label-loaves", input_schema=obj(("loaves", "batch_id"), loaves="integer", batch_id="string"),
          output_schema=obj(("done",), done="boolean")),
    skill("check-eligibility", input_schema=obj(("patient_ref",), patient_ref="string"),
          output_schema=obj(("eligible",), eligible="boolean")),
    skill("send-decline", input_schema=obj(("patient_ref",), patient_ref="string"), output_schema=obj(("sent",), sent="boolean")),
    skill("close-referral", input_schema=obj(("patient_ref", "channel"), patient_ref="string", channel="string"),
          output_schema=obj(("closed",), closed="boolean")),
    skill("print-letter", input_schema=obj(("patient_ref",), patient_ref="string"), output_schema=obj(("ok",), ok="boolean")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "plantuml", Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_diagram_is_known_by_its_suffix_or_its_startuml() -> None:
    assert is_plantuml("flow.puml", "start\n") and is_plantuml("flow.txt", "@startuml\nstart\n")
    assert not is_plantuml("flow.txt", "start\n:weigh-flour(x);\n")  # near-miss: no suffix, no @startuml


def test_split_branches_start_together_and_the_box_after_waits_for_both() -> None:
    spec, plan = _plan(_BAKERY, "bake.puml")
    assert spec.name == "Overnight bake" and [i.name for i in spec.inputs or ()] == ["batch_id", "oven"]
    weigh, heat, mix = plan.steps[:3]
    assert weigh.depends_on == () and heat.depends_on == ()
    assert set(mix.depends_on) == {"weigh-flour", "heat-oven"}
    assert mix.inputs["kilos"].step == "weigh-flour" and mix.inputs["hydration"].value == 70
    assert heat.inputs["oven"].source == "input" and heat.inputs["oven"].name == "oven"


def test_notes_are_the_words_of_the_box_above_and_the_legend_the_whole_runs() -> None:
    _spec, plan = _plan(_BAKERY, "bake.puml")
    weigh, heat = plan.steps[:2]
    assert weigh.policy.retry.max_retries == 2 and weigh.policy.retry.delays_s == (5.0,)
    assert heat.policy.attempt_timeout_s == 90.0
    assert plan.limits.wall_time_s == 7200.0


def test_an_if_on_a_comparison_and_its_else_and_the_join_after() -> None:
    _spec, plan = _plan(_BAKERY, "bake.puml")
    large, small, label = plan.steps[3:]
    assert large.when == "steps['mix-dough'].output.dough_kg > 40"
    assert small.when == "not (steps['mix-dough'].output.dough_kg > 40)"
    assert set(label.depends_on) == {"bake-large", "bake-small"}
    loaves = label.inputs["loaves"]
    assert loaves.pointer == "/loaves" and set(loaves.any_of or ()) == {"bake-large", "bake-small"}
    assert label.inputs["batch_id"].source == "input"


def test_then_no_is_the_negation_and_an_if_without_else_is_skipped_past() -> None:
    spec, plan = _plan(_CLINIC, "referral.puml")
    assert [i.name for i in spec.inputs or ()] == ["patient_ref"]
    check, decline, close = plan.steps[:3]
    assert check.inputs["patient_ref"].source == "input"
    assert decline.when == "steps['check-eligibility'].output.eligible == false"
    assert set(close.depends_on) >= {"send-decline", "check-eligibility"}
    assert close.inputs["channel"].value == "post"


def test_a_loop_and_a_box_naming_no_skill_are_warned_not_dropped() -> None:
    spec, _ = _plan(_CLINIC, "referral.puml")
    said = {w.line: w.message for w in spec.warnings}
    assert "a loop" in said[10] and "a loop" in said[12]
    assert "names no skill" in said[13]


def test_a_condition_in_prose_and_a_note_beside_no_step_are_warned() -> None:
    # near-miss: `(the customer is happy)` names no earlier output; the note sits under the inputs box
    text = ("@startuml\n:Clerk keys in **patient_ref**;\nnote right: 3 retries\n:check-eligibility(patient_ref)\\n-> eligible;\n"
            "if (the customer is happy) then (yes)\n  :send-decline(patient_ref);\nendif\n@enduml\n")
    spec, plan = _plan(text, "x.puml")
    said = {w.line: w.message for w in spec.warnings}
    assert "note not beside a step" in said[3] and "is not read as a comparison" in said[5]
    assert all(s.policy.retry.max_retries == 0 for s in plan.steps)


def test_a_diagram_whose_boxes_name_no_skill_is_refused_with_one_error() -> None:
    with pytest.raises(SpecError) as exc:
        parse_spec_text("@startuml\nstart\n:make tea;\nstop\n@enduml\n", "tea.puml", "plantuml",
                        Vocabulary(skills=_NAMES))
    (said,) = exc.value.diagnostics
    assert "PlantUML diagram is not read as a workflow" in said.message


def test_a_nested_if_and_a_fork_in_a_branch_carry_every_enclosing_condition() -> None:
    text = ("@startuml\n:Desk keys in **patient_ref**;\n:check-eligibility(patient_ref)\\n-> eligible;\n"
            ":weigh-flour(patient_ref)\\n-> kilos;\n"
            "if (eligible?) then (yes)\n  if (kilos > 3) then (yes)\n    :send-decline(patient_ref);\n  else (no)\n"
            "    fork\n      :print-letter(patient_ref);\n    fork again\n      :close-referral(patient_ref, channel = 1);\n"
            "    end fork\n  endif\nendif\n@enduml\n")
    _spec, plan = _plan(text, "nested.puml")
    steps = {s.id: s for s in plan.steps}
    yes = "steps['check-eligibility'].output.eligible == true"
    assert steps["send-decline"].when == f"{yes} and steps['weigh-flour'].output.kilos > 3"
    for sid in ("print-letter", "close-referral"):
        assert steps[sid].when == f"{yes} and not (steps['weigh-flour'].output.kilos > 3)"
        assert steps[sid].depends_on == ("weigh-flour",) or "weigh-flour" in steps[sid].depends_on


def test_a_name_said_twice_in_one_argument_is_one_input_and_an_argument_naming_nothing_is_warned() -> None:
    text = "@startuml\n:check-eligibility(patient_ref + patient_ref)\\n-> eligible;\n:send-decline(= );\n@enduml\n"
    spec, plan = _plan(text, "twice.puml")
    assert list(plan.steps[0].inputs) == ["patient_ref"]
    assert any("names no value" in w.message and w.line == 3 for w in spec.warnings)


def test_an_elseif_runs_when_its_condition_holds_and_none_before_it_did() -> None:
    text = ("@startuml\n:Desk keys in **patient_ref**;\n:weigh-flour(patient_ref)\\n-> kilos;\n"
            "if (kilos > 30) then (yes)\n  :send-decline(patient_ref);\nelseif (kilos > 10) then (yes)\n"
            "  :print-letter(patient_ref);\nelse (small)\n  :close-referral(patient_ref, channel = \"post\");\nendif\n"
            "@enduml\n")
    _spec, plan = _plan(text, "tiers.puml")
    steps = {s.id: s for s in plan.steps}
    big, mid = "steps['weigh-flour'].output.kilos > 30", "steps['weigh-flour'].output.kilos > 10"
    assert steps["send-decline"].when == big
    assert steps["print-letter"].when == f"not ({big}) and {mid}"
    assert steps["close-referral"].when == f"not ({big}) and not ({mid})"


def test_an_elseif_outside_an_if_is_warned_not_read() -> None:
    # near-miss: no `if` is open, so the `elseif` starts no branch
    text = "@startuml\n:weigh-flour(batch_id)\\n-> kilos;\nelseif (kilos > 10) then (yes)\n:heat-oven(oven);\n@enduml\n"
    spec, plan = _plan(text, "stray.puml")
    assert any("stands outside an `if`" in w.message and w.line == 3 for w in spec.warnings)
    assert all(s.when is None for s in plan.steps)
