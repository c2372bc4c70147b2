"""`spec.loop_words40`: "once per <thing>" (the For each), "wait for all the <results>" (the gather) and
"<duration> away" (a distance) are no policy and not warned as one not understood; "once per hour", "wait
5 minutes" and "give it 20 min" still are policies. Sentences of our own (a florist's deliveries, a lab's
plate runs, a plumber's callouts)."""

from __future__ import annotations

import pytest

from orchestrator.spec.phrase import read_phrase


@pytest.mark.parametrize("text", [
    "Once per bouquet on the order sheet, each on its own.",
    "`plate-read` Once per plate in the rack, each on its own.",
    "Wait for all the plate reads, then total them.",
    "Wait until every quote is back, then pick the cheapest.",
    "The wholesaler is Bloom & Co (they're 20 min away and give us trade price).",
    "Use the yard on Mill Lane, a 10 minute drive from the shop.",
])
def test_loop_gather_and_distance_words_are_no_policy(text: str) -> None:
    phrase = read_phrase(text)
    assert not phrase.read and not phrase.signal, (text, phrase.problems)


def test_negative_a_retry_once_per_hour_and_a_wait_are_still_read() -> None:
    hourly = read_phrase("If it fails, retry once per hour, up to 3 times.")
    assert hourly.read and hourly.statement.retries == 3 and hourly.statement.wait is not None
    assert read_phrase("Give it 20 min, then stop it.").read
    assert read_phrase("Wait 5 minutes between tries, at most 2 tries.").read
    assert read_phrase("Only post it once per batch: the ledger double-counts.").statement.no_retry is True


@pytest.mark.parametrize("text", [
    "Call it once per row of the sheet, with that row's code.",
    "Run once per vial in `vials`, with that vial's label.",
])
def test_run_once_per_item_of_a_named_list_is_the_loop_no_retry_count(text: str) -> None:
    phrase = read_phrase(text)  # round 46: the list is named after "per <item> in/of"
    assert not phrase.statement.no_retry and not phrase.problems, (text, phrase.problems)


def test_negative_post_it_once_per_batch_is_still_no_retry() -> None:
    assert read_phrase("Post it once per batch.").statement.no_retry
    assert read_phrase("Only run it once per wave.").statement.no_retry
