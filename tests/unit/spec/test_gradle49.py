"""A Gradle build script whose tasks call skills is read as its recipes (`spec.gradle49`): a project property is a
workflow input (with a default when `?:` gives one), a constant `val` a literal, each task block whose command runs a
skill runner (or a path into `skills/`) a step with its `key=value` arguments as inputs (`$prop` the input,
`@task.field` that task's output), `dependsOn` its order, and a task that only runs others the whole run's limit and
check. A comment saying two tasks run side by side moves no `dependsOn`. A script that calls no skill is not read."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec
from orchestrator.spec.gradle49 import gradle_lines, is_gradle
from orchestrator.spec.recipes import find_recipe_file

_KOTLIN = """\
// nightly stock count
val site: String by project
val week = findProperty("week") as String? ?: "current"
val runner = "./bin/run-skill.sh"
val cap = 40

// fetch and price are independent, they run in parallel
tasks.register<Exec>("fetch") {
    // give it 90s at most
    commandLine(runner, "load-orders", "store=$site", "week=${week}")
}

val price by tasks.registering(Exec::class) {
    dependsOn(tasks.named("fetch"))
    commandLine(
        runner, "price-orders",
        "orders=@fetch.orders", "cap=$cap", "label=night run",
    )
}

tasks.register("nightly") {
    dependsOn(price)
    // it counts as done once price-orders says priced = true
    timeout.set(java.time.Duration.ofMinutes(20))
}
"""

_GROOVY = """\
def shop = project.findProperty('shop') ?: 'leeds'

task pull(type: Exec) {
    commandLine 'skill', 'pull-stock', "shop=${shop}"
}

task report(type: Exec) {
    dependsOn 'pull'; description = 'the weekly report'
    executable 'run-skill'
    args 'stock-report', 'rows=pull.rows', 'limit=5'
    workingDir = file('out')
}
"""


def _spec(tmp_path: Path, text: str, name: str = "build.gradle.kts"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text)
    return parse_spec(path)


def test_a_kotlin_script_reads_its_tasks_as_steps_and_its_properties_as_inputs(tmp_path: Path) -> None:
    spec = _spec(tmp_path, _KOTLIN)
    assert [(s.name, s.skill) for s in spec.steps] == [("fetch", "load-orders"), ("price", "price-orders")]
    assert {i.name: (i.required, i.default) for i in spec.inputs} == {"site": (True, None), "week": (False, "current")}
    fetch, price = spec.steps
    assert {f.name: f.source for f in fetch.inputs} == {"store": "inputs.site", "week": "inputs.week"}
    assert {f.name: f.source for f in price.inputs} == {"orders": "steps.step-1.output.orders"}
    assert price.input_values == {"cap": 40, "label": "night run"}
    assert price.depends_on == ("step-1",)  # the "run in parallel" comment moves no dependsOn


def test_a_task_that_only_runs_others_holds_the_whole_runs_limit_and_check(tmp_path: Path) -> None:
    spec = _spec(tmp_path, _KOTLIN)
    assert [r.statement.timeout_s for r in spec.readings if r.statement.whole_run] == [1200.0]
    assert [(t.line, t.text) for t in spec.steps[1].texts if t.kind == "success"] == [(23, "priced == true")]
    assert not any(w.line == 1 and "read as markdown" in w.message for w in spec.warnings)


def test_a_groovy_script_with_executable_and_args(tmp_path: Path) -> None:
    spec = _spec(tmp_path, _GROOVY, "build.gradle")
    pull, report = spec.steps
    assert (pull.skill, report.skill) == ("pull-stock", "stock-report")
    assert {i.name: i.default for i in spec.inputs} == {"shop": "leeds"}
    assert report.depends_on == ("step-1",) and report.input_values == {"limit": 5}
    assert {f.name: f.source for f in report.inputs} == {"rows": "steps.step-1.output.rows"}
    assert any(w.line == 11 and "workingDir" in w.message for w in spec.warnings)  # said, not read


def test_a_task_with_its_own_timeout_is_the_steps_not_the_runs(tmp_path: Path) -> None:
    text = _KOTLIN.replace("    // give it 90s at most\n", "    timeout.set(Duration.ofSeconds(90))\n")
    spec = _spec(tmp_path, text)
    assert [t.text for t in spec.steps[0].texts if t.line == 9] == ["timeout 90 seconds"]
    assert not [r for r in spec.readings if r.statement.whole_run and r.statement.timeout_s == 90.0]


def test_lines_keep_their_numbers() -> None:
    found = gradle_lines(_KOTLIN.split("\n"))
    assert found is not None
    lines, notes = found
    assert len(lines) == len(_KOTLIN.split("\n")) and not notes
    assert lines[1] == "site ?=" and lines[2] == "week ?= current" and lines[4] == "cap := 40"
    assert lines[7] == "fetch:" and lines[12] == "price: fetch" and lines[20] == "nightly: price"
    assert lines[14].startswith("\tskill price-orders orders={{fetch.orders}}")


def test_a_gradle_script_that_calls_no_skill_is_not_read_as_recipes(tmp_path: Path) -> None:
    text = 'tasks.register<Exec>("test") {\n    commandLine("npm", "test")\n}\n'
    assert is_gradle("app/build.gradle.kts") and is_gradle("build.gradle") and not is_gradle("gradle.md")
    assert find_recipe_file(text) is None
    with pytest.raises(SpecError):
        _spec(tmp_path, text)


@pytest.mark.parametrize("text", ["task cleanup\n", "  task  review the orders\n"])
def test_a_line_starting_with_task_in_prose_is_no_gradle_task(text: str) -> None:
    assert gradle_lines(text.split("\n")) is None


_MAKE = """\
# Nightly rows

