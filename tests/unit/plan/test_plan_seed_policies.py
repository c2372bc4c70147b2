"""The seed's Fetch-Analyze-Document spec still compiles to exactly the policies it compiled to
before the policy reader was rebuilt: every field of every step, and the run's limits."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.compile import compile_spec
from orchestrator.config import Settings
from orchestrator.plan.model import Plan, StepPolicy
from orchestrator.policy import (
    ErrorClass,
    Fallback,
    FallbackAction,
    FeedbackPolicy,
    Limits,
    RecoveryRule,
    RetryPolicy,
)

NONE = RetryPolicy(max_retries=0)
BACKOFF = RetryPolicy(max_retries=3, delays_s=(1.0, 2.0, 4.0), jitter=False)
EMPTY = Fallback(action=FallbackAction.DEFAULT)
ESCALATE = Fallback(action=FallbackAction.ESCALATE)
FAIL = Fallback(action=FallbackAction.FAIL)


@pytest.fixture(scope="module")
def plan(seed_spec: Path, tmp_path_factory: pytest.TempPathFactory) -> Plan:
    return compile_spec(seed_spec, Settings(state_dir=tmp_path_factory.mktemp("state")))


def _rule(on: ErrorClass, failure: str, line: int, seed: Path, **kw: object) -> RecoveryRule:
    fields = {"retry": NONE, "regenerate": 0, "fallback": FAIL, **kw}
    return RecoveryRule(on=on, failure=failure, where=f"{seed}:{line}", **fields)  # type: ignore[arg-type]


def test_the_seed_compiles_to_the_same_policies_as_before(plan: Plan, seed_spec: Path) -> None:
    s = seed_spec
    expected = {
        "step-1": StepPolicy(
            retry=BACKOFF, attempt_timeout_s=5.0, fallback=EMPTY, rules=(
                _rule(ErrorClass.TIMEOUT, "Network timeout", 94, s, retry=BACKOFF, fallback=EMPTY),
                _rule(ErrorClass.INVALID_INPUT, "Module not found", 95, s, fallback=EMPTY),
                _rule(ErrorClass.CODE_ERROR, "Malformed docs", 96, s, fallback=EMPTY),
            )),
        "step-2": StepPolicy(
            attempt_timeout_s=30.0, regenerations=1, non_retryable=(ErrorClass.INVALID_INPUT,), rules=(
                _rule(ErrorClass.INVALID_INPUT, "Import error", 97, s, fallback=ESCALATE),
                _rule(ErrorClass.CODE_ERROR, "Syntax error in analysis script", 98, s, regenerate=1,
                      fallback=ESCALATE),
                _rule(ErrorClass.TIMEOUT, "Timeout", 99, s),
            )),
        "step-3": StepPolicy(
            attempt_timeout_s=10.0, regenerations=1, rules=(
                _rule(ErrorClass.TIMEOUT, "Generation timeout", 100, s, fallback=EMPTY),
                _rule(ErrorClass.CODE_ERROR, "Output not markdown", 101, s, regenerate=1, fallback=ESCALATE),
            )),
        "step-4": StepPolicy(
            attempt_timeout_s=10.0, feedback=FeedbackPolicy(target_step="step-3", max_attempts=2), rules=(
                _rule(ErrorClass.CODE_ERROR, "Invalid markdown", 102, s),
            )),
    }
    assert {step.id: step.policy for step in plan.steps} == expected
    assert plan.limits == Limits()


def test_the_seed_s_policy_lines_are_cited(plan: Plan, seed_spec: Path) -> None:
    cited = {step.id: step.provenance["policy.retry"].where for step in plan.steps}
    assert cited["step-1"] == f"{seed_spec}:94"
    timeouts = {step.id: step.provenance["policy.attempt_timeout_s"] for step in plan.steps}
    assert timeouts["step-1"].where == f"{seed_spec}:94"  # "No response after 5s"
    assert timeouts["step-3"].where == f"{seed_spec}:87"  # Convergence: ">10 sec"
