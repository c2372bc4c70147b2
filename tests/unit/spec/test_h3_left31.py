"""A condition said as a plural-noun label before a colon, leading a sentence that asks a person's OK
(`spec.h3_left31`): an IT purchase checklist, a warehouse runbook, a lab's sample log; negatives: labels
that state no comparison with a number, and label-like openings that are no condition."""

from __future__ import annotations

import pytest

from orchestrator.spec.h3_left31 import label_condition, singular
from orchestrator.spec.whole_approval import said_approval, said_condition


@pytest.mark.parametrize(("sentence", "condition"), [
    # an IT purchase checklist
    ("Laptops over $2,000: a team lead has to OK the order.", "the laptop is over 2,000"),
    # a warehouse runbook
    ("Pallets above 900 kg: the floor manager has to OK the move before it goes out.", "the pallet is above 900 kg"),
    # a lab's sample log
    ("Batches under 10 ml: the PI has to OK the run.", "the batch is under 10 ml"),
    # a finance ticket, words of two
    ("Refund amounts of more than €500: finance has to OK the refund.", "the refund amount is more than 500"),
])
def test_a_plural_noun_label_is_the_approvals_condition(sentence: str, condition: str) -> None:
    assert said_approval(sentence)
    assert said_condition(sentence) == condition


@pytest.mark.parametrize("label", [
    "Orders",  # no comparison
    "Orders over budget",  # no number
    "If the order is over 150",  # an if-clause: the other readers' words
    "The order over 150",  # an article: not a label of things
    "Over 150",  # no noun
])
def test_a_label_that_states_no_comparison_of_things_is_no_condition(label: str) -> None:
    assert label_condition(label) is None


@pytest.mark.parametrize("sentence", [
    "Leads get 4 hours of training.",  # no approval cue
    "Boxes over 20 kg: use the trolley.",  # a label, but nobody approves
])
def test_a_label_without_a_persons_ok_is_no_approval(sentence: str) -> None:
    assert not said_approval(sentence)


@pytest.mark.parametrize(("word", "one"), [
    ("orders", "order"), ("batches", "batch"), ("entries", "entry"), ("boxes", "box"),
    ("status", "status"), ("glass", "glass"), ("analysis", "analysis"), ("kit", "kit"),
])
def test_the_singular_is_read_by_the_ending(word: str, one: str) -> None:
    assert singular(word) == one


# -- an earlier step's verdict in brackets on a step's own line (`read_verdicts`) ---------------------------

from orchestrator.spec import parse_spec_text  # noqa: E402
from orchestrator.spec.h3_left31 import one_or_more  # noqa: E402
from orchestrator.spec.vocabulary import Vocabulary  # noqa: E402


def _read(text: str, skills: list[str], path: str = "doc.md") -> object:
    return parse_spec_text(text, path, "markdown", Vocabulary.of([(s, None) for s in skills]))


# a bakery's batch sheet (a table), a build runbook (headings), a warehouse checklist (a numbered list)
_VERDICT_DOCS = [
    ("sheet.md", ["mix-dough", "proof-check", "bake-loaves", "bin-batch"],
     "# Batch sheet\n\n## Steps\n\n| # | Skill | Takes |\n|---|---|---|\n| 1 | mix-dough | `flour` |\n"
     "| 2 | proof-check | `dough` ← #1 |\n| 3 | bake-loaves *(proof passed)* | `dough` ← #1 |\n"
     "| 4 | bin-batch *(proof failed)* | `dough` ← #1 |\n"),
    ("runbook.md", ["compile-app", "smoke-test", "ship-build", "open-bug"],
     "# Release runbook\n\n## Steps\n\n### Step 1: Compile\nRun `compile-app`.\n\n### Step 2: Smoke\nRun `smoke-test`.\n\n"
     "### Step 3: Ship (smoke passed)\nRun `ship-build`.\n\n### Step 4: Report (smoke failed)\nRun `open-bug`.\n"),
    ("checklist.md", ["weigh-crate", "inspect-crate", "load-truck", "return-crate"],
     "# Dock checklist\n\n## Steps\n\n1. `weigh-crate` weighs the crate.\n2. `inspect-crate` checks the seals.\n"
     "3. `load-truck` loads it (inspect OK).\n4. `return-crate` sends it back (inspect not OK).\n"),
]


@pytest.mark.parametrize(("path", "skills", "text"), _VERDICT_DOCS)
def test_a_verdict_in_brackets_is_the_condition_and_its_failure_the_other_branch(path: str, skills: list[str],
                                                                                  text: str) -> None:
    spec = _read(text, skills, path)
    steps = spec.steps  # type: ignore[attr-defined]
    assert steps[2].when is not None and "Step 2 reported" in steps[2].when and steps[2].when.endswith("is true")
    assert steps[3].otherwise_of == steps[2].id and not steps[3].when


