"""A step said to start beside the one before it ("meanwhile", "while that runs", "not blocked by
anything", a `Wait for` column saying "nothing") waits only for the steps whose outputs it reads;
the same words said of tries or items, or a time of day, leave the order as written."""

from __future__ import annotations

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


def _plan(text: str, path: str = "doc.md") -> Plan:
    return build_plan(parse_spec_text(text, path, "markdown"), CATALOG, settings=SETTINGS)


def _deps(plan: Plan) -> list[list[str]]:
    return [sorted(s.depends_on) for s in plan.steps]


def test_a_lesson_plan_s_while_the_starter_is_going_starts_the_second_activity_beside_the_first() -> None:
    plan = _plan("# Lesson plan: ledgers\n\n1. Starter: pupils fetch the sales with `pull-orders`.\n"
                 "2. While the starter is running, the assistant fetches refunds with `pull-refunds`.\n"
                 "3. Main task: `merge-ledger` on both lists.\n")
    assert _deps(plan) == [[], [], ["step-1", "step-2"]]


def test_a_shift_handover_table_s_wait_for_column_saying_nothing_makes_a_root() -> None:
    plan = _plan("# Night desk handover\n\n| # | Task | Tool | Wait for |\n|---|---|---|---|\n"
                 "| 1 | Orders export | `pull-orders` | — |\n| 2 | Refund export | `pull-refunds` | nothing |\n"
                 "| 3 | Reconcile | `merge-ledger` | #1 and #2 |\n")
    assert _deps(plan) == [[], [], ["step-1", "step-2"]]
    assert not [w for w in plan.warnings if "Wait for" in w.message or "wait" in w.message.lower()]


def test_a_handover_row_whose_task_cell_says_to_start_it_with_the_first_does_not_wait_for_it() -> None:
    plan = _plan("# Handover\n\n| # | Task | Tool |\n|---|---|---|\n| 1 | Orders export | `pull-orders` |\n"
                 "| 2 | Refund export, fire it off together with #1 | `pull-refunds` |\n"
                 "| 3 | Reconcile | `merge-ledger` |\n")
    assert _deps(plan)[1] == []


def test_a_grant_proposal_s_in_the_meantime_paragraph_is_a_second_root() -> None:
    plan = _plan("# Methods\n\n## Step 1: Collect\nWe collect the orders with `pull-orders`.\n\n"
                 "## Step 2: Refunds\nIn the meantime, a second assistant runs `pull-refunds`.\n\n"
                 "## Step 3: Reconcile\n`merge-ledger` joins the two.\n")
    assert _deps(plan) == [[], [], ["step-1", "step-2"]]


def test_a_tweet_thread_s_not_blocked_by_anything_is_a_root() -> None:
    plan = _plan("how we close the books (1/3)\n\n## 1/ orders\n`pull-orders` pulls yesterday's orders.\n\n"
                 "## 2/ refunds\n`pull-refunds` isn't blocked by anything, so it goes right away.\n\n"
                 "## 3/ done\n`merge-ledger` on both. 🎉\n")
    assert _deps(plan)[1] == []


def test_words_of_tries_items_or_a_time_of_day_are_no_parallel_start() -> None:
    assert not parallel_start("Retry it at most twice in parallel.")
    assert not parallel_start("Score every row concurrently.")
    assert not parallel_start("The export runs at the same time each night.")
    assert not parallel_start("Wait for the orders to finish, then run it.")
    assert parallel_start("Meanwhile, kick off the refund pull.")
    assert parallel_start("Has no prerequisites.")


def test_a_runbook_step_said_in_order_still_waits_for_the_step_before() -> None:
    plan = _plan("# Runbook\n\n## Step 1: Orders\n`pull-orders`.\n\n## Step 2: Refunds\n"
                 "Then run `pull-refunds`.\n\n## Step 3: Merge\n`merge-ledger`.\n")
    assert _deps(plan)[1] == ["step-1"]
