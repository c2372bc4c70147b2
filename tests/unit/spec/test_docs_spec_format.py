"""docs/spec-format.md says what the reader does: every example on the page is checked here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from orchestrator.plan.recovery import step_policy
from orchestrator.policy import ErrorClass, Fallback, FallbackAction, RetryPolicy
from orchestrator.spec import parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase

DOC = Path(__file__).resolve().parents[3] / "docs" / "spec-format.md"
TEXT = DOC.read_text(encoding="utf-8")


def _block(kind: str, after: str) -> str:
    start = TEXT.index(after)
    m = re.search(rf"```{kind}\n(.*?)```", TEXT[start:], re.S)
    assert m is not None, f"no {kind} block after {after!r}"
    return m.group(1)


SENTENCES: dict[str, dict[str, Any]] = yaml.safe_load(_block("yaml", "### What a sentence becomes"))


def test_the_page_shows_the_examples_it_promises() -> None:
    assert len(SENTENCES) >= 20
    assert "Retry 3 times, waiting 2s between tries" in SENTENCES


@pytest.mark.parametrize(("sentence", "plan"), list(SENTENCES.items()), ids=list(SENTENCES))
def test_each_sentence_on_the_page_becomes_what_the_page_says(sentence: str, plan: dict[str, Any]) -> None:
    phrase = read_phrase(sentence)
    assert not phrase.problems, phrase.problems
    effect = effect_of(phrase.statement)
    if "retry" in plan:
        assert effect.retry is not None
        assert effect.retry.model_dump(include=set(plan["retry"])) == RetryPolicy(**plan["retry"]).model_dump(
            include=set(plan["retry"]))
    else:
        assert effect.retry is None
    if "fallback" in plan:
        assert effect.fallback == Fallback(**plan["fallback"])
    else:
        assert effect.fallback is None
    assert effect.attempt_timeout_s == plan.get("attempt_timeout_s")
    assert effect.run_timeout_s == plan.get("run_timeout_s")
    assert effect.regenerations == plan.get("regenerations")
    assert effect.on == (ErrorClass(plan["failures"]) if "failures" in plan else None)


def test_the_whole_step_in_prose_compiles_without_a_warning_to_what_the_page_says() -> None:
    spec = parse_spec_text(_block("markdown", "### A whole step in prose"), "mirror.md", "markdown")
    assert spec.warnings == ()
    policy = step_policy(spec.steps[0], spec, None).policy
    assert policy.attempt_timeout_s == 60
    assert policy.retry == RetryPolicy(max_retries=4, delays_s=(15.0,), jitter=False)  # transient failures
    (mirror_down,) = policy.rules
    assert (mirror_down.on, mirror_down.fallback) == (ErrorClass.TRANSIENT,
                                                      Fallback(action=FallbackAction.SKILL, skill="backup-mirror"))
    assert policy.fallback == Fallback(action=FallbackAction.ESCALATE, message="page the on-call (#pkg-infra)")
    (check,) = [c for c in spec.contracts if c.producer == "step-1"]
    assert check.constraints[""]["properties"]["ok"] == {"const": True}


def test_the_sections_as_steps_example_reads_as_the_page_says() -> None:
    spec = parse_spec_text(_block("markdown", "- **Sections as steps**"), "refund.md", "markdown")
    assert [(s.id, s.mentions[0].text) for s in spec.steps] == [
        ("step-1", "assess-line"), ("step-2", "total-refund"), ("step-3", "refund-card"),
        ("step-4", "issue-store-credit"), ("step-5", "close-ticket")]
    assert spec.steps[0].for_each == "line in lines"
    assert [(f.name, f.source) for f in spec.steps[0].inputs] == [("sku", "item.sku"), ("price", "item.price")]
    assert (spec.steps[2].when, spec.steps[3].otherwise_of) == ("customer_tier == 'gold'", "step-3")
    assert (spec.steps[4].depends_on, spec.steps[4].join) == (("step-3", "step-4"), "any")


def test_the_one_line_steps_example_reads_as_the_page_says() -> None:
    spec = parse_spec_text("# Roster\n\nin: `course`, `students`\n\n" + _block("markdown", "- **A step on one line**"),
                           "roster.md", "markdown")
    got = [(s.id, s.skill, s.for_each, s.when, s.otherwise_where is not None, s.depends_on) for s in spec.steps]
    assert got == [
        ("step-1", "`tidy-roster`", None, None, False, ()),
        ("step-2", "`grade-student`", "student in steps.step-1.output.students", None, False, ()),
        ("step-3", "`summarise-grades`", None, None, False, ("step-2",)),
        ("step-4", "`alert-tutor`", None, "step 3 failing > 0", False, ()),
        ("step-5", "`publish-grades`", None, None, True, ())]
    assert [(f.name, f.source) for f in spec.steps[2].inputs] == [
        ("results", "steps.step-2.output"), ("course", "steps.step-1.output.course")]
    assert [i.name for i in spec.inputs] == ["course", "students"]
