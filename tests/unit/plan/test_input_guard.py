"""An input the step's text lists as a thing of its own ("the season label, the counts and the flagged
rows") is never given the one other value the text names (`plan.input_guard`); one the text ties to that
value ("amount = the order_total", "`price_list` as the spec", "the filing ref from step 1") still is."""

from __future__ import annotations

import pytest

from orchestrator.plan.input_guard import kept_apart
from tests.unit.plan.plan_factory import SaidCatalog, plan_of_text

OWN = SaidCatalog({
    "tally": "Inputs: `sheets` (list).\n\nOutputs: `counts`, `flagged` (rows).\n",
    "post": "Inputs: `season` (label like 2025-winter), `counts`.\n\nOutputs: `posted`.\n",
})


@pytest.mark.parametrize(("name", "doc"), [
    # a bird club's count (a numbered list)
    ("count.md", "# Count\n\n1. Tally the sheets with `tally`.\n2. Post with `post`: the season label, the counts and "
                 "the flagged rows.\n"),
    # a sports league's table (headings)
    ("league.md", "# League\n\n## Step 1: Tally\n\nUse `tally` on the sheets.\n\n## Step 2: Post\n\nUse `post` with the "
                  "season name, the counts and the flagged rows.\n"),
    # a school's term report (an AsciiDoc file)
    ("term.adoc", "= Term\n\n== 1. Tally\n\n`tally` the sheets.\n\n== 2. Post\n\n`post` the season, the counts, the "
                  "flagged rows.\n"),
    # a farm's harvest log (a table of steps)
    ("harvest.md", "# Harvest\n\n| # | Step | Skill | Notes |\n|---|---|---|---|\n| 1 | Tally | `tally` | the sheets |\n"
                   "| 2 | Post | `post` | season label, counts and flagged rows |\n"),
])
def test_an_input_the_step_lists_as_its_own_thing_is_not_given_another_value(name: str, doc: str) -> None:
    plan = plan_of_text(doc, OWN, name)
    season = plan.step("step-2").inputs.get("season")
    assert season is None or season.source == "input"  # never step-1's `flagged`
    assert not [w for w in plan.warnings if "it is given `flagged`" in w.message]
    assert [w for w in plan.warnings if "`season`" in w.message]  # said, not silent


TIED = SaidCatalog({
    "weigh": "Inputs: `crates` (list).\n\nOutputs: `net_kg`, `crate_count`.\n",
    "invoice": "Inputs: `amount` (number), `crate_count`.\n\nOutputs: `invoice_id`.\n",
})


@pytest.mark.parametrize(("name", "doc"), [
    # a fish market's tally (a numbered list): "amount = the net_kg"
    ("market.md", "# Market\n\n1. Weigh the crates with `weigh`.\n2. Bill with `invoice` (crate count as is, "
                  "amount = the `net_kg`).\n"),
    # a community garden's rota (headings): "`net_kg` as the amount"
    ("garden.md", "# Garden\n\n## Step 1: Weigh\n\n`weigh` the crates.\n\n## Step 2: Bill\n\n`invoice` with the "
                  "`net_kg` as the amount, and the crate count.\n"),
])
def test_an_input_the_text_ties_to_the_value_is_still_given_it(name: str, doc: str) -> None:
    plan = plan_of_text(doc, TIED, name)
    amount = plan.step("step-2").inputs["amount"]
    assert (amount.source, amount.pointer) == ("step", "/net_kg")


def test_the_parts_of_the_list() -> None:
    assert kept_apart(["Post with post: the season label, the counts and the flagged rows."], "season", "flagged")
    assert not kept_apart(["Needs the vessel, and the filing ref from card 4"], "filing_ref", "ref")
    assert not kept_apart(["(order # from the facts, amount = full `order_total`)"], "amount", "order_total")
    assert not kept_apart(["Bake it; the oven temp only."], "temp", "oven_temp")  # one part names both
