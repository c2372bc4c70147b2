"""A Rakefile whose tasks call skills is read as its recipes (`spec.rakefile42`): `ENV.fetch` constants are
workflow inputs (with a default when one is given), a string constant a literal, a helper whose body runs
`skills/<name>/...` (or `skill`) a call of that skill with its keyword arguments as inputs, `=>` the task's
prerequisites, `@list.map { |x| ... }` a fan-out over the task's list that set it, and a comment "it worked if
<skill> comes back field: value" the run's success check, never a step; "wait Ns then double each time" a
backoff from that wait. A Rakefile that calls no skill is read as before."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec, parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.rakefile42 import is_rakefile, rakefile_lines
from orchestrator.spec.recipes import find_recipe_file
from orchestrator.spec.vocabulary import Vocabulary

_BAKERY = """\
# Rakefile -- morning bake plan
require 'json'

SHOP  = ENV.fetch('SHOP')
DAY   = ENV.fetch('BAKE_DAY', 'monday')
OVEN  = 'deck oven 2'

def run_skill(name, args)
  JSON.parse(`echo '#{args.to_json}' | python3 skills/#{name}/scripts/main.py`)
end

desc 'orders in for the shop'
task :orders do
  @orders = run_skill('order-list', shop: SHOP, day: DAY)['orders']
end

task proof: :orders do
  # proofer is flaky, retry 3 times, pause 10s and double it every try
  @loaves = @orders.map do |o|
    run_skill('proof-time', recipe: o['recipe'], oven: OVEN)
  end
end

task :sheet => [:orders, :proof] do
  run_skill('bake-sheet', loaves: @loaves, count: 12)
end

# done when bake-sheet comes back printed: true
"""

_GARAGE = """\
PLATE = ENV['PLATE']

task :book do
  # give it 1 min max
  @slot = skill "slot-finder", plate: PLATE, urgent: true
end

task :confirm => :book do
  skill 'send-confirm', plate: PLATE, when: @slot['start'], bay: @slot[:bay]
end

