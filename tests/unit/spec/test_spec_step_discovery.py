"""Where the reader finds steps when the author did not use the template: other step words,
a numbered list with no steps heading, runbook paragraphs under any procedure section, a
section name written as a plain line; fan-outs and gathered inputs said in a sentence."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.step_prose import dependency_phrase, for_each_phrase


def parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", "markdown")


def warnings(spec: WorkflowSpec) -> list[str]:
    return [w.message for w in spec.warnings]


@pytest.mark.parametrize("word", ["Part", "Milestone", "Phase", "Stage", "Task", "Step", "Activity"])
def test_step_headings_numbered_with_any_step_word_are_steps(word: str) -> None:
    spec = parse(f"# Flow\n\n## {word} 1: Load it\n\n- Skill: `load-it`\n\n## {word} 2: Save it\n\n"
                 f"Keep it with `save-it`. Runs after {word.lower()} 1.\n")
    assert [(s.id, s.name) for s in spec.steps] == [("step-1", "Load it"), ("step-2", "Save it")]
    assert spec.steps[1].depends_on == ("step-1",)
    assert [m.text for m in spec.steps[1].mentions][:1] == ["save-it"]


def test_a_top_level_numbered_list_with_sub_bullets_is_the_steps_when_no_section_holds_them() -> None:
    spec = parse(
        "# Nightly check\n\nruns every night. inputs: `host`.\n\n"
        "1. Probe\n   - `probe-host` with host -> status\n\n"
        "2. Report\n   - Skill: report-status\n   - in: status (from 1)\n"
    )
    assert [(s.id, s.name, s.form) for s in spec.steps] == [("step-1", "Probe", "list"), ("step-2", "Report", "list")]
    assert [r.note for r in spec.steps[0].readings if r.what == "step"] == ["numbered list item read as step-1 (Probe)"]


def test_a_numbered_list_of_plain_goals_is_not_taken_for_steps() -> None:
    spec = parse("# Flow\n\nGoals:\n\n1. Be fast\n2. Be cheap\n\n## Steps\n\n### Step 1: Go\n- Skill: `go`\n")
    assert [s.name for s in spec.steps] == ["Go"]


@pytest.mark.parametrize("title", ["How to run it", "The procedure", "What to do", "Order of operations"])
def test_runbook_paragraphs_under_a_procedure_section_of_any_name_are_steps(title: str) -> None:
    spec = parse(f"# Flow\n\n## {title}\n\nFirst fetch the page with `fetch-page`.\n\n"
                 "Then shrink it using `shrink-page`. Retry once.\n")
    assert [(s.name, s.form) for s in spec.steps] == [("Fetch the page", "paragraph"), ("Shrink it", "paragraph")]
    assert spec.steps[1].depends_on == ("step-1",)


def test_two_paragraphs_naming_skills_under_an_unknown_section_are_steps_when_nothing_else_is() -> None:
    spec = parse("# Flow\n\n## Doing it\n\nStart by loading rows with `load-rows`.\n\n"
                 "Next total them with `sum-rows`.\n")
    assert [s.name for s in spec.steps] == ["Loading rows", "Total them"]


def test_a_section_name_on_a_line_of_its_own_is_read_as_its_heading_with_a_warning() -> None:
    spec = parse("# Flow\n\nInputs\n- `rows` (list): the rows\n\nSteps\n\n1. Sum: `sum-rows` (rows -> total).\n"
                 "2. Show: `show-total` (total -> text).\n")
    assert [i.name for i in spec.inputs or ()] == ["rows"]
    assert [s.name for s in spec.steps] == ["Sum", "Show"]
    assert "the line 'Inputs' read as the heading of a 'inputs' section" in warnings(spec)


def test_a_sentence_declaring_the_inputs_reads_optional_names_and_defaults() -> None:
    spec = parse("# Flow\n\nOne input, `doc` (plus optional `limit`, default 40), and out comes `doc` again.\n\n"
                 "## Steps\n\n### Step 1: Cut\n- Skill: `cut-doc`\n")
    got = [(i.name, i.required, i.default) for i in spec.inputs or ()]
    assert got == [("doc", True, None), ("limit", False, 40)]


def test_a_fan_out_said_in_a_sentence_is_the_steps_for_each() -> None:
    spec = parse("# Flow\n\n## Steps\n\n1. Split: `split-doc` (doc -> parts).\n"
                 "2. Tag: for each part in parts, run `tag-part` (part -> tag).\n"
                 "3. Check: for every tag from step 2, run `check-tag` (tag -> ok).\n"
                 "4. Pack: `pack-all` (tags = all step 2 results, oks = the results of step 3 -> packed).\n")
    assert [s.for_each for s in spec.steps] == [None, "part in parts", "tag in steps.step-2.output", None]
    assert [(f.name, f.source) for f in spec.steps[3].inputs] == [
        ("tags", "steps.step-2.output"), ("oks", "steps.step-3.output")]
    assert [r.note for r in spec.steps[1].readings if r.what == "for_each"] == ["read as For each: part in parts"]


@pytest.mark.parametrize(
    ("sentence", "item", "source", "rest"),
    [
        ("for each doc in documents (the workflow input), run it", "doc", "documents", "run it"),
        ("For every row of `rows`, add one", "row", "rows", "add one"),
        ("once per file in step 3's output, zip it", "file", "steps.step-3.output", "zip it"),
    ],
)
def test_for_each_phrases_in_other_wordings(sentence: str, item: str, source: str, rest: str) -> None:
    assert for_each_phrase(sentence) == (item, source, rest)


def test_a_for_each_word_that_does_not_open_the_sentence_or_name_a_list_is_not_a_fan_out() -> None:
    assert for_each_phrase("Retry for each failure") is None
    assert for_each_phrase("for each of them, retry") is None


def test_a_dependency_the_author_negates_is_not_a_dependency() -> None:
    found = dependency_phrase("always, after 4 (doesn't wait for 5)")
    assert found is not None and found.ids == ("step-4",)
    assert dependency_phrase("it does not wait for step 2") is None
    found = dependency_phrase("after steps 2 and 3, but not after 4")
    assert found is not None and found.ids == ("step-2", "step-3")


def test_a_recovery_table_without_a_step_column_finds_the_step_named_in_brackets() -> None:
    spec = parse("# Flow\n\n## Part 1: Load\n- Skill: `load-it`\n\n## Part 2: Save\n- Skill: `save-it`\n\n"
                 "## Error Recovery\n\n| Situation | What we do |\n|---|---|\n"
                 "| Disk full (part 2) | retry 3 times |\n| Anything else | fail the run |\n")
    rows = [(r.step, int(r.rule.where.rsplit(":", 1)[1])) for r in spec.recovery]
    assert ("step-2", 13) in rows and ("step-1", 13) not in rows
    assert {s for s, line in rows if line == 14} == {"step-1", "step-2"}
    assert not any("names no step" in m for m in warnings(spec))


def test_a_bullet_labelled_with_a_skill_name_names_the_skill_and_what_it_takes() -> None:
    spec = parse("# Flow\n\n## Steps\n\n### Step 1: Archive\n- archive-run: host, score -> key\n")
    (step,) = spec.steps
    assert step.skill == "`archive-run`"
    assert [f.name for f in step.inputs] == ["host", "score"]
    assert [f.name for f in step.outputs] == ["key"]


def test_a_hyphenated_name_written_bare_is_kept_as_a_plain_mention() -> None:
    (step,) = parse("# Flow\n\n## Steps\n\n### Step 1: Deploys\n- the list-deploys skill, in: service\n").steps
    assert [(m.text, m.marked) for m in step.mentions] == [("list-deploys", "plain")]


def test_a_condition_with_a_unit_aside_is_read_without_the_aside() -> None:
    (step,) = parse("# Flow\n\n## Steps\n\n### Step 1: Screen\nOnly if the total is over 1000 (EUR). "
                    "Use `screen-it`.\n").steps
    assert step.when == "the total is over 1000"


@pytest.mark.parametrize("said", ["Success = ok is true.", "Success means ok is true.", "Success criteria: ok is true."])
def test_a_success_criterion_said_with_equals_or_means_is_the_steps_success(said: str) -> None:
    (step,) = parse(f"# Flow\n\n## Steps\n\n### Step 1: Check\nRun `check-it`. {said}\n").steps
    assert step.success == "ok is true"


def test_a_bare_name_in_a_sentence_about_a_fallback_is_not_a_mention() -> None:
    (step,) = parse("# Flow\n\n## Steps\n\n### Step 1: Fetch\n- if it fails, fall back to fetch-cache\n").steps
    assert [m.text for m in step.mentions if m.marked == "plain"] == []
