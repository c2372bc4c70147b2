"""Round 47 (a fax cover sheet typed as plain text, read in words that are not the fax's): a numbered item's
sentence wrapped onto a line that opens with a number (`spec.wrapped_item47`), "if nothing comes back use x" a
fallback, 'name is always "X"' a literal that "same name" gives a later step, "must OK it" with its condition
before it and no comma, "carry on as k = v", and "done when 4 says k = yes" (`spec.success_says47`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import approval_condition
from orchestrator.spec.outline import outline
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.said_literals import fixed_values
from orchestrator.spec.skill_mentions import doers, roles
from orchestrator.spec.success_says47 import said_by
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.wrapped_item47 import continues_line, goes_on

_CATALOG = Vocabulary(skills=frozenset({"price-lookup", "list-price", "stock-count"}))


def _items(text: str) -> list[tuple[str, int]]:
    return [(u.label, len(u.lines)) for u in outline(text.split("\n")).walk() if u.kind == "item"]


def test_a_wrapped_line_opening_with_a_number_the_sentence_cites_goes_on() -> None:
    memo = "1. stock-count - the shelf.\n2. price-lookup - the sku and the count from\n   1. Hands back a price.\n"
    assert _items(memo) == [("1.", 1), ("2.", 2)]
    email = "3. reorder - only what is short after\n   2) and nothing else.\n"
    assert _items(email) == [("3.", 2)]
    assert goes_on("the count from", "1.", 3, 3) and goes_on("whatever is more than", "2)", 3, 3, 0)


def test_a_sub_item_under_a_colon_or_a_letter_stays_an_item() -> None:
    assert _items("1. Check these:\n   1. the totals\n") == [("1.", 1), ("1.", 1)]
    assert not goes_on("the count from", "a.", 3, 3)  # a letter is no step's number
    assert not goes_on("the count from", "1.", 8, 3)  # deeper than the text: a sub-item
    assert _items("2. stir: start it with the dough step\n3. plate: when ready\n") == [("2.", 1), ("3.", 1)]
    assert _items("2. stir: the lot, from\n3. plate: when ready\n") == [("2.", 1), ("3.", 1)]  # at the margin
    assert not continues_line("Check these:", "   1. the totals")
    assert continues_line("the sku and the time from", "   1. Gives a price.")


def test_no_answer_before_use_names_a_fallback() -> None:
    said = "Allow 30 s, if nothing comes back use list-price."
    assert doers(said, _CATALOG) == [] and [m.role for m in roles(said, _CATALOG)] == ["fallback"]
    other = "price-lookup the sku; if no reply, switch to list-price."
    assert doers(other, _CATALOG) == ["price-lookup"]
    assert [m.role for m in roles(other, _CATALOG)] == ["doer", "fallback"]
    assert doers("If stock is low, use list-price.", _CATALOG) == ["list-price"]  # no failure: a doer


def test_a_one_word_name_always_a_quoted_text_is_a_literal() -> None:
    assert fixed_values('the sku, press is always "Daily Post". Wait 2 mins') == {"press": "Daily Post"}
    assert fixed_values('and region is always "EU-West"') == {"region": "EU-West"}
    assert fixed_values('if region is always "EU-West"') == {}  # a condition


_SAME = ("# Flow\n\n## Steps\n\n### Step 1: Quote\n- Skill: `quote-ad`\n\nThe sku, press is always \"Daily Post\".\n\n"
         "### Step 2: Book\n- Skill: `book-ad`\n\nThe text from step 1, {said}.\n")


def test_same_name_gives_the_value_an_earlier_step_fixes() -> None:
    for said in ("same press", "the same `press`"):
        spec = parse_spec_text(_SAME.format(said=said), "flow.md", "markdown")
        assert spec.steps[1].input_values.get("press") == "Daily Post", said
    spec = parse_spec_text(_SAME.format(said="same day"), "flow.md", "markdown")
    assert "day" not in spec.steps[1].input_values  # no step fixes a day


def test_an_ok_with_its_condition_before_it_and_no_comma() -> None:
    assert approval_condition("If the bill is over 300 pounds the owner must OK it first.")[0] == "the bill is over 300"
    assert approval_condition("IF the total is over 80 the landlord has to okay this")[0] == "the total is over 80"
    assert approval_condition("The owner must OK it first.")[0] is None  # no condition: every run


def test_carry_on_as_name_value_pairs() -> None:
    found = read_phrase("if the pager fails don't worry, carry on as paged = no.").statement.on_failure
    assert found is not None and found.kind == "continue_with_value" and found.value == {"paged": False}
    other = read_phrase("if it breaks keep going as done = false, ref = PAPER").statement.on_failure
    assert other is not None and other.value == {"done": False, "ref": "PAPER"}
    plain = read_phrase("if it breaks carry on as usual").statement.on_failure
    assert plain is not None and plain.kind == "continue"  # no pairs: a plain going on


def test_done_when_a_numbered_step_says_a_comparison() -> None:
    assert said_by("All done when 3 says booked = yes.", "says booked = yes") == (3, "booked == true")
    assert said_by("finished once step 2 returns count >= 1", "returns count >= 1") == (2, "count >= 1")
    assert said_by("Job's done when the van says so.", "says so") is None  # no step's number
