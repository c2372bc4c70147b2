"""A go-task Taskfile.yml that is the whole spec is read as its recipes (`spec.taskfile`): `vars:` the
caller sets (`{{.X}}`, `{{.X | default "v"}}`) are workflow inputs, a task's `cmds:` calling a skill its
step, `deps:` its order; a `for:` loop over a variable built with `sh: jq ... '.list[].field' file` fans
out over the list of the task that writes that file; an echoed JSON object or a `jq` filter piped into
the skill gives its inputs; the comment "if nothing back in 20s kill it" is the attempt's time limit."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.spec import parse_spec
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.taskfile import is_taskfile, taskfile_loops

_KITCHEN = """\
# nightly stock count for the kitchen
version: '3'

vars:
  SITE: '{{.SITE | default "soho"}}'
  WEEK: '{{.WEEK}}'
  UNIT: kg

tasks:
  fridges:
    cmds:
      - echo '{"site":"{{.SITE}}"}' | python3 skills/fridge-list/scripts/main.py > tmp/fridges.json
    # if no answer within 30s give up

  counts:
    deps: [fridges]
    vars:
      FRIDGES:
        sh: jq -r '.fridges[].code' tmp/fridges.json
    cmds:
      - for: { var: FRIDGES, as: FRIDGE }
        cmd: echo '{"fridge":"{{.FRIDGE}}","week":"{{.WEEK}}","unit":"{{.UNIT}}"}' | python3 skills/count-fridge/scripts/main.py >> tmp/counts.jsonl

  order:
    deps: [counts]
    cmds:
      - jq -s '{counts: .}' tmp/counts.jsonl | python3 skills/stock-order/scripts/main.py > tmp/order.json
      - jq '{total, lines}' tmp/order.json | python3 skills/send-order/scripts/main.py

# whole thing gets 10 minutes
"""


def _spec(tmp_path: Path, text: str, name: str = "Taskfile.yml"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text)
    return parse_spec(path)


def test_a_taskfile_that_is_the_spec_reads_its_tasks_as_steps_and_its_caller_vars_as_inputs(tmp_path: Path) -> None:
    spec = _spec(tmp_path, _KITCHEN)
    assert [(s.name, s.skill) for s in spec.steps] == [
        ("fridges", "fridge-list"), ("counts", "count-fridge"), ("order", "stock-order")]
    assert {i.name: (i.required, i.default) for i in spec.inputs} == {"SITE": (False, "soho"), "WEEK": (True, None)}
    fridges, counts, order = spec.steps
    assert {f.name: f.source for f in fridges.inputs} == {"site": "inputs.SITE"}
    assert counts.depends_on == ("step-1",) and order.depends_on == ("step-2",)


def test_a_for_loop_over_a_jq_built_variable_fans_out_over_the_writers_list(tmp_path: Path) -> None:
    counts = _spec(tmp_path, _KITCHEN).steps[1]
    assert counts.for_each == "item in steps.step-1.output.fridges"
    assert counts.input_values == {"fridge": "{{ item.code }}", "unit": "kg"}
    assert {f.name: f.source for f in counts.inputs} == {"week": "inputs.WEEK"}


def test_a_slurped_file_is_all_of_the_loops_results(tmp_path: Path) -> None:
    order = _spec(tmp_path, _KITCHEN).steps[2]
    assert {f.name: f.source for f in order.inputs} == {"counts": "steps.step-2.output"}


def test_the_loop_is_read_from_go_task_keys_not_from_a_loop_over_a_literal_list() -> None:
    body = ["tasks:", "  a:", "    cmds:", "      - for: [x, y]", "        cmd: skill b n={{.ITEM}}"]
    assert taskfile_loops(body) == {}
    body = ["tasks:", "  a:", "    vars:", "      L:", "        sh: jq -r \"[.rows[].id] | join(',')\" out/r.json",
            "    cmds:", "      - for: { var: L, split: ',' }", "        cmd: skill b n={{.ITEM}}"]
    assert taskfile_loops(body) == {"a": ("out/r.json", "rows", "id", "ITEM")}


def test_a_taskfile_running_no_skill_is_read_as_before_as_yaml() -> None:
    text = "version: '3'\ntasks:\n  build:\n    cmds:\n      - go build ./...\n  test:\n    deps: [build]\n    cmds:\n      - go test ./...\n"
    assert not is_taskfile(text)
    assert is_taskfile(text.replace("go test ./...", "python3 skills/unit-tests/scripts/main.py"))


@pytest.mark.parametrize(("text", "seconds"), [
    ("if nothing back in 20s kill it", 20.0),
    ("no answer within 2 min - give up on it", 120.0),
    ("if nothing comes back after 45 seconds, kill it", 45.0),
])
def test_nothing_back_in_a_time_then_kill_it_is_the_attempts_limit(text: str, seconds: float) -> None:
    phrase = read_phrase(text)
    assert phrase.read and phrase.statement.timeout_s == seconds


@pytest.mark.parametrize("text", ["nothing back in 20s? fine, we wait", "the report said nothing in 20s kill zone"])
def test_nothing_back_without_giving_up_is_no_limit(text: str) -> None:
    assert read_phrase(text).statement.timeout_s is None
