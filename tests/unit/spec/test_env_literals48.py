"""Constants a workflow file sets (GitHub's top-level `env:`, an Ansible play's `vars:`) are the literal values
of the steps that read them (`spec.env_literals48`): a bakery's nightly GitHub workflow, a school's
patching play; near misses: a constant left empty, or read inside an expression, stays an input."""

from __future__ import annotations

from yaml import compose

from orchestrator.spec import parse_spec_text
from orchestrator.spec.env_literals48 import literal_constants
from orchestrator.spec.vocabulary import Vocabulary

_BAKERY = """\
name: nightly-bake-plan
on:
  workflow_dispatch:
    inputs:
      orders: {description: "tomorrow's orders", required: true}
env:
  OVEN: "Deck 2"
  TRAYS: 14
jobs:
  plan:
    steps:
      - uses: skills/bake-plan
        with:
          orders: ${{ inputs.orders }}
          oven: ${{ env.OVEN }}
          trays: ${{ env.TRAYS }}
          title: "Bake plan for ${{ env.OVEN }}"
"""

_PLAY = """\
- name: label printing
  hosts: counter
  vars_prompt:
    - name: batch
      prompt: which batch
  vars:
    printer: Zebra-1
  tasks:
    - name: print the labels
      skill: print-labels
      args: {batch: "{{ batch }}", printer: "{{ vars.printer }}"}
"""


def test_a_github_env_constant_is_the_value_itself_typed_and_inside_a_text() -> None:
    spec = parse_spec_text(_BAKERY, "bake.yml", "yaml", Vocabulary(skills=frozenset({"bake-plan"})))
    assert [i.name for i in spec.inputs] == ["orders"]
    values = spec.steps[0].input_values
    assert values["oven"] == "Deck 2" and values["trays"] == 14 and values["title"] == "Bake plan for Deck 2"


def test_an_ansible_play_var_is_the_literal_beside_the_prompted_inputs() -> None:
    spec = parse_spec_text(_PLAY, "labels.yml", "yaml", Vocabulary(skills=frozenset({"print-labels"})))
    assert [i.name for i in spec.inputs] == ["batch"]
    assert spec.steps[0].input_values["printer"] == "Zebra-1"


def test_a_constant_empty_or_still_named_stays_an_input() -> None:
    doc = compose("constants: {MODE: full, TOKEN: '', AREA: north}\nsteps: [{if: \"${{ env.MODE == 'x' }}\", "
                  "a: '${{ env.TOKEN }}', b: '${{ env.AREA }}'}]\n")
    constants, steps = doc.value[0][1], doc.value[1][1]
    kept, literal = literal_constants(constants, [steps])
    assert literal == ["AREA"]
    assert kept is not None and [k.value for k, _ in kept.value] == ["MODE", "TOKEN"]
    assert steps.value[0].value[2][1].value == "north"
