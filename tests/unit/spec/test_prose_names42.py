"""Round 42's prose readings (holdout28 173's leftovers): input names said in brackets in a note's prose
(`spec.intro_inputs`: "once we've put in: ...", two names in one bracket for two things said before it,
one word with its choices in brackets) and an output said to be filled in, in brackets, as the run's
success check (`spec.success_words`: "(text not blank)"). Each with phrasings of its own and near-misses."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.spec.success_probe import success_checks as _checks

_STEPS = "\n1) `weigh-parcel` first.\n2) then `book-courier`.\n"


def _said(text: str) -> list[tuple[str, str]]:
    spec = parse_spec_text(text, "note.txt", "markdown")
    return [(i.name, i.description) for i in spec.inputs_said]


def test_two_names_in_one_bracket_are_the_two_things_said_before_it() -> None:
    text = ("Parcels desk. Once the clerk has put in: the parcel height and depth in mm (ht_mm, dep_mm) and the\n"
            "postcode (post_code), the tablet does the rest.\n" + _STEPS)
    assert _said(text) == [("ht_mm", "said in the text as 'the parcel height'"),
                           ("dep_mm", "said in the text as 'depth in mm'"),
                           ("post_code", "said in the text as 'the postcode'")]


def test_a_sheet_that_types_in_three_names_for_three_things_and_a_choice_word() -> None:
    text = ("Gate log. The guard types in: arrival, departure and bay (arr_t, dep_t, bay_no), priority\n"
            "(low/normal/high).\n" + _STEPS)
    assert [n for n, _ in _said(text)] == ["arr_t", "dep_t", "bay_no", "priority"]


def test_near_misses_put_in_place_and_a_bracket_of_plain_words() -> None:
    assert _said("We put in place a rota (rota_id) last year.\n" + _STEPS) == []
    # two plain words in one bracket are no names: the thing keeps no name of its own
    said = _said("The clerk types in: the size and colour (small, red) and the code (item_code).\n" + _STEPS)
    assert said == [("item_code", "said in the text as 'the code'")]


_NOTE = ("# Handover\n\n## Steps\n\n### Step 1: Write it\n- Skill: `write-note`\n- Output: `text`, `posted`\n\n"
         "### Step 2: Tell the ward\n- Skill: `page-ward`\n- Output: `paged`\n\n")


def test_an_output_said_filled_in_in_brackets_is_the_run_s_success_check() -> None:
    for said in ("Done when write-note gives back a note (text not blank).",
                 "Counts as finished when the note comes back (text is not empty)."):
        spec = parse_spec_text(_NOTE + "## Done\n\n" + said + "\n", "h.md", "markdown")
        assert "text" in _checks(spec).get("step-1", {}), said


def test_near_miss_a_bracket_naming_no_output_is_not_a_check() -> None:
    spec = parse_spec_text(_NOTE + "## Done\n\nDone when write-note gives back a note (summary not blank).\n", "h.md",
                           "markdown", Vocabulary.of([]))
    assert "summary" not in _checks(spec).get("step-1", {})
