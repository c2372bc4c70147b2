"""Conditions, Otherwise, approvals and input sources as a spec's prose and YAML say them."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import WorkflowSpec, parse_spec_text


def parse(text: str, fmt: str = "markdown") -> WorkflowSpec:
    return parse_spec_text(text, "flow.md" if fmt == "markdown" else "flow.yaml", fmt)  # type: ignore[arg-type]


HEAD = "# F\n\n## Steps\n\n### Step 1: Score\n- Skill: `score`\n\n"


def test_a_sentence_saying_when_a_step_runs_is_its_condition_with_its_line() -> None:
    spec = parse(HEAD + "### Step 2: Flag\nThis one only runs if confidence < 0.7. It uses `flag`.\n")
    step = spec.steps[1]
    assert step.when == "confidence < 0.7"
    assert step.field_where["when"] == "flow.md:9"
    assert "confidence" not in step.description


def test_an_unreadable_condition_in_a_when_line_is_an_error_and_after_a_bare_only_if_a_warning() -> None:
    with pytest.raises(SpecError) as raised:
        parse(HEAD + "### Step 2: Flag\n- Skill: `flag`\n- When: the moon is made of, cheese and\n")
    assert "when: the condition 'the moon is made of, cheese and' cannot be read" in raised.value.render()
    spec = parse(HEAD + "### Step 2: Back\nOnly if the mirror is down, use the backup mirror `backup`.\n")
    assert spec.steps[1].when is None
    assert any(w.code == "spec.when" and w.line == 9 for w in spec.warnings)


@pytest.mark.parametrize("line", ["- Otherwise (of Step 2): say so", "- Otherwise of Step two: say so",
                                  "- Else (Step 2's condition): say so", "Otherwise of step 2: say so."])
def test_an_otherwise_may_name_the_step_whose_condition_it_negates(line: str) -> None:
    spec = parse(HEAD + "### Step 2: Big\n- Skill: `big`\n- Only if the score is over 50\n\n"
                 f"### Step 3: Small\n{line}\n- Skill: `small`\n")
    small = spec.steps[2]
    assert (small.otherwise_of, small.otherwise_where, small.otherwise_text) == ("step-2", "flow.md:13", None)
    assert small.description.startswith("say so")


def test_yaml_otherwise_names_a_step_or_is_true_and_anything_else_is_an_error() -> None:
    text = ("name: f\nsteps:\n  - id: big\n    skill: big\n    when: score > 50\n"
            "  - id: small\n    skill: small\n    otherwise: {said}\n")
    small = parse(text.format(said="big"), "yaml").steps[1]
    assert (small.otherwise_of, small.otherwise_where, small.field_where["when"]) == ("big", "flow.yaml:8", "flow.yaml:8")
    assert parse(text.format(said="true"), "yaml").steps[1].otherwise_of is None
    with pytest.raises(SpecError) as raised:
        parse(text.format(said="false"), "yaml")
    assert "flow.yaml:8" in raised.value.render() and "otherwise: name the step" in raised.value.render()


def test_otherwise_opening_a_step_is_read_and_later_in_the_step_it_is_not() -> None:
    spec = parse(HEAD + "### Step 2: Big\n- Skill: `big`\n- Only if the score is over 50\n\n"
                 "### Step 3: Small\n- otherwise (the score is 50 or less): say so\n- Skill: `small`\n\n"
                 "### Step 4: Last\n- Skill: `last`\n- Retries: 2\n- otherwise, page the on-call\n")
    assert spec.steps[1].when == "the score is over 50"
    assert spec.steps[2].otherwise_where == "flow.md:13" and spec.steps[2].otherwise_text == "the score is 50 or less"
    assert spec.steps[3].otherwise_where is None
    assert any(w.line == 19 and "is not read as an Otherwise" in w.message for w in spec.warnings)


def test_an_approval_takes_a_condition_and_a_wait_in_markdown_prose_and_yaml() -> None:
    spec = parse(HEAD + "### Step 2: Book\n- Skill: `book`\n"
                 "- Approval: required if amount > 1000; wait up to 24h, then reject\n\n"
                 "### Step 3: Send\n- Skill: `send`\n\nBefore anything is sent, finance has to approve it. "
                 "If nobody has looked at it within 6 hours, treat it as rejected.\n")
    book, send = spec.steps[1].approval, spec.steps[2].approval
    assert book is not None and (book.when, book.timeout_s, book.on_timeout) == ("amount > 1000", 86400.0, "reject")
    assert send is not None and (send.when, send.timeout_s, send.on_timeout) == (None, 21600.0, "reject")
    yaml = parse("name: y\nsteps:\n  - id: book\n    skill: book\n    condition: amount > 5\n    approval:\n"
                 "      when: book.amount > 1000\n      timeout: 24h\n      on_timeout: reject\n", "yaml")
    (step,) = yaml.steps
    assert step.when == "amount > 5"
    assert step.approval is not None and (step.approval.when, step.approval.timeout_s) == ("book.amount > 1000",
                                                                                           86400.0)


def test_input_sources_in_prose_are_explicit() -> None:
    spec = parse("# F\n\n## Steps\n\n| # | Step | Skill | Depends on |\n|---|---|---|---|\n"
                 "| 1 | One | `one` | none |\n| 2 | Two | `two` | 1 |\n| 3 | Three | `three` | 2 |\n\n"
                 "- 3 gets `a` (1) and `b` from 2.\n")
    three = spec.steps[2]
    assert [(f.name, f.source) for f in three.inputs] == [("a", "steps.step-1.output.a"),
                                                          ("b", "steps.step-2.output.b")]
    four = parse(HEAD + "### Step 2: Join\n- Skill: `join`\n"
                 "- Input: `left` = the orders rows from step 1, `key` = \"customer_id\"\n").steps[1]
    assert [(f.name, f.source, f.description) for f in four.inputs] == [
        ("left", "steps.step-1.output", "the orders rows"), ("key", None, "")]
    assert four.input_values == {"key": "customer_id"}
