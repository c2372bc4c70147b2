"""A step said to be done beside another step named by its number ("do this alongside card 1",
"work on it in parallel with step 1", "while step 1 runs") does not wait for the step before it,
only for the steps whose outputs it reads; "alongside" said of things, not steps, leaves the order."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.branch_parallel import parallel_start

CATALOG = FakeCatalog(
    skill("pull-orders", output_schema=obj(("orders",), orders="array")),
    skill("pull-refunds", input_schema=obj((), since="string"), output_schema=obj(("refunds",), refunds="array")),
    skill("merge-ledger", input_schema=obj(("orders", "refunds"), orders="array", refunds="array")),
)


def _deps(text: str) -> list[list[str]]:
    plan: Plan = build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)
    return [sorted(s.depends_on) for s in plan.steps]


SHIPS_LOG = ("# Deck log, 14 May\n\n- 0600 Purser pulls the bar takings with `pull-orders`.\n"
             "- 0610 While step 1 runs, the mate pulls refunds with `pull-refunds`.\n"
             "- 0700 Purser squares them with `merge-ledger`.\n")
PODCAST = ("# Run sheet, ep. 88\n\n1. Cold open: producer grabs sponsor orders, `pull-orders`.\n"
           "2. Refund segment (`pull-refunds`): co-host does this alongside #1, it needs nothing from it.\n"
           "3. Wrap: `merge-ledger` on both.\n")
LAB = ("# Protocol 12: ledger assay\n\n## Step 1\nLoad the orders, `pull-orders`.\n\n"
       "## Step 2\nWork on it in parallel with step 1: `pull-refunds` on bench B.\n\n"
       "## Step 3\n`merge-ledger`.\n")
ONBOARDING = ("# Starter checklist\n\n- [ ] Order kit via `pull-orders`\n"
              "- [ ] Kick this off alongside item 1: `pull-refunds` for the deposit\n"
              "- [ ] Reconcile with `merge-ledger`\n")


@pytest.mark.parametrize("text", [SHIPS_LOG, PODCAST, LAB, ONBOARDING],
                         ids=["ships-log", "podcast-run-sheet", "lab-protocol", "onboarding-checklist"])
def test_a_step_done_beside_a_numbered_step_does_not_wait_for_the_step_before(text: str) -> None:
    assert _deps(text) == [[], [], ["step-1", "step-2"]]


def test_alongside_said_of_things_keeps_the_step_after_the_one_before() -> None:
    text = ("# Deck log\n\n- 0600 `pull-orders` for the galley.\n"
            "- 0610 Send the refunds alongside the orders with `pull-refunds`.\n- 0700 `merge-ledger`.\n")
    assert _deps(text)[1] == ["step-1"]


@pytest.mark.parametrize("sentence", [
    "Pack the spare alongside the kit.",  # things, not a step
    "Retry it alongside step 1 each time.",  # tries
    "Label every tube alongside step 2.",  # items
])
def test_alongside_without_a_step_started_beside_it_is_no_parallel_start(sentence: str) -> None:
    assert not parallel_start(sentence)
