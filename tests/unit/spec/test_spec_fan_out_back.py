"""A fan-out over what the step before gave back, said without naming it: "For each account that comes
back at risk, ..." and "run `x` on every PR that came out of it" loop over the previous step's output."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.step_prose import for_each_phrase


def test_each_item_that_comes_back_is_a_loop_over_the_step_before() -> None:
    assert for_each_phrase("For each account that comes back at risk, the draft-email skill writes a mail",
                           "step-1") == ("account", "steps.step-1.output", "the draft-email skill writes a mail")
    assert for_each_phrase("then run `classify-pr` on every PR that came out of it — number + title each",
                           "step-3") == ("pr", "steps.step-3.output", "then run `classify-pr` — number + title each")


def test_without_a_step_before_or_with_a_step_named_it_is_not_this_reading() -> None:
    assert for_each_phrase("For each account that comes back at risk, draft a mail") is None
    came = for_each_phrase("For every line that came back from step 2, run `check`", "step-4")
    assert came is not None and came[1] == "steps.step-2.output.lines"  # the step it names, not the one before
    assert for_each_phrase("run `check` on every file in the folder", "step-1") is None


def test_a_list_step_that_runs_on_every_item_of_the_one_before_is_a_for_each_step() -> None:
    spec = parse_spec_text("# Notes\n\n## Steps\n\n1. Split: `split-changelog` on the dump.\n"
                           "2. Classify: run `classify-pr` on every PR that came out of it.\n", "n.md", "markdown")
    assert spec.steps[1].for_each == "pr in steps.step-1.output"
    assert any("For each: pr in steps.step-1.output" in r.note for r in spec.steps[1].readings)
