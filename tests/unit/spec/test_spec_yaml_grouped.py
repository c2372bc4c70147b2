"""Steps keyed by their name under groups of the author's own (stages, phases, lanes, stations, in a list
or a mapping, nested) are read as one list of steps in document order (`spec.yaml_grouped`): a group is
not a step; what a step waits for when it does not say comes from the grouping's word and is warned at
the grouping's line; a group's own `after:` is what its first steps wait on; a key of a group the reader
does not know is warned at its line. The steps' own keys are the form's (`give:` the inputs, `ask.x` an
asked-for input, `this.x` the loop's item)."""

from __future__ import annotations

import pytest

from orchestrator.plan.conditions import ConditionError, rewrite_expression
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("thaw-stock", "sear-batch", "rest-meat", "plate-up", "dress-greens", "chill-dessert", "pass-check",
          "tide-window", "board-pilot", "tug-assist", "berth-confirm", "log-movement", "weigh-samples",
          "spin-down", "assay-plate", "qc-review", "file-results", "open-doors", "sound-check", "run-show",
          "strike-set")
CATALOG = Vocabulary.of([(s, None) for s in SKILLS])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.yaml", "yaml", CATALOG)


def _waits(spec) -> list[tuple[str, str, tuple[str, ...]]]:  # type: ignore[no-untyped-def]
    return [(s.id, s.skill, s.depends_on) for s in spec.steps]


def _warned(spec, words: str) -> list[int]:  # type: ignore[no-untyped-def]
    return [w.line for w in spec.warnings if words in w.message]


# a restaurant's prep plan: stations side by side, each station's tasks in order (a mapping of groups)
KITCHEN = """\
service: friday dinner
stations:
  grill:
    chef: Ana              # who runs it
    tasks:
      thaw:
        does: thaw-stock
      sear:
        does: sear-batch
      rest:
        does: rest-meat
  cold:
    tasks:
      greens: {does: dress-greens}
      dessert: {does: chill-dessert}
  pass:
    after: [grill, cold]
    tasks:
      check: {does: pass-check}
"""


def test_a_kitchen_prep_plans_stations_run_side_by_side_and_their_tasks_in_order() -> None:
    spec = _read(KITCHEN)
    assert _waits(spec) == [("thaw", "thaw-stock", ()), ("sear", "sear-batch", ("thaw",)),
                            ("rest", "rest-meat", ("sear",)), ("greens", "dress-greens", ()),
                            ("dessert", "chill-dessert", ("greens",)), ("check", "pass-check", ("rest", "dessert"))]
    assert _warned(spec, "steps read from the 3 groups of `stations:`") == [2]
    assert _warned(spec, "the stations run side by side, the steps of each in order") == [2]
    assert _warned(spec, "key 'chef' of a group of steps not understood") == [4]  # never dropped unsaid


# a harbour pilot roster: phases in a list, each phase's moves keyed by name, starting together
HARBOUR = """\
roster: night tide
phases:
  - phase: approach
    moves:
      tide: {uses: tide-window}
  - phase: inbound
    moves:
      pilot aboard:
        uses: board-pilot
        needs: [tide]
      tug: {uses: tug-assist}
  - phase: alongside
    after: approach
    moves:
      berth: {uses: berth-confirm}
      log: {uses: log-movement, after: [berth]}
"""


def test_a_harbour_rosters_phases_run_in_turn_their_moves_together_and_a_phase_may_say_its_own_after() -> None:
    spec = _read(HARBOUR)
    assert _waits(spec) == [("tide", "tide-window", ()), ("pilot-aboard", "board-pilot", ("tide",)),
                            ("tug", "tug-assist", ("tide",)), ("berth", "berth-confirm", ("tide",)),
                            ("log", "log-movement", ("berth",))]
    assert spec.steps[1].name == "pilot aboard"  # a key that is no id: made one, the name kept
    assert _warned(spec, "the phases run one after another, the steps of each starting together") == [2]
    assert _warned(spec, "not understood") == [1]  # `roster:`, the top's; each group's keys are read


# a lab's CI-like pipeline: a mapping of stages with their own needs, a step's after naming a stage
LAB = """\
pipeline: plate-run
inputs: {rack: {type: array}}
stages:
  prep:
    steps:
      weigh: {skill: weigh-samples, with: {rack: "{{ inputs.rack }}"}}
      spin: {skill: spin-down}
  run:
    runner: bench-3
    steps:
      assay: {skill: assay-plate}
  review:
    needs: prep
    steps:
      qc: {skill: qc-review, after: run}
      file: {skill: file-results, retries: 2}
"""


