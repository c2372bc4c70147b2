"""The policy reader on the values a failed step goes on with said as a list of `name value` pairs, and
on the failed thing written down "as" a field and its value (`spec.policy_values_said`).

In wordings of our own, as a runbook, a recipe card, a lab protocol, a ship's log, a support ticket
and a field-survey sheet would say them; none is a blind set's sentence.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec import parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _value(text: str) -> Any:
    phrase = read_phrase(text)
    assert phrase.problems == (), phrase.problems
    fallback = effect_of(phrase.statement).fallback
    return None if fallback is None else (fallback.value if fallback.action is FallbackAction.DEFAULT else fallback.action)


@pytest.mark.parametrize(("text", "want"), [
    # a list of pairs after "assume", "with", "use"
    ('If the scale dies, carry on and assume weight 0, unit "kg", tare false.',
     {"weight": 0, "unit": "kg", "tare": False}),  # a recipe card
    ('Should the GPS drop out, keep going and assume fix_ok false, sats 0, note "dead reckoning, check at noon".',
     {"fix_ok": False, "sats": 0, "note": "dead reckoning, check at noon"}),  # a ship's log (a comma in the text)
    ("If the licence server is down, continue with seats 0 and licensed false.",
     {"seats": 0, "licensed": False}),  # a runbook
    ("When the plate reader errors, use od600 null, blank_ok true and carry on.",
     {"od600": None, "blank_ok": True}),  # a lab protocol
    ("If the CRM lookup fails just proceed, assuming tier \"free\", seats 1.",
     {"tier": "free", "seats": 1}),  # a support ticket
    ("If the tide gauge is down, keep going and assume low_m 0.4, high_m 4.1 and range_m 3.7.",
     {"low_m": 0.4, "high_m": 4.1, "range_m": 3.7}),  # a ship's log: the last pair after "and"
    # the failed thing written down as a field and its value
    ("A bad core sample must not block the rest: log that sample as moisture_pct 0 and continue.",
     {"moisture_pct": 0}),  # a field-survey sheet
    ("If one well is contaminated, record the well as ct 40, flagged true, then carry on.",
     {"ct": 40, "flagged": True}),  # a lab protocol
    ("If a guest's allergy form is missing, mark it as allergens \"unknown\" and keep going.",
     {"allergens": "unknown"}),  # a recipe card
    ("If a bed's sensor won't read, don't stop - jot it down as moisture 0, dry True and sort it later.",
     {"moisture": 0, "dry": True}),  # a greenhouse macro's comment: "put/jot it down as", a capital truth word
    ("When one invoice will not post, put that down as paid False, amount 0 and carry on.",
     {"paid": False, "amount": 0}),  # a bookkeeper's sheet
])
def test_the_pairs_said_are_every_value_gone_on_with(text: str, want: dict[str, Any]) -> None:
    assert _value(text) == want


@pytest.mark.parametrize("text", [
    "Use retries 3, wait 10 and continue.",  # policy words are never a field
    "Set the oven 180 and bake with butter 50 and sugar 80.",  # a recipe's quantities: no going on
    "Record the sample as received and file it.",  # no value: a word, not a pair
    "Put it down as late 1 on the board.",  # written down as a pair, but nothing says go on after a failure
    "Assume the tide is 2 m, then launch.",  # a measure, no going on after a failure
    "Keep going with the plan: ask Sam 2 questions, then Priya 3.",  # a person and a count are no pair list
])
def test_text_that_looks_like_pairs_is_no_value_to_go_on_with(text: str) -> None:
    fallback = effect_of(read_phrase(text).statement).fallback
    assert fallback is None or fallback.action is not FallbackAction.DEFAULT, fallback


_DOCS = [
    ("runbook.txt", "Nightly licence audit\n\n1. Count the seats with `seat-count`. {}\n2. Mail it with `mail-report`.\n"),
    ("recipe.md", "# Sourdough\n\n## Step 1: Weigh\nUse `scale-read`.\n\n{}\n"),
    ("checklist.md", "# Dawn survey\n\n- [ ] Fix the position with `gps-fix`. {}\n- [ ] Plot it with `plot-course`.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _DOCS)
def test_a_pair_list_is_the_step_s_value_in_each_document_kind(name: str, doc: str) -> None:
    sentence = 'If it breaks, keep going and assume ok false, count 0, note "by hand".'
    spec = parse_spec_text(doc.format(sentence), name, "markdown")
    values = [f.value for r in spec.readings if (f := effect_of(r.statement).fallback) is not None]
    assert {"ok": False, "count": 0, "note": "by hand"} in values, spec.readings
