"""Specs written by someone who never saw this repository, read as their author meant.

Each folder of tests/fixtures/foreign-specs/ is copied verbatim from its author: a spec
(markdown or YAML), a skills/ folder, and expect.yaml saying what the author meant:
the steps, the skill of each and how it was named, the dependencies (by step number),
the joins and the routes. Through the real `skillweave` executable, each spec
validates, or fails only for reasons that belong to the data-flow issue (20) or the
policy issue (21), listed below with the reason; its plan then matches the author's
structure. Where the author's expectation is debatable, or belongs to another issue,
an override below says so and why; nothing else is waived.

Dependencies are compared after transitive reduction on both sides: "depends on 3 and
4" where 3 comes before 4 anyway orders the run as "depends on 4" does.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from foreign_kit import FIXTURES, SKILL_NAMED_HOW, expectation, folders_of, reduce_dependencies, run

from orchestrator.config import Settings
from orchestrator.plan.build import draft_plan
from orchestrator.plan.model import Plan
from orchestrator.skills import load_catalog
from orchestrator.spec import parse_spec

pytestmark = pytest.mark.e2e

FOREIGN = FIXTURES / "foreign-specs"
FOLDERS = folders_of(FOREIGN)

# Specs that do not validate yet, with every error they give and the issue it belongs to.
NOT_YET: dict[str, tuple[str, tuple[str, ...]]] = {}

# (folder, step number, what) -> why the plan may differ from expect.yaml there.
OVERRIDES: dict[tuple[str, int, str], str] = {}

def plan_of(folder: str) -> Plan:
    """The plan through the CLI; for a spec that does not validate yet, the plan the planner
    drafts beside its errors (the same code path)."""
    spec = FOREIGN / folder / expectation(FOREIGN / folder)["spec"]
    if folder not in NOT_YET:
        result = run("plan", str(spec), "--format", "json", timeout=120)
        assert result.returncode == 0, result.stderr
        return Plan.model_validate_json(result.stdout)
    settings = Settings()
    plan, _ = draft_plan(parse_spec(spec), load_catalog(settings, spec), settings=settings)
    return plan


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_foreign_spec_validates_or_fails_only_for_another_issues_reasons(folder: str) -> None:
    spec = FOREIGN / folder / expectation(FOREIGN / folder)["spec"]
    result = run("validate", str(spec), "--json", timeout=120)
    report = json.loads(result.stdout)
    if folder not in NOT_YET:
        assert result.returncode == 0, report["errors"]
        assert report["ok"] is True
        return
    _, fragments = NOT_YET[folder]
    assert result.returncode == 2
    messages = [e["message"] for e in report["errors"]]
    assert len(messages) == len(fragments), messages
    for fragment in fragments:
        assert any(fragment in m for m in messages), (fragment, messages)


@pytest.mark.parametrize("folder", FOLDERS)
def test_a_foreign_spec_plans_the_steps_skills_dependencies_and_routes_its_author_meant(folder: str) -> None:
    expected = expectation(FOREIGN / folder)
    plan = plan_of(folder)
    steps = expected["steps"]
    assert len(plan.steps) == len(steps), [s.name for s in plan.steps]
    ids = {item["number"]: plan.steps[i].id for i, item in enumerate(steps)}
    got: dict[str, set[str]] = {s.id: set(s.depends_on) for s in plan.steps}
    meant: dict[str, set[str]] = {ids[i["number"]]: {ids[n] for n in i["depends_on"] or []} for i in steps}
    got_reduced, meant_reduced = reduce_dependencies(got), reduce_dependencies(meant)
    for item, step in zip(steps, plan.steps, strict=True):
        number = item["number"]
        assert step.skill == item["skill"], (number, step.provenance.get("skill"))
        note = step.provenance["skill"].note
        assert note.startswith(SKILL_NAMED_HOW[item["skill_named_how"]]) or step.provenance["skill"].source == "llm", (
            number, item["skill_named_how"], note)
        if (folder, number, "depends_on") not in OVERRIDES:
            assert got_reduced[step.id] == meant_reduced[step.id], (number, step.depends_on, item["depends_on"])
        assert (step.join == "any") == ("join" in item), (number, step.join)
    routers = {ids[r["from_step"]]: r for r in expected.get("routes") or []}
    for step in plan.steps:
        route = routers.get(step.id)
        if route is None:
            assert step.routes == {} and step.route_default is None, step.id
            continue
        assert step.routes == {name: ids[n] for name, n in route["branches"].items()}
        assert step.route_default == (ids[route["default"]] if route.get("default") else None)
        assert step.route_on == route.get("on")


def test_the_overrides_and_known_failures_name_their_reason_and_still_apply() -> None:
    """An override that no longer differs, or a known failure that is fixed, must be removed."""
    for folder, (reason, _) in NOT_YET.items():
        assert reason.startswith(("issue 20:", "issue 21:")), folder
    for (folder, number, what), reason in OVERRIDES.items():
        assert reason, (folder, number)
        expected = next(s for s in expectation(FOREIGN / folder)["steps"] if s["number"] == number)
        plan = plan_of(folder)
        ids = {item["number"]: plan.steps[i].id for i, item in enumerate(expectation(FOREIGN / folder)["steps"])}
        step = plan.steps[number - 1]
        assert what == "depends_on"
        assert set(step.depends_on) != {ids[n] for n in expected["depends_on"]}, (folder, number)


@pytest.mark.parametrize("folder", [f for f in FOLDERS if f not in NOT_YET])
def test_the_cli_plans_the_policies_the_whole_spec_policy_test_reads(folder: str) -> None:
    """tests/unit/spec/test_foreign_policies.py reads each spec's policies from `compile_spec`;
    `skillweave plan --format json` gives the same policies, provenance and limits."""
    from orchestrator.compile import compile_spec

    spec = FOREIGN / folder / expectation(FOREIGN / folder)["spec"]
    cli, here = plan_of(folder), compile_spec(spec, Settings())

    def policies(plan: Plan) -> list[tuple[str, Any]]:
        return [(s.policy.model_dump_json(), {k: v for k, v in s.provenance.items()
                                              if k.startswith(("policy.", "sentence:", "read."))}) for s in plan.steps]

    assert policies(cli) == policies(here)
    assert (cli.limits, cli.limits_provenance) == (here.limits, here.limits_provenance)
