"""A skill a value is said to come from ("the max_trips that road-weather gave back") is that value's
source, not a second doer of the sentence (`spec.skill_mentions`): the sentence is not cut there, so
what follows it (a retry, a fallback) stays with the step that does the work.

In a recipe card, a ship's log and a support runbook of our own; look-alikes where the name does work.
"""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.skill_mentions import cut_at_doers, doers, only_fallbacks
from orchestrator.spec.vocabulary import Vocabulary

VOCAB = Vocabulary(skills=frozenset({"scale-read", "batch-plan", "tide-table", "course-plot", "ticket-pull",
                                     "reply-draft"}))


@pytest.mark.parametrize(("sentence", "want"), [
    ("Plan the batches with batch-plan, using the weights that scale-read gave back.", ["batch-plan"]),  # a recipe
    ("Plot the course with course-plot from the heights which tide-table returned.", ["course-plot"]),  # a log
    ("Draft the reply with reply-draft, quoting what ticket-pull handed back.", ["reply-draft"]),  # a runbook
])
def test_a_skill_a_value_came_from_is_no_doer(sentence: str, want: list[str]) -> None:
    assert doers(sentence, VOCAB) == want
    assert cut_at_doers(sentence, VOCAB) == [sentence]


@pytest.mark.parametrize("sentence", [
    "Weigh with scale-read, then batch-plan gives back the plan.",  # batch-plan does work: no relative clause
    "Pull it with ticket-pull and reply-draft returns a draft.",
])
def test_a_skill_doing_the_work_is_still_a_doer(sentence: str) -> None:
    assert len(doers(sentence, VOCAB)) == 2


_DOCS = [
    ("card.md", "# Bread card\n\n+ Weigh with scale-read.\n+ Then plan the batches with batch-plan, using the weights "
                "that scale-read gave back. If it falls over, wait 10 sec and try again, then 1 min.\n"),
    ("log.txt", "Night watch\n\n1. Read the tides with tide-table.\n2. Plot the course with course-plot from the heights "
                "which tide-table returned. If it falls over, wait 10 sec and try again, then 1 min.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _DOCS)
def test_the_policy_after_the_source_stays_with_the_doing_step(name: str, doc: str) -> None:
    spec = parse_spec_text(doc, name, "markdown", VOCAB)
    retries = {sid: e.retry.delays_s for r in spec.readings for sid in r.steps
               if (e := effect_of(r.statement)).retry is not None}
    assert retries == {"step-2": (10.0, 60.0)}, spec.readings


@pytest.mark.parametrize(("text", "want"), [
    ("The tide service drops out at night. If it errors, switch to `tide-cached` so the watch isn't held up.", True),
    ("Label printer jams a lot. Should it fail, fall back to `label-handwrite`.", True),  # a kitchen sheet
    ("The CRM is flaky; if that breaks, use `crm-export` instead.", True),  # a runbook
    ("When every tray is weighed, `tray-total` adds them up.", False),  # a skill doing the next work
    ("Run `scan-pull`; if it fails use `scan-cached`.", False),  # a doer and its fallback
])
def test_a_paragraph_naming_only_a_fallback_is_recognised(text: str, want: bool) -> None:
    assert only_fallbacks(text) is want


_SECTIONS = [
    ("watch.md", "# Night watch\n\n## 1. Tides\n\n> tool: `tide-fetch`\n\nThe tide service drops out at night. If it "
                 "errors, switch to `tide-cached` so the watch isn't held up.\n\n## 2. Plot\n\nUse `course-plot`.\n"),
    ("prep.md", "# Prep sheet\n\n## Labels\n\nPrint them with `label-print`.\n\nThe printer jams a lot. Should it fail, "
                "fall back to `label-handwrite`.\n\n## Stock\n\nCount with `stock-count`.\n"),
]


@pytest.mark.parametrize(("name", "doc"), _SECTIONS)
def test_a_fallback_paragraph_under_a_step_heading_is_no_step_of_its_own(name: str, doc: str) -> None:
    spec = parse_spec_text(doc, name, "markdown")
    assert len(spec.steps) == 2, [(s.id, s.skill) for s in spec.steps]
