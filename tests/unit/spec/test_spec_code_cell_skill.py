"""A skill named as the first argument of a call in a code block (a notebook cell's
`run_skill("x", ...)`) is a name the step gives its skill; a name in backticks in a sentence
about a fallback ("use `y` instead") is tried only after every other name."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_CELL = """\
# QC

## 1. Stats

If it raises, use `basic-stats` instead.

```python
stats = run_skill("robust-stats", values=v)
```
"""


def test_a_call_s_quoted_skill_name_in_a_code_block_is_a_mention_of_the_step() -> None:
    step = parse_spec_text(_CELL, "n.md", "markdown").steps[0]
    assert "robust-stats" in [m.text for m in step.mentions]
    assert any(r.what == "skill" and r.where == "n.md:7" for r in step.readings)


def test_the_name_in_a_fallback_sentence_comes_after_the_others() -> None:
    step = parse_spec_text(_CELL, "n.md", "markdown").steps[0]
    assert [m.text for m in step.mentions][:2] == ["robust-stats", "basic-stats"]


def test_a_code_block_that_calls_no_skill_is_still_reported_not_read() -> None:
    text = "# x\n\n## 1. Load\n\nRun `load-rows`.\n\n```python\nprint(1)\n```\n"
    spec = parse_spec_text(text, "n.md", "markdown")
    assert any(w.line == 7 and "block not read" in w.message for w in spec.warnings)


def test_parameters_that_come_in_through_a_runner_are_the_workflow_inputs() -> None:
    text = ("# QC\n\nParameters come in through papermill: `raw` (the dump), `cal` and `batch`.\n\n"
            "## 1. Load\n\nRun `load-rows` with `raw`.\n")
    spec = parse_spec_text(text, "n.md", "markdown")
    assert [i.name for i in spec.inputs or ()] == ["raw", "cal", "batch"]
