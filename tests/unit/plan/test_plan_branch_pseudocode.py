"""Branches written as pseudocode around the steps (LaTeX `\\If`/`\\Else`/`\\EndIf`, plain `if ... then` /
`else` / `end if`), a title's aside ("(only if ...)", "(otherwise)"), a note naming steps that run side
by side, and a YAML step's comment: read in a grant proposal, a course handout, a SQL procedure's
header, a lesson plan, a shift-handover page and an own-schema YAML rota."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.branch_pseudocode import condition_text
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = FakeCatalog(
    skill("count-rows", output_schema=obj(("rows", "n", "stale"), rows="array", n="integer", stale="boolean")),
    skill("fit-model", output_schema=obj(("summary",), summary="string")),
    skill("widen-sample", output_schema=obj(("summary",), summary="string")),
    skill("write-report", input_schema=obj(("summary",), summary="string")),
    skill("load-rota", input_schema=obj((), week="string"), output_schema=obj(("shifts",), shifts="array")),
    skill("load-leave", input_schema=obj((), week="string"), output_schema=obj(("leave",), leave="array")),
    skill("plan-cover", input_schema=obj(("shifts", "leave"), shifts="array", leave="array")),
)


def _plan(text: str, path: str = "doc.md") -> Plan:
    words = Vocabulary.of((n, None) for n in ("count-rows", "fit-model", "widen-sample", "write-report", "load-rota",
                                              "load-leave", "plan-cover"))
    spec = parse_spec_text(text, path, "yaml" if path.endswith(".yaml") else "markdown", words)
    return build_plan(spec, CATALOG, settings=SETTINGS)


def _branched(plan: Plan) -> None:
    assert plan.step("step-2").when == "steps['step-1'].output.n > 30"
    assert plan.step("step-3").when == "not (steps['step-1'].output.n > 30)"
    assert sorted(plan.step("step-4").depends_on) == ["step-2", "step-3"]
    assert plan.step("step-4").inputs["summary"].any_of == ("step-2", "step-3")


def test_a_grant_proposal_s_plain_if_then_else_end_if_branches_and_joins() -> None:
    plan = _plan("# Methods (Aim 1)\n\nWe count the pilot rows with `count-rows`.\n\nif n > 30 then\n\n"
                 "`fit-model` fits the model.\n\nelse\n\n`widen-sample` widens the sample.\n\nend if\n\n"
                 "`write-report` writes it up.\n")
    _branched(plan)
    assert not [w for w in plan.warnings if w.code == "spec.condition-not-read"]


def test_a_course_handout_s_latex_algorithm_branches_on_a_variable_s_field() -> None:
    plan = _plan("# Handout: Algorithm 2\n\n\\begin{algorithmic}[1]\n\\State $r \\gets$ \\Call{count-rows}{}\n"
                 "\\If{$r.\\mathit{n} > 30$} \\Comment{big enough}\n\\State $s \\gets$ \\Call{fit-model}{$r$}\n"
                 "\\Else\n\\State $s \\gets$ \\Call{widen-sample}{}\n\\EndIf\n"
                 "\\State \\Call{write-report}{$s.\\mathit{summary}$}\n\\end{algorithmic}\n")
    _branched(plan)


def test_a_sql_procedure_header_s_negated_flag_is_that_flag_being_false() -> None:
    assert condition_text("$\\neg r.\\mathit{stale}$") == "stale is false"
    assert condition_text("r.ok") == "ok is true"
    plan = _plan("# proc refresh_model\n\nCALL `count-rows`;\n\nIF NOT stale THEN\n\nCALL `fit-model`;\n\n"
                 "END IF;\n\nCALL `write-report`;\n")
    assert plan.step("step-2").when == "steps['step-1'].output.stale is false"


def test_a_lesson_plan_s_title_asides_are_the_condition_and_its_otherwise() -> None:
    plan = _plan("# Lesson 4\n\n## Count\n`count-rows`.\n\n## Fit (only if count-rows says n > 30)\n`fit-model`.\n\n"
                 "## Widen (else — too few rows)\n`widen-sample`.\n\n## Report\n`write-report`, from whichever of the "
                 "two above ran.\n")
    _branched(plan)


def test_a_shift_handover_note_naming_two_steps_as_side_by_side_makes_the_second_a_root() -> None:
    plan = _plan("# Night shift handover\n\n## Steps\n\nSteps 1 and 2 don't depend on each other, start them "
                 "together.\n\n1. **Rota** – run `load-rota` for the week.\n2. **Leave** – run `load-leave`.\n"
                 "3. **Cover** – `plan-cover` with both.\n")
    assert [sorted(s.depends_on) for s in plan.steps] == [[], [], ["step-1", "step-2"]]
    assert not [w for w in plan.warnings if w.line == 5]


def test_an_own_schema_yaml_rota_s_comment_saying_no_deps_makes_a_root() -> None:
    plan = _plan("name: cover\nsteps:\n  rota:\n    skill: load-rota\n  leave:\n    skill: load-leave   # no deps, "
                 "runs alongside rota, not blocked by it\n  cover:\n    skill: plan-cover\n", "rota.yaml")
    assert {s.id: sorted(s.depends_on) for s in plan.steps}["leave"] == []
