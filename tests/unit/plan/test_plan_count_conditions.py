"""Counts said in words (`spec.condition`, `spec.condition_any`, `plan.count_field`): "step 1 found at least 1
affected order" is step 1's count field `affected_count` (the one count field whose words are all said), and an
approval "if any swap is a high-alert drug (heparin, ...)" asks only when the count of that kind before it is above
0, warned as a guess. Tested in a pharmacy form, a warehouse returns procedure, a sports club's match-day plan and
a library digitisation workflow; with two count fields that fit, or none, nothing is picked."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.count_field import count_field
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("match-orders", output_schema=obj(("affected", "affected_count"), affected="array", affected_count="integer")),
    skill("suggest-swaps", output_schema=obj(("swaps", "high_alert_count"), swaps="array", high_alert_count="integer")),
    skill("make-worklist", output_schema=obj(("note",), note="string")),
    skill("scan-returns", output_schema=obj(("parcels", "damaged_count"), parcels="array", damaged_count="integer")),
    skill("price-refunds", output_schema=obj(("refunds", "fraud_flag_count"), refunds="array", fraud_flag_count="integer")),
    skill("pay-refunds", output_schema=obj(("note",), note="string")),
    skill("check-squad", output_schema=obj(("players", "injured_count"), players="array", injured_count="integer")),
    skill("pick-team", output_schema=obj(("team", "junior_count"), team="array", junior_count="integer")),
    skill("post-team", output_schema=obj(("note",), note="string")),
    skill("scan-volumes", output_schema=obj(("pages", "torn_count"), pages="array", torn_count="integer")),
    skill("tag-pages", output_schema=obj(("tags", "restricted_count"), tags="array", restricted_count="integer")),
    skill("publish-pages", output_schema=obj(("note",), note="string")),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)


CASES = [
    ("Shortage check form", ("match-orders", "suggest-swaps", "make-worklist"),
     "step 1 found at least 1 affected order", "affected_count >= 1",
     "yes if any swap is a high-alert drug (heparin, insulin, KCl...); 30 min to sign, then reject",
     "high_alert_count > 0"),
    ("Returns desk procedure", ("scan-returns", "price-refunds", "pay-refunds"),
     "step 1 found 2 or more damaged parcels", "damaged_count >= 2",
     "needed if any refund is a fraud flag (see the list); wait 1 hour, then reject", "fraud_flag_count > 0"),
    ("Match day", ("check-squad", "pick-team", "post-team"),
     "Step 1 found fewer than 3 injured players", "injured_count < 3",
     "coach signs off if any of the players are juniors (under 16)", "junior_count > 0"),
    ("Digitisation batch", ("scan-volumes", "tag-pages", "publish-pages"),
     "step 1 found at most 5 torn pages", "torn_count <= 5",
     "curator approves only if any page is restricted material (archive rules)", "restricted_count > 0"),
]


def _doc(title: str, skills: tuple[str, str, str], when: str, approval: str) -> str:
    one, two, three = skills
    return (f"# {title}\n\n## Steps\n\n### Step 1: first\n- Skill: {one}\n\n### Step 2: second\n- Skill: {two}\n"
            f"- Depends on: Step 1\n\n### Step 3: third\n- Skill: {three}\n- Depends on: Step 2\n- When: {when}\n"
            f"- Approval: {approval}\n")


@pytest.mark.parametrize(("title", "skills", "when", "count", "approval", "kind"), CASES, ids=[c[0] for c in CASES])
def test_a_count_in_words_is_the_count_field_and_an_approval_for_any_of_a_kind_asks_only_then(
        title: str, skills: tuple[str, str, str], when: str, count: str, approval: str, kind: str) -> None:
    plan = _plan(_doc(title, skills, when, approval))
    third = {s.id: s for s in plan.steps}["step-3"]
    assert third.when == f"steps['step-1'].output.{count}"
    assert third.policy.approval is not None and third.policy.approval.when == f"steps['step-2'].output.{kind}"
    assert any("read as a count of" in w.message and w.where.endswith(":16") for w in plan.warnings)


def test_an_approval_for_any_of_a_kind_on_a_step_with_no_condition_finds_the_count_before_it() -> None:
    text = ("# Returns\n\n## Steps\n\n### Step 1: scan\n- Skill: scan-returns\n\n### Step 2: price\n- Skill: price-refunds\n"
            "\n### Step 3: pay\n- Skill: pay-refunds\n- Approval: only if any refund is a fraud flag; wait 2h, then reject\n")
    third = {s.id: s for s in _plan(text).steps}["step-3"]
    assert third.when is None
    assert third.policy.approval is not None
    assert third.policy.approval.when == "steps['step-2'].output.fraud_flag_count > 0"


def test_a_count_field_is_picked_only_when_exactly_one_fits() -> None:
    assert count_field("affected_order_count", ["affected", "affected_count"]) == "affected_count"
    assert count_field("high_alert_drug_count", ["high_alert_count", "alert_count"]) is None  # two fit
    assert count_field("late_truck_count", ["trucks", "total"]) is None
    assert count_field("late_truck", ["late_count"]) is None  # not a count said
