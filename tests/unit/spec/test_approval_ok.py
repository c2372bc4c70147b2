"""A person's OK in the author's own words (`approval_ok`): what silence means ("confirm it anyway" is a yes,
"don't release - hold it" a no), the one value that needs the OK ("AMBER means overtime, so the manager
has to OK it"; "if it comes back red, ..."), and a sign-off block of the author's own keys in a YAML step
(`qa_sign_off: {only_if, who, wait_up_to, if_silent}`), each reading warned at its line. Tested in a
restaurant's event booking, a ship's night-watch log, a school trip plan and a lab's batch release."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.plan.build import draft_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_ok import quoted_values, silence_means, value_condition
from orchestrator.spec.condition import approval_timeout
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, plan_of_text, skill


@pytest.mark.parametrize(("text", "seconds", "then"), [
    ("If Marta hasn't replied within 30 minutes, confirm the booking anyway - the party is tonight.", 1800, "approve"),
    ("If the purser hasn't answered within 15 min, sail regardless.", 900, "approve"),
    ("If the trip lead hasn't answered within 2 hours, don't send the letters, hold them.", 7200, "reject"),
    ("Wait up to 1 hour for QA; if nothing comes back, the batch is NOT released.", 3600, "reject"),
])
def test_what_silence_means_in_the_authors_words(text: str, seconds: int, then: str) -> None:
    assert approval_timeout(text) == (seconds, then)


@pytest.mark.parametrize(("text", "then"), [
    ("book it anyway", "approve"),
    ("don't post - hold it, we sort it by hand", "reject"),
    ("without an answer, cancel", "reject"),
    ("don't wait for her, send it", "approve"),
    ("the weather's nice", None),
    ("the order is held; carry on with the rest of the list", "reject"),
])
def test_silence_means(text: str, then: str | None) -> None:
    assert silence_means(text) == then


@pytest.mark.parametrize(("sentence", "value"), [
    ("AMBER means overtime for the kitchen, so the manager has to OK it first.", "amber"),
    ("Red means we alter course at night, so the master must approve it.", "Red"),
    ("If it comes back urgent, the duty head has to sign it off first.", "urgent"),
])
def test_the_value_that_needs_the_ok(sentence: str, value: str) -> None:
    found = value_condition(sentence)
    assert found is not None and found[0] == f"{value} only" and "plainly" in found[1]


@pytest.mark.parametrize("sentence", [
    "This means the manager has to OK it first.",
    "That means nothing to the skipper.",
])
def test_a_pronoun_is_no_value(sentence: str) -> None:
    assert value_condition(sentence) is None


def test_quoted_values_of_a_skills_words() -> None:
    assert quoted_values('("red" at 8+, "amber" at 4-7, else "green")') == ["red", "amber", "green"]


EVENTS = FakeCatalog(skill("price-event", output_schema=obj(tier="string", total="number")),
                     skill("confirm-booking", output_schema=obj(ref="string")))


def test_a_restaurant_booking_asks_the_ok_only_for_the_value_and_goes_on_when_silent() -> None:
    plan = plan_of_text(
        "# Private dining\n\n## Steps\n\n### Step 1: Price\n- Skill: price-event\nIt gives `tier` "
        '("standard" or "premium") and the total.\n\n### Step 2: Confirm\n- Skill: confirm-booking\n'
        "PREMIUM means the sommelier comes in, so Marta has to OK it first. If Marta hasn't replied within 30 "
        "minutes, confirm it anyway.\n", EVENTS)
    approval = plan.steps[1].policy.approval
    assert approval is not None and (approval.timeout_s, approval.on_timeout) == (1800.0, "approve")
    # the value is placed only when a field declares it (here the spec's words do not reach the schema):
    # otherwise the approval is asked on every run, warned, never on none
    assert approval.when in (None, "steps['step-1'].output.tier == 'premium'")


def test_a_ships_log_warns_the_value_read_as_the_condition() -> None:
    spec = parse_spec_text(
        "# Night watch\n\n## Steps\n\n### Step 1: Plot\n- Skill: plot-course\n\n### Step 2: Alter\n"
        "- Skill: alter-course\nRED means a change at night so the master has to OK it first.\n",
        "watch.md", "markdown")
    assert spec.steps[1].approval is not None and spec.steps[1].approval.when == "red only"
    assert any(w.line == 10 and "'red'" in w.message for w in spec.warnings)


SKILLS = FakeCatalog(skill("collect-forms", output_schema=obj(missing_count="integer")),
                     skill("send-letters", output_schema=obj(sent="boolean")),
                     skill("assay", output_schema=obj(fail_count="integer")),
                     skill("release-batch", output_schema=obj(released="boolean")))
WORDS = Vocabulary.of([(s.bound().name, None) for s in SKILLS])

TRIP = """\
steps:
  "1":
    label: forms
    tool: collect-forms
  "2":
    label: letters
    tool: send-letters
    head_sign_off:
      only_if: step 1 -> missing_count above 0
      who: the head (office phone)
      wait_up_to: 2h
      if_no_reply: go ahead anyway, the coach is booked
