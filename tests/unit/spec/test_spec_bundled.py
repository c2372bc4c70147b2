"""The bundled specs: the template renders into a spec that parses, the examples compile."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from orchestrator.policy import ErrorClass, FallbackAction
from orchestrator.resources import specs_dir
from orchestrator.spec import parse_spec, parse_spec_text

SPECS = specs_dir()


def _render_template(name: str, title: str) -> str:
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    source = (SPECS / "workflow-spec.template.md").read_text(encoding="utf-8")
    return env.from_string(source).render(name=name, title=title)


def test_the_rendered_template_parses_without_warnings() -> None:
    spec = parse_spec_text(_render_template("weekly-report", "Weekly Report"), "weekly-report.md",
                           "markdown")
    assert spec.name == "weekly-report"
    assert spec.title == "Weekly Report"
    assert [s.id for s in spec.steps] == ["step-1", "step-2"]
    assert [i.name for i in spec.inputs] == ["subject"]
    assert spec.warnings == ()  # its TODO skills are the planner's errors, once each
    assert all((s.skill or "").startswith("TODO") for s in spec.steps)
    assert [r.rule.on for r in spec.recovery] == [ErrorClass.TIMEOUT, ErrorClass.CODE_ERROR]
    assert spec.convergence.limits.max_total_attempts == 20
    assert len(spec.scenarios) == 4


def test_the_clean_example_names_the_bundled_skills_in_backticks() -> None:
    spec = parse_spec(SPECS / "fetch-analyze-document.md")
    assert spec.warnings == ()
    assert [s.skill.split("`")[1] for s in spec.steps if s.skill] == [
        "fetch-docs", "analyze-module", "generate-docs", "validate-markdown",
    ]
    assert [(i.name, i.type) for i in spec.inputs] == [("module_name", "string")]
    first = spec.recovery[0]
    assert first.rule.retry is not None and first.rule.retry.delays_s == (1.0, 2.0, 4.0)
    assert first.rule.fallback is not None and first.rule.fallback.action is FallbackAction.DEFAULT
    assert [(r.rule.regenerate, r.rule.fallback.action if r.rule.fallback else None)
            for r in spec.recovery if r.step == "step-2" and r.rule.on is ErrorClass.CODE_ERROR] == [
        (1, FallbackAction.ESCALATE)
    ]
    assert spec.recovery[-1].feedback_to == "step-3"
    assert spec.convergence.feedback == {"step-4": ("step-3", 2)}
    assert spec.convergence.limits.max_total_attempts == 20
    assert len(spec.scenarios) == 5


def test_the_clean_example_keeps_the_seed_policies(seed_spec: Path) -> None:
    clean = parse_spec(SPECS / "fetch-analyze-document.md")
    seed = parse_spec(seed_spec)
    def policies(spec):  # type: ignore[no-untyped-def]
        return [(r.step, r.rule.on, r.rule.retry, r.rule.regenerate, r.feedback_to)
                for r in spec.recovery]
    assert policies(clean) == policies(seed)
    assert clean.convergence.feedback == seed.convergence.feedback
    assert clean.convergence.step_retries == seed.convergence.step_retries


EXAMPLES = sorted(p for p in (SPECS / "examples").glob("*") if p.suffix in (".md", ".yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_compiles_without_warnings(path: Path) -> None:
    spec = parse_spec(path)
    assert spec.steps
    assert spec.warnings == ()


def test_the_examples_show_for_each_when_approval_and_compensation() -> None:
    specs = [parse_spec(p) for p in EXAMPLES]
    for fmt in ("markdown", "yaml"):
        steps = [s for spec in specs if spec.format == fmt for s in spec.steps]
        assert any(s.for_each for s in steps), fmt
        assert any(s.when for s in steps), fmt
        assert any(s.approval for s in steps), fmt
        assert any(s.compensation for s in steps), fmt
