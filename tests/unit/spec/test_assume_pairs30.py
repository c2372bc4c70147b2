"""Values to go on with said as an assumption, then spelled out in brackets as the step's own outputs
(`spec.assume_pairs30`): "assume dry, 10 degrees (surface dry, temp_c 10) and get on with it". A camping
trip packing plan, a kitchen service sheet, a rehearsal schedule; and a bracket of one pair, of names the
skill does not return, or a sentence that does not go on. Also the plan sheet's run limit beside a habit
clause (`spec.whole_limit`) and "comes out with at least N things" as the run's check (`spec.success_halves`)."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.success_halves import parts_of
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_limit import whole_limit

OUTPUTS = {"check-gas": frozenset({"lit", "temp_c"}), "count-stock": frozenset({"portions", "short"}),
           "book-room": frozenset({"room", "booked"})}


def _spec(text: str) -> Any:
    words = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(lambda s: OUTPUTS.get(s, frozenset()))
    return parse_spec_text(text, "sheet.md", "markdown", words)


def _values(spec: Any) -> dict[str, Any]:
    got: dict[str, Any] = {}
    for r in spec.readings:
        if r.statement.on_failure is not None and r.statement.on_failure.value:
            got.update(r.statement.on_failure.value)
    return got


CAMPING = """\
# Packing plan

## Step 1: Stove check
- Skill: check-gas

If the gas won't test, pretend it's lit (lit yes, temp_c 20) and crack on.
"""

KITCHEN = """\
# Service sheet

## Step 1: Stock count
- Skill: count-stock

If the till is down just assume we're fine (portions 40, short none) and get on with it.
"""

REHEARSAL = """\
# Rehearsal

## Step 1: Room
- Skill: book-room

If the booking page is down assume the usual hall (room hall; booked yes) and carry on.
"""


def test_bracketed_pairs_of_the_skills_outputs_are_the_values_to_go_on_with() -> None:
    for text, want in ((CAMPING, {"lit": True, "temp_c": 20}), (KITCHEN, {"portions": 40, "short": "none"}),
                       (REHEARSAL, {"room": "hall", "booked": True})):
        spec = _spec(text)
        assert _values(spec) == want, [r.text for r in spec.readings]
        assert any(r.what == "fallback" and "values to go on with" in r.note for s in spec.steps for r in s.readings)


def test_one_pair_names_the_skill_does_not_return_or_no_going_on_are_not_read_here() -> None:
    for said in ("pretend it's lit (lit yes) and crack on.", "pretend it's lit (fuel yes, temp_c 20) and crack on.",
                 "pretend it's lit (lit yes, temp_c 20) and call me."):
        spec = _spec(CAMPING.replace("pretend it's lit (lit yes, temp_c 20) and crack on.", said))
        assert not any("values to go on with" in r.note for s in spec.steps for r in s.readings), said


def test_a_whole_run_limit_beside_a_clause_about_the_author() -> None:
    assert whole_limit("Whole prep has 10 minutes max, I'm usually on the bus when I run this.") == 600
    assert whole_limit("The whole service sheet takes 5 minutes max; we usually print it at four.") == 300
    assert whole_limit("The whole rehearsal prep usually takes 10 minutes.") is None


def test_a_check_said_as_what_comes_out_with_a_count() -> None:
    assert parts_of("the sheet comes out with at least 8 players on it (else I cancel and text parents)") == [
        "at least 8 players on it"]
    assert parts_of("the list comes back with at least 2 tents") == ["at least 2 tents"]
    assert parts_of("the rota is printed and the hall is booked") == ["the rota is printed", "the hall is booked"]
