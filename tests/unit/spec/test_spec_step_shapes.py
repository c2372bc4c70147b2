"""Steps in the shapes people write them, and every reading kept with its line."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.model import StepSpec


def parse(text: str, fmt: str = "markdown") -> WorkflowSpec:
    return parse_spec_text(text, "flow.md", fmt)


def line(where: str | None) -> int:
    assert where is not None
    return int(where.rsplit(":", 1)[1])


def readings(step: StepSpec, what: str) -> list[tuple[int, str]]:
    return [(line(r.where), r.note) for r in step.readings if r.what == what]


@pytest.mark.parametrize(
    ("heading", "number", "name"),
    [
        ("## Stage 2 — Classify", 2, "Classify"),
        ("#### Step three: Build", 3, "Build"),
        ("## 1) Pull out the action items", 1, "Pull out the action items"),
        ("### 2. Parse orders", 2, "Parse orders"),
        ("### Phase 4 - Ship", 4, "Ship"),
        ("### Task 5: Report", 5, "Report"),
    ],
)
def test_step_headings_in_other_wordings_and_levels_are_steps(heading: str, number: int, name: str) -> None:
    (step,) = parse(f"# Flow\n\n{heading}\n\nRun `a-skill` on it.\n").steps
    assert (step.id, step.number, step.name) == (f"step-{number}", number, name)
    assert step.form == "heading"
    assert readings(step, "step") == [(3, f"heading '{heading.lstrip('# ')}' read as step-{number} ({name})")]
    assert [(m.text, line(m.where)) for m in step.mentions] == [("a-skill", 5)]


def test_the_templates_own_heading_needs_no_reading() -> None:
    (step,) = parse("# Flow\n\n## Workflow Steps\n\n### Step 1: Fetch\n- Skill: `a`\n").steps
    assert step.readings == ()


def test_numbered_headings_that_name_sections_or_sit_in_other_sections_are_not_steps() -> None:
    spec = parse(
        "# Flow\n\n## 1. Intent\nWhy.\n\n## 2. Steps\n\n### Step 1: A\n- Skill: `a`\n\n"
        "## Testing Plan\n\n### 1. Happy path\nIt works.\n"
    )
    assert [s.id for s in spec.steps] == ["step-1"]
    assert spec.intent == "Why."
    assert [sc.name for sc in spec.scenarios] == ["1. Happy path"]


def test_a_numbered_list_of_steps_reads_name_skill_inputs_outputs_and_dependencies() -> None:
    spec = parse(
        "# Flow\n\n## Steps\n\n"
        "3. Extract: `extract-rows` (table -> rows). Depends on: none. Retry 3x.\n"
        "4. Count: `count-rows` (rows -> count).\n"
        "   - Depends on: Step 3\n"
    )
    first, second = spec.steps
    assert [(s.id, s.name, s.form) for s in spec.steps] == [("step-3", "Extract", "list"), ("step-4", "Count", "list")]
    assert [f.name for f in first.inputs] == ["table"] and [f.name for f in first.outputs] == ["rows"]
    assert (first.depends_on, first.depends_where) == ((), "flow.md:5")
    assert "Retry 3x." in first.description  # left for the policy reader
    assert [m.text for m in first.mentions] == ["extract-rows"]
    assert second.depends_on == ("step-3",)
    assert readings(first, "step") == [(5, "numbered list item read as step-3 (Extract)")]
    assert readings(first, "depends_on") == [(5, "no dependencies: the step is a root")]


def test_a_bulleted_list_of_steps_is_numbered_in_order() -> None:
    spec = parse("# Flow\n\n## Workflow\n\n- Fetch: uses `fetch-docs`\n- Write: uses `write-docs`\n")
    assert [(s.id, s.name) for s in spec.steps] == [("step-1", "Fetch"), ("step-2", "Write")]
    assert readings(spec.steps[1], "step") == [(6, "list item read as step-2 (Write)")]


def test_a_table_of_steps_reads_each_row_and_reports_the_columns_it_cannot_place() -> None:
    spec = parse(
        "# Flow\n\n## Steps\n\n"
        "| # | Step | Skill | Depends on | Owner | Max Attempts | Notes |\n"
        "|---|------|-------|------------|-------|--------------|-------|\n"
        "| 1 | Read | `read-it` | none | me | 1 | lockfile -> packages |\n"
        "| 2 | Check | `check-it` | 1 | you | 3 | packages -> issues. Give it 30s. |\n"
        "| 3 | Join | `join-it` | Steps 1 and 2 | you | 1 | |\n"
    )
    one, two, three = spec.steps
    assert [(s.id, s.name, s.skill, s.form) for s in spec.steps] == [
        ("step-1", "Read", "`read-it`", "table"), ("step-2", "Check", "`check-it`", "table"),
        ("step-3", "Join", "`join-it`", "table")]
    assert (one.depends_on, two.depends_on, three.depends_on) == ((), ("step-1",), ("step-1", "step-2"))
    # the Max Attempts cells and the notes' sentences go to the policy reader, once each
    read = [(r.steps, line(r.where), r.text, effect_of(r.statement)) for r in spec.readings]
    assert [(steps, at, text) for steps, at, text, _ in read] == [
        (("step-1",), 7, "max attempts: 1"), (("step-2",), 8, "Give it 30s."), (("step-2",), 8, "max attempts: 3"),
        (("step-3",), 9, "max attempts: 1")]
    assert [e.retry.max_retries for *_, e in read if e.retry] == [0, 2, 0]  # Max Attempts counts the first attempt
    assert read[1][3].attempt_timeout_s == 30
    assert [f.name for f in two.outputs] == ["issues"]
    assert "Give it 30s." in two.description
    assert [(w.line, w.message) for w in spec.warnings] == [
        (5, "column 'Owner' of the steps table is not a step field; its cells are read only for policy")]


def test_a_runbook_of_paragraphs_takes_each_step_and_orders_it_by_its_sequence_word() -> None:
    spec = parse(
        "# Pull\n\n## Runbook\n\n"
        "First pull the tarball using `fetch-mirror`. Give it 60 seconds.\n\n"
        "If the mirror is down use `backup-mirror`.\n\n"
        "Then list what's inside with `list-tarball` (tarball -> `files`).\n\n"
        "That's it. It takes ten seconds.\n"
    )
    first, second = spec.steps
    assert [(s.id, s.name, s.form) for s in spec.steps] == [
        ("step-1", "Pull the tarball", "paragraph"), ("step-2", "List what's inside", "paragraph")]
    assert [m.text for m in first.mentions] == ["fetch-mirror", "backup-mirror"]  # its second paragraph too
    assert (second.depends_on, line(second.depends_where)) == (("step-1",), 9)
    assert readings(second, "depends_on") == [(9, "'Then' read as after step-1")]
    assert [(w.line, w.code) for w in spec.warnings] == [(11, "spec.unread")]  # "That's it."


def test_headings_under_a_steps_section_without_numbers_are_steps_in_order() -> None:
    spec = parse("# Flow\n\n## Steps\n\n### Pull the numbers\nUse `pull`.\n\n### Send the mail\nUse `send`.\n")
    assert [(s.id, s.name) for s in spec.steps] == [("step-1", "Pull the numbers"), ("step-2", "Send the mail")]
    assert readings(spec.steps[1], "step") == [(8, "heading 'Send the mail' read as step-2 (Send the mail), "
                                                   "numbered in order")]


def test_a_paragraph_that_opens_with_an_empty_steps_name_moves_to_that_step() -> None:
    spec = parse(
        "# Triage\n\n## Stage 1 — Classify\nUse `classify`.\n\n## Stage 2 — Billing\n\n## Stage 3 — Other\n\n"
        "Stage 2 uses `billing-resolver`.\n\nStage 3 uses `general-resolver`.\n"
    )
    _, billing, other = spec.steps
    assert [m.text for m in billing.mentions] == ["billing-resolver"]
    assert [m.text for m in other.mentions] == ["general-resolver"]
    assert readings(billing, "moved") == [(10, "paragraph under 'Stage 3 — Other' read as part of step-2")]


def test_a_routing_sentence_goes_to_the_step_it_names_as_the_router() -> None:
    spec = parse(
        "# Triage\n\n## Stage 1 — Classify\nUse `classify`.\n\n## Stage 2 — Billing\nUse `b`.\n\n"
        "## Stage 3 — Other\nWhich runs depends on the category from Stage 1: `billing` goes to Stage 2, "
        "anything else to Stage 3.\n\nStage 3 uses `o`.\n"
    )
    router = spec.steps[0]
    assert (router.routes, router.route_default, router.route_on) == ({"billing": "step-2"}, "step-3", "category")
    assert line(router.routes_where) == 10
    assert "Which runs" not in spec.steps[2].description


def test_a_route_bullet_reads_a_default_and_an_unknown_default_target_is_an_error() -> None:
    spec = parse("# F\n\n## Steps\n\n### Step 1: A\n- Skill: `a`\n- Route: yes → Step 2, anything else → Step 3\n\n"
                 "### Step 2: B\n- Skill: `b`\n\n### Step 3: C\n- Skill: `c`\n")
    assert (spec.steps[0].routes, spec.steps[0].route_default) == ({"yes": "step-2"}, "step-3")
    with pytest.raises(SpecError) as caught:
        parse("# F\n\n## Steps\n\n### Step 1: A\n- Skill: `a`\n- Route: yes → Step 1, otherwise → Step 9\n")
    assert [(d.line, d.message) for d in caught.value.diagnostics] == [
        (7, "step-1: the default route goes to 'step-9', which the spec does not have")]


def test_dependencies_and_joins_written_in_prose() -> None:
    spec = parse(
        "# F\n\n## Steps\n\n### Step 1: A\nUse `a`.\n\n### Step 2: B\nUse `b`. Independent of step 1.\n\n"
        "### Step 3: C\nRuns after 1–2. Use `c`.\n\n"
        "### Step 4: D\n- Skill: `d`\n- Depends on: Step 2 or Step 3 (whichever ran)\n\n"
        "### Step 5: E\n- Skill: `e`\n- Depends on: c, D\n"
    )
    _, b, c, d, e = spec.steps
    assert (b.depends_on, b.depends_where, b.unordered_where) == ((), None, "flow.md:9")
    assert c.depends_on == ("step-1", "step-2")
    assert readings(c, "depends_on") == [(12, "depends on step-1, step-2")]
    assert (d.depends_on, d.join) == (("step-2", "step-3"), "any")
    assert readings(d, "join") == [(16, "runs once after whichever of step-2, step-3 ran")]
    assert e.depends_on == ("step-3", "step-4")  # by name, any case


def test_a_bullet_read_only_for_its_dependency_says_the_rest_is_not_read() -> None:
    spec = parse("# F\n\n## Steps\n\n### Step 1: A\n- Skill: `a`\n\n### Step 2: B\n- Skill: `b`\n"
                 "- once Step 1 has finished, if you feel like it\n")
    assert spec.steps[1].depends_on == ("step-1",)
    assert [(w.line, w.message) for w in spec.warnings] == [
        (10, "step-2: bullet 'once Step 1 has finished, if you feel like it' read only for the step it "
             "depends on; the rest is not read")]


def test_a_condition_bullet_is_read_whole_as_the_steps_condition() -> None:
    spec = parse("# F\n\n## Steps\n\n### Step 1: A\n- Skill: `a`\n\n### Step 2: B\n- Skill: `b`\n"
                 "- only when Step 1 reported valid = true\n- Runs after Step 1.\n")
    assert spec.steps[1].depends_on == ("step-1",)
    assert spec.steps[1].when == "Step 1 reported valid = true"
    assert spec.steps[1].field_where["when"].endswith(":10")
    assert spec.warnings == ()


def test_recovery_rows_and_contracts_name_steps_by_number_name_list_or_any() -> None:
    spec = parse(
        "# F\n\n## Steps\n\n1. Fetch: `fetch`\n2. Parse: `parse`\n3. Write: `write`\n\n"
        "## Data Contracts\n\n### Fetch → Parse\n- Output: { body: string }\n\n"
        "## Error Recovery\n\n| Step | Failure | Recovery |\n|---|---|---|\n"
        "| Parse | Network timeout | Retry 2 times |\n| 1, 3 | Network timeout | Retry 1 time |\n"
        "| any | Script raised an exception | Regenerate (1 attempt) |\n\n"
        "| When | Do this |\n|---|---|\n| Step 3, network timeout | retry twice |\n| nothing known | retry |\n"
    )
    (contract,) = spec.contracts
    assert (contract.producer, contract.consumer) == ("step-1", "step-2")
    assert [(r.step, line(r.where)) for r in spec.recovery] == [
        ("step-2", 18), ("step-1", 19), ("step-3", 19), ("step-1", 20), ("step-2", 20), ("step-3", 20),
        ("step-3", 24), ("step-1", 25), ("step-2", 25), ("step-3", 25)]
    assert spec.recovery[-4].rule.failure == "network timeout"
    assert [r.every_step for r in spec.recovery[-3:]] == [True] * 3
    assert sorted((w.code, w.message) for w in spec.warnings if w.line == 25) == [  # each said once, not per step
        ("spec.assumed", "'retry' gives no retry count; 3 retries assumed, waiting 1s, 2s, 4s (exponential from 1s, "
                         "x2, capped at 60s, with jitter: up to those); write the count to say it ('retry 3 times ...')"),
        ("spec.unclassified", "every step: failure 'nothing known' not classified; the row applies to any error class"),
        ("spec.unread", "error recovery: the row 'nothing known' names no step (write `Step N, ...`, the step's name, "
                        "or add a Step column); it applies to every step")]


def test_a_preamble_line_declares_the_workflow_inputs() -> None:
    spec = parse("# F\n\n**Inputs:** `n` (int, normally 0), `label`\n\n## Steps\n\n1. Bump: `bump` (n -> n)\n")
    assert [(i.name, i.type) for i in spec.inputs] == [("n", "integer"), ("label", None)]
    spec = parse("# F\n\nThe input is `transcript` (plain text) and `title`.\n\n## Steps\n\n1. Go: `go`\n")
    assert [i.name for i in spec.inputs] == ["transcript", "title"]


def test_text_after_a_notes_line_in_a_step_is_not_read_as_the_step() -> None:
    spec = parse("# F\n\n#### Step one: Build\n- Skill: build\n\nnotes:\n- steps one and two are unrelated\n")
    (step,) = spec.steps
    assert step.depends_where is None
    assert [w.line for w in spec.warnings] == [6, 7]


def test_yaml_reads_roots_input_lists_step_references_joins_and_default_routes() -> None:
    spec = parse(
        "steps:\n"
        "  - id: norm\n    skill: normalise\n    input: [vendor, amount]\n    depends_on: []\n"
        "  - id: route\n    skill: pick\n    depends_on: [norm]\n    route_on: category\n"
        "    routes: {billing: pay, default: other}\n"
        "  - id: pay\n    skill: pay\n    input: {amount: norm.amount}\n"
        "  - id: other\n    skill: other\n"
        "  - id: after\n    skill: reply\n    depends_on: {any: [pay, other]}\n",
        "yaml",
    )
    norm, route, pay, _, after = spec.steps
    assert (norm.depends_on, norm.depends_where, [f.name for f in norm.inputs]) == ((), "flow.md:5", ["vendor", "amount"])
    assert (route.routes, route.route_default, route.route_on) == ({"billing": "pay"}, "other", "category")
    assert [(f.name, f.source) for f in pay.inputs] == [("amount", "steps.norm.output.amount")]
    assert pay.input_values == {}
    assert (after.depends_on, after.join) == (("pay", "other"), "any")
    assert {s.form for s in spec.steps} == {"yaml"}


def test_an_input_qualified_with_its_step_names_its_source() -> None:
    *_, step = parse("# F\n\n#### Step one: Build\n- Skill: build\n\n#### Step two: Read\n- Skill: read\n\n"
                     "#### Step three: Deploy\n- Skill: deploy\n"
                     "- in: artifact_id (step one), rows (list, from Step 2), environment\n").steps
    assert [(f.name, f.type, f.source) for f in step.inputs] == [
        ("artifact_id", None, "steps.step-1.output.artifact_id"), ("rows", "array", "steps.step-2.output.rows"),
        ("environment", None, None)]


def test_bold_step_leads_and_requires_lines_number_and_order_steps() -> None:
    spec = parse("# F\n\n## Steps\n\n**Step 1: Fetch.** Pull it with `fetch-it`.\n\n"
                 "**Step 3: Parse.** Parse it with `parse-it`. Requires: Step 1.\n\n"
                 "## Later\n\n- **Step 1: A** — with `fetch-it`\n")
    assert [(s.id, s.name, s.depends_on) for s in spec.steps] == [
        ("step-1", "Fetch", ()), ("step-3", "Parse", ("step-1",))]
    listed = parse("# F\n\n## Steps\n\n- **Step 2: Fetch** — with `f-f`\n- **Step 4: Load** — with `l-l`\n")
    assert [(s.id, s.name) for s in listed.steps] == [("step-2", "Fetch"), ("step-4", "Load")]


def test_a_step_that_says_it_does_not_wait_is_unordered_not_an_explicit_root() -> None:
    spec = parse("# F\n\n## Steps\n\n### Step 1: A\nUse `a`.\n\n### Step 2: B\nUse `b`. In parallel with step 1.\n")
    second = spec.steps[1]
    assert (second.depends_on, second.depends_where, second.unordered_where) == ((), None, "flow.md:9")
    heading = parse("# F\n\n### 3 — Ship\nUse `ship`.\n").steps[0]
    assert (heading.id, heading.name) == ("step-3", "Ship")


def test_yaml_from_other_tools_reads_needs_uses_steps_without_ids_and_positions() -> None:
    spec = parse(
        "steps:\n"
        "  - name: Extract rows\n    uses: extract\n"
        "  - name: Load\n    uses: load\n    needs: Extract rows\n"
        "  - name: Report\n    skill: rep\n    depends_on: \"1, 2\"\n"
        "  - id: last\n    skill: z\n    depends_on: none\n",
        "yaml",
    )
    assert [(s.id, s.skill, s.depends_on) for s in spec.steps] == [
        ("extract-rows", "extract", ()), ("load", "load", ("extract-rows",)),
        ("report", "rep", ("extract-rows", "load")), ("last", "z", ())]
    assert spec.steps[3].depends_where == "flow.md:12"
    assert [r.note for r in spec.steps[1].readings] == [
        "`uses:` read as `skill:`", "`needs:` read as `depends_on:`", "a step without an id: read as `load`"]
    mapping = parse("steps:\n  extract: {skill: a}\n  load: {skill: b, needs: [extract]}\n", "yaml")
    assert [(s.id, s.depends_on) for s in mapping.steps] == [("extract", ()), ("load", ("extract",))]


def test_a_step_is_found_by_the_words_of_its_name_when_only_one_has_them() -> None:
    spec = parse("# F\n\n## Steps\n\n1. Fetch the docs: `f`\n2. Write the page: `w`\n"
                 "3. Check: `c`. Depends on: the fetch step, page.\n")
    assert spec.steps[2].depends_on == ("step-1", "step-2")
    table = parse("# F\n\n## Steps\n\n| Step | Skill | Depends on |\n|---|---|---|\n"
                  "| Step 1: Fetch | `f` | - |\n| Step 2: Write | `w` | Fetch |\n")
    assert [(s.id, s.name, s.depends_on) for s in table.steps] == [("step-1", "Fetch", ()), ("step-2", "Write", ("step-1",))]


def test_a_section_that_names_skills_no_step_runs_is_an_error_at_its_line_not_a_quiet_ok() -> None:
    with pytest.raises(SpecError) as raised:
        parse("# F\n\n### Step 1: Fetch\n\nUse `fetch-it`.\n\n## Cleanup\n\nUse `clean-cache`, then **tell-team**.\n")
    message = str(raised.value)
    assert [d.line for d in raised.value.diagnostics] == [7] and "`clean-cache`, `tell-team`" in message and "lines 9" in message


def test_sequence_word_sections_are_steps_numbered_after_the_numbered_ones_and_cut_at_each_skill() -> None:
    spec = parse(
        "# F\n\nInputs: `tier` (bronze / silver / gold), `rows`\n\n## Phase 1 — read\n\nCall `read-rows` with the rows.\n\n"
        "## Then\n\nWhen that is done, `sum-rows` adds them up.\n\nThen pick the payout:\n\n"
        "- **Gold customers** → `pay-card` with the total.\n- **Everyone else** → `pay-credit`, same total.\n\n"
        "## Finally\n\nOnce the payout is done (whichever one ran), `close-it` with the total.\n"
    )
    assert [(s.id, s.mentions[0].text if s.mentions else s.name) for s in spec.steps] == [
        ("step-1", "read-rows"), ("step-2", "sum-rows"), ("step-3", "pay-card"), ("step-4", "pay-credit"),
        ("step-5", "close-it")]
    gold, other, close = spec.steps[2], spec.steps[3], spec.steps[4]
    assert gold.when == "tier == 'gold'" and other.otherwise_of == "step-3"
    assert (close.depends_on, close.join) == (("step-3", "step-4"), "any")
    assert spec.steps[1].depends_on == ("step-1",)
    assert any(r.what == "step" and "numbered in order" in r.note for r in spec.steps[1].readings)


def test_a_runbook_of_sections_that_name_skills_in_bold_is_a_step_per_section_without_the_sign_off() -> None:
    spec = parse(
        "# R\n\nHello.\n\n## First, see what's low\n\nRun the **check-stock** skill with the items.\n\n"
        "## Put the order together\n\nOnce every item is priced — and not before — hand them to **build-po**.\n\n"
        "## Submit it\n\nNow **submit-po** gets the lines.\n\nThanks! Ping me if it looks odd.\n"
    )
    assert [s.name for s in spec.steps] == ["see what's low", "Put the order together", "Submit it"]
    assert spec.steps[1].depends_on == ("step-1",)
    assert not any("Ping" in t.text for t in spec.steps[2].texts)
    assert any("remark to the reader" in w.message for w in spec.warnings)


def test_a_branch_label_that_no_input_value_or_comparison_places_is_an_error_at_its_line() -> None:
    with pytest.raises(SpecError) as raised:
        parse("# F\n\n## Then\n\nPick one:\n\n- **Big ones** → `pay-card`.\n- **Everyone else** → `pay-credit`.\n")
    assert [d.line for d in raised.value.diagnostics] == [7] and "the branch 'Big ones'" in str(raised.value)


def test_short_sources_in_a_takes_column_and_a_runs_when_column_are_read() -> None:
    spec = parse(
        "# T\n\nInputs: `raw`\n\n## Steps\n\n| # | Step | Skill | Takes | Runs when |\n|---|---|---|---|---|\n"
        "| 1 | parse | parse-it | raw ← input | always |\n| 2 | score | score-it | level ← #1, svc <- parse.service | always |\n"
        "| 3 | page | page-it | sev ← #2.severity | #2 severity ≥ 8 |\n| 4 | ticket | open-it | sev from #2 | any other case (not #3) |\n"
    )
    sources = [[(f.name, f.source) for f in s.inputs] for s in spec.steps]
    assert sources == [[("raw", "inputs.raw")],
                       [("level", "steps.step-1.output.level"), ("svc", "steps.step-1.output.service")],
                       [("sev", "steps.step-2.output.severity")], [("sev", "steps.step-2.output.sev")]]
    assert spec.steps[2].when == "step 2 severity ≥ 8" and spec.steps[0].when is None
    assert spec.steps[3].otherwise_of == "step-3" and spec.steps[3].when is None


def test_a_paragraph_of_the_steps_section_that_names_a_skill_no_step_runs_is_an_error_at_its_line() -> None:
    with pytest.raises(SpecError) as raised:
        parse("# F\n\n## Steps\n\nBefore anything, run `warm-cache`.\n\n### Step 1: A\n\nUse `a-a`.\n")
    assert [d.line for d in raised.value.diagnostics] == [5] and "`warm-cache`" in str(raised.value)
    quiet = parse("# F\n\n## Steps\n\nAll of this uses `a-a`.\n\n### Step 1: A\n\nUse `a-a`.\n")
    assert [w.line for w in quiet.warnings if "not read" in w.message] == [5]


def test_a_list_of_branches_under_a_numbered_step_heading_is_a_step_per_branch_numbered_after_the_rest() -> None:
    spec = parse(
        "# P\n\nInputs: `tier` (basic | premium)\n\n### Step 1: Check\nUse `check-it`.\n\n### Step 2: Pay out\n"
        "Depending on the tier:\n\n- **Premium** → `pay-card`.\n- **Everyone else** → `pay-credit`.\n\n"
        "### Step 3: Close\nOnce the payout is done (whichever ran), `close-it`.\n"
    )
    got = [(s.id, s.when, s.otherwise_of, s.depends_on, s.join) for s in spec.steps]
    assert got == [("step-1", None, None, (), "all"), ("step-2", "tier == 'premium'", None, (), "all"),
                   ("step-4", None, "step-2", (), "all"), ("step-3", None, None, ("step-2", "step-4"), "any")]


def test_a_section_that_only_mentions_other_skills_is_a_warning_with_the_count_not_an_error() -> None:
    spec = parse("# F\n\n### Step 1: Fetch\n\nUse `fetch-it`.\n\n## Alternatives considered\n\n"
                 "We looked at `fancy-fetcher` but it was slow.\n\n## Notes\n\nRun `old-mailer` by hand if needed.\n")
    said = [(w.line, w.message) for w in spec.warnings if "section" in w.message]
    assert [line for line, _ in said] == [7, 11]
    assert "1 of its paragraphs name skills no step runs (`fancy-fetcher`)" in said[0][1]
