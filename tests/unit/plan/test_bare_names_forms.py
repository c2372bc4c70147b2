"""Bare names with a bracket each in a skill's Inputs / Outputs sentence (`plan.bare_names`, read through `read_instructions`)."""

from orchestrator.plan.wanted import read_instructions


def test_a_list_of_bare_names_each_with_its_bracket_is_read() -> None:
    said = read_instructions("Inputs: order_id (text), weight_kg (number, from the scale).\n\n"
                             "Returns: label (text, what is printed) and ok (true/false).\n", "x/SKILL.md")
    assert [n.name for n in said.inputs] == ["order_id", "weight_kg"]
    assert [n.name for n in said.outputs] == ["label", "ok"]


def test_a_bracket_saying_a_list_makes_the_value_a_list() -> None:
    said = read_instructions("Outputs: tags (list of text, sorted), source (text).\n", "x/SKILL.md")
    assert said.outputs[0].schema_ == {"type": "array"}


def test_prose_with_a_bracket_names_nothing() -> None:
    said = read_instructions("Reads the price list (a fixed copy is baked in).\n\n"
                             "Outputs: the total (a number).\n", "x/SKILL.md")
    assert (said.inputs, said.outputs) == ((), ())
