"""A YAML step's keys in its author's own plain words (`spec.yaml38`): `machine:` names the skill,
`eats:` what it is given (a mapping, a name in words, another step's value as `forecast's x`),
`per: every bed in beds` its loop, `goes_with:` the step it starts together with. Each reading is
shown in the plan; what does not read so is warned and kept, never guessed."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.yaml38 import loop_phrase


def _read(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.yaml", "yaml")


def _unread(spec: WorkflowSpec) -> list[str]:
    return [w.message for w in spec.warnings if "not understood" in w.message]


# a beekeeper's hive round, in her own keys
HIVES = """\
hive_round:
  i_need:
    day: the date
    hives: list of hives from the apiary board
  tasks:
    weather:
      robot: bee-weather
      eats: day
      goes_with: inspect
    inspect:
      robot: hive-inspect
      per: each hive in hives
      eats: the hive
    summary:
      robot: hive-summary
      after: [weather, inspect]
      eats:
        reports: all the inspect results together
        warm: weather's warm_enough
        max_hives: 12
"""


def test_a_beekeepers_own_keys_name_the_skill_the_loop_the_partner_and_the_inputs() -> None:
    spec = _read(HIVES)
    weather, inspect, summary = spec.steps
    assert (weather.skill, inspect.skill, summary.skill) == ("bee-weather", "hive-inspect", "hive-summary")
    assert inspect.for_each == "hive in hives"
    assert inspect.starts_with == "weather" and weather.starts_with is None
    assert "day" in weather.description and "the hive" in inspect.description
    warm = next(f for f in summary.inputs if f.name == "warm")
    assert (warm.source, warm.description) == ("steps.weather.output", "warm_enough")
    assert summary.input_values["max_hives"] == 12
    assert next(f.source for f in summary.inputs if f.name == "reports") == "steps.inspect.output"  # a gather
    assert not _unread(spec)
    notes = " ".join(r.note for s in spec.steps for r in s.readings)
    assert "read as `skill:`" in notes and "for_each hive in hives" in notes and "starts together with" in notes


def test_a_lab_protocols_alongside_list_starts_a_group_together_but_a_step_with_its_own_after_keeps_it() -> None:
    spec = _read(
        "steps:\n  - id: thaw\n    skill: thaw-samples\n  - id: label\n    skill: print-labels\n"
        "    alongside: [thaw, warm_up]\n  - id: warm_up\n    skill: warm-centrifuge\n    after: thaw\n"
    )
    _thaw, label, warm = spec.steps
    assert label.starts_with == "thaw" and warm.starts_with is None and warm.depends_on == ("thaw",)
    [kept] = [w for w in spec.warnings if "start together" in w.message]
    assert kept.line == 6 and "warm_up" in kept.message


def test_a_bakery_machine_beside_a_skill_key_and_one_that_is_a_sentence_are_not_read_as_the_skill() -> None:
    spec = _read(
        "steps:\n  - id: mix\n    skill: dough-mix\n    machine: spiral-mixer\n  - id: bake\n"
        "    skill: oven-bake\n    machine: the big deck oven by the door\n"
    )
    mix, bake = spec.steps
    assert (mix.skill, bake.skill) == ("dough-mix", "oven-bake")
    assert len(_unread(spec)) == 2


def test_a_ci_jobs_machine_flag_and_an_ml_configs_device_are_no_skill() -> None:
    spec = _read("jobs:\n  build:\n    machine: true\n    uses: build-app\n  train:\n    device: cuda\n"
                 "    uses: fit-model\n")
    assert [s.skill for s in spec.steps] == ["build-app", "fit-model"]
    assert len(_unread(spec)) == 2


@pytest.mark.parametrize("said", ["hour", "every day", "the whole lot", "bed"])
def test_a_per_key_that_is_no_loop_is_warned_not_read(said: str) -> None:
    spec = _read(f"steps:\n  - id: water\n    skill: water-beds\n    per: {said}\n")
    assert spec.steps[0].for_each is None
    assert [w.line for w in spec.warnings if "'per' not understood" in w.message] == [4]


def test_a_partner_that_names_no_step_is_warned_and_nothing_starts_early() -> None:
    spec = _read("steps:\n  - id: a\n    skill: sa\n    goes_with: nobody\n  - id: b\n    skill: sb\n")
    assert all(s.starts_with is None for s in spec.steps)
    assert [w.line for w in spec.warnings if "'nobody'" in w.message] == [4]


def test_a_possessive_that_names_no_earlier_step_stays_the_literal() -> None:
    spec = _read(
        "steps:\n  - id: pick\n    skill: pick-veg\n    eats:\n      note: the farmer's choice\n"
        "      later: pack's boxes\n  - id: pack\n    skill: pack-veg\n"
    )
    assert spec.steps[0].input_values == {"note": "the farmer's choice", "later": "pack's boxes"}
    assert all(f.source is None for f in spec.steps[0].inputs)


@pytest.mark.parametrize(("said", "read"), [
    ("every bed in beds", "bed in beds"), ("one go per bed in beds", "bed in beds"),
    ("for each row of the rows list", "row in rows"), ("each order from orders", "order in orders"),
    ("per hive in hives", "hive in hives"),
])
def test_loop_phrases(said: str, read: str) -> None:
    assert loop_phrase(said) == read


@pytest.mark.parametrize("said", ["bed in beds", "per hour", "every day", "all the beds", "each of them", "x" * 300])
def test_not_loop_phrases(said: str) -> None:
    assert loop_phrase(said) is None