```make
# the whole thing gets 40 minutes, done when publish prints ok=true
all: publish

fetch:
\tskill fetch-rows day={{day}}

publish: fetch
\tskill publish-rows rows={{fetch.rows}}

# the whole thing gets 5 minutes
lint: fetch
\truff check .
```
"""


def test_a_makefile_target_that_only_runs_others_holds_the_runs_limit_and_check_too(tmp_path: Path) -> None:
    spec = _spec(tmp_path, _MAKE, "nightly.md")
    assert [s.skill for s in spec.steps] == ["fetch-rows", "publish-rows"]
    # `lint` runs a command: not the run, its comment is not the run's limit
    assert [r.statement.timeout_s for r in spec.readings if r.statement.whole_run] == [2400.0]
    assert [(t.line, t.text) for t in spec.steps[1].texts if t.kind == "success"] == [(4, "ok == true")]


def test_a_gradle_script_too_long_to_read_is_refused_with_the_limit(tmp_path: Path) -> None:
    from orchestrator.errors import SpecError
    from orchestrator.spec.gradle49 import _MAX_LINES

    prose = "The steps:\n\n1. Pull the stock with `pull-stock`\n2. Write the report with `stock-report`\n\n"
    long = prose + _GROOVY + "// a note kept for the record\n" * _MAX_LINES
    with pytest.raises(SpecError) as caught:  # refused before it is read (`spec.foreign_length53`)
        _spec(tmp_path, long, "build.gradle")
    first = caught.value.diagnostics[0]
    assert first.code == "spec.too-long" and first.line == _MAX_LINES + 1
    assert f"{long.count(chr(10)):,} lines" in first.message and f"limit {_MAX_LINES:,} for" in first.message
    at_limit = _spec(tmp_path, _GROOVY + "// a note\n" * (_MAX_LINES - len(_GROOVY.split("\n"))), "build.gradle")
    assert [s.skill for s in at_limit.steps] == ["pull-stock", "stock-report"]  # near miss: at the limit, read
    assert not any("too long" in w.message for w in at_limit.warnings)
