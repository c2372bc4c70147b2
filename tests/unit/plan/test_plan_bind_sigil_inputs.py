"""A step's text that gives its skill's input a workflow input with a sigil (`in.log = @pressure_log`,
`servings = $guests`, `sample <- ${plate_id}`) binds that input, explicitly; a sigil over a name that is
no workflow input, or a name the skill does not read, binds nothing (`plan.bind_sigil_inputs`)."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.bind_sigil_inputs import sigil_sources
from orchestrator.plan.model import InputBinding
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary


def test_a_sigil_after_the_skill_s_input_names_the_workflow_input() -> None:
    assert sigil_sources(["in.log = @pressure_log"], ["log"], ["pressure_log"]) == {
        "log": ("pressure_log", "in.log = @pressure_log")}  # a boiler service INI
    assert sigil_sources(["Scale it with `servings = $guests`."], ["servings"], ["guests"])["servings"][0] == \
        "guests"  # a recipe card
    assert sigil_sources(["sample <- ${plate_id}"], ["sample"], ["plate_id"])["sample"][0] == "plate_id"  # lab
    assert sigil_sources(["guest: $booked_guest"], ["guest"], ["booked_guest"])["guest"][0] == \
        "booked_guest"  # a podcast run sheet


def test_a_sigil_over_no_workflow_input_or_for_no_skill_input_binds_nothing() -> None:
    assert sigil_sources(["in.log = @yesterday"], ["log"], ["pressure_log"]) == {}
    assert sigil_sources(["in.note = @pressure_log"], ["log"], ["pressure_log"]) == {}
    assert sigil_sources(["cost = $5 a head"], ["cost"], ["head"]) == {}  # a price, not an input


_BOILER_INI = """\
; boiler service, weekly
[general]
ask_for = boiler_id, pressure_log   ; the fitter types these in

[pressure]
skill = read-pressure
in.log = @pressure_log
in.boiler = @boiler_id
"""


def test_an_ini_section_s_sigils_bind_the_inputs_its_general_section_asks_for() -> None:
    catalog = FakeCatalog(skill("read-pressure", input_schema=obj(("log", "boiler"), log="array", boiler="string"),
                                output_schema=obj(("peak",), peak="number")))
    spec = parse_spec_text(_BOILER_INI, "boiler.ini", "markdown", Vocabulary(skills=frozenset({"read-pressure"})))
    plan = build_plan(spec, catalog, settings=SETTINGS)
    step = plan.steps[0]
    assert step.inputs["log"] == InputBinding(source="input", name="pressure_log")
    assert step.inputs["boiler"] == InputBinding(source="input", name="boiler_id")
    assert [i.name for i in plan.inputs] == ["boiler_id", "pressure_log"]
