"""A step's condition as a setting of the author's own schema, and "else" as its otherwise
(`spec.only_if_keys`): an INI file's `only_if = ...` is the step's condition (it was dropped without a
word and both branches ran), `only_if = else` / `run_if: otherwise` the other branch of the step before;
"When both are done: if ..." waits for the steps before, and the condition is the "if" after it.
Documents: a dairy's cleaning rota (INI), a theatre's show-night cues (own YAML), a bakery's
properties list, a letter to a kennel sitter (prose read anchored)."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.only_if_keys import comma_condition, finished_lead, otherwise_words
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("test-milk", "dump-tank", "bottle-milk", "log-batch", "check-dogs", "walk-dogs", "call-vet", "tell-owner",
          "cue-lights", "hold-curtain", "open-house", "proof-dough", "bake-extra", "bake-usual")
WORDS = Vocabulary.of([(s, None) for s in SKILLS])


def _parse(text: str, path: str, fmt: str = "markdown") -> WorkflowSpec:
    return parse_spec_text(text, path, fmt, WORDS)


DAIRY = """; cleaning rota, milk room
[test]
skill = test-milk

[dump]
skill   = dump-tank
only_if = test.cells > 400000   ; the co-op's limit
after   = test

[bottle]
skill   = bottle-milk
only_if = otherwise
after   = test

[log]
skill = log-batch
after = dump | bottle
"""


def test_a_dairy_rotas_only_if_setting_is_the_steps_condition_and_else_its_otherwise() -> None:
    spec = _parse(DAIRY, "rota.ini")
    dump, bottle = spec.steps[1], spec.steps[2]
    assert dump.when == "step-1.cells > 400000"  # the section's title `test` is step-1
    assert dump.field_where["when"] == "rota.ini:7"
    assert bottle.when is None and bottle.otherwise_where == "rota.ini:12"
    assert any(w.line == 12 and w.code == "spec.lead-condition" for w in spec.warnings)


THEATRE = """shownight:
  cues:
    house:
      uses: open-house
    hold:
      uses: hold-curtain
      run_if: house.late == true
      after: house
    go:
      uses: cue-lights
      run_if: otherwise
      after: house
"""


def test_a_theatres_own_yaml_run_if_otherwise_is_the_other_branch() -> None:
    spec = _parse(THEATRE, "cues.yaml", "yaml")
    go = next(s for s in spec.steps if s.skill and "cue-lights" in s.skill)
    assert go.when is None and go.otherwise_where is not None


BAKERY = """[proof]
skill = proof-dough

[extra]
skill = bake-extra
run_when = proof.orders >= 50

[usual]
skill = bake-usual
run_when = else # the usual tray
"""


def test_a_bakery_list_run_when_and_else() -> None:
    spec = _parse(BAKERY, "bake.conf")
    assert spec.steps[1].when == "step-1.orders >= 50"
    assert spec.steps[2].otherwise_where == "bake.conf:10"


KENNEL = """Dear Sam,

Each morning check-dogs looks the dogs over, and walk-dogs takes them out at the same time.

When both are done: if any dog is limping, call-vet rings the vet.

Whichever happened, tell-owner sends the owners a note.
"""


def test_a_letters_when_both_are_done_waits_and_its_if_is_the_condition() -> None:
    spec = _parse(KENNEL, "note.txt")
    vet = next(s for s in spec.steps if "call-vet" in (s.skill or "") or s.name == "call-vet")
    assert vet.when == "any dog is limping"
    assert not any("both are done" in w.message for w in spec.warnings)


@pytest.mark.parametrize("said", ["both are done", "they're all back", "the two have finished", "everything is in",
                                  "all of them are complete"])
def test_the_steps_before_finishing_is_an_order_not_a_condition(said: str) -> None:
    assert finished_lead(said)


@pytest.mark.parametrize("said", ["the dough is done", "both ovens are hot", "total is over 5"])
def test_a_real_condition_is_not_read_as_an_order(said: str) -> None:
    assert not finished_lead(said)


def test_else_words_and_a_comma_condition() -> None:
    assert otherwise_words("else ; i.e. not high") and otherwise_words("Otherwise") and otherwise_words("if not")
    assert not otherwise_words("elsewhere == true") and not otherwise_words("risk == high")
    assert comma_condition("if the tank is full, `dump-tank` empties it") == ("the tank is full", "`dump-tank` empties it")
    assert comma_condition("`dump-tank` empties it, if full") is None
