"""The branches of a choice keep their conditions and the step after them runs once after whichever
ran, in documents of kinds no fixture uses: an HR checklist, a lesson plan's decision tree, a runbook
whose steps say their own conditions, a tweet thread. Each guess is shown and warned at its line."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("screen-candidate", output_schema=obj(("remote", "grade"), remote="boolean", grade="number")),
    skill("ship-laptop", output_schema=obj(("tracking",), tracking="string")),
    skill("book-desk", output_schema=obj(("tracking",), tracking="string")),
    skill("send-welcome", input_schema=obj(("tracking",), tracking="string")),
    skill("print-cert", output_schema=obj(("note",), note="string")),
    skill("book-resit", output_schema=obj(("note",), note="string")),
    skill("mail-parents", input_schema=obj(("note",), note="string")),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)


def _codes(plan: Plan, line: int) -> list[str]:
    return [w.code for w in plan.warnings if w.line == line]


def test_an_hr_checklist_s_one_word_branch_is_its_truth_and_the_welcome_joins_both() -> None:
    plan = _plan("# Onboarding checklist\n\n- [ ] **Screen** with `screen-candidate`.\n"
                 "- [ ] **Kit** — it depends:\n  - remote → `ship-laptop` to their home\n"
                 "  - anything else → `book-desk`\n"
                 "- [ ] **Welcome** — `send-welcome` with the tracking from whichever of the two happened.\n")
    assert plan.step("step-2").when == "steps['step-1'].output.remote is true"
    assert plan.step("step-3").when == "not (steps['step-1'].output.remote is true)"
    assert sorted(plan.step("step-4").depends_on) == ["step-2", "step-3"]
    assert plan.step("step-4").inputs["tracking"].any_of == ("step-2", "step-3")
    assert "spec.lead-condition" in _codes(plan, 5)


def test_a_lesson_plan_s_decision_tree_under_a_step_makes_a_step_per_branch_and_a_join() -> None:
    plan = _plan("# Lesson: end-of-unit quiz\n\n- **Screen the class** — run `screen-candidate`.\n"
                 "  - Look at the grade it gives:\n    - **grade >= 50** 🎉\n"
                 "      - → **Certificate** with `print-cert`\n    - **everyone else**\n"
                 "      - → **Resit** via `book-resit`\n"
                 "- **Both paths end here → Tell the parents** with `mail-parents`, passing the note.\n")
    assert [s.skill for s in plan.steps] == ["screen-candidate", "print-cert", "book-resit", "mail-parents"]
    assert [s.name for s in plan.steps[1:3]] == ["Certificate", "Resit"]
    assert plan.step("step-2").when == "steps['step-1'].output.grade >= 50"
    assert plan.step("step-3").when == "not (steps['step-1'].output.grade >= 50)"
    assert sorted(plan.step("step-4").depends_on) == ["step-2", "step-3"]
    assert plan.step("step-4").join == "any"


def test_a_runbook_s_own_conditions_said_in_passing_are_read_and_either_way_joins() -> None:
    plan = _plan("# Runbook: new starter\n\n## Step 1: Screen\nRun `screen-candidate`.\n\n## Step 2: Ship\n"
                 "Run `ship-laptop`. Only if the person works from home (`remote` is true).\n\n## Step 3: Desk\n"
                 "Run `book-desk` if not remote.\n\n## Step 4: Welcome\n"
                 "`send-welcome`, either way, with the tracking from step 2 or step 3.\n")
    assert plan.step("step-2").when == "steps['step-1'].output.remote == true"
    assert plan.step("step-3").when == "steps['step-1'].output.remote is false"
    assert sorted(plan.step("step-4").depends_on) == ["step-2", "step-3"]
    assert "spec.lead-condition" in _codes(plan, 10)
    assert not [w for w in plan.warnings if w.code == "spec.own-fallback"]


def test_a_tweet_thread_s_if_sentence_before_its_own_skill_is_its_condition() -> None:
    plan = _plan("thread: how we grade 🧵\n\n## 1/\n`screen-candidate` first.\n\n## 2/\n"
                 "If the grade is at least 50, we run `print-cert`.\n\n## 3/\n"
                 "When the grade is below 50: run `book-resit`.\n\n## 4/\n"
                 "after either branch, `mail-parents` gets the note.\n")
    assert plan.step("step-2").when == "steps['step-1'].output.grade >= 50"
    assert plan.step("step-3").when == "steps['step-1'].output.grade < 50"
    assert sorted(plan.step("step-4").depends_on) == ["step-2", "step-3"]


def test_a_failure_said_with_if_before_a_skill_stays_a_fallback_not_a_condition() -> None:
    plan = _plan("# Runbook\n\n## Step 1: Screen\nRun `screen-candidate`.\n\n## Step 2: Ship\n"
                 "Run `ship-laptop` if the courier API is down.\n")
    assert plan.step("step-2").when is None


def test_a_guessed_condition_that_names_no_value_is_dropped_with_a_warning_not_refused() -> None:
    plan = _plan("# Runbook\n\n## Step 1: Screen\nRun `screen-candidate`.\n\n## Step 2: Ship\n"
                 "Run `ship-laptop` if hybrid.\n")
    assert plan.step("step-2").when is None
    assert "spec.condition-not-read" in _codes(plan, 7)


def test_a_release_checklist_item_that_says_if_then_otherwise_is_two_branch_steps() -> None:
    plan = _plan("# Release checklist\n\n1. **Screen** — run `screen-candidate`.\n"
                 "2. **Kit** — if `remote` is true, run `ship-laptop`; otherwise run `book-desk`.\n"
                 "3. **Welcome** — `send-welcome` after either branch.\n")
    assert [s.skill for s in plan.steps] == ["screen-candidate", "ship-laptop", "book-desk", "send-welcome"]
    assert plan.step("step-2").when == "steps['step-1'].output.remote == true"
    assert plan.step("step-3").when == "not (steps['step-1'].output.remote == true)"
    assert sorted(plan.step("step-4").depends_on) == ["step-2", "step-3"]


def test_an_item_whose_if_is_about_a_failure_stays_one_step() -> None:
    plan = _plan("# Release checklist\n\n1. **Screen** — run `screen-candidate`.\n"
                 "2. **Kit** — if the courier fails, run `book-desk`; otherwise run `ship-laptop`.\n")
    assert len(plan.steps) == 2


def test_a_kanban_card_s_trailing_only_when_is_its_condition() -> None:
    plan = _plan("# Board\n\n## To do\n- **Screen** `screen-candidate`\n"
                 "- **Ship** `ship-laptop` — only when remote is true\n"
                 "- **Desk** `book-desk` — only when remote is false\n"
                 "- **Welcome** `send-welcome`, after whichever of Ship / Desk happened\n")
    assert plan.step("step-2").when == "steps['step-1'].output.remote is true"
    assert plan.step("step-3").when == "steps['step-1'].output.remote is false"
    assert sorted(plan.step("step-4").depends_on) == ["step-2", "step-3"]


def test_if_needed_or_when_ready_after_a_skill_is_no_condition_on_data() -> None:
    plan = _plan("# Runbook\n\n## Step 1: Screen\nRun `screen-candidate`.\n\n## Step 2: Ship\n"
                 "Run `ship-laptop` if needed.\n\n## Step 3: Desk\nUse `book-desk` when ready.\n")
    assert [s.when for s in plan.steps] == [None, None, None]
    assert not [w for w in plan.warnings if w.code == "spec.lead-condition"]


def test_a_lesson_plan_s_only_if_that_says_the_gate_did_not_pass_is_the_other_branch() -> None:
    plan = _plan("# Lesson 4\n\n## Screening\n**Tool:** `screen-candidate`\n\n## Certificate\n**Tool:** `print-cert`\n"
                 "**Only if:** `grade` >= 50\n\n## Resit\n**Tool:** `book-resit`\n"
                 "**Only if:** the pupil fell short (the certificate gate did not pass)\n")
    assert plan.step("step-2").when == "steps['step-1'].output.grade >= 50"
    assert plan.step("step-3").when == "not (steps['step-1'].output.grade >= 50)"
    assert "spec.lead-condition" in _codes(plan, 12)


def test_a_bar_that_names_no_value_is_warned_where_it_is_compared_as_text() -> None:
    plan = _plan("# Grading\n\n## Screening\n**Tool:** `screen-candidate`\n\n## Certificate\n**Tool:** `print-cert`\n"
                 "**Only if:** the pupil's grade >= `pass_mark`\n")
    assert plan.step("step-2").when == "steps['step-1'].output.grade >= 'pass_mark'"
    assert any("`pass_mark` names no workflow input" in w.message for w in plan.warnings if w.line == 8)
