"""A name said right after a skill input's name at a clause's end (`plan.named_value54`) and a step's "field is
<the author's input>" (`plan.own_inputs54.fields_said`), in words that are not holdout34's."""

from __future__ import annotations

from orchestrator.plan.named_value54 import name_said
from orchestrator.plan.own_inputs54 import fields_said


def test_a_name_after_the_input_s_name_at_a_clause_s_end_is_its_value() -> None:
    assert name_said("driver", "Run rota-build for the depot and driver Okafor.") == "Okafor"
    assert name_said("site", "then survey-kit, with the plans and site Port Talbot, it gives the levels") == "Port Talbot"
    assert name_said("lead_vet", "Give it the herd and lead vet Amira; it returns the list.") == "Amira"


def test_a_capitalised_word_not_ending_the_clause_or_a_sentence_s_first_word_is_no_value() -> None:
    assert name_said("driver", "The driver Okafor will ring you about it.") is None
    assert name_said("driver", "Ask the driver. Then run it.") is None
    assert name_said("driver", "driver Okafor, and later driver Bell.") is None  # two values: neither


def test_a_step_s_text_says_which_author_input_a_field_is() -> None:
    text = "Item 3, count-vans - depot_id is the depot code, vans_out is vans gone, spare is whatever."
    assert fields_said(text, ["depot_id", "vans_out", "spare"], ["depot_code", "vans_gone"]) == {
        "depot_id": "depot_code", "vans_out": "vans_gone"}
    assert fields_said(text, ["other"], ["depot_code"]) == {}  # a name the skill does not read
