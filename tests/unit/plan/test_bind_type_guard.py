"""A value named near a skill's input is not bound to it when the two are plainly different kinds of
thing (`plan.bind_type_guard`): a date given a list of orders, a count given a list, a list of dates
given a list of records. Four document kinds: a lesson plan, a ship's log, a recipe card, an HR
onboarding checklist."""

from __future__ import annotations

import pytest
from plan_factory import SaidCatalog, plan_of_text

from orchestrator.plan.bind_type_guard import clash, kind_of


@pytest.mark.parametrize(("name", "about", "kind"), [
    ("run_date", "", "date"), ("as_of", "", "date"), ("lesson_day", "", "date"),
    ("picked", "(list of `{sku, qty}`)", "records"), ("open_days", "(list of `YYYY-MM-DD`)", "dates"),
    ("orders", "", "list"), ("berth", "array", "list"), ("crew_count", "", "number"), ("is_late", "", "flag"),
    ("start", "(`MM/DD/YYYY`)", "date"), ("tally", "(integer)", "number"), ("notes", "(free text)", None),
    ("status", "", None), ("summary", "", None),
])
def test_the_kind_of_a_name_comes_from_its_words_and_what_its_skill_says(name: str, about: str,
                                                                            kind: str | None) -> None:
    assert kind_of(name, about) == kind


@pytest.mark.parametrize(("wanted", "w_about", "given", "g_about", "clashes"), [
    ("run_date", "", "affected_orders", "(list of `{order_id}`)", True),   # a date, a list of records
    ("open_days", "(list of `YYYY-MM-DD`)", "due", "(list of `{pet, owner}`)", True),
    ("crew_count", "", "crew", "(list of names)", True),
    ("is_late", "", "eta", "(`YYYY-MM-DD`)", True),
    ("city", "", "home_city", "", False),                                   # nothing says they differ
    ("lesson_day", "", "term_date", "", False),                             # both dates
    ("picked", "(list of `{sku}`)", "rows", "", False),                     # both lists
])
def test_two_kinds_known_and_different_clash(wanted: str, w_about: str, given: str, g_about: str,
                                             clashes: bool) -> None:
    assert (clash(wanted, w_about, given, g_about) is not None) is clashes


CATALOG = SaidCatalog({
    "pick-orders": "Inputs: `board` (the order board).\n\nOutputs: `picked` (list of `{sku, qty}`), `picked_count`.\n",
    "post-board": "Inputs: `run_date` (`YYYY-MM-DD`).\n\nOutputs: `posted`.\n",
})

_DOCS = [
    # a lesson plan: numbered steps with bold titles
    ("lesson.md", "# Period 2 plan\n\n## Steps\n\n1. **Pick**: `pick-orders` reads the board.\n"
                  "2. **Post**: `post-board` posts the picked orders from Pick.\n"),
    # a ship's log: step headings
    ("log.md", "# Watch log\n\n## Step 1: Pick\n\nRun `pick-orders` on the board.\n\n"
               "## Step 2: Post\n\nRun `post-board` with the picked orders from step 1.\n"),
    # a recipe card: a text file with step headings
    ("card.txt", "Focaccia card\n\n## Step 1: Pick\n\nPick with `pick-orders` from the board.\n\n"
                 "## Step 2: Post\n\nPost with `post-board`, using what step 1 picked.\n"),
    # an HR onboarding checklist: level-3 headings
    ("onboarding.md", "# New starter\n\n### Step 1 - Pick\n\n`pick-orders` on the board.\n\n"
                      "### Step 2 - Post\n\n`post-board` gets the picked items from step 1.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _DOCS)
def test_a_date_input_is_not_given_the_list_the_text_names_in_any_document_kind(name: str, doc: str) -> None:
    plan = plan_of_text(doc, CATALOG, name)
    post = plan.step("step-2")
    assert "run_date" not in post.inputs or post.inputs["run_date"].step != "step-1", post.inputs
    clashes = [w for w in plan.warnings if w.code == "plan.input-kind-clash"]
    assert clashes and "`run_date` is a date, `picked` a list of records" in clashes[0].message, \
        [w.message for w in plan.warnings]
