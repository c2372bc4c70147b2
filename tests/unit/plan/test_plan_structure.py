"""Roots, joins, default routes and the readings of prose, from the spec into the plan."""

from __future__ import annotations

import json

from plan_factory import SETTINGS, FakeCatalog, at, skill, step, workflow

from orchestrator.plan import build_plan, check_plan, render_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import Reading

CATALOG = FakeCatalog(*(skill(n) for n in ("pick", "bill", "tech", "other", "reply", "a", "b")))


def plan_of(spec_text: str) -> Plan:
    spec = parse_spec_text(spec_text, "flow.md", "markdown")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    errors = [d for d in check_plan(plan, spec) if d.severity.value == "error"]
    assert errors == []
    return plan


TRIAGE = (
    "# Triage\n\n## Workflow Steps\n\n### Step 1: Classify\n- Skill: `pick`\n\n"
    "`billing` goes to Step 2, `technical` to Step 3, anything else to Step 4.\n\n"
    "### Step 2: Billing\n- Skill: `bill`\n\n### Step 3: Technical\n- Skill: `tech`\n\n"
    "### Step 4: Other\n- Skill: `other`\n\n"
    "### Step 5: Reply\n- Skill: `reply`\n- Depends on: Step 2, 3 or 4 (whichever ran)\n"
)


def test_routes_with_a_default_and_a_join_after_them_plan_and_pass_the_checks() -> None:
    plan = plan_of(TRIAGE)
    router, _, _, other, reply = plan.steps
    assert (router.routes, router.route_default) == ({"billing": "step-2", "technical": "step-3"}, "step-4")
    assert router.provenance["routes"].where == "flow.md:8"
    assert router.provenance["read.route"].note.startswith("routes: billing -> step-2, technical -> step-3, "
                                                           "anything else -> step-4")
    assert other.depends_on == ("step-1",)  # a default route's target depends on the router
    assert (reply.depends_on, reply.join) == (("step-2", "step-3", "step-4"), "any")
    assert reply.provenance["depends_on"].note == "depends_on; runs once after whichever of them ran"


def test_a_step_needing_two_branches_without_a_join_still_can_never_run() -> None:
    spec = parse_spec_text(TRIAGE.replace(" or 4 (whichever ran)", ", 4"), "flow.md", "markdown")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert [d.code for d in check_plan(plan, spec) if d.severity.value == "error"] == ["unreachable"]


def test_plan_text_shows_each_reading_with_its_line_and_the_routes_and_join() -> None:
    text = render_plan(plan_of(TRIAGE), "text")
    assert "    route        anything else -> step-4" in text
    assert "    routes from  [spec flow.md:8: billing -> step-2, technical -> step-3; anything else -> step-4]" in text
    assert "    depends on   step-2, step-3, step-4 (whichever ran)" in text
    assert "      read         [spec flow.md:21: runs once after whichever of step-2, step-3, step-4 ran: " in text
    mermaid = render_plan(plan_of(TRIAGE), "mermaid")
    assert "s_step_1 -.->|route anything else| s_step_4" in mermaid


def test_new_plan_fields_are_written_only_when_set_so_other_plans_keep_their_json() -> None:
    plan = build_plan(workflow(step(1, "A", "`a`"), step(2, "B", "`b`")), CATALOG, settings=SETTINGS)
    data = json.loads(plan.to_json())
    assert not {"join", "route_default", "route_on"} & set(data["steps"][0])
    assert Plan.model_validate(data) == plan


def test_depends_on_none_makes_a_root_instead_of_following_the_step_before() -> None:
    first = step(1, "A", "`a`")
    second = step(2, "B", "`b`", depends_where=at(21))
    plan = build_plan(workflow(first, second), CATALOG, settings=SETTINGS)
    assert plan.steps[1].depends_on == ()
    assert plan.steps[1].provenance["depends_on"].note == "depends on nothing: a root"
    assert plan.steps[1].provenance["depends_on"].where == at(21)


def test_every_reading_of_a_step_is_kept_as_provenance_with_its_line() -> None:
    readings = (Reading(what="step", where=at(5), text="1. A: `a`", note="numbered list item read as step-1 (A)"),
                Reading(what="input", where=at(5), text="(x -> y)", note="inputs x; outputs y"),
                Reading(what="input", where=at(6), text="(y -> z)", note="inputs y; outputs z"))
    plan = build_plan(workflow(step(1, "A", "`a`", readings=readings)), CATALOG, settings=SETTINGS)
    prov = plan.steps[0].provenance
    assert {k: (v.where, v.note) for k, v in prov.items() if k.startswith("read.")} == {
        "read.step": (at(5), 'numbered list item read as step-1 (A): "1. A: `a`"'),
        "read.input": (at(5), 'inputs x; outputs y: "(x -> y)"'),
        "read.input.2": (at(6), 'inputs y; outputs z: "(y -> z)"'),
    }


def test_a_step_that_does_not_wait_still_waits_for_the_output_it_reads() -> None:
    spec = parse_spec_text(
        "# F\n\n## Steps\n\n### Step 1: A\n- Skill: `a`\n- Output: rows\n\n### Step 2: B\n- Skill: `b`\n\n"
        "### Step 3: C\n- Skill: `a`\n- Input: rows\n\nIndependent of step 2.\n\n"
        "### Step 4: D\n- Skill: `b`\n\nCan start straight away.\n", "flow.md", "markdown")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert [s.depends_on for s in plan.steps] == [(), ("step-1",), ("step-1",), ()]
    assert plan.steps[3].provenance["depends_on"].where == "flow.md:21"
