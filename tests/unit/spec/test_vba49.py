"""An Excel VBA module read as a script runbook (`spec.vba49`, round 49): `'` comments are its text, a cell read
(`Range("C4").Value`, `Cells(2, 3)`, `InputBox`) a workflow input named as the first call passes it, `Const` a
literal, `Set x = RunSkill("skill", "k", v, ...)` a step's call with name / value pairs, `x("f")` the output `f` of
the step whose result is `x`, `For Each ... Next` a loop over a list, `If / ElseIf / Else / End If` branches.
None of the modules is a blind set's."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.script_flow import script_language
from orchestrator.spec.vba49 import vba_code_lines
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SaidCatalog, plan_of_text

_OUTPUTS = {"read-beds": frozenset({"beds", "house"}), "water-bed": frozenset({"litres", "dry"}),
            "total-water": frozenset({"litres", "dry_count"}), "alarm-text": frozenset({"line"}),
            "calm-text": frozenset({"line"}), "log-day": frozenset({"logged"})}
_WORDS = Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))

_GREENHOUSE = """\
Attribute VB_Name = "modWater"
' Morning watering - put the house number in C4 and the date in C5
Const LITRES_PER_BED As Double = 2.5
Const MAX_MINUTES = 15   ' the whole macro: give up after 15 minutes

Public Sub Water()
    Dim house As String, day As String, beds As Object, b As Variant
    Dim watered As New Collection
    house = Worksheets("Setup").Range("C4").Value
    day = InputBox("Which day?")

    ' Step 1: read the beds
    Set beds = CallSkill("read-beds", "house", house)

    ' Step 2: water each bed
    For Each b In beds!beds
        watered.Add CallSkill("water-bed", "bed", b("id"), "soil", b("soil"), "litres", LITRES_PER_BED)
    Next b

    ' Step 3: add up
    Set sums = CallSkill("total-water", "rows", watered)

    If sums("dry_count") <> 0 Then
        Set txt = CallSkill("alarm-text", "house", house)
        ' if the pager is down, wait 30 s and try once more
    ElseIf sums("litres") > 100 Then
        Set txt = CallSkill("calm-text", "house", house, "heavy", True)
    End If
    Range("D9").Value = txt("line")
    MsgBox "done"
