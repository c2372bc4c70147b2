"""A condition's subject that names a step, not a value: that step's one output (`plan.meaning._sole_output`)."""

from __future__ import annotations

from orchestrator.plan.literal_said25 import quoted_said
from orchestrator.plan.meaning import Value, by_meaning


def _values() -> list[Value]:
    return [Value("price", "steps['step-2'].output.price", "step-2's output (quote-job)", "quote-job quote the job"),
            Value("crew", "steps['step-3'].output.crew", "step-3's output (assign-crew)", "assign-crew"),
            Value("eta", "steps['step-3'].output.eta", "step-3's output (assign-crew)", "assign-crew")]


def test_a_word_of_a_step_s_skill_names_its_one_output() -> None:
    found, note = by_meaning(("quote",), _values(), numeric=True)
    assert found is not None and found.name == "price" and "the one output" in note


def test_a_step_of_two_outputs_or_no_step_names_nothing() -> None:
    assert by_meaning(("assignment",), _values(), numeric=True)[0] is None  # no step so named
    assert by_meaning(("assign",), _values(), numeric=True)[0] is None  # assign-crew gives two: which is unsaid


def test_a_two_word_name_said_as_a_verb_and_its_particle_takes_the_quote() -> None:
    said = quoted_said("sign_off", 'text them, sign it off "Bob\'s Bikes"')
    assert isinstance(said, tuple) and said[0] == "Bob's Bikes"
    assert quoted_said("round_up", 'round them up "to the pound"') is not None
    assert quoted_said("sign_off", 'sign it up "x"') is None  # another particle: not the name