"""

LAB = """\
steps:
  - id: assay
    skill: assay
  - id: release
    skill: release-batch
    qa_approval:
      when: assay.fail_count > 0
      who: QA lead
      deadline: 4h
      if_silent: "don't release - hold it in quarantine"
"""


@pytest.mark.parametrize(("text", "when", "seconds", "then"), [
    (TRIP, "steps['step-1'].output.missing_count > 0", 7200.0, "approve"),
    (LAB, "steps['assay'].output.fail_count > 0", 14400.0, "reject"),
])
def test_a_sign_off_block_of_own_keys_is_the_steps_approval(text: str, when: str, seconds: float, then: str) -> None:
    spec = parse_spec_text(text, "doc.yaml", "yaml", WORDS)
    plan, errors = draft_plan(spec, SKILLS, settings=SETTINGS)
    assert plan is not None and not errors, errors
    approval: Any = plan.steps[1].policy.approval
    assert approval is not None and (approval.when, approval.timeout_s, approval.on_timeout) == (when, seconds, then)
    assert any("read as the step's approval" in w.message for w in spec.warnings)
    assert any("no answer means" in w.message for w in spec.warnings)  # the words of silence, warned


def test_a_block_under_a_sign_off_name_that_says_no_person_is_not_an_approval() -> None:
    spec = parse_spec_text(LAB.replace("    qa_approval:\n      when: assay.fail_count > 0\n      who: QA lead\n"
                                       "      deadline: 4h\n      if_silent: \"don't release - hold it in quarantine\"\n",
                                       "    qa_approval:\n      form: QA-7\n"), "doc.yaml", "yaml", WORDS)
    assert spec.steps[1].approval is None
    assert any("qa_approval" in w.message for w in spec.warnings)


def test_a_sign_off_condition_that_cannot_be_read_asks_on_every_run_warned() -> None:
    spec = parse_spec_text(TRIP.replace("step 1 -> missing_count above 0", "the weather looks grim"), "doc.yaml",
                           "yaml", WORDS)
    approval = spec.steps[1].approval
    assert approval is not None and approval.when is None and approval.on_timeout == "approve"
    assert any(w.line == 9 and "asked on every run" in w.message for w in spec.warnings)


def test_a_rota_in_yaml_reads_the_value_and_the_silence_of_its_approval_sentence() -> None:
    spec = parse_spec_text("steps:\n  - id: price\n    skill: price-shift\n  - id: post\n    skill: post-rota\n"
                           "    approval: AMBER means overtime, so the manager has to OK it. If she hasn't replied "
                           "within 30 minutes, post it anyway.\n", "rota.yaml", "yaml")
    approval = spec.steps[1].approval
    assert approval is not None and approval.when == "amber only"
    assert (approval.timeout_s, approval.on_timeout) == (1800.0, "approve")
    assert any(w.line == 6 and "'amber'" in w.message for w in spec.warnings)
