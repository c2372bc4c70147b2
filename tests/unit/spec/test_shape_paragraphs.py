"""Steps written as plain paragraphs (a word-processor export, no list markup) under a heading of
steps, and lists of rules in a steps section that are no steps (`spec.shape_paragraphs`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([(n, None) for n in (
    "weigh-flour", "proof-dough", "bake-loaf", "create-account", "order-laptop", "book-intro",
    "thaw-sample", "spin-down", "read-plate", "cut-audio", "add-music", "publish-episode")])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown", CATALOG)


def _skills(spec) -> list[str]:  # type: ignore[no-untyped-def]
    return [(s.skill or (s.mentions[0].text if s.mentions else "")).strip("`") for s in spec.steps]


def test_a_recipe_card_exported_as_paragraphs_reads_a_step_a_paragraph_in_order() -> None:
    spec = _read("Sourdough loaf\n\nSteps\n\nMeasure. weigh-flour gets 500 g of bread flour into the bowl.\n\n"
                 "Rise. The dough sits in proof-dough overnight, covered.\n\n"
                 "Bake. bake-loaf does 40 minutes at 230 C, lid off for the last 15.\n")
    assert _skills(spec) == ["weigh-flour", "proof-dough", "bake-loaf"]
    assert [s.where for s in spec.steps] == ["doc.md:5", "doc.md:7", "doc.md:9"]
    said = [w for w in spec.warnings if "is read as step" in w.message]
    assert [w.line for w in said] == [5, 7, 9] and all("number the steps" in w.message for w in said)


def test_an_hr_onboarding_doc_takes_the_paragraphs_not_the_rules_bullets_under_them() -> None:
    spec = _read("# New starter\n\n## Steps\n\nAccount first. IT runs create-account for the starter's email.\n\n"
                 "Laptop. order-laptop sends the request to the supplier; retry twice if it fails.\n\n"
                 "Intro. Book a coffee with the team through book-intro.\n\nRules\n\n"
                 "- never share passwords over chat\n- the manager signs the form\n")
    assert _skills(spec) == ["create-account", "order-laptop", "book-intro"]
    assert not any(s.where in ("doc.md:14", "doc.md:15") for s in spec.steps)


def test_a_lab_protocols_paragraph_without_a_skill_goes_with_the_step_before() -> None:
    spec = _read("## Procedure\n\nThaw. thaw-sample brings the vial to 4 C.\n\nKeep it on ice the whole time, "
                 "and log the time it left the freezer.\n\nSpin. spin-down at 3000 rpm for 5 minutes.\n\n"
                 "Read. read-plate measures absorbance at 450 nm.\n")
    assert _skills(spec) == ["thaw-sample", "spin-down", "read-plate"]
    assert any("on ice" in t.text for t in spec.steps[0].texts) or "doc.md:5" not in [s.where for s in spec.steps]


def test_a_podcast_run_sheets_guideline_list_in_the_steps_section_is_no_steps() -> None:
    spec = _read("# Episode\n\n## Steps\n\n1. Edit with `cut-audio`.\n2. Score it with `add-music`.\n"
                 "3. Ship with `publish-episode`.\n\nGuidelines\n\n- keep the intro under 30 s\n"
                 "- no music under speech\n")
    assert _skills(spec) == ["cut-audio", "add-music", "publish-episode"]


def test_a_ships_logs_rules_list_before_the_work_in_a_steps_section_is_not_read_as_steps() -> None:
    spec = _read("# Watch handover\n\n## Steps\n\nHouse rules:\n\n- log every course change\n"
                 "- wake the master for any contact inside 2 nm\n\nFirst run `cut-audio` on the bridge tape.\n\n"
                 "Then send it with `publish-episode`.\n")
    assert _skills(spec) == ["cut-audio", "publish-episode"]
    assert [w.line for w in spec.warnings if "not read (not a step)" in w.message] == [5, 7, 8]


def test_a_runbook_with_sequence_words_is_left_to_the_runbook_reader() -> None:
    spec = _read("## How\n\nFirst `weigh-flour` for the batch.\n\nThen proof it overnight (proof-dough).\n\n"
                 "Finally `bake-loaf` it.\n")
    assert not [w for w in spec.warnings if "is read as step" in w.message]
    assert _skills(spec)[0] == "weigh-flour"
