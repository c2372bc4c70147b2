"""A step said to run when an earlier step did not ("Only if step 2 wasn't needed", "there was no need
for step 2", under a label such as "Only do this if:") is that step's other branch, warned at its line
(`spec.gate_skipped`); before, in a sentence it was warned as not read and both steps ran, with an
aside ("(no red flags)") it became a flag no step gives without a word, and under the author's label
it was "label not understood". Tested in a clinic triage protocol, a club's match-day plan, a warehouse
returns page and a library digitisation workflow."""

from __future__ import annotations

import pytest

from orchestrator.spec.gate_skipped import condition_label, skipped
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill

CATALOG = FakeCatalog(skill("intake", output_schema=obj(flag_count="integer")),
                      skill("act", output_schema=obj(status="string")),
                      skill("other", output_schema=obj(status="string")))
HEAD = ("# {title}\n\n## Steps\n\n### Step 1: Look\n- Skill: intake\n\n"
        "### Step 2: Act\n- Skill: act\n- Only if step 1 found at least 2 red flags\n\n### Step 3: Else\n- Skill: other\n")
IF = "steps['step-1'].output.flag_count >= 2"

CASES = [
    ("Walk-in triage", "- Only when step 2 was not needed (no red flags)"),
    ("Match day", "- Only if step 2 wasn't needed"),
    ("Returns desk", "- Only do this if: there was no need for step 2"),
    ("Digitisation", "- Do this only when: we skipped step 2"),
    ("Returns desk, own label", "- Run it only if: step 2 had nothing to do"),
]


@pytest.mark.parametrize(("title", "line"), CASES, ids=[c[0] for c in CASES])
def test_a_step_said_to_run_when_another_did_not_is_its_other_branch(title: str, line: str) -> None:
    plan = plan_of_text(HEAD.format(title=title) + line + "\n", CATALOG)
    assert plan.steps[1].when == IF
    assert plan.steps[2].when == f"not ({IF})"
    assert any(w.line == 14 and "other branch" in w.message for w in plan.warnings)


def test_a_label_in_the_authors_words_is_a_condition_line() -> None:  # a library digitisation workflow
    text = ("# Digitisation\n\n## Steps\n\n### Step 1: Survey\n- Skill: intake\n\n"
            "### Step 2: Conserve\n- Skill: act\n- Only do this if: step 1 found at least 1 brittle volume\n")
    catalog = FakeCatalog(skill("intake", output_schema=obj(brittle="array", brittle_count="integer")),
                          skill("act", output_schema=obj(status="string")))
    plan = plan_of_text(text, catalog)
    assert plan.steps[1].when == "steps['step-1'].output.brittle_count >= 1"
    assert not any("not understood" in w.message for w in plan.warnings)


@pytest.mark.parametrize(("label", "is_condition"), [
    ("only do this if", True), ("do this only when", True), ("run it only if", True), ("only run this step if", True),
    ("do this", False), ("only", False), ("notes", False),
])
def test_condition_labels(label: str, is_condition: bool) -> None:
    assert condition_label(label) is is_condition


@pytest.mark.parametrize("text", ["step 2 found nothing to fix? no: the total is over 3", "the van is not needed", "we skipped lunch"])
def test_words_that_name_no_step_not_run_are_left_alone(text: str) -> None:
    assert skipped(text, compared=True) is None
