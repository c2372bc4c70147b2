"""Round 52: a success check written on a step's field ("it's done when log.saved comes back true": step `log`'s
`saved`, `spec.success_halves`), and a GraphQL schema's comment lines outside its types each a sentence of their
own (`spec.graphql50`), so a whole-run limit and a done check said on two lines are both read; near-misses: the
field on a step that does not output it, and a comment line that goes on."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.graphql50 import graphql_markdown
from orchestrator.spec.success_halves import read_half
from orchestrator.spec.vocabulary import Vocabulary

_OUTPUTS = {"feed-dogs": frozenset({"count"}), "write-log": frozenset({"saved", "count"})}
_SKILLS = Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))

_ROUND = '''# kennel evening round
input Evening {
  block: String!
}

# the whole round gets 20 minutes max
# it's done when log.saved comes back true
type Round {
  feed(block: $block): Fed @skill(name: "feed-dogs")
  log(fed: feed.count): Logged @skill(name: "write-log")
}

type Fed { count: Int }
type Logged { saved: Boolean  count: Int }
'''


def test_a_field_written_on_its_step_is_read_with_its_step() -> None:
    half = read_half("log.saved comes back true", frozenset({"saved"}))
    assert half is not None and (half.head, half.field, half.keywords) == ("log", "saved", {"const": True})
    assert read_half("the `feed.count` returns 3", frozenset({"count"})) is not None
    assert read_half("log.saved comes back true", frozenset({"count"})) is None  # near-miss: no such output


def test_a_schemas_comment_lines_are_sentences_of_their_own() -> None:
    lowered = (graphql_markdown(_ROUND) or "").split("\n")
    assert lowered[5:7] == ["the whole round gets 20 minutes max.", "it's done when log.saved comes back true"]
    goes_on = graphql_markdown(_ROUND.replace("max\n", "max, and\n")) or ""
    assert "max, and\n" in goes_on  # near-miss: a line that ends mid-sentence goes on


def _plan_of(text: str, name: str):  # type: ignore[no-untyped-def]
    from orchestrator.plan import build_plan
    from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

    skills = [skill("feed-dogs", input_schema=obj(("block",), block="string"), output_schema=obj(("count",), count="integer")),
              skill("write-log", input_schema=obj(("fed",), fed="integer"),
                    output_schema=obj(("saved", "count"), saved="boolean", count="integer"))]
    return build_plan(parse_spec_text(text, name, "markdown", _SKILLS), FakeCatalog(*skills),
                      settings=SETTINGS)  # type: ignore[arg-type]


def test_the_schemas_limit_and_done_check_are_both_read() -> None:
    plan = _plan_of(_ROUND, "round.graphql")
    assert plan.limits.wall_time_s == 1200.0
    assert [(c.step, c.schema_["properties"]["saved"]) for c in plan.run_checks] == [("step-2", {"const": True})]
    assert plan.run_checks[0].where.endswith(":7")


def test_a_check_on_a_step_that_does_not_output_the_field_is_not_put_on_it() -> None:
    """Near-miss: `feed.saved` names the feed step, which has no `saved`: never a check on feed's output, and
    whatever is made of it is said at its line."""
    plan = _plan_of(_ROUND.replace("log.saved", "feed.saved"), "round.graphql")
    assert all(c.step != "step-1" for c in plan.run_checks)
    assert any(w.line == 7 and "success check" in w.message for w in plan.warnings)
