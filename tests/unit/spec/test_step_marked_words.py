"""Words the readers look for, set in bold or italics ("For **each** accession", "once *all* the sheets are
in"), are read as if plain, and "for each X on that list" loops over the list the step before gave
(`spec.step_prose`). Tested in an Obsidian-style lab note, a library digitisation list, a match-day plan and a
warehouse returns checklist."""

from __future__ import annotations

import pytest

from orchestrator.spec.step_prose import for_each_phrase, sentences


@pytest.mark.parametrize(("text", "item"), [
    ("For **each** accession on that list: `germ-test-sheet` makes its sheet.", "accession"),
    ("For *every* volume in those results, run `scan-volume`.", "volume"),
    ("For __each__ player on this list: `send-kit-reminder`.", "player"),
    ("for _each_ parcel in that batch, `check-parcel`", "parcel"),
])
def test_a_loop_said_with_marks_and_a_pointing_word_loops_over_the_step_before(text: str, item: str) -> None:
    [(_, sentence)] = sentences(text)
    assert "*" not in sentence.split("`")[0] and "__" not in sentence and "_each_" not in sentence
    assert for_each_phrase(sentence, "step-1")[:2] == (item, "steps.step-1.output")  # type: ignore[index]


def test_marks_on_other_words_and_in_names_stay() -> None:
    [(_, sentence)] = sentences("Run **fetch-docs** on the *raw* feed with `snake_each_case`.")
    assert sentence == "Run **fetch-docs** on the *raw* feed with `snake_each_case`."
    assert for_each_phrase("For each accession on that list, run x.", None) is None  # no step before: no list
