"""Fuzzing the spec parser: whatever the text, only SpecError escapes, always with lines."""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from orchestrator.errors import SpecError
from orchestrator.spec import WorkflowSpec, parse_spec_text

FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])

_WORDS = st.sampled_from([
    "Step 1", "Step 2", "step-3", "Step 99", "→", "->", "(1s, 2s, 4s)", "(3 retries)", "retry",
    "Regenerate", "(1 attempt)", "empty", "continue", "FAIL", "Escalate", "`x`", "`[]`", "{",
    "}", "[", "]", "(", ")", ":", ";", ",", "|", "timeout", ">10 sec", "5s", "2 min", "1h",
    "item in list", "x in step-1.names", "{{ inputs.a }}", "${steps.a.output}", "=", "true",
    "module_name", "existing_docs (string, markdown)", "analysis (JSON): a, b", "list of strings",
    "non-empty", "is", "has expected keys", "required", "→ reject", "approve", "0", "-1",
    "99999999999999999999", "1e309", "NaN", "\t", "é", "\\|", "<!-- name: x -->", "**",
])
_TEXT = st.lists(st.one_of(_WORDS, st.text(max_size=8)), max_size=6).map(" ".join)
_LABELS = st.sampled_from([
    "Skill", "Skill used", "Input", "Output", "Success", "Failure modes", "Depends on",
    "For each", "When", "Approval", "Compensation", "Timeout", "Retries", "On error", "Route",
    "Validation", "Step 2 Input", "Max total attempts", "Wall time", "Token budget", "Happy path",
])
_LINE = st.one_of(
    st.builds(lambda lvl, t: "#" * lvl + " " + t, st.integers(1, 4), st.one_of(
        st.sampled_from(["Intent", "Inputs", "Workflow Steps", "Data Contracts", "State Management",
                         "Convergence Criteria", "Success", "Failure", "Limits",
                         "Error Recovery Strategy", "Testing Plan", "Step 1: A", "Step 2: B",
                         "Step 1 → Step 2", "Step 2 -> Step 9"]), _TEXT)),
    st.builds(lambda ind, lab, t: " " * ind + f"- {lab}: {t}", st.sampled_from([0, 0, 2, 4]),
              _LABELS, _TEXT),
    st.builds(lambda t: f"- {t}", _TEXT),
    st.builds(lambda n, t: f"{n}. {t}", st.integers(1, 5), _TEXT),
    st.builds(lambda cells: "| " + " | ".join(cells) + " |", st.lists(_TEXT, max_size=6)),
    st.just("|---|---|---|---|---|"),
    st.just("| Step | Failure | Detection | Recovery | Fallback |"),
    st.sampled_from(["```json", "```", "{\"type\": \"object\"}", "{\"type\": 3}", "", ""]),
    _TEXT,
)
_SKELETON = "# Flow\n\n## Workflow Steps\n\n### Step 1: A\n- Skill: `a`\n- Output: names (list)\n\n"
MARKDOWN = st.one_of(
    st.lists(_LINE, max_size=40).map("\n".join),
    st.lists(st.one_of(_LINE.filter(lambda line: not line.startswith("#")), _LINE), max_size=25)
    .map(lambda lines: _SKELETON + "\n".join(lines)),
)

_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.floats(allow_nan=True),
                    _TEXT, _WORDS)
