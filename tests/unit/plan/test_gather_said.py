"""A step that says it gathers ("all together", "merges all the surveys") and whose text also counts
something ("counts per channel", "one line per deck") is a gather, never a For each over a field of
one value (`plan.gather_said`). Texts from a podcast run sheet, a ship's log, a bakery card and a
choir newsletter's send-out notes."""

from __future__ import annotations

from typing import Any

import pytest
from plan_factory import SaidCatalog, plan_of_text, step_by_skill

from orchestrator.plan.gather_said import gather_over_loop

_CATALOG = SaidCatalog({
    "draft-promos": "Inputs: `episode`.\n\nOutputs: `promo`, `channel`.",
    "post-promos": "Inputs: `promos` (list).\n\nOutputs: `posted`, `per_channel`.",
    "write-blurb": "Inputs: `term`.\n\nOutputs: `blurb`, `channel`.",
    "send-blurbs": "Inputs: `blurbs` (list).\n\nOutputs: `sent`.",
    "list-holds": "Inputs: `voyage_no`.\n\nOutputs: `holds`, `deck`.",
    "survey-hold": "Inputs: `hold`.\n\nOutputs: `survey`, `rust`.",
    "log-surveys": "Inputs: `surveys` (list).\n\nOutputs: `entry`.",
    "weigh-batches": "Inputs: `bake_date`.\n\nOutputs: `doughs`, `oven`.",
    "shape-dough": "Inputs: `dough`.\n\nOutputs: `loaf`.",
    "load-oven": "Inputs: `loaves` (list).\n\nOutputs: `racks`.",
})

# no step before runs per item: the words that count are about what the step gives back
_RUN_SHEET = """\
Run sheet: ep. 41 promo push

- `draft-promos` for the `episode`: a promo and the channel it suits.
- `post-promos` with every promo, all together; it reports counts per channel.
"""

_NEWSLETTER = """\
# Choir newsletter send-out

## Write the blurbs
`write-blurb` for the `term`. It gives a `blurb` and the `channel` it goes out on.

## Send
`send-blurbs` takes every blurb, all together, and says how many went out per channel.
"""

# a step before runs per item; a step before that gives a field of one value the words count
_SHIPS_LOG = """\
# Deck log, MV Kittiwake

- 0600 `list-holds` for the `voyage_no`: the holds to survey and the deck we're on.
- 0630 `survey-hold` on each of the holds, one at a time.
- 0800 Mate merges all the surveys with `log-surveys`, one line per deck.
"""

_BAKERY = """\
Bake card (night shift)

1. `weigh-batches` for `bake_date`: gives the doughs to shape and the oven they go in.
2. Shape each of the doughs with `shape-dough`.
3. `load-oven`: put all the loaves together, one rack per oven.
"""


@pytest.mark.parametrize(("text", "gatherer", "name", "field"), [
    (_RUN_SHEET, "post-promos", "promos", "promo"),  # "with every promo": `promo`, one value
    (_NEWSLETTER, "send-blurbs", "blurbs", "channel"),
], ids=["podcast-run-sheet", "choir-newsletter"])
def test_a_gather_with_nothing_to_gather_is_no_loop_over_one_value(text: str, gatherer: str, name: str,
                                                                    field: str) -> None:
    plan = plan_of_text(text, _CATALOG)
    assert step_by_skill(plan, gatherer).for_each is None
    said = next(w for w in plan.warnings if w.code == "spec.gather-not-loop")
    assert f"not a For each over step-1's `{field}`" in said.message
    assert f"nothing gives `{name}`" in said.message and "For each: <item> in <list>" in said.message
    assert not any(w.code == "fan-out-read" for w in plan.warnings)


@pytest.mark.parametrize(("text", "looper", "gatherer", "name", "field"), [
    (_SHIPS_LOG, "survey-hold", "log-surveys", "surveys", "deck"),
    (_BAKERY, "shape-dough", "load-oven", "loaves", "oven"),
], ids=["ships-log", "bakery-card"])
def test_a_gather_after_a_loop_takes_its_results_not_a_loop_over_one_value(
        text: str, looper: str, gatherer: str, name: str, field: str) -> None:
    plan = plan_of_text(text, _CATALOG)
    loop, gather = step_by_skill(plan, looper), step_by_skill(plan, gatherer)
    assert loop.for_each is not None and gather.for_each is None
    took: Any = gather.inputs[name]
    assert (took.step, took.gather) == (loop.id, True)
    said = next(w for w in plan.warnings if w.code == "spec.gather-not-loop")
    assert f"`{field}` (one value" in said.message
    assert f"`{name}` takes every result of {loop.id}" in said.message
    assert f"`{name} (from Step {loop.id.split('-')[1]})`" in said.message


@pytest.mark.parametrize(("free", "field", "prop", "read"), [
    (["drafts"], "channel", {}, True),  # a singular name, no type: one value
    (["drafts"], "regions", {}, False),  # a plural name may be a list
    (["drafts"], "channel", {"type": "array"}, False),  # declared a list
    (["drafts"], "total", {"type": "integer"}, True),  # declared one value
    (["draft"], "channel", {}, False),  # the skill reads one item: a loop may stand
    ([], "channel", {}, False),
])
def test_when_a_loop_is_a_gather(free: list[str], field: str, prop: dict[str, object], read: bool) -> None:
    got = gather_over_loop("hand over every draft, all together", free, field, prop)
    assert (got is not None) is read
    assert gather_over_loop("hand over the drafts", free, field, prop) is None  # no gather said
