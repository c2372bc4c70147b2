"""A value to go on with said as a count of one of the step's own outputs ("assume we have 0 credits
and keep going"), read as that field's value only when the step's skill returns a field of that name
(`spec.assume_output24`). A warehouse runbook, a clinic's crontab comment, a lab protocol; and a
thing that is no output, a count of tries, a sentence that does not go on."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

OUTPUTS = {"count-pallets": frozenset({"pallets", "bays"}), "check-credit": frozenset({"credits"}),
           "read-plate": frozenset({"colonies", "od"}), "weigh-flour": frozenset({"kilos_left", "bin"}),
           "count-vials": frozenset({"open_vials", "sealed_vials"}), "ring-bell": frozenset({"rings_made"})}


def _spec(text: str, name: str = "doc.md") -> Any:
    words = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(lambda s: OUTPUTS.get(s, frozenset()))
    return parse_spec_text(text, name, "markdown", words)


def _fallbacks(spec: Any) -> list[Any]:
    return [r.statement for r in spec.readings if r.statement.on_failure is not None]


WAREHOUSE = """\
# Stock take

## Step 1: Count
- Skill: count-pallets

If the scanner dies, assume we have 0 pallets and keep going.
"""

CRON = """\
# (1) how many texts are left - if it errors assume we've got 0 credits and carry on
0 6 * * * desk /opt/run check-credit account=north
"""

LAB = """\
## Step 1: Plate count
- Skill: read-plate

Should the reader fail, pretend it found 40 colonies and continue.
"""


def _value(spec: Any) -> Any:
    (statement,) = _fallbacks(spec)
    return statement.on_failure.value if statement.on_failure.value is not None else statement


def test_a_count_of_the_skills_own_output_is_the_value_to_go_on_with() -> None:
    for text, name, want in ((WAREHOUSE, "stock.md", {"pallets": 0}), (CRON, "desk.crontab", {"credits": 0}),
                             (LAB, "plates.md", {"colonies": 40})):
        spec = _spec(text, name)
        assert _value(spec) == want, (name, _fallbacks(spec))
        assert any(r.what == "fallback" for s in spec.steps for r in s.readings)


def test_a_thing_the_skill_does_not_return_stays_warned() -> None:
    spec = _spec(WAREHOUSE.replace("0 pallets", "0 forklifts"))
    assert not any(r.what == "fallback" for s in spec.steps for r in s.readings)
    assert any("looks like the value to go on with" in w.message for w in spec.warnings)


def test_no_value_where_the_sentence_does_not_go_on_or_counts_tries() -> None:
    quiet = _spec(WAREHOUSE.replace(" and keep going", ""))  # no going on: no value said
    assert not any(r.what == "fallback" for s in quiet.steps for r in s.readings)
    tries = _spec(WAREHOUSE.replace("assume we have 0 pallets and keep going", "assume we have 3 tries and keep going"))
    assert not any(r.what == "fallback" for s in tries.steps for r in s.readings)


def test_a_word_that_begins_or_ends_one_output_at_an_underscore_is_that_output_warned() -> None:
    flour = _spec("## Step 1: Flour\n- Skill: weigh-flour\n\nIf the scale hangs, assume there are 25 kilos and carry on.\n")
    assert _value(flour) == {"kilos_left": 25}
    assert any("`kilos` is no output of `weigh-flour`" in w.message for w in flour.warnings)
    bell = _spec("## Step 1: Bell\n- Skill: ring-bell\n\nShould it jam, pretend it has 3 rings and keep going.\n")
    assert _value(bell) == {"rings_made": 3}


def test_a_word_two_outputs_share_is_no_guess() -> None:
    spec = _spec("## Step 1: Vials\n- Skill: count-vials\n\nIf it fails assume we have 0 vials and keep going.\n")
    assert not any(r.what == "fallback" for s in spec.steps for r in s.readings)
