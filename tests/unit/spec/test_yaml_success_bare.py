"""A YAML run-level success condition written on a bare output field (`spec.yaml_success`): each in a
document kind of its own (a galley's recipe card, a ship's log, a podcast run sheet, an HR onboarding
checklist), none a blind set's."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text


def _checks(body: str) -> dict[str, list[str]]:
    spec = parse_spec_text(body, "flow.yaml", "yaml")  # a check on the step's text, or its output's contract
    checks = {s.id: [t.text for t in s.texts if t.kind == "success"] for s in spec.steps}
    for contract in spec.contracts:
        checks[contract.producer] += [c.strip() for v in contract.validation for c in v.split(" and ")]
    return checks


def _warnings(body: str) -> list[str]:
    return [w.message for w in parse_spec_text(body, "flow.yaml", "yaml").warnings if w.line == 2]


@pytest.mark.parametrize(("key", "condition", "step", "want"), [
    # a galley's recipe card
    ("done_when", "leftover_portions == 0", "plate", "leftover_portions == 0"),
    # a ship's log
    ("finished_if", "the entry is logged AND drift_nm < 5", "log", "drift_nm < 5"),
    # a podcast run sheet
    ("complete_when", "episode is uploaded", "upload", "uploaded == true"),
    # an HR onboarding checklist
    ("definition_of_done", "missing_docs == 0 and badge_issued == true", "badge", "badge_issued == true"),
])
def test_a_bare_field_condition_is_checked_on_the_step_that_outputs_it(key: str, condition: str, step: str,
                                                                        want: str) -> None:
    body = (f"name: flow\n{key}: {condition}\nsteps:\n"
            "  - id: plate\n    skill: plate-up\n    output: {leftover_portions: integer, logged: boolean}\n"
            "  - id: log\n    skill: write-log\n    output: {drift_nm: number}\n"
            "  - id: upload\n    skill: push-episode\n    output: {uploaded: boolean, missing_docs: integer}\n"
            "  - id: badge\n    skill: print-badge\n    output: {badge_issued: boolean, missing_docs: integer}\n")
    assert want in _checks(body)[step]
    assert any("read as the run's success check" in w for w in _warnings(body))


def test_a_field_no_step_outputs_is_warned_not_checked() -> None:
    body = "name: flow\ndone_if: crew_rested == true\nsteps:\n  - id: log\n    skill: write-log\n    output: {drift_nm: number}\n"
    assert _checks(body) == {"log": []}
    assert any("not checked" in w for w in _warnings(body))