@pytest.mark.parametrize("row", [
    "| 3 | bake-loaves *(oven passed)* | `dough` ← #1 |",  # "oven" names no earlier step's skill
    "| 3 | bake-loaves (see notes) | `dough` ← #1 |",  # no verdict
])
def test_a_bracket_that_names_no_earlier_step_or_no_verdict_is_no_condition(row: str) -> None:
    text = ("# Batch sheet\n\n## Steps\n\n| # | Skill | Takes |\n|---|---|---|\n| 1 | mix-dough | `flour` |\n"
            f"| 2 | proof-check | `dough` ← #1 |\n{row}\n")
    spec = _read(text, ["mix-dough", "proof-check", "bake-loaves"])
    assert not spec.steps[2].when  # type: ignore[attr-defined]


# -- "Step N runs after A or B, whichever happened" said outside the steps (`read_said_joins`) --------------

_JOIN_DOCS = [
    ("sheet.md", ["mix-dough", "proof-check", "bake-loaves", "bin-batch", "log-batch"],
     "# Batch sheet\n\n## Steps\n\n| # | Skill | Takes |\n|---|---|---|\n| 1 | mix-dough | `flour` |\n"
     "| 2 | proof-check | `dough` ← #1 |\n| 3 | bake-loaves *(proof passed)* | `dough` ← #1 |\n"
     "| 4 | bin-batch *(proof failed)* | `dough` ← #1 |\n| 5 | log-batch | `dough` ← #1 |\n\n"
     "Step 5 runs after 3 or 4, whichever one happened.\n"),
    ("runbook.md", ["compile-app", "smoke-test", "ship-build", "open-bug", "post-note"],
     "# Release runbook\n\n## Steps\n\n### Step 1: Compile\nRun `compile-app`.\n\n### Step 2: Smoke\nRun `smoke-test`.\n\n"
     "### Step 3: Ship (smoke passed)\nRun `ship-build`.\n\n### Step 4: Report (smoke failed)\nRun `open-bug`.\n\n"
     "### Step 5: Note\nRun `post-note`.\n\n## Notes\n\nStep 5 goes after steps 3 or 4 - whichever ran.\n"),
]


@pytest.mark.parametrize(("path", "skills", "text"), _JOIN_DOCS)
def test_a_sentence_outside_the_steps_says_a_join_after_whichever_branch_ran(path: str, skills: list[str],
                                                                             text: str) -> None:
    step = _read(text, skills, path).steps[4]  # type: ignore[attr-defined]
    assert step.join == "any" and set(step.depends_on) >= {"step-3", "step-4"}


def test_a_join_sentence_over_steps_without_a_condition_is_not_read() -> None:
    text = ("# Plan\n\n## Steps\n\n1. `mix-dough` mixes.\n2. `proof-check` proofs.\n3. `bake-loaves` bakes.\n\n"
            "Step 3 runs after 1 or 2, whichever one happened.\n")
    step = _read(text, ["mix-dough", "proof-check", "bake-loaves"]).steps[2]  # type: ignore[attr-defined]
    assert step.join != "any"


@pytest.mark.parametrize(("text", "said"), [
    ("validation reported one or more errors", "validation reported any errors"),  # an ADR
    ("the tasting found one or more faults", "the tasting found any faults"),  # a recipe
    ("one or more wells overflowed", "any wells overflowed"),  # a lab log
    ("one or more of the checks failed", None),  # "of": no count of things
    ("at least one leak", None),  # the count reader's
])
def test_one_or_more_things_is_any_of_them(text: str, said: str | None) -> None:
    assert one_or_more(text) == said


# -- "What I start from: ..." names the workflow inputs (`START_FROM` in `spec.intro_inputs`) -------------

from orchestrator.spec.intro_inputs import read_intro_inputs  # noqa: E402
from orchestrator.spec.source import Source  # noqa: E402


def _started(lead: str) -> set[str]:
    src = Source(f"# Notes\n\n{lead}\n\n1. `count-stock` runs on them.\n", "doc.md")
    got = read_intro_inputs(src, ["doc.md:5"])
    return {i.name for i in got.named} if got is not None else set()


@pytest.mark.parametrize(("lead", "names"), [
    ("What I start from: the shop name (`shop`) and the stock sheet (`stock_csv`).", {"shop", "stock_csv"}),  # a mail
    ("We start with: the flour weight (`flour_g`) and the oven (`oven`).", {"flour_g", "oven"}),  # a recipe
    ("You begin from two things: the plate id (`plate_id`) and the export (`raw`).", {"plate_id", "raw"}),  # a lab
])
def test_what_a_run_starts_from_names_its_inputs(lead: str, names: set[str]) -> None:
    assert _started(lead) == names


@pytest.mark.parametrize("lead", [
    "I start from scratch every quarter (`scratch`).",  # no colon after the start: no list
    "We started with the `shop` in 2019: it grew since.",  # the past, and no list
])
def test_a_start_said_without_a_list_names_no_inputs(lead: str) -> None:
    assert _started(lead) == set()
