"""What readers ask again for every sentence of the same steps is kept, never changing the answer
(r50 probe: a spec repeated to 1 MB spent most of its minutes recomputing these):
`whole_success.outputs_of` per (step, vocabulary) object, `elsewhere.keys_of` for the same steps,
`output_aliases._words` per text."""

from __future__ import annotations

from orchestrator.plan import output_aliases
from orchestrator.spec import whole_success
from orchestrator.spec.elsewhere import keys_of
from orchestrator.spec.model import FieldSpec, StepSpec
from orchestrator.spec.vocabulary import Vocabulary


def _step(*outputs: str) -> StepSpec:
    return StepSpec(id="step-1", name="Pack", where="s.md:1", skill="pack-export",
                    outputs=tuple(FieldSpec(name=o, where="s.md:2") for o in outputs))


def test_outputs_of_a_copied_step_with_other_outputs_is_its_own_answer() -> None:
    vocab = Vocabulary(skills=frozenset({"pack-export"})).with_outputs(lambda s: frozenset({"label"}))
    first = _step("sealed")
    assert whole_success.outputs_of(first, vocab) == {"sealed", "label"}
    second = first.model_copy(update={"outputs": (FieldSpec(name="boxes", where="s.md:2"),)})
    assert whole_success.outputs_of(second, vocab) == {"boxes", "label"}
    assert whole_success.outputs_of(first, vocab) == {"sealed", "label"}  # asked again: the same
    other = Vocabulary(skills=frozenset({"pack-export"})).with_outputs(lambda s: frozenset({"weight"}))
    assert whole_success.outputs_of(first, other) == {"sealed", "weight"}  # another vocabulary: its own


def test_the_outputs_store_stays_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(whole_success, "_KNOWN_MAX", 4)
    vocab = Vocabulary()
    steps = [_step(f"f{i}") for i in range(10)]
    assert [whole_success.outputs_of(s, vocab) for s in steps] == [frozenset({f"f{i}"}) for i in range(10)]
    assert len(whole_success._KNOWN) <= 4


def test_keys_of_the_same_steps_again_is_an_equal_fresh_list() -> None:
    rows = [(1, "Pack the crates", "pack-export"), (2, "Post the note", None)]
    first = keys_of(rows)
    first.clear()  # a caller's own list: the next answer is whole
    again = keys_of(list(rows))
    assert [k.number for k in again] == [1, 2] and "crates" in again[0].words and "note" in again[1].words
    assert keys_of([(1, "Weigh the crates", None), *rows[1:]])[0].words != again[0].words


def test_a_texts_words_are_the_same_frozen_set_when_asked_again() -> None:
    a = output_aliases._words("the checked invoices list")
    assert isinstance(a, frozenset) and a == output_aliases._words("the checked invoices list")
    assert output_aliases._words("the checked invoice") <= a
