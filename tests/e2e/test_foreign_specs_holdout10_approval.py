"""The tenth holdout's approvals (tests/fixtures/foreign-specs-holdout10), measured blind at c22662a
(BLIND-RESULTS.md: 0 of 6 read, one silently), through the real `skillweave plan`: each said the
author's way is now the step's approval with its condition, its wait and what silence means. 63: a
condition up to the person ("more than 5,000 recipients Dana has to OK it"), "we don't send"; 64: a
`**Sign-off:**` field line; 65: an own-schema key `human_ok: "prod only -- ..., 1h or it's a no"`.
67 (a BPMN user task) and 68 (its step lost with the T-SQL header's shape) stay as BLIND-RESULTS says."""

from __future__ import annotations

from typing import Any

import pytest
from foreign_kit import FIXTURES, plan_json

pytestmark = pytest.mark.e2e

CORPUS = FIXTURES / "foreign-specs-holdout10"


def _approval(spec: str, skill: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    plan = plan_json(CORPUS / spec)
    step = next(s for s in plan["steps"] if s["skill"] == skill)
    return step["policy"]["approval"], plan["warnings"]


def test_63_a_send_over_5000_recipients_waits_4h_for_dana_and_silence_means_no_send() -> None:
    approval, warnings = _approval("63-spring-promo-send/spec.md", "schedule-send")
    assert approval == {"required": True, "timeout_s": 14400.0, "on_timeout": "reject",
                        "when": "steps['step-4'].output.total_recipients > 5000"}
    assert any(w.get("line") == 30 and "total_recipients" in w["message"] for w in warnings)


def test_64_the_sign_off_field_is_the_promote_steps_approval() -> None:
    approval, _ = _approval("64-churn-nightly-retrain/spec.md", "promote-model")
    assert approval is not None and (approval["timeout_s"], approval["on_timeout"]) == (7200.0, "reject")


def test_65_the_human_ok_key_is_a_prod_only_approval_of_1h_and_is_warned() -> None:
    approval, warnings = _approval("65-tls-cert-rotation/spec.yaml", "cert-rollout")
    assert approval == {"required": True, "timeout_s": 3600.0, "on_timeout": "reject", "when": "inputs.env == 'prod'"}
    assert any(w.get("line") == 44 and "human_ok" in w["message"] for w in warnings)
