"""`spec.graphql50`: a GraphQL schema whose fields carry a skill directive, read as the markdown it stands for, line
for line: the `input` type the steps take as `$x` the workflow inputs, each `@skill` field a step with its arguments
the skill's inputs, an indented `#` comment its rule. Schemas of our own (a kennel's evening round, a print shop's
proof run), and texts that are no such schema."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.graphql50 import graphql_markdown, is_graphql
from orchestrator.spec.vocabulary import Vocabulary

_KENNEL = '''# kennel evening round
input Evening {
  block: String!   # which row of pens
  dogs: [String]
}

type Round {
  # both start together
  feed(block: $block, portion: 2): Fed @uses(skill: "feed-dogs")
  walk(dogs: $dogs): Walked @skill(name: "walk-dogs")
     # the walker app hangs, 90 seconds then give up
  log(fed: feed.count, walked: walk.count, note: "evening"): Logged @skill(name: "write-log")
}

type Fed { count: Int }
'''

_PROOFS = '''type ProofRun {
  proof(job: $job): Proof @skill("make-proof")
    # retry 3 times, 30s apart
}
input Other {
  colour: String
}
input Job {
  job: ID!
}
'''


def test_a_type_with_a_skill_field_is_a_schema() -> None:
    assert is_graphql(_KENNEL) and is_graphql(_PROOFS)
    assert not is_graphql("type Query {\n  ping: Boolean @deprecated(reason: \"old\")\n}\n")  # no skill directive
    assert not is_graphql("# notes\nemail @skill(name: \"x\") to the team: done\n")  # no type


def test_the_schema_lowered_line_for_line() -> None:
    lowered = graphql_markdown(_KENNEL)
    assert lowered is not None
    lines = lowered.split("\n")
    assert len(lines) == len(_KENNEL.split("\n"))
    assert lines[1:5] == ["## Inputs", "- `block` (string): which row of pens", "- `dogs` (array)", ""]
    assert lines[6:12] == ["## Steps", "both start together", "1. feed: `feed-dogs` with block = `$block`, portion = 2",
                           "2. walk: `walk-dogs` with dogs = `$dogs`",
                           "   - the walker app hangs, 90 seconds then give up",
                           '3. log: `write-log` with fed = `feed.count`, walked = `walk.count`, note = "evening"']
    assert lines[14] == ""  # a step's return type: not read


def test_the_input_type_is_the_one_the_steps_take() -> None:
    lowered = graphql_markdown(_PROOFS)
    assert lowered is not None
    assert "- `job` (string)" in lowered.split("\n") and "- `colour` (string)" not in lowered.split("\n")


def test_the_schema_reads_its_inputs_steps_and_rules() -> None:
    spec = parse_spec_text(_KENNEL, "round.graphql", "markdown",
                           Vocabulary(skills=frozenset({"feed-dogs", "walk-dogs", "write-log"})))
    assert [i.name for i in spec.inputs] == ["block", "dogs"]
    assert [s.name for s in spec.steps] == ["feed", "walk", "log"]
