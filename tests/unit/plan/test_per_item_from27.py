""""Once per item from 1", "each item from step 2": a For each over that step's items, not the whole
list given as one item (`plan.fan_words`, `plan.output_aliases`). Kinds: a museum runbook, a
bakery's batch card, a lab protocol; negatives: a rate per item, items said with no step."""

from __future__ import annotations

from orchestrator.plan.fan_words import _cue
from orchestrator.plan.output_aliases import _PER_ITEM


def test_per_item_from_a_step_is_a_cue_in_a_runbook_a_batch_card_and_a_protocol() -> None:
    for text in ("Check the scans with scan-check once per item from 1, dpi 600.",
                 "Glaze with glaze-tray for each item from step 2.",
                 "Run `read-plate` on every item of 3 (one well at a time)."):
        cue = _cue([(4, text)])
        assert cue is not None and cue.nouns[0] == "item", text


def test_a_rate_per_item_or_items_with_no_step_are_no_cue() -> None:
    assert _cue([(4, "Budget 2 s per item.")]) is None
    assert _cue([(4, "Label each item by hand.")]) is None


def test_the_alias_reader_leaves_per_item_from_a_step_to_the_loop() -> None:
    assert _PER_ITEM.search("once per item") and _PER_ITEM.search("each item")
    assert not _PER_ITEM.search("the record count") and not _PER_ITEM.search("item list")
