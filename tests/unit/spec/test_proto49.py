"""`spec.proto49`: a protobuf schema whose service's rpcs are the steps, read as the markdown it stands for, line for
line: the message named for the run's inputs (that no rpc returns) the workflow inputs, the numbered comment above
each rpc a step, each later comment line a rule of its own unless the line before goes on. Schemas of our own (a
bakery's night run, a lab's plate reader), and texts that are no such schema."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.proto49 import is_proto, proto_markdown
from orchestrator.spec.vocabulary import Vocabulary

_BAKERY = """syntax = "proto3";
package bakery.v2;

message NightInput {
  string shop = 1;            // which shop's ovens
  repeated string loaves = 2; // what to bake
  int64 trays = 3;
}

service NightBake {
  // the whole bake: 3 hours at most.
  // 1. plan-batches: shop, loaves -> batches
  //    the planner is flaky, retry 2 times
  rpc PlanBatches (NightInput) returns (Batches);
  // 2. fire-ovens: batches (from 1), trays = trays,
  //    temperature = 220
  rpc FireOvens (Batches) returns (Fired);
}

message Batches { repeated string batch = 1; }
message Fired { bool ok = 1; }
"""

_PLATES = """// plates.proto
service PlateRun {
  // 1) read-plates: rack -> readings
  rpc ReadPlates(PlateParams) returns (Readings) {}
  // 2) score-readings: readings (from 1) -> score
  rpc ScoreReadings(Readings) returns (Score);
}
message PlateParams {
  string rack = 1;
}
"""


def test_a_service_with_an_rpc_is_a_schema() -> None:
    assert is_proto(_BAKERY) and is_proto(_PLATES)
    assert not is_proto('syntax = "proto3";\nmessage Only { string a = 1; }\n')  # messages, no service
    assert not is_proto("# Notes\n\nthe service { is down } and an rpc call returns (nothing)\n")


def test_the_schema_lowered_line_for_line() -> None:
    lowered = proto_markdown(_BAKERY)
    assert lowered is not None
    lines = lowered.split("\n")
    assert len(lines) == len(_BAKERY.split("\n"))
    assert lines[:2] == ["", ""]  # syntax, package
    assert lines[3:8] == ["## Inputs", "- `shop` (string): which shop's ovens", "- `loaves` (array): what to bake",
                          "- `trays` (integer)", ""]
    assert lines[9:14] == ["## Steps", "the whole bake: 3 hours at most.", "1. plan-batches: shop, loaves -> batches",
                           "   - the planner is flaky, retry 2 times", ""]
    assert lines[14:16] == ["2. fire-ovens: batches (from 1), trays = trays,", "   temperature = 220"]  # goes on
    assert lines[19:21] == ["", ""]  # an rpc's own types: no inputs, no text


def test_the_inputs_message_is_the_one_named_for_them_that_no_rpc_returns() -> None:
    lowered = proto_markdown(_PLATES)
    assert lowered is not None and "- `rack` (string)" in lowered.split("\n")  # declared after the service
    returned = _PLATES.replace("returns (Readings)", "returns (PlateParams)")
    assert "## Inputs" not in (proto_markdown(returned) or "")  # an rpc returns it: a step's output, no inputs


def test_the_schema_reads_its_inputs_steps_and_rules() -> None:
    spec = parse_spec_text(_BAKERY, "night.proto", "markdown",
                           Vocabulary(skills=frozenset({"plan-batches", "fire-ovens"})))
    assert [i.name for i in spec.inputs] == ["shop", "loaves", "trays"]
    assert [(s.name, s.where.rpartition(":")[2]) for s in spec.steps] == [("plan-batches", "12"), ("fire-ovens", "15")]
    assert [t.text for t in spec.steps[0].texts] == ["shop, loaves -> batches", "the planner is flaky, retry 2 times"]
    assert any("Protocol Buffers schema" in w.message for w in spec.warnings if w.line == 1)