# it only counts if send-confirm returns sent = true
"""


def _spec(tmp_path: Path, text: str, name: str = "Rakefile"):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text)
    return parse_spec(path)


def test_a_rakefile_reads_its_tasks_as_steps_and_env_fetch_as_inputs(tmp_path: Path) -> None:
    spec = _spec(tmp_path, _BAKERY)
    assert [(s.name, s.skill) for s in spec.steps] == [
        ("orders", "order-list"), ("proof", "proof-time"), ("sheet", "bake-sheet")]
    assert {i.name: (i.required, i.default) for i in spec.inputs} == {"SHOP": (True, None), "BAKE_DAY": (False, "monday")}
    orders, proof, sheet = spec.steps
    assert {f.name: f.source for f in orders.inputs} == {"shop": "inputs.SHOP", "day": "inputs.BAKE_DAY"}
    assert proof.depends_on == ("step-1",) and set(sheet.depends_on) >= {"step-2"}


def test_a_map_over_a_tasks_list_is_a_fan_out_and_its_holder_the_gather(tmp_path: Path) -> None:
    _, proof, sheet = _spec(tmp_path, _BAKERY).steps
    assert proof.for_each == "item in steps.step-1.output.orders"
    assert proof.input_values == {"recipe": "{{ item.recipe }}", "oven": "deck oven 2"}
    assert {f.name: f.source for f in sheet.inputs} == {"loaves": "steps.step-2.output"}
    assert sheet.input_values == {"count": 12}


def test_a_call_without_parentheses_and_fields_of_a_held_output(tmp_path: Path) -> None:
    spec = _spec(tmp_path, _GARAGE, "garage.rake")
    book, confirm = spec.steps
    assert (book.skill, confirm.skill) == ("slot-finder", "send-confirm")
    assert book.input_values == {"urgent": True}
    assert {f.name: f.source for f in confirm.inputs} == {
        "plate": "inputs.PLATE", "when": "steps.step-1.output.start", "bay": "steps.step-1.output.bay"}


@pytest.mark.parametrize(("text", "line", "step"), [(_BAKERY, 28, "step-3"), (_GARAGE, 12, "step-2")])
def test_a_success_comment_naming_a_skill_is_the_runs_check_not_a_step(tmp_path: Path, text: str, line: int,
                                                                      step: str) -> None:
    spec = _spec(tmp_path, text)
    assert len(spec.steps) == len({s.skill for s in spec.steps})
    checked = next(s for s in spec.steps if s.id == step)
    assert [(t.line, t.kind) for t in checked.texts if t.kind == "success"] == [(line, "success")]
    assert any(r.what == "success" and r.note.startswith("the run's success check") for r in checked.readings)


def test_an_argument_the_reader_cannot_read_is_said_not_passed(tmp_path: Path) -> None:
    text = _GARAGE.replace("urgent: true", "urgent: Time.now.hour > 17")
    spec = _spec(tmp_path, text)
    assert "urgent" not in spec.steps[0].input_values
    assert any(w.line == 5 and "urgent" in w.message for w in spec.warnings)


def test_a_rakefile_that_calls_no_skill_is_not_read_as_recipes(tmp_path: Path) -> None:
    text = "task :test do\n  sh 'bundle exec rspec'\nend\n\ntask default: :test\n"
    assert is_rakefile("Rakefile", text) and not is_rakefile("notes.txt", text)
    assert find_recipe_file(text) is None
    with pytest.raises(SpecError, match="no steps"):  # as before: nothing in it runs a skill
        _spec(tmp_path, text)


def test_lines_keep_their_numbers_and_the_helper_is_plumbing() -> None:
    found = rakefile_lines(_BAKERY.split("\n"))
    assert found is not None
    lines, loops, feeds, notes = found
    assert len(lines) == len(_BAKERY.split("\n"))
    assert lines[12] == "orders:" and lines[16] == "proof: orders" and lines[23] == "sheet: orders proof"
    assert lines[7:10] == ["", "", ""]  # `def run_skill ... end`
    assert loops == {"proof": ("@orders", "orders", "", "o")} and feeds == {"@orders": "orders"} and not notes


@pytest.mark.parametrize("text", ["retry 4 times, wait 15s then double each time, never more than 2 min between",
                                  "retry twice; pause 5s and double it every try"])
def test_a_wait_then_doubled_each_time_is_a_backoff_from_it(text: str) -> None:
    wait = read_phrase(text).statement.wait
    assert wait is not None and wait.kind == "exponential" and wait.start_s in (15.0, 5.0)


def test_a_doubled_thing_that_is_no_wait_is_no_backoff() -> None:
    wait = read_phrase("retry 3 times, 10s apart; double-check each time the totals").statement.wait
    assert wait is not None and wait.kind == "fixed"


@pytest.mark.parametrize("text", [
    "# prep\nfetch-rows day\n\n# send\nsend-report rows\n\n# it worked if send-report comes back sent: true\n",
    "# prep\nfetch-rows day\n\n# send\nsend-report rows\n\n# done when send-report returns sent = true\n",
])
def test_a_success_heading_naming_a_skill_in_an_unknown_shape_is_a_check_not_a_second_step(text: str) -> None:
    names = frozenset({"fetch-rows", "send-report"})
    spec = parse_spec_text(text, "run.txt", "markdown", Vocabulary(skills=names))
    assert len(spec.steps) == 2  # not a third that runs send-report again
    assert [t.line for t in spec.steps[1].texts if t.kind == "success"] == [7]


def test_a_heading_that_runs_a_skill_again_is_still_read() -> None:
    from orchestrator.spec.anchored import _checks_only

    assert not _checks_only("send the report again with send-report")
    assert _checks_only("it worked if send-report comes back sent: true")
