"""A Makefile or justfile in a spec: its recipes that call skills are the steps, the recipe's
dependencies and `{{recipe.field}}` references wire them, the comment right above a recipe is
its policy text, and what is not a step is said at its line."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase

_MAKEFILE = """\
# Invoice export

```makefile
SRC_DIR ?=
REGION := "eu-west"

# the entire job is killed at 2h by the scheduler

# the ledger API is flaky: retry 2 times, 10s apart
fetch:
\tskill pull-ledger dir=$(SRC_DIR) region=$(REGION)

# no deps on fetch
rates:
\t@skill load-rates

# pure formatting, never retry it
render: fetch rates
\tskill render-invoices rows="$(fetch.rows)" table="$(rates.table)"

all: render
\t@echo "done; it only counts if render printed complete=true"
```
"""


def _spec(text: str = _MAKEFILE):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "m.md", "markdown")


def test_each_recipe_that_calls_a_skill_is_a_step_and_an_alias_or_echo_recipe_is_not() -> None:
    spec = _spec()
    assert [(s.name, s.skill) for s in spec.steps] == [
        ("fetch", "pull-ledger"), ("rates", "load-rates"), ("render", "render-invoices")]
    assert [s.where for s in spec.steps] == ["m.md:10", "m.md:14", "m.md:18"]


def test_a_recipe_without_prerequisites_is_a_root_and_its_prerequisites_are_its_dependencies() -> None:
    fetch, rates, render = _spec().steps
    assert fetch.depends_on == () and fetch.depends_where == "m.md:10"
    assert rates.depends_on == () and rates.depends_where == "m.md:14"
    assert render.depends_on == ("step-1", "step-2")


def test_arguments_name_workflow_inputs_step_outputs_and_constants() -> None:
    spec = _spec()
    fetch, _, render = spec.steps
    assert {f.name: f.source for f in fetch.inputs} == {"dir": "inputs.src_dir"}
    assert fetch.input_values == {"region": "eu-west"}
    assert {f.name: f.source for f in render.inputs} == {"rows": "steps.step-1.output.rows",
                                                          "table": "steps.step-2.output.table"}
    assert [i.name for i in spec.inputs] == ["src_dir"]


def test_the_comment_above_a_recipe_is_its_policy_and_not_its_neighbours() -> None:
    fetch, rates, render = _spec().steps
    assert [(t.line, t.text) for t in fetch.texts] == [(9, "the ledger API is flaky: retry 2 times, 10s apart")]
    assert [t.line for t in rates.texts] == [13]
    assert [t.line for t in render.texts if t.kind == "prose"] == [17]


def test_a_comment_above_no_recipe_gives_the_whole_run_limit() -> None:
    spec = _spec()
    whole = [r for r in spec.readings if r.statement.whole_run]
    assert [(r.where, r.statement.timeout_s) for r in whole] == [("m.md:7", 7200.0)]


def test_a_policy_in_a_comment_above_no_recipe_is_warned_not_given_to_a_step() -> None:
    text = _MAKEFILE.replace("# the entire job is killed at 2h by the scheduler", "# retry everything 3 times")
    spec = _spec(text)
    assert any(w.line == 7 and "right above no recipe" in w.message for w in spec.warnings)
    assert not any(t.line == 7 for s in spec.steps for t in s.texts)


def test_an_echo_saying_when_the_run_counts_is_a_check_on_the_step_it_names() -> None:
    spec = _spec()
    checks = [c for c in spec.contracts if c.producer == "step-3"]
    assert [c.constraints[""]["properties"] for c in checks] == [{"complete": {"const": True}}]


def test_a_recipe_that_runs_a_shell_command_says_how_to_make_it_a_step() -> None:
    text = _MAKEFILE.replace("\t@skill load-rates", "\tcurl -s https://rates.example > rates.json")
    spec = _spec(text)
    assert [s.name for s in spec.steps] == ["fetch", "render"]
    warned = [w for w in spec.warnings if w.line == 15]
    assert warned and "skill <name> key=value" in warned[0].message


def test_a_comment_ending_on_a_comma_goes_on_over_the_next_line() -> None:
    text = _MAKEFILE.replace("# pure formatting, never retry it",
                             "# pure formatting, retry it twice,\n# then use `plain-render` instead")
    spec = _spec(text)
    render = spec.steps[-1]
    assert [(t.line, t.text.count("\n")) for t in render.texts if t.kind == "prose"] == [(17, 1)]


def test_a_bare_justfile_with_skill_calls_is_read_without_a_fence() -> None:
    text = ("# nightly\n\nday := env_var('DAY')\n\ngrab:\n    skill grab-logs day={{day}}\n\n"
            "digest: grab\n    skill digest-logs logs={{grab.logs}}\n")
    spec = _spec(text)
    assert [(s.name, s.depends_on) for s in spec.steps] == [("grab", ()), ("digest", ("step-1",))]
    assert {f.name: f.source for f in spec.steps[1].inputs} == {"logs": "steps.step-1.output.logs"}


def test_an_ordinary_code_block_is_not_a_recipe_file() -> None:
    text = ("# x\n\n## Steps\n1. Run `load-rows`.\n2. Run `score-rows`.\n\n"
            "```python\nclass A:\n    x = 1\nb: int = 2\n```\n")
    spec = _spec(text)
    assert [s.form for s in spec.steps] == ["list", "list"]


def test_carrying_on_with_a_field_written_as_code_is_that_fallback_value() -> None:
    for said, field, value in (("if it breaks, carry on with rows=[]", "rows", []),
                               ("on a 503 just proceed with sent=false", "sent", False),
                               ("when it times out, move on with score=0", "score", 0)):
        on_failure = read_phrase(said).statement.on_failure
        assert on_failure is not None and (on_failure.kind, on_failure.field, on_failure.value) == (
            "continue_with_value", field, value), said


def test_a_duration_beside_no_word_of_trying_again_is_not_a_wait() -> None:
    assert read_phrase("groups visits into sessions (a 15 min gap)").statement.wait is None
    assert read_phrase("retry on error with a 15 min gap").statement.wait is not None


def test_n_times_in_all_counts_every_try() -> None:
    phrase = read_phrase("run it 5 times in all, 3s apart")
    assert phrase.statement.max_attempts == 5 or phrase.statement.retries == 4
    assert not any("may or may not count" in p for p in read_phrase("try it 5 times in all").problems)


def test_a_fenced_makefile_whose_recipes_call_no_skill_says_what_to_write_and_steps_are_read_elsewhere() -> None:
    text = ("# x\n\n## Steps\n1. Load with `load-rows`.\n2. Score with `score-rows`.\n\n"
            "```make\nbuild:\n\tdocker build .\ntest: build\n\tpytest -q\n```\n")
    spec = _spec(text)
    assert [s.form for s in spec.steps] == ["list", "list"]
    assert any(w.line == 7 and "`skill <name> key=value`" in w.message for w in spec.warnings)


_TASKFILE = """\
# Weekly export

