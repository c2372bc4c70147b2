"""Policy phrases, field lines and validation clauses read into data."""

from __future__ import annotations

import pytest

from orchestrator.policy import ErrorClass, FallbackAction
from orchestrator.spec import policy_text as pt
from orchestrator.spec.contract import read_clause, read_contract_heading
from orchestrator.spec.fields import parse_braces, parse_fields
from orchestrator.spec.model import FieldSpec
from orchestrator.spec.recovery import RowCells, read_recovery_row
from orchestrator.spec.source import Source


@pytest.fixture
def src() -> Source:
    return Source("", "s.md")


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("30s", 30.0), ("2 min", 120.0), ("1h30m", 5400.0), ("500ms", 0.5), ("45", 45.0),
     (">10 seconds", 10.0), ("soon", None), ("", None)],
)
def test_durations_read_in_seconds(text: str, seconds: float | None) -> None:
    assert pt.parse_duration(text) == seconds


@pytest.mark.parametrize(
    ("text", "klass"),
    [
        ("Network timeout", ErrorClass.TIMEOUT),
        ("Docs repository unreachable (network error)", ErrorClass.TRANSIENT),
        ("HTTP 429 from the API", ErrorClass.TRANSIENT),
        ("Import error", ErrorClass.INVALID_INPUT),
        ("Module not found", ErrorClass.INVALID_INPUT),
        ("Syntax error in analysis script", ErrorClass.CODE_ERROR),
        ("Output not markdown", ErrorClass.CODE_ERROR),
        ("Declared unrecoverable", ErrorClass.UNRECOVERABLE),
        ("Something odd", None),
    ],
)
def test_failure_texts_are_classified(text: str, klass: ErrorClass | None) -> None:
    assert pt.classify(text) == klass


def test_retry_phrases_give_counts_and_waits(src: Source) -> None:
    backoff = pt.read_retry("Retry with backoff (1s, 2s, 4s)", src, 1)
    assert backoff is not None
    assert (backoff.max_retries, backoff.delays_s, backoff.jitter) == (3, (1.0, 2.0, 4.0), False)
    counted = pt.read_retry("retry 5 times, exponential", src, 1)
    assert counted is not None and (counted.max_retries, counted.delays_s) == (5, ())
    assert counted.jitter is True
    fixed = pt.read_retry("retry twice, fixed 2s", src, 1)
    assert fixed is not None and (fixed.max_retries, fixed.delays_s) == (2, (2.0,))
    attempts = pt.read_retry("retry (3 attempts)", src, 1)
    assert attempts is not None and attempts.max_retries == 2  # attempts count the first one
    none = pt.read_retry("No retry", src, 1)
    assert none is not None and none.max_retries == 0
    assert pt.read_retry("Escalate", src, 1) is None
    assert src.warnings == []
    assumed = pt.read_retry("Retry with backoff", src, 7)
    assert assumed is not None and assumed.max_retries == 3
    assert [(w.line, w.code) for w in src.warnings] == [(7, "spec.assumed")]


def test_regenerate_and_feedback_phrases(src: Source) -> None:
    assert pt.read_regenerate("Regenerate script (1 attempt)", src, 1) == 1
    assert pt.read_regenerate("regenerate up to 2 times", src, 1) == 2
    assert pt.read_regenerate("Retry with backoff", src, 1) is None
    assert pt.read_feedback("If Step 3 hasn't been retried, regenerate", "step-4") == ("step-3", None)
    assert pt.read_feedback("regenerate Step 2 (2 attempts)", "step-4") == ("step-2", 2)
    assert pt.read_feedback("Regenerate (1 attempt)", "step-4") is None


@pytest.mark.parametrize(
    ("text", "action", "value", "skill"),
    [
        ("Assume no existing docs; continue", FallbackAction.DEFAULT, None, None),
        ("use empty docs; continue", FallbackAction.DEFAULT, None, None),
        ("use `[]`", FallbackAction.DEFAULT, [], None),
        ("FAIL workflow", FallbackAction.FAIL, None, None),
        ("Escalate", FallbackAction.ESCALATE, None, None),
        ("Manual intervention", FallbackAction.ESCALATE, None, None),
        ("Continue to validation", FallbackAction.CONTINUE, None, None),
        ("run `cached-docs`", FallbackAction.SKILL, None, "cached-docs"),
    ],
)
def test_fallback_phrases(text: str, action: FallbackAction, value: object, skill: str | None,
                          src: Source) -> None:
    fallback = pt.read_fallback(text, src, 1)
    assert fallback is not None
    assert (fallback.action, fallback.value, fallback.skill) == (action, value, skill)


