"""Policy text that cannot be read is a warning with its line, never silently dropped,
the same in the Markdown and the YAML form."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec

MARKDOWN = """# Workflow: gate

## Steps

### Step 1: Publish
- Skill: `publisher`
- Approval: {approval}
"""

YAML = """name: gate
steps:
  - id: publish
    skill: publisher
    {key}: {value}
"""


def _markdown(approval: str) -> WorkflowSpec:
    return parse_spec_text(MARKDOWN.format(approval=approval), "flow.md", "markdown")


def _yaml(key: str, value: str) -> WorkflowSpec:
    return parse_spec_text(YAML.format(key=key, value=value), "flow.yaml", "yaml")


@pytest.mark.parametrize(
    ("approval", "fragment"),
    [
        ("required (timeout 5 parsecs -> approve)", "approval timeout '5 parsecs' is not a duration"),
        ("required (timeout banana -> reject)", "approval timeout 'banana' is not a duration"),
        ("required (timeout 1h -> maybe)", "approval on timeout 'maybe' must be approve, reject or skip"),
    ],
)
def test_a_markdown_approval_timeout_that_cannot_be_read_is_a_warning_with_its_line(
    approval: str, fragment: str
) -> None:
    spec = _markdown(approval)
    assert [(w.line, w.code) for w in spec.warnings] == [(7, "spec.unread")]
    assert fragment in spec.warnings[0].message
    assert spec.steps[0].approval is not None  # still a gate: never dropped


def test_banana_and_maybe_warn_twice_and_the_gate_rejects_without_a_timeout() -> None:
    spec = _markdown("required (timeout banana -> maybe)")
    assert len(spec.warnings) == 2
    approval = spec.steps[0].approval
    assert approval is not None
    assert (approval.timeout_s, approval.on_timeout) == (None, "reject")


@pytest.mark.parametrize(
    "approval", ["required", "required (timeout 1h -> approve)", "required (timeout 30m → reject)",
                 "yes, within 2 days", "required; reject after timeout"],
)
def test_readable_approvals_give_no_warning(approval: str) -> None:
    assert _markdown(approval).warnings == ()


@pytest.mark.parametrize(
    "spec",
    [lambda: _markdown("required (timeout 2h -> skip)"),
     lambda: _yaml("approval", "{required: true, timeout: 2h, on_timeout: skip}"),
     lambda: _yaml("approval", "{timeout: 2h, if_no_answer: skip it}")],
    ids=["markdown", "yaml", "yaml-own-key"],
)
def test_an_approval_whose_silence_skips_the_step_is_read_as_skip_without_a_warning(spec: Any) -> None:
    read = spec()
    assert read.warnings == ()
    assert read.steps[0].approval is not None
    assert (read.steps[0].approval.timeout_s, read.steps[0].approval.on_timeout) == (7200.0, "skip")


def test_the_yaml_approval_string_warns_like_the_markdown_one() -> None:
    spec = _yaml("approval", '"required (timeout 5 parsecs -> approve)"')
    assert [(w.line, w.code) for w in spec.warnings] == [(5, "spec.unread")]
    assert "approval timeout '5 parsecs' is not a duration" in spec.warnings[0].message


def test_a_negative_yaml_retry_is_a_warning_with_its_line_not_zero_retries() -> None:
    spec = _yaml("retry", "-5")
    assert [(w.line, w.code) for w in spec.warnings] == [(5, "spec.unread")]
    assert "retry '-5' must be a whole number ≥ 0; ignored" in spec.warnings[0].message
    assert spec.steps[0].retry is None
    assert spec.steps[0].retries is None


def test_a_negative_markdown_retry_count_warns_too() -> None:
    text = MARKDOWN.replace("- Approval: {approval}\n", "- Retries: -1\n")
    spec = parse_spec_text(text, "flow.md", "markdown")
    assert [(w.line, w.code) for w in spec.warnings] == [(7, "spec.unread")]
