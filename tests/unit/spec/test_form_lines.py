"""A filled-in form whose steps are `Step N - Field: value` lines (an IT change request, a
maintenance work order, a grant application, a school trip form) reads as one step per number,
its fields as the step's labelled lines, every finding at the author's line; a separator of
dashes never makes a heading of the field above it (`spec.form_lines`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.form_lines import form_markdown, is_form
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in (
    "snapshot-db", "apply-patch", "smoke-test", "notify-cab", "drain-tank", "swap-filter", "log-hours",
    "score-budget", "check-eligibility", "send-decision", "count-kids", "book-coach", "email-parents")])


def _spec(text: str, name: str = "form.txt") -> object:
    return parse_spec_text(text, name, "markdown", _VOCAB)


def _line(where: str) -> int:
    return int(where.rsplit(":", 1)[1])


_CHANGE = """IT CHANGE REQUEST (CR-2)
Change title: Patch the billing database
Requested by: Ola N.
Info needed from the user: db host, patch id
Max total run time: 30 min
========================================
Step 1 - What happens: take a snapshot first
Step 1 - Program/skill: snapshot-db
Step 1 - Error handling: N/A
----------------------------------------
Step 2 - What happens: apply the patch
Step 2 - Program/skill: apply-patch
Step 2 - Error handling: must not take longer than 90 seconds. If it fails try once more right away.
----------------------------------------
Step 3 - What happens: run the smoke tests
Step 3 - Program/skill: smoke-test
Step 3 - Error handling: retry up to 3x, wait 10 sec between
----------------------------------------
Step 4 - What happens: (leave blank)
Step 4 - Program/skill:
----------------------------------------
Comments: please do this Friday night.
"""


def test_an_it_change_request_reads_a_step_per_number_and_a_policy_in_its_error_field() -> None:
    spec = _spec(_CHANGE)
    steps = spec.steps  # type: ignore[attr-defined]
    assert [(s.name, s.skill) for s in steps] == [
        ("take a snapshot first", "snapshot-db"), ("apply the patch", "apply-patch"), ("run the smoke tests", "smoke-test")]
    assert [_line(s.where) for s in steps] == [7, 11, 15]
    # the policy that a dashed underline used to make into the next step's title: step 2's, at its line
    policy = {_line(r.where): r for r in spec.readings if r.section == "step"}  # type: ignore[attr-defined]
    assert policy[13].steps == ("step-2",)
    assert (policy[13].statement.timeout_s, policy[13].statement.retries) == (90, 1)
    assert policy[17].steps == ("step-3",) and policy[17].statement.retries == 3
    warned = {_line(w.where): w.message for w in spec.warnings}  # type: ignore[attr-defined]
    assert "no field filled in" in warned[19]
    assert "not a spec section" in warned[22]  # the comment after the steps is said not read
    whole = [r for r in spec.readings if r.statement.whole_run]  # type: ignore[attr-defined]
    assert [(_line(r.where), r.statement.timeout_s) for r in whole] == [(5, 1800)]
    assert [name for name, _ in spec.inputs_prose] == ["db host", "patch id"]  # type: ignore[attr-defined]
    assert spec.name == "patch-the-billing-database"  # type: ignore[attr-defined]


_WORK_ORDER = """WORK ORDER 7731 - pump house
[Step 1] Task = drain the tank
[Step 1] Tool = drain-tank
[Step 2] Task = swap the filter
[Step 2] Tool = swap-filter
[Step 2] Only if = the tank is empty
[Step 3] Task = book the hours
[Step 3] Tool = log-hours
"""


def test_a_maintenance_work_order_in_bracketed_fields_reads_its_steps_and_condition_line() -> None:
    text, origin, warnings = form_markdown(_WORK_ORDER) or ("", [], [])
    assert "### Step 2: swap the filter" in text
    assert "- When: the tank is empty" in text
    assert origin[text.split("\n").index("- Skill: swap-filter")] == 4
    assert not warnings
    steps = _spec(_WORK_ORDER).steps  # type: ignore[attr-defined]
    assert [s.skill for s in steps] == ["drain-tank", "swap-filter", "log-hours"]
    assert [_line(s.where) for s in steps] == [2, 4, 7]


_GRANT = """Small grants round - applicant processing (fill in per step)
S1 Program: check-eligibility
S1 Uses: application
S2 Program: score-budget
S2 Result: budget score
S2 Sign-off needed?: yes, the panel chair signs off before we score
S3 Program: send-decision
S3 Uses: budget score from S2
Notes from last round: the panel met late twice.
"""


def test_a_grant_form_with_short_step_prefixes_keeps_sign_off_and_trailing_notes_apart() -> None:
    text, _, _ = form_markdown(_GRANT) or ("", [], [])
    assert "- Approval: yes, the panel chair signs off before we score" in text
    assert text.split("## Notes")[1].strip().startswith("Notes from last round")
    spec = _spec(_GRANT)
    steps = spec.steps  # type: ignore[attr-defined]
    assert [s.skill for s in steps] == ["check-eligibility", "score-budget", "send-decision"]
    assert [s.approval is not None for s in steps] == [False, True, False]
    assert [i.name for i in steps[0].inputs] == ["application"]
    # the chatter after the last step is no step's text: said not read, at its line
    assert not any("panel met late" in str(x) for s in steps for x in (s.description, s.inputs, s.texts))
    assert any(_line(w.where) == 9 and "not read" in w.message for w in spec.warnings)  # type: ignore[attr-defined]


_TRIP = """Year 5 museum trip - organiser's form
Step 1. Task: count who is coming
Step 1. App: count-kids
Step 2. Task: book the coach
Step 2. App: book-coach
Step 2. If it breaks: wait 5 minutes and try again, 2 times
Step 3. Task: tell the parents
Step 3. App: email-parents
"""


def test_a_school_trip_form_with_dotted_prefixes_reads_its_own_failure_label() -> None:
    spec = _spec(_TRIP)
    steps = spec.steps  # type: ignore[attr-defined]
    assert [s.skill for s in steps] == ["count-kids", "book-coach", "email-parents"]
    assert _line(steps[1].where) == 4 and steps[1].when is None  # "If it breaks" is no condition
    policy = [r for r in spec.readings if r.section == "step"]  # type: ignore[attr-defined]
    assert [(_line(r.where), r.steps, r.statement.retries) for r in policy] == [(6, ("step-2",), 2)]


def test_step_headings_in_plain_markdown_are_no_form() -> None:
    text = "# Nightly\n\n## Step 1: Pull\nUse `snapshot-db`.\n\n## Step 2: Patch\nUse `apply-patch`.\n"
    assert not is_form(text.split("\n"))
    assert form_markdown(text) is None