```yaml
version: '3'
vars:
  WEEK: '{{.WEEK}}'
tasks:
  # the warehouse is slow: give it 90 seconds per try
  extract:
    cmds:
      - skill extract-week week={{.WEEK}}
  publish:
    deps: [extract]
    # if it fails, stop the whole run
    cmds:
      - skill publish-week rows={{.extract.rows}}
```
"""


def test_a_fenced_taskfile_s_tasks_that_call_skills_are_the_steps() -> None:
    spec = _spec(_TASKFILE)
    extract, publish = spec.steps
    assert [(s.name, s.skill, s.where) for s in spec.steps] == [
        ("extract", "extract-week", "m.md:9"), ("publish", "publish-week", "m.md:12")]
    assert publish.depends_on == ("step-1",) and extract.depends_on == ()
    assert {f.name: f.source for f in extract.inputs} == {"week": "inputs.week"}
    assert {f.name: f.source for f in publish.inputs} == {"rows": "steps.step-1.output.rows"}
    assert [t.line for t in extract.texts] == [8] and [t.line for t in publish.texts] == [14]


def test_a_fenced_yaml_block_without_tasks_is_not_a_taskfile() -> None:
    text = "# x\n\n## Steps\n1. Load with `load-rows`.\n2. Score with `score-rows`.\n\n```yaml\nname: x\nsteps: [a]\n```\n"
    assert [s.form for s in _spec(text).steps] == ["list", "list"]


def test_a_make_variable_set_with_a_question_mark_is_an_optional_input_with_that_default() -> None:
    text = ("# x\n\n```make\nLIMIT ?= 50\n\npull: ## retry it twice\n\tskill pull-rows limit=$(LIMIT)\n"
            "push: pull\n\tskill push-rows rows=$(pull.rows)\n```\n")
    spec = _spec(text)
    [limit] = spec.inputs
    assert (limit.name, limit.required, limit.default) == ("limit", False, 50)
    assert [t.text for t in spec.steps[0].texts] == ["retry it twice"]


def test_a_recipe_may_run_a_skill_s_script_by_its_path_with_flag_arguments() -> None:
    text = ("# x\n\n```just\nfetch:\n    uv run skills/fetch-pages/run.py --site-url {{site}}\n"
            "index: fetch\n    python ./skills/index-pages/main.py --pages {{fetch.pages}}\n```\n")
    fetch, index = _spec(text).steps
    assert (fetch.skill, index.skill) == ("fetch-pages", "index-pages")
    assert {f.name: f.source for f in fetch.inputs} == {"site_url": "inputs.site"}
    assert {f.name: f.source for f in index.inputs} == {"pages": "steps.step-1.output.pages"}
