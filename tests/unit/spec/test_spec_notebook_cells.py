"""Notebook code cells under one heading that each call a skill: a step per cell, in order, the later
one after the earlier only where its code uses the earlier's result."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

FENCE = "```"


def _notebook(second_cell: str, *, first_heading: str = "") -> str:
    before = f"## 0. Fetch\n\n{FENCE}python\nIn [1]:\nraw = run_skill(\"fetch-raw\", url=url)\n{FENCE}\n\n" \
        if first_heading else ""
    return f"""# Lab notebook

{before}## 1. Load

Two loads.

{FENCE}python
In [2]:
readings = run_skill("parse-readings", raw_readings=raw_readings)
readings["n"]
{FENCE}
{FENCE}
Out[2]: 8
{FENCE}

{FENCE}python
In [3]:
{second_cell}
{FENCE}

## 2. Apply

{FENCE}python
In [4]:
calibrated = run_skill("apply-offsets", readings=Out[2]["readings"], offsets=cal["offsets"])
{FENCE}
"""


def test_two_calling_cells_under_one_heading_are_two_steps_in_order_the_second_beside_the_first() -> None:
    text = _notebook('cal = run_skill("load-calibration", calibration_text=calibration_text)')
    spec = parse_spec_text(text, "nb.md", "markdown")
    assert [s.id for s in spec.steps] == ["step-1", "step-3", "step-2"]  # "Step 2" is still the second heading
    second = spec.steps[1]
    assert "load-calibration" in second.name
    assert second.depends_on == () and second.depends_where == "nb.md:16"  # a root, as the first is
    said = [r.note for r in second.readings if r.what == "depends_on"]
    assert said and "runs beside step-1" in said[0]
    assert not [w for w in spec.warnings if w.code == "spec.skill-not-run"]


def test_a_cell_whose_code_uses_the_earlier_cell_s_result_depends_on_it() -> None:
    for code, used in (('cal = run_skill("load-calibration", text=readings["raw"])', "readings"),
                       ('cal = run_skill("load-calibration", text=Out[2]["raw"])', "Out[2]")):
        spec = parse_spec_text(_notebook(code), "nb.md", "markdown")
        second = spec.steps[1]
        assert second.depends_on == ("step-1",), code
        assert any(f"`{used}` (the result of step-1)" in r.note for r in second.readings), code


def test_a_name_only_in_a_string_or_a_comment_is_no_use_of_the_result() -> None:
    code = '# readings are big\ncal = run_skill("load-calibration", label="readings")'
    assert parse_spec_text(_notebook(code), "nb.md", "markdown").steps[1].depends_on == ()


def test_a_cell_beside_the_first_of_a_later_heading_runs_after_what_the_first_runs_after() -> None:
    text = _notebook('cal = run_skill("load-calibration", calibration_text=calibration_text)', first_heading="x")
    spec = parse_spec_text(text, "nb.md", "markdown")
    assert [s.id for s in spec.steps] == ["step-0", "step-1", "step-3", "step-2"]
    assert spec.steps[2].depends_on == ("step-0",)


def test_two_cells_calling_the_same_skill_stay_one_step() -> None:
    text = _notebook('again = run_skill("parse-readings", raw_readings=other)')
    spec = parse_spec_text(text, "nb.md", "markdown")
    assert [s.id for s in spec.steps] == ["step-1", "step-2"]
