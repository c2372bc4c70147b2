"""Conditions, other branches and joins written outside markdown bullets, in documents of kinds no
fixture uses and some it does: a reStructuredText lab protocol and podcast run sheet, an HR onboarding
page, a ship's log, a lesson plan, a recipe card. A field list's `:only if:` (`spec.field_list`), a yes/no
question opening a step (`spec.condition_question`), a condition that says an earlier step did not
run (`spec.condition_unhappened`) and an Otherwise after a condition that was warned and not read
(`plan.dataflow`: both run, warned, not refused). Every guess is warned at its line."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("run-assay", output_schema=obj(("titre", "contaminated"), titre="number", contaminated="boolean")),
    skill("bleach-plate", output_schema=obj(("status",), status="string")),
    skill("store-plate", output_schema=obj(("status",), status="string")),
    skill("log-result", input_schema=obj(("status",), status="string")),
    skill("check-guest", output_schema=obj(("late", "minutes"), late="boolean", minutes="number")),
    skill("play-filler", output_schema=obj(("cue",), cue="string")),
    skill("start-interview", output_schema=obj(("cue",), cue="string")),
    skill("screen-candidate", output_schema=obj(("remote", "hits"), remote="boolean", hits="number")),
    skill("ship-laptop", output_schema=obj(("tracking",), tracking="string")),
    skill("book-desk", output_schema=obj(("tracking",), tracking="string")),
    skill("send-welcome", input_schema=obj(("tracking",), tracking="string")),
    skill("read-wind", output_schema=obj(("stormy", "knots"), stormy="boolean", knots="number")),
    skill("reef-sails", output_schema=obj(("note",), note="string")),
    skill("hoist-sails", output_schema=obj(("note",), note="string")),
    skill("mark-quiz", output_schema=obj(("passed",), passed="boolean")),
    skill("print-cert", output_schema=obj(("note",), note="string")),
    skill("book-resit", output_schema=obj(("note",), note="string")),
    skill("find-gaps", output_schema=obj(("discrepancies", "matches"), discrepancies="array", matches="array")),
)


def _plan(text: str, path: str = "doc.md") -> Plan:
    return build_plan(parse_spec_text(text, path, "markdown"), CATALOG, settings=SETTINGS)


def _codes(plan: Plan, line: int) -> list[str]:
    return [w.code for w in plan.warnings if w.line == line]


# -- a field list's condition and otherwise ------------------------------------------------------------

_LAB_RST = """Plate assay
===========

Run the assay
-------------

:skill: ``run-assay``
:returns: titre, contaminated

Bleach the plate
----------------

:skill: ``bleach-plate``
:only if: contaminated is true
:takes: the plate

Store the plate
---------------

:skill: ``store-plate``
:otherwise: the plate is clean, keep it
:takes: the plate

Log it
------

