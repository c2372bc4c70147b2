"""A YAML step's keys in a schema the author made up, read by meaning: a block of policy keys
(`resilience:`), a gate that is a condition or a person's yes, a degraded value to go on with,
`backoff: 5s` as the wait, `success_when:`, `knobs:` as the inputs. What is not understood is
warned at its line and kept, never dropped."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([("grade-quiz", None), ("send-report", None), ("open-ticket", None),
                         ("load-roster", None)])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.yaml", "yaml", CATALOG)


def _notes(step) -> list[str]:  # type: ignore[no-untyped-def]
    return [r.note for r in step.readings]


def test_an_onboarding_pipelines_resilience_block_is_read_as_the_steps_own_policy_keys() -> None:
    spec = _read(
        "onboarding: new starter\nsteps:\n  - id: ticket\n    uses: open-ticket\n    resilience:\n"
        "      attempts: 3\n      backoff: 5s\n      deadline: 20s\n      vibe: calm\n"
    )
    [step] = spec.steps
    assert step.retries == 2 and step.timeout_s == 20.0
    assert step.retry is not None and step.retry.delays_s == (5.0,)
    assert "the wait between tries (retry_delay:)" in _notes(step)
    [unknown] = [w for w in spec.warnings if "vibe" in w.message]
    assert unknown.line == 9 and step.extra == {"resilience.vibe": "calm"}


def test_a_lesson_plan_gate_is_a_condition_when_it_compares_and_an_approval_when_a_person_says_yes() -> None:
    spec = _read(
        "lesson: friday quiz\nsteps:\n  - id: grade\n    uses: grade-quiz\n  - id: report\n"
        "    uses: send-report\n    after: grade\n    gate: grade.passed_count > 0\n  - id: roster\n"
        "    uses: load-roster\n    gate: sign-off by the head of year\n"
    )
    _grade, report, roster = spec.steps
    assert report.when == "grade.passed_count > 0" and report.approval is None
    assert roster.approval is not None and roster.when is None


def test_a_gate_that_is_neither_is_warned_and_kept() -> None:
    spec = _read("jobs:\n  - id: grade\n    uses: grade-quiz\n    gate: purple\n")
    [warning] = [w for w in spec.warnings if "gate" in w.message]
    assert warning.line == 4 and "neither a condition" in warning.message
    assert spec.steps[0].when is None and spec.steps[0].approval is None


def test_a_shift_handovers_degraded_value_is_what_the_step_goes_on_with_and_skip_just_goes_on() -> None:
    spec = _read(
        "handover: night to day\nsteps:\n  - id: roster\n    uses: load-roster\n    degrade: {staff: []}\n"
        "  - id: post\n    uses: send-report\n    degrade_to: skip\n"
    )
    roster, post = spec.steps
    assert "on failure, continue with this value" in _notes(roster)
    assert post.on_error == "continue"
    assert [w.line for w in spec.warnings] == [1]  # only the top key `handover:`


def test_a_ci_schemas_success_when_and_knobs_are_the_success_check_and_the_inputs() -> None:
    spec = _read(
        "knobs:\n  class_id:\n    type: string\n    help: the class to grade\n  pass_mark:\n    type: integer\n"
        "    default: 55\n    optional: true\nsteps:\n  - id: grade\n    uses: grade-quiz\n"
        "    with: {class: '${knobs.class_id}'}\n    success_when: grade.count > 0\n"
    )
    inputs = {i.name: (i.required, i.default, i.description) for i in spec.inputs or ()}
    assert inputs == {"class_id": (True, None, "the class to grade"), "pass_mark": (False, 55, "")}
    [step] = spec.steps
    assert step.success == "grade.count > 0"
    assert [(f.name, f.source) for f in step.inputs] == [("class", "inputs.class_id")]
    assert not spec.warnings


def test_a_bakery_orders_pipelines_policy_sentence_and_degrade_sentence_go_to_the_phrase_reader() -> None:
    spec = _read(
        "bakery: orders\nsteps:\n  - id: roster\n    uses: load-roster\n    reliability: \"2 retries, 10s apart\"\n"
        "  - id: post\n    uses: send-report\n    degrade: \"mailer down => carry on with sent = false\"\n"
    )
    read = {(r.steps, r.where): r.statement.model_dump(exclude_defaults=True) for r in spec.readings}
    assert read[(("roster",), "doc.yaml:5")] == {"retries": 2, "wait": {"kind": "fixed", "seconds": (10.0,)}}
    assert read[(("post",), "doc.yaml:8")] == {"on_failure": {"kind": "continue_with_value", "value": {"sent": False}}}
    assert [w.line for w in spec.warnings] == [1]  # only the top key `bakery:`; both sentences are read


def test_an_hr_onboarding_gate_with_who_and_expiry_is_an_approval_and_a_bare_if_is_a_condition() -> None:
    spec = _read(
        "onboarding: laptops\nsteps:\n  - id: ticket\n    uses: open-ticket\n    gate:\n      who: it-leads\n"
        "      only_if: ticket.cost > 2000\n      expires: 4h\n  - id: report\n    uses: send-report\n"
        "    gate: {if: ticket.ok == true}\n"
    )
    ticket, report = spec.steps
    assert ticket.approval is not None and ticket.approval.timeout_s == 14400 and ticket.approval.when
    assert report.when == "ticket.ok == true" and report.approval is None


def test_a_ci_schemas_budget_wallclock_is_the_runs_wall_time_and_a_steps_success_is_checked() -> None:
    spec = _read(
        "budget:\n  wallclock: 15m\nsteps:\n  - id: grade\n    uses: grade-quiz\n"
        "    success_when: \"${grade.count} > 0\"\n"
    )
    assert spec.convergence.limits.wall_time_s == 900
    [step] = spec.steps
    assert [t.text for t in step.texts if t.kind == "success"] == ["count > 0"]
