"""Arrows around the skill that does a step (`spec.io_arrow`): the text before the first arrow is the
step's title, the skill after it is the doer (never an output), and only what follows a further arrow is
what the step yields."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.io_arrow import doer_outputs
from orchestrator.spec.vocabulary import Vocabulary

WORDS = Vocabulary.of([(n, None) for n in ("merge-tags", "mail-digest", "fold-logs", "tally-votes", "sign-ballot")])


def _read(text: str, words: Vocabulary = WORDS) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", words)


def test_a_support_macro_line_names_its_skill_after_the_first_arrow_and_its_outputs_after_the_second() -> None:
    spec = _read("# Macro: merge duplicate tickets\n\n## Steps\n\n"
                 "1. Tags + merge → `merge-tags` on the open `tickets` → `merged`, `kept`\n"
                 "2. Tell them → `mail-digest` with the `merged` list\n")
    first, second = spec.steps
    assert [f.name for f in first.outputs] == ["merged", "kept"]
    assert first.inputs == ()  # "Tags + merge" is the title, not two inputs
    assert second.outputs == () and second.inputs == ()  # the skill alone: nothing yielded said


def test_a_readme_usage_line_with_a_plain_arrow_keeps_its_inputs_and_outputs() -> None:
    spec = _read("# Usage\n\n## Steps\n\n1. Fold\n   - Skill: `fold-logs`\n   - (lines -> folded, errors)\n")
    (step,) = spec.steps
    assert [f.name for f in step.inputs] == ["lines"]
    assert [f.name for f in step.outputs] == ["folded", "errors"]


def test_a_state_machine_transition_never_lists_the_skill_as_an_output() -> None:
    spec = _read("# Ballot states\n\n## Steps\n\n"
                 "1. counting => `tally-votes` => `totals`\n"
                 "2. signed -> `sign-ballot` (with the totals) -> `signature`\n")
    assert [[f.name for f in s.outputs] for s in spec.steps] == [["totals"], ["signature"]]
    assert not any(f.name in ("tally-votes", "sign-ballot") for s in spec.steps for f in (*s.inputs, *s.outputs))


def test_without_a_catalog_a_hyphenated_name_between_two_arrows_is_the_doer() -> None:
    assert doer_outputs(" `count-words` on the page → `total`", frozenset()) == " `total`"
    assert doer_outputs(" `count-words`", frozenset()) is None  # one arrow, no catalog: names as before
    assert doer_outputs(" `total`, `pages`", frozenset({"count-words"})) is None
    assert doer_outputs(" **`count-words`** (the page)", frozenset({"count-words"})) == ""


@pytest.mark.parametrize("said", [
    "It gives back the `total` — it takes the `rows` plus the `currency` we get with the export.",
    "It returns the `total` - the `rows` it reads come from step 1.",
    "It returns the `total`; it needs the `rows` and the `currency`.",
    "It hands back the `total` and uses the `currency` we get from the ticket.",
])
def test_what_a_step_returns_stops_where_the_sentence_turns_to_what_it_takes(said: str) -> None:
    spec = parse_spec_text(f"# Sums\n\n## Steps\n\n### Step 1: Add\n- Skill: `add-rows`\n\n{said}\n", "s.md",
                           "markdown")
    assert [f.name for f in spec.steps[0].outputs] == ["total"]