:skill: ``log-result``
:after: the bleach or the store step, whichever happened
"""


def test_a_rst_lab_protocol_s_only_if_field_is_the_condition_and_its_otherwise_field_the_other_branch() -> None:
    plan = _plan(_LAB_RST, "protocol.rst")
    assert plan.step("step-2").when == "steps['step-1'].output.contaminated is true"
    assert plan.step("step-3").when == "not (steps['step-1'].output.contaminated is true)"
    assert sorted(plan.step("step-4").depends_on) == ["step-2", "step-3"]
    assert plan.step("step-4").join == "any"
    assert plan.step("step-4").inputs["status"].any_of == ("step-2", "step-3")


def test_a_rst_podcast_run_sheet_s_when_field_with_a_comparison_is_read() -> None:
    plan = _plan("Episode 42 run sheet\n====================\n\nGuest check\n-----------\n\n:skill: ``check-guest``\n\n"
                 "Filler\n------\n\n:skill: ``play-filler``\n:when: minutes is over 10\n:note: keep it short\n\n"
                 "Interview\n---------\n\n:skill: ``start-interview``\n", "runsheet.rst")
    assert plan.step("step-2").when == "steps['step-1'].output.minutes > 10"


def test_an_hr_onboarding_page_s_field_list_condition_is_read_not_dropped() -> None:
    plan = _plan("# Onboarding a new starter\n\n## Screen\n\n:tool: `screen-candidate`\n\n## Laptop\n\n"
                 ":tool: `ship-laptop`\n:condition: remote is true\n\n## Desk\n\n:tool: `book-desk`\n"
                 ":else: they come to the office\n")
    assert plan.step("step-2").when == "steps['step-1'].output.remote is true"
    assert plan.step("step-3").when == "not (steps['step-1'].output.remote is true)"


def test_a_ships_log_field_list_condition_it_cannot_read_is_said_not_dropped() -> None:
    from orchestrator.errors import SpecError

    try:
        plan = _plan("# Dawn watch\n\n## Wind\n\n:does: `read-wind`\n\n## Reef\n\n:does: `reef-sails`\n"
                     ":only if: the sky looks grim\n")
    except SpecError as exc:  # refused naming its line, or warned: never silent
        assert any(d.line == 10 for d in exc.diagnostics)
    else:
        assert plan.step("step-2").when is None
        assert _codes(plan, 10)


# -- a yes/no question opening the step --------------------------------------------------------------


def test_a_lesson_plan_s_questions_are_the_condition_and_its_other_branch() -> None:
    plan = _plan("# Lesson 7: fractions quiz\n\n1. Mark it with `mark-quiz`.\n2. Passed? `print-cert` for the pupil.\n"
                 "3. Not passed? Then `book-resit` for next week.\n")
    assert plan.step("step-2").when == "steps['step-1'].output.passed is true"
    assert plan.step("step-3").when == "not (steps['step-1'].output.passed is true)"
    assert "spec.lead-condition" in _codes(plan, 4)
    assert "spec.lead-condition" in _codes(plan, 5)


def test_an_hr_checklist_s_question_and_a_join_after_whichever_you_did() -> None:
    plan = _plan("# Starter checklist\n\n- [ ] Screen them: `screen-candidate`\n- [ ] Remote? Send `ship-laptop`.\n"
                 "- [ ] No remote? `book-desk` for them.\n"
                 "- [ ] Either way, `send-welcome` with the tracking from whichever you did.\n")
    assert plan.step("step-2").when == "steps['step-1'].output.remote is true"
    assert plan.step("step-3").when == "not (steps['step-1'].output.remote is true)"
    assert plan.step("step-4").join == "any"
    assert plan.step("step-4").inputs["tracking"].any_of == ("step-2", "step-3")


def test_a_ships_log_question_is_the_other_branch_or_a_condition_of_its_own() -> None:
    plan = _plan("# Log, 14 March\n\n1. `read-wind` at the mast\n2. Is it stormy? `reef-sails` now\n"
                 "3. Not stormy? `hoist-sails` and log it\n")
    assert plan.step("step-2").when == "steps['step-1'].output.stormy is true"
    assert plan.step("step-3").when == "not (steps['step-1'].output.stormy is true)"


def test_a_podcast_run_sheet_question_naming_no_value_is_dropped_with_a_warning() -> None:
    plan = _plan("# Run sheet\n\n1. `check-guest` in the green room\n2. Feeling brave? `play-filler` live\n"
                 "3. How long? `start-interview` anyway\n")
    assert plan.step("step-2").when is None
    assert "spec.condition-not-read" in _codes(plan, 4)
    assert plan.step("step-3").when is None  # "how long?" asks no yes/no


# -- a condition saying an earlier step did not run ----------------------------------------------------


def test_a_lab_protocol_only_if_a_step_did_not_run_is_that_step_s_other_branch() -> None:
    plan = _plan("# Assay\n\n## Step 1: Assay\n- Skill: run-assay\n\n## Step 2: Bleach\n- Skill: bleach-plate\n"
                 "- When: contaminated is true\n\n## Step 3: Store\n- Skill: store-plate\n"
                 "- Only if: step 2 didn't run (clean plate)\n")
    assert plan.step("step-3").when == "not (steps['step-1'].output.contaminated is true)"
    assert "spec.lead-condition" in _codes(plan, 12)


def test_an_hr_page_bold_field_names_the_skipped_step_by_its_name() -> None:
    plan = _plan("# Starter\n\n## Screen\n**Tool:** `screen-candidate`\n\n## Laptop\n**Tool:** `ship-laptop`\n"
                 "**When:** remote is true\n\n## Desk\n**Tool:** `book-desk`\n**When:** the laptop step was skipped\n")
    assert plan.step("step-3").when == "not (steps['step-1'].output.remote is true)"


def test_a_ships_log_if_nothing_was_found_is_the_other_branch_of_the_step_before() -> None:
    plan = _plan("# Watch\n\n1. `read-wind` at the mast\n2. If knots is over 30, `reef-sails`.\n"
                 "3. If none was found, `hoist-sails` and log it.\n")
    assert plan.step("step-2").when == "steps['step-1'].output.knots > 30"
    assert plan.step("step-3").when == "not (steps['step-1'].output.knots > 30)"
    assert "spec.lead-condition" in _codes(plan, 5)


def test_a_podcast_run_sheet_condition_there_were_none_is_the_other_branch() -> None:
    plan = _plan("# Run sheet\n\n## Step 1: Guest\n- Skill: check-guest\n\n## Step 2: Filler\n- Skill: play-filler\n"
                 "- Condition: late is true\n\n## Step 3: Interview\n- Skill: start-interview\n"
                 "- Condition: there were no delays\n")
    assert plan.step("step-3").when == "not (steps['step-1'].output.late is true)"


# -- an Otherwise after a condition that was warned and not read: both run, warned --------------------


def test_a_lesson_plan_otherwise_after_an_unread_condition_is_warned_not_refused() -> None:
    plan = _plan("# Lesson\n\n1. If the class seems a bit restless, `mark-quiz` early.\n2. Otherwise, `print-cert`.\n")
    assert plan.step("step-2").when is None
    assert "spec.condition-not-read" in _codes(plan, 3)
    assert "spec.condition-not-read" in _codes(plan, 4)


def test_a_recipe_card_otherwise_after_an_unread_condition_in_its_text_is_warned_not_refused() -> None:
    plan = _plan("# Card 3\n\n## Proof\nIf the dough feels slack and sad, run `mark-quiz`.\n\n## Bake\n"
                 "Otherwise: `print-cert`.\n")
    assert plan.step("step-2").when is None
    assert "spec.condition-not-read" in [w.code for w in plan.warnings]


# -- "at least one X" / "no X" of a list named in the plural ------------------------------------------------


def test_a_lab_protocol_at_least_one_of_a_list_named_in_the_plural_and_its_other_branch() -> None:
    plan = _plan("# Recon\n\n## A. Compare\n**Runs:** `find-gaps`\n\n## B. Chase\n**Runs:** `bleach-plate`\n"
                 "**Only when:** A found at least one discrepancy\n\n## C. Sign off\n**Runs:** `store-plate`\n"
                 "**Only when:** B didn't happen (all clean)\n")
    assert plan.step("step-2").when == "steps['step-1'].output.discrepancies"
    assert plan.step("step-3").when == "not (steps['step-1'].output.discrepancies)"


def test_a_ships_log_no_match_of_a_list_named_in_the_plural() -> None:
    plan = _plan("# Log\n\n1. `find-gaps` in the manifest\n2. If there is no match, `reef-sails`.\n")
    assert plan.step("step-2").when == "not steps['step-1'].output.matches"