def test_approval_phrases(src: Source) -> None:
    plain = pt.read_approval("required", src, 1)
    assert plain is not None and (plain.timeout_s, plain.on_timeout) == (None, "reject")
    timed = pt.read_approval("required (timeout 1h → reject)", src, 1)
    assert timed is not None and (timed.timeout_s, timed.on_timeout) == (3600.0, "reject")
    auto = pt.read_approval("timeout 30 min -> approve", src, 1)
    assert auto is not None and (auto.timeout_s, auto.on_timeout) == (1800.0, "approve")
    assert pt.read_approval("no", src, 1) is None
    assert src.warnings == []


def test_a_recovery_cell_that_substitutes_a_value_beats_continue(src: Source) -> None:
    row = read_recovery_row("step-1", RowCells(failure="Module not found", detection="Empty",
                                               recovery="Return empty docs; continue",
                                               fallback="Continue"), src, 3)
    assert row.rule.on is ErrorClass.INVALID_INPUT
    assert row.rule.fallback is not None and row.rule.fallback.action is FallbackAction.DEFAULT
    assert row.rule.retry is not None and row.rule.retry.max_retries == 0
    assert row.rule.regenerate == 0


def test_a_max_attempts_column_bounds_the_retries(src: Source) -> None:
    row = read_recovery_row("step-1", RowCells(failure="Network timeout", recovery="Retry",
                                               fallback="Escalate", max_attempts="4",
                                               error_class="transient"), src, 3)
    assert row.rule.on is ErrorClass.TRANSIENT
    assert row.rule.retry is not None and row.rule.retry.max_retries == 3


def test_an_unclassified_failure_applies_to_any_class_and_warns(src: Source) -> None:
    row = read_recovery_row("step-2", RowCells(failure="Odd", recovery="Escalate"), src, 9)
    assert row.rule.on == "any"
    assert [(w.line, w.code) for w in src.warnings] == [(9, "spec.unclassified")]


def test_field_lines(src: Source) -> None:
    fields = parse_fields("`a` (string, optional), b (list of strings), c (int) - a count", src, 1)
    assert [(f.name, f.type, f.items, f.required, f.description) for f in fields] == [
        ("a", "string", None, False, ""),
        ("b", "array", "string", True, ""),
        ("c", "integer", None, True, "a count"),
    ]
    ref = parse_fields("step-2.analysis, inputs.name", src, 1)
    assert [(f.name, f.source) for f in ref] == [
        ("analysis", "steps.step-2.output.analysis"),
        ("name", "inputs.name"),
    ]
    assert parse_fields("none", src, 1) == ()
    assert src.warnings == []
    assert parse_fields("the module to document", src, 4) == ()
    assert [(w.line, w.code) for w in src.warnings] == [(4, "spec.field")]


def test_brace_notation(src: Source) -> None:
    fields = parse_braces("{ a: string, b?: [string], c: {...}, d: [...], e: widget }", src, 2)
    assert fields is not None
    assert [(f.name, f.type, f.items, f.required) for f in fields] == [
        ("a", "string", None, True),
        ("b", "array", "string", False),
        ("c", "object", None, True),
        ("d", "array", None, True),
        ("e", None, None, True),
    ]
    assert [(w.line, w.code) for w in src.warnings] == [(2, "spec.field-type")]
    assert parse_braces("a, b", src, 2) is None


def _field(name: str, typ: str | None) -> FieldSpec:
    return FieldSpec(name=name, type=typ, where="s.md:1")


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("module_name is non-empty string", ("module_name", {"type": "string", "minLength": 1})),
        ("String is non-empty", ("docs", {"type": "string", "minLength": 1})),
        ("items is non-empty", ("items", {"type": "array", "minItems": 1})),
        ("has expected keys", ("", {"required": ["docs", "items"]})),
        ("has keys a, b", ("", {"required": ["a", "b"]})),
        ("count >= 1", ("count", {"minimum": 1})),
        ("items has at most 5 items", ("items", {"maxItems": 5})),
        ("kind is one of a, b or c", ("kind", {"enum": ["a", "b", "c"]})),
        ("url is a url", ("url", {"type": "string", "format": "uri"})),
        ("JSON is valid", ("", {})),
        ("docs is valid markdown or empty string", None),
        ("contains markdown syntax", None),
    ],
)
def test_validation_clauses_map_to_schema_keywords(clause: str, expected: object) -> None:
    outputs = (_field("docs", "string"), _field("items", "array"))
    fields = {f.name: f for f in (*outputs, _field("module_name", None), _field("count", "integer"),
                                  _field("kind", "string"), _field("url", None))}
    assert read_clause(clause, fields, outputs) == expected


def test_contract_headings() -> None:
    assert read_contract_heading("Step 1 → Step 2") == ("step-1", "step-2")
    assert read_contract_heading("step-2 -> step-3") == ("step-2", "step-3")
    assert read_contract_heading("extract to load") == ("extract", "load")
    assert read_contract_heading("Step 4") == ("step-4", None)
    assert read_contract_heading("Notes about things") is None