End Sub
"""


def _spec(text: str, path: str = "modWater.bas"):
    return parse_spec_text(text, path, "markdown", _WORDS)


def test_a_vba_module_is_a_script_runbook_by_its_suffix_or_its_attribute_line() -> None:
    assert script_language("macro.bas", "Sub X()") == "vba"
    assert script_language("Module1.vba", "Sub X()") == "vba"
    assert script_language("exported", 'Attribute VB_Name = "Module1"\nSub X()') == "vba"
    assert script_language("notes.txt", "Attribute of the room: blue") is None  # near miss


def test_its_calls_cells_consts_and_fields_are_read() -> None:
    spec = _spec(_GREENHOUSE)
    assert [s.skill for s in spec.steps] == ["read-beds", "water-bed", "total-water", "alarm-text", "calm-text"]
    assert {f.name: f.source for f in spec.steps[0].inputs} == {"house": "inputs.house"}
    assert sorted(i.name for i in spec.inputs or ()) == ["house"]  # the input box is passed to no skill
    second = spec.steps[1]
    assert second.for_each == "item in steps.step-1.output.beds"
    assert second.input_values == {"bed": "{{ item.id }}", "soil": "{{ item.soil }}", "litres": 2.5}
    assert {f.name: f.source for f in spec.steps[2].inputs} == {"rows": "steps.step-2.output"}  # the Collection


def test_if_elseif_end_if_are_branches_and_a_comment_under_a_call_is_its_steps() -> None:
    spec = _spec(_GREENHOUSE)
    alarm, calm = spec.steps[3], spec.steps[4]
    assert "if the pager is down" in alarm.description
    assert "pager" not in calm.description
    assert alarm.when is not None and calm.when is not None and alarm.when != calm.when


def test_statements_in_pythons_words() -> None:
    lines = vba_code_lines(['Call RunSkill("log-day", "day", d("when"), _', '   "who", "Ann")  \' keep it',
                            "If x = 1 Then RunSkill \"calm-text\", \"house\", 3 Else RunSkill \"alarm-text\", \"house\", 4",
                            "For i = 1 To 3", "Next", 'Sheets("Out").Range("A1").Value = 3', "Set c = New Collection"])
    code = [t for k, _, t in lines if k == "code"]
    assert code[0] == 'run_skill("log-day", day=d.when, who="Ann")'
    assert ("comment", 2, "keep it") in lines
    assert code[1:5] == ["if x == 1:", 'run_skill("calm-text", house=3)', "else:", 'run_skill("alarm-text", house=4)']
    assert code[6] == "For i = 1 To 3:"  # any other loop: said as a loop, which the reader warns it does not read
    assert len(code) == 8  # near miss: a cell written and a new Collection are setup, no step, no warning


def test_a_call_whose_skill_is_not_a_quoted_name_is_no_step_and_is_warned() -> None:
    text = 'Sub X()\n    Set r = RunSkill(skillName, "house", 3)\n    Set t = RunSkill("read-beds", "house", 3)\nEnd Sub\n'
    spec = _spec(text, "x.bas")
    assert [s.skill for s in spec.steps] == ["read-beds"]
    assert spec.steps[0].input_values == {"house": 3}
    assert any(w.line == 2 and "calls no skill" in w.message for w in spec.warnings)


def test_a_value_set_in_each_arm_is_whichever_rans() -> None:
    text = ("Sub X()\n    h = Range(\"B1\").Value\n    Set t = RunSkill(\"read-beds\", \"house\", h)\n"
            "    If t(\"house\") = \"big\" Then\n        Set n = RunSkill(\"alarm-text\", \"house\", h)\n    Else\n"
            "        Set n = RunSkill(\"calm-text\", \"house\", h)\n    End If\n"
            "    Set z = RunSkill(\"log-day\", \"line\", n(\"line\"))\nEnd Sub\n")
    last = _spec(text, "x.vba").steps[-1]
    said = {f.name: (f.source, f.description) for f in last.inputs}
    assert said["line"][0] is None and "step-2" in str(said["line"][1]) and "step-3" in str(said["line"][1])


_BODIES = {
    "read-beds": "Reads the beds.\n\nInputs: house (text).\nOutputs: beds (list of objects with id and soil).\n",
    "water-bed": "Waters one bed.\n\nInputs: id (text), soil (text).\nOutputs: id (text), dry (true/false).\n",
    "sum-beds": "Sums the beds.\n\nInputs: beds (list of objects with id and dry).\nOutputs: dry_beds (list).\n",
    "mark-beds": "Marks beds.\n\nInputs: beds (list of objects with id and dry).\nOutputs: done (true/false).\n",
}


def test_an_input_given_its_source_is_not_taken_for_the_loops_results() -> None:
    text = ("Sub X()\n    h = Range(\"B1\").Value\n    Set t = RunSkill(\"read-beds\", \"house\", h)\n"
            "    For Each b In t(\"beds\")\n        w.Add RunSkill(\"water-bed\", \"id\", b(\"id\"), \"soil\", b(\"soil\"))\n"
            "    Next\n    Set s = RunSkill(\"sum-beds\", \"beds\", w)\n"
            "    Set m = RunSkill(\"mark-beds\", \"beds\", s(\"dry_beds\"))\nEnd Sub\n")
    plan = plan_of_text(text, SaidCatalog(_BODIES), "water.bas")
    marks = next(s for s in plan.steps if s.skill == "mark-beds")
    assert (marks.inputs["beds"].step, marks.inputs["beds"].pointer) == ("step-3", "/dry_beds")
    assert list(marks.depends_on) == ["step-3"]
    summed = next(s for s in plan.steps if s.skill == "sum-beds")
    assert (summed.inputs["beds"].step, summed.inputs["beds"].gather) == ("step-2", True)  # near miss: the Collection
