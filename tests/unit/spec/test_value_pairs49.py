"""Round 49: values to go on with whose later pairs leave the "=" out, and "nothing" as an empty list
(`spec.policy_notation25`, `spec.phrase_value`), in words that are not holdout32 200's."""

from __future__ import annotations

from orchestrator.spec.phrase import read_phrase


def _value(text: str) -> object:
    on = read_phrase(text).statement.on_failure
    return on.value if on is not None else None


def test_a_later_pair_without_its_equals_sign_is_read() -> None:
    assert _value("if one sample wont weigh keep going - set grams = nothing, ok false") == {"grams": [], "ok": False}
    assert _value("Carry on when the scanner dies: tags = nobody, score 0.5") == {"tags": [], "score": 0.5}
    assert _value("don't stop, note it: rooms = 3 and late true") == {"rooms": 3, "late": True}


def test_near_miss_pairs_without_going_on_are_no_value() -> None:
    assert read_phrase("set parts = nothing, cost 0").statement.on_failure is None
    assert _value("keep going, cost 0 and parts 3") is None  # no "=" pair first: not this row's
