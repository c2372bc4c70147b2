"""The plan's warnings in a report: listed under "How the spec was read", bounded, escaped."""

from __future__ import annotations

from orchestrator.errors import Diagnostic, Severity
from orchestrator.report.model import RunReport
from orchestrator.report.render_html import render_html
from orchestrator.report.render_md import SPEC_WARNINGS_SHOWN, render_markdown


def _report(*warnings: Diagnostic) -> RunReport:
    return RunReport(run_id="r1", plan_name="p", plan_sha256="0" * 64, spec_path="/specs/s.md", status="succeeded",
                     created_at=0.0, spec_warnings=warnings)


def _warning(line: int, message: str = "bullet 'x' not read") -> Diagnostic:
    return Diagnostic(file="/specs/s.md", line=line, message=message, severity=Severity.WARNING, code="spec.unread")


def test_each_warning_is_listed_with_its_line_and_code_after_the_steps() -> None:
    text = render_markdown(_report(_warning(7), _warning(9, "step-2: 'retry a bit' not understood")))

    section = text[text.index("## How the spec was read"):text.index("## Graph")]
    assert "The plan was built with 2 warnings:" in section and "validating the spec lists them too" in section
    assert "- line 7: bullet 'x' not read (spec.unread)" in section
    assert "- line 9: step-2: 'retry a bit' not understood (spec.unread)" in section
    assert text.index("## Steps") < text.index("## How the spec was read")


def test_a_report_lists_at_most_its_bound_of_warnings_and_says_how_many_there_were() -> None:
    text = render_markdown(_report(*(_warning(n) for n in range(1, SPEC_WARNINGS_SHOWN + 6))))

    assert f"built with {SPEC_WARNINGS_SHOWN + 5} warnings (the first {SPEC_WARNINGS_SHOWN})" in text
    assert text.count(" not read (spec.unread)") == SPEC_WARNINGS_SHOWN


def test_the_html_report_escapes_the_spec_s_words_in_its_warnings() -> None:
    page = render_html(_report(_warning(3, "bullet '<script>alert(1)</script>' not read")))

    assert "<h2>How the spec was read</h2>" in page
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_report_without_warnings_has_no_such_section() -> None:
    assert "How the spec was read" not in render_markdown(_report())
    assert "How the spec was read" not in render_html(_report())