_KEYS = st.sampled_from([
    "name", "id", "skill", "agent", "depends_on", "input", "output", "on_error", "retry",
    "max_attempts", "backoff", "timeout", "for_each", "when", "approval", "compensation",
    "routes", "regenerate", "fallback", "feedback", "recovery", "on", "steps", "inputs", "limits",
    "scenarios", "type", "default", "required", "wall_time", "max_total_attempts", "kind",
    "description", "output_schema", "jitter", "multiplier", "step", "on_timeout",
])
_VALUE: st.SearchStrategy[Any] = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=5)),
    max_leaves=25,
)
_PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "depends_on": st.sampled_from(["s0", ["s0"], ["s1", "s2"], "nope"]),
    "input": st.dictionaries(st.sampled_from(["a", "b"]), st.one_of(
        _SCALAR, st.sampled_from(["{{ inputs.a }}", "${steps.s0.output.x}", "{{ steps.zz.output }}",
                                  "pre {{ item }} post"]))),
    "output": st.one_of(st.lists(st.sampled_from(["x", "y"])), _TEXT),
    "on_error": st.sampled_from(["continue", "fail", "maybe"]),
    "retry": st.one_of(st.integers(-1, 5), st.fixed_dictionaries({}, optional={
        "max_attempts": st.integers(-1, 5), "backoff": st.sampled_from(
            ["exponential", "fixed", [1, 2, 4], ["1s", "x"], "weird"]),
        "delay": st.sampled_from(["2s", 3, "no"]), "jitter": st.booleans()})),
    "timeout": st.sampled_from([5, "30s", "2 min", "soon", 0, -3]),
    "for_each": st.sampled_from(["x in names", "x in steps.s0.output.names", "bad", "x in "]),
    "when": st.sampled_from(["inputs.a > 1", "not steps.s0.output.ok", "x >", ""]),
    "approval": st.one_of(st.booleans(), st.sampled_from(["required (timeout 1h → approve)", "no"]),
                          st.fixed_dictionaries({}, optional={"timeout": st.sampled_from(
                              ["1h", 5, "x"]), "on_timeout": st.sampled_from(["approve", "x"]),
                              "required": st.booleans()})),
    "compensation": st.sampled_from(["undo", 3]),
    "routes": st.one_of(st.just({"a": "s0"}), _VALUE),
    "regenerate": st.integers(-1, 3),
    "fallback": st.one_of(st.sampled_from(["continue", "fail", "escalate", "default", "x"]),
                          st.just({"default": []}), st.just({"skill": "other"})),
    "feedback": st.one_of(st.just("s0"), st.just({"step": "s0", "max_attempts": 2})),
    "recovery": st.lists(st.fixed_dictionaries({}, optional={
        "on": st.sampled_from(["timeout", "code_error", "any", "zz"]),
        "retry": st.integers(0, 3), "fallback": st.just("continue")}), max_size=3),
}
_STEP = st.fixed_dictionaries({}, optional={k: st.one_of(v, v, _VALUE) for k, v in _PLAUSIBLE.items()})
_STEPS = st.lists(st.tuples(st.sampled_from([True, True, True, False]), _STEP), max_size=4).map(
    lambda items: [{**d, "id": f"s{i}", "skill": "k"} if keep else d
                   for i, (keep, d) in enumerate(items)]
)
_LIMITS = st.dictionaries(st.sampled_from(["max_total_attempts", "wall_time", "concurrency",
                                           "token_budget", "bogus"]),
                          st.one_of(st.integers(-2, 100), st.sampled_from(["10m", "x"])), max_size=3)
_DOC = st.fixed_dictionaries(
    {"name": st.one_of(st.just("flow"), _SCALAR), "steps": st.one_of(_STEPS, _STEPS, _VALUE)},
    optional={"retry": st.one_of(_PLAUSIBLE["retry"], _VALUE),
              "timeout": st.one_of(_PLAUSIBLE["timeout"], _VALUE),
              "limits": st.one_of(_LIMITS, _VALUE),
              "inputs": st.one_of(st.just({"a": {"type": "string", "default": 1}}), _VALUE),
              "scenarios": st.one_of(st.just([{"name": "Happy", "kind": "happy"}]), _VALUE),
              "fallback": st.one_of(_PLAUSIBLE["fallback"], _VALUE)},
)
_PLAIN_STEPS = st.lists(st.fixed_dictionaries({}, optional=_PLAUSIBLE), min_size=1, max_size=4).map(
    lambda steps: [{**d, "id": f"s{i}", "skill": "k"} for i, d in enumerate(steps)]
)
_PLAIN_DOC = st.fixed_dictionaries(
    {"name": st.just("flow"), "steps": _PLAIN_STEPS},
    optional={"retry": _PLAUSIBLE["retry"], "timeout": _PLAUSIBLE["timeout"], "limits": _LIMITS},
)
YAML_TEXT = st.one_of(
    _DOC.map(lambda d: yaml.safe_dump(d, sort_keys=False, allow_unicode=True)),
    _PLAIN_DOC.map(lambda d: yaml.safe_dump(d, sort_keys=False, allow_unicode=True)),
    st.lists(st.one_of(_LINE, st.builds(lambda k, v: f"{k}: {v}", _KEYS, _TEXT),
                       st.builds(lambda k, v: f"  - {k}: {v}", _KEYS, _TEXT)), max_size=20)
    .map("\n".join),
)


def _check(text: str, fmt: str) -> None:
    try:
        spec = parse_spec_text(text, "fuzz.spec", fmt)
    except SpecError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert d.file == "fuzz.spec" and d.line is not None and d.line >= 1, d
        return
    assert isinstance(spec, WorkflowSpec)
    assert spec.steps
    for w in spec.warnings:
        assert w.line is not None and w.line >= 1, w
    spec.model_dump_json()  # the compiled spec serialises


@FUZZ
@given(MARKDOWN)
def test_markdown_fuzz_raises_only_spec_errors_with_lines(text: str) -> None:
    _check(text, "markdown")


@FUZZ
@given(YAML_TEXT)
def test_yaml_fuzz_raises_only_spec_errors_with_lines(text: str) -> None:
    _check(text, "yaml")


@FUZZ
@given(st.text(max_size=300))
def test_arbitrary_text_raises_only_spec_errors_with_lines(text: str) -> None:
    _check(text, "markdown")
    _check(text, "yaml")
