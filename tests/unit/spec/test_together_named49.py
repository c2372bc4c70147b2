"""A lead saying steps start together ("stock + oven run side by side") read where the document's shape is not
recognised (`spec.anchored`): it is about the steps it names, when they are the first under it, never every step
under it; a lead that names fewer than two ("these all run side by side") still covers all of them, and one naming
steps further down starts none of them at the lead (holdout32 199: l.14 made steps 3 and 4 roots)."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

_JOBS = """\
// nightly.js -- shop jobs
// LEAD

job("stock", () => {
  // count-stock: shop -> counts
  run("count-stock", { shop })
})

job("oven", () => {
  // oven-check: shop -> ok
  run("oven-check", { shop })
})

job("order", () => {
  // place-order: counts from stock
  run("place-order", { counts: stock.counts })
})
"""

_STAGES = """\
-- pipeline notes, pasted from the wiki
-- LEAD

stage('fetch') {
  -- fetch-rates from the bank feed
  call('fetch-rates')
}

stage('weigh') {
  -- weigh-parcels on the dock scale
  call('weigh-parcels')
}

stage('quote') {
  -- quote-price with rates and weights
  call('quote-price')
}
"""
_SKILLS = ("count-stock", "oven-check", "place-order", "fetch-rates", "weigh-parcels", "quote-price")


def _together(text: str, lead: str, name: str) -> list[bool]:
    spec: Any = parse_spec_text(text.replace("LEAD", lead), name, "markdown",
                                Vocabulary.of([(s, None) for s in _SKILLS]))
    return [any("start together" in r.note for r in s.readings) for s in spec.steps]


@pytest.mark.parametrize(("text", "lead", "name"), [
    (_JOBS, "stock + oven don't depend on each other: they run side by side", "nightly.js"),
    (_STAGES, "fetch and weigh are independent, run them at the same time", "notes.txt"),
])
def test_a_lead_naming_two_steps_starts_only_those_together(text: str, lead: str, name: str) -> None:
    assert _together(text, lead, name) == [False, True, False]  # the third step keeps its order


@pytest.mark.parametrize(("text", "name"), [(_JOBS, "nightly.js"), (_STAGES, "notes.txt")])
def test_a_lead_naming_none_still_covers_every_step_under_it(text: str, name: str) -> None:
    assert _together(text, "these all run side by side", name) == [False, True, True]


def test_a_lead_naming_later_steps_starts_none_at_the_lead() -> None:
    spec: Any = parse_spec_text(_JOBS.replace("LEAD", "oven + order run side by side"), "nightly.js", "markdown",
                                Vocabulary.of([(s, None) for s in _SKILLS]))
    assert not any("the steps under this line" in r.note for s in spec.steps for r in s.readings)
