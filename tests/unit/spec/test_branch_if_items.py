"""A choice written as list items that open with their case ("if at least 10 came back, `a` ...",
"otherwise, `b` ...") under a step's heading is a step per branch: a runbook, a recipe card, a
support ticket; a list of fallbacks or of cases with no "otherwise" is not (`spec.branch_if_items`)."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text
from orchestrator.spec.blocks import Bullet
from orchestrator.spec.branch_if_items import case_items, counted, lead_field
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in (
    "count-nodes", "drain-pool", "page-oncall", "weigh-flour", "bake-loaf", "bake-rolls",
    "read-ticket", "refund-card", "store-credit", "close-ticket", "backup-db", "copy-snapshot")])


def _spec(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", _VOCAB)


def _bullets(*texts: str) -> list[Bullet]:
    return [Bullet(line=n + 1, text=t) for n, t in enumerate(texts)]


def test_a_runbook_fork_on_a_count_named_in_its_lead() -> None:
    spec = _spec("""# Pool drain

## Steps

### Count
Run `count-nodes` on the pool.

### Act
This depends on how many are unhealthy (`bad_nodes` from the count):

- if at least 3 are unhealthy, `page-oncall` with the list.
- otherwise, `drain-pool` them one by one.

### Close
Whichever ran, note it.
""")
    names = [s.mentions[0].text for s in spec.steps[:3]]
    assert names == ["count-nodes", "page-oncall", "drain-pool"]
    page, drain = spec.steps[1], spec.steps[2]
    assert any(r.what == "branch" and r.text == "bad_nodes >= 3" for r in page.readings)
    assert drain.otherwise_of == page.id


_RECIPE = """# Bread

## Inputs

- guests (number): how many come

## Method

### Weigh
Weigh it out with `weigh-flour`.

### Bake
- when guests > 6, `bake-loaf` it whole.
- else — a lunch batch — `bake-rolls` instead.
"""


def test_a_recipe_card_fork_on_an_input() -> None:
    spec = _spec(_RECIPE)
    loaf, rolls = spec.steps[1], spec.steps[2]
    assert [m.text for m in loaf.mentions][:1] == ["bake-loaf"]
    assert loaf.when == "guests > 6"
    assert rolls.otherwise_of == loaf.id


def test_a_case_in_words_that_is_no_condition_is_refused_at_its_line() -> None:
    with pytest.raises(SpecError) as caught:
        _spec(_RECIPE.replace("when guests > 6", "when it is for the dinner"))
    assert "the branch 'it is for the dinner' is not a condition" in str(caught.value)


def test_a_ticket_with_two_cases_and_an_otherwise() -> None:
    found = case_items(_bullets("If the card is still open, `refund-card` the amount.",
                                "If it is a gift order, `store-credit` it.",
                                "Otherwise: `close-ticket` with a note."), 0)
    assert found is not None
    assert [label for label, _ in found] == ["the card is still open", "it is a gift order", "otherwise"]


def test_fallbacks_are_no_branches() -> None:
    assert case_items(_bullets("If it times out, `copy-snapshot` instead.",
                               "Otherwise, `backup-db` as usual."), 0) is None
    assert case_items(_bullets("If the dump fails, `copy-snapshot`.", "If that fails too, page."), 0) is None


def test_cases_without_an_otherwise_are_left_to_the_other_readers() -> None:
    assert case_items(_bullets("if it is Monday, `backup-db`.", "if it is Friday, `copy-snapshot`."), 0) is None
    assert case_items(_bullets("otherwise, `backup-db`.", "if it is Friday, `copy-snapshot`."), 0) is None


def test_a_count_without_a_name_stays_words() -> None:
    assert lead_field("It depends on how many (`kept_n` from the filter):") == "kept_n"
    assert lead_field("Run `count-nodes` first, then look at `bad_nodes`:") is None  # names a skill
    assert lead_field("It depends on `a` and `b`:") is None
    assert counted("at least 10 survived", "kept_n") == "kept_n >= 10"
    assert counted("fewer than 2 left", "n") == "n < 2"
    assert counted("5 or more", "n") == "n >= 5"
    assert counted("at least 10 survived", None) == "at least 10 survived"
    assert counted("the card is open", "n") == "the card is open"
