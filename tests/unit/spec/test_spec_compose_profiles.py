"""docker-compose `profiles:` as branches: the comment that says when a profile is used is read
as the service's condition or as the other case; a profile whose meaning is not said is warned."""

from __future__ import annotations

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.condition import read_condition


def _parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "job.yaml", "yaml")


def _compose(first: str, second: str, third: str = "") -> str:
    return f"""\
services:
  count:
    skill: count-errors
  loud:
    skill: page
    {first}
    depends_on: [count]
  quiet:
    skill: digest
    {second}
    depends_on: [count]
{third}"""


def test_a_profile_whose_comment_says_when_is_the_service_s_condition_and_the_other_case_its_otherwise() -> None:
    spec = _parse(_compose("profiles: [noisy]   # only brought up when count found 3 or more errors",
                           "profiles: [calm]    # the other case: fewer than 3 errors"))
    steps = {s.id: s for s in spec.steps}
    assert steps["loud"].when == "count found 3 or more errors"
    assert steps["quiet"].when is None and steps["quiet"].otherwise_of == "loud"
    assert not [w for w in spec.warnings if "profile" in w.message]
    notes = {r.where: r.note for s in spec.steps for r in s.readings if "profile" in r.note}
    assert notes["job.yaml:6"].startswith("profile 'noisy' read as the condition")
    assert "other case of loud" in notes["job.yaml:10"]


def test_a_comment_on_the_line_above_the_profiles_key_is_read_too() -> None:
    spec = _parse(_compose("# used only if count reported more than 10 warnings\n    profiles: [noisy]",
                           "profiles: [calm]  # otherwise"))
    steps = {s.id: s for s in spec.steps}
    assert steps["loud"].when == "count reported more than 10 warnings"
    assert steps["quiet"].otherwise_of == "loud"


def test_a_profile_the_file_does_not_explain_is_a_warning_at_its_line_and_the_service_always_runs() -> None:
    spec = _parse(_compose("profiles: [noisy]", "profiles: [calm]   # handy for debugging"))
    steps = {s.id: s for s in spec.steps}
    assert steps["loud"].when is None and steps["quiet"].when is None and steps["quiet"].otherwise_of is None
    said = {w.line: w.message for w in spec.warnings if "profile" in w.message}
    assert set(said) == {6, 10}
    assert "does not say when it is selected" in said[6] and "'handy for debugging'" in said[10]
    assert all("it always runs" in m for m in said.values())


def test_a_service_that_lists_a_profile_read_before_shares_its_meaning() -> None:
    spec = _parse(_compose("profiles: [noisy]  # when count found at least 1 errors", "profiles: [calm]  # else",
                           "  alert:\n    skill: page\n    profiles: [noisy]\n    depends_on: [count]\n"))
    steps = {s.id: s for s in spec.steps}
    assert steps["alert"].when == steps["loud"].when == "count found at least 1 errors"


def test_a_count_of_a_plural_noun_is_a_comparison_of_its_count_field() -> None:
    said = {text: [(c.subject, c.op, c.value) for c in read.clauses]
            for text in ("merge counted 3 or more errors", "fewer than 3 errors", "at most 2 retries",
                         "more than 10 items", "3 or fewer rows")
            if (read := read_condition(text)) is not None}
    assert said == {
        "merge counted 3 or more errors": [(("error", "count"), ">=", 3)],
        "fewer than 3 errors": [(("error", "count"), "<", 3)],
        "at most 2 retries": [(("retry", "count"), "<=", 2)],
        "more than 10 items": [(("item", "count"), ">", 10)],
        "3 or fewer rows": [(("row", "count"), "<=", 3)],
    }
    read = read_condition("x is 3 or y is 4")  # a real "or" between two clauses still splits
    assert read is not None and read.joins == ("or",)


def test_a_value_with_or_less_or_or_more_is_one_bound_not_two_clauses() -> None:
    read = read_condition("the score is 50 or less")
    assert read is not None and [(c.subject, c.op, c.value) for c in read.clauses] == [(("score",), "<=", 50)]
