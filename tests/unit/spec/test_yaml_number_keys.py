"""YAML steps keyed by numbers (`"10":`, `"20":`, numbered in tens) are `step-10`, `step-20`: "step 10" in
a value and `after: ["20"]` name them (both were refused as steps the spec does not have). A harbour
plan, a bakery's proofing schedule, a print run, a greenhouse watering round."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text

_HARBOUR = """\
steps:
  "10":
    tool: chart
  "20":
    tool: fit
    feed:
      berths: step 10 -> berths
  "30":
    tool: post
    after: ["20"]
"""
_BAKERY = """\
steps:
  "10": {skill: mix}
  "20": {skill: proof, depends_on: "10"}
  "30": {skill: bake, depends_on: ["20"]}
"""
_PRINT = """\
steps:
  "100":
    skill: impose
  "200":
    skill: plate
    input: {sheets: "{{ steps.step-100.output.sheets }}"}
  "300":
    skill: print
    depends_on: [200]
"""
_GREENHOUSE = """\
steps:
  "1":
    skill: read-probes
  "2":
    skill: water-beds
    depends_on: ["1"]
  "3":
    skill: log-round
    depends_on: ["2"]
"""


@pytest.mark.parametrize("text", [_HARBOUR, _BAKERY, _PRINT, _GREENHOUSE])
def test_steps_keyed_by_numbers_are_step_n_and_are_named_so(text: str) -> None:
    spec = parse_spec_text(text, "w.yaml", "yaml")  # refused before: a SpecError
    steps = spec.steps  # type: ignore[attr-defined]
    ids = [s.id for s in steps]
    assert all(i.startswith("step-") for i in ids)
    assert steps[2].depends_on == (ids[1],)