def test_a_lab_pipelines_stages_run_in_turn_and_an_after_that_names_a_stage_waits_on_its_steps() -> None:
    spec = _read(LAB)
    assert _waits(spec) == [("weigh", "weigh-samples", ()), ("spin", "spin-down", ()),
                            ("assay", "assay-plate", ("weigh", "spin")), ("qc", "qc-review", ("assay",)),
                            ("file", "file-results", ("weigh", "spin"))]
    assert spec.steps[4].retries == 2  # the step's own keys are the form's
    assert [(f.name, f.source) for f in spec.steps[0].inputs] == [("rack", "inputs.rack")]
    assert _warned(spec, "key 'runner' of a group of steps not understood") == [9]


# a theatre's show-night run sheet: blocks (a word with no order of its own: document order) holding
# tracks side by side
SHOW = """\
blocks:
  - name: doors
    tracks:
      front:
        cues: {open: {tool: open-doors}}
      stage:
        cues:
          check: {tool: sound-check}
  - name: show
    cues:
      run: {tool: run-show}
      strike: {tool: strike-set}
"""


def test_a_run_sheets_blocks_run_in_document_order_and_the_tracks_inside_one_side_by_side() -> None:
    spec = _read(SHOW)
    assert _waits(spec) == [("open", "open-doors", ()), ("check", "sound-check", ()),
                            ("run", "run-show", ("open", "check")), ("strike", "strike-set", ("run",))]
    assert _warned(spec, "the blocks and their steps run in document order") == [1]
    assert _warned(spec, "the tracks run side by side") == [1]


@pytest.mark.parametrize(("asks", "loop", "skill", "other"), [
    ("ask_me_for: [orders, cutoff]", "sear-batch", "plate-up", "kitchen"),  # a kitchen prep plan
    ("ask_for: [orders, cutoff]", "board-pilot", "berth-confirm", "harbour"),  # a harbour pilot roster
    ("operator_provides: [orders, cutoff]", "assay-plate", "file-results", "lab"),  # a lab pipeline
    ("asks: [orders, cutoff]", "run-show", "strike-set", "theatre"),  # a theatre run sheet
])
def test_a_step_gives_its_inputs_with_give_and_asked_for_inputs_and_the_loops_item_by_their_heads(
        asks: str, loop: str, skill: str, other: str) -> None:
    head = asks.split(":")[0].split("_")[0] if asks.startswith("ask") else asks.split(":")[0]
    spec = _read(f"{asks}\nstages:\n  - stage: {other}\n    steps:\n"
                 f"      one:\n        does: {loop}\n        each: {head}.orders\n"
                 f"        give: {{cut: this.cut, until: {head}.cutoff}}\n"
                 f"      two:\n        does: {skill}\n        only_if: {head}.cutoff > 3\n")
    one, two = spec.steps
    assert one.for_each is not None and one.for_each.endswith("in inputs.orders")
    assert sorted((f.name, f.source) for f in one.inputs) == [("cut", "item.cut"), ("until", "inputs.cutoff")]
    assert two.when == "inputs.cutoff > 3"


def test_a_plain_map_of_steps_and_a_play_of_listed_tasks_are_left_to_their_readers() -> None:
    plain = _read("steps:\n  a: {skill: thaw-stock}\n  b: {skill: sear-batch}\n")
    play = _read("- name: nightly\n  hosts: localhost\n  tasks:\n    - {name: thaw, skill: thaw-stock}\n"
                 "    - {name: sear, skill: sear-batch}\n")
    assert [s.id for s in plain.steps] == ["a", "b"] and not _warned(plain, "steps read from the groups")
    assert [s.skill for s in play.steps] == ["thaw-stock", "sear-batch"] and not _warned(play, "steps read from the groups")


@pytest.mark.parametrize(("said", "read"), [
    ("steps['w'].output.level != normal", "steps['w'].output.level != 'normal'"),  # a bus dispatch
    ("oven.state == hot", "steps['oven'].output.state == 'hot'"),  # a kitchen prep plan
    ("tide.phase != ebb and tide.ok", "steps['tide'].output.phase != 'ebb' and steps['tide'].output.ok"),  # a harbour
    ("(qc.verdict == pass)", "(steps['qc'].output.verdict == 'pass')"),  # a lab pipeline
])
def test_a_bare_word_compared_in_a_condition_is_that_text_and_said_as_a_guess(said: str, read: str) -> None:
    guessed: list[str] = []
    assert rewrite_expression(said, lambda name, of: None, ["oven", "tide", "qc", "w"], None, guessed) == read
    assert len(guessed) == 1 and "read as the text" in guessed[0]


def test_a_bare_word_that_names_a_value_or_stands_alone_is_not_read_as_text() -> None:
    with pytest.raises(ConditionError):  # not after `==` / `!=`: still an error naming it
        rewrite_expression("hot", lambda name, of: None, [], None, [])
    assert rewrite_expression("a.n == limit", lambda n, o: f"inputs.{n}", ["a"], None, []) == (
        "steps['a'].output.n == inputs.limit")
