"""A skill's instructions name one input with its fields, or one output with its values, in parentheses
after the name: those are not inputs or outputs of their own (`plan.wanted`)."""

from __future__ import annotations

from orchestrator.plan.wanted import read_instructions


def _names(text: str) -> tuple[list[str], list[str]]:
    said = read_instructions(text, "/s/SKILL.md", 1)
    return [n.name for n in said.inputs], [n.name for n in said.outputs]


def test_an_object_input_with_its_fields_listed_is_one_input() -> None:
    assert _names("Takes `alert` (record: `host`, `severity`, `fired_at`) and `rota`.") == (["alert", "rota"], [])
    assert _names("Expects `order` (an object with `sku` and `qty`).") == (["order"], [])


def test_an_output_with_its_values_in_backticks_is_one_output() -> None:
    assert _names("Returns `state` (`open`, `closed` or `snoozed`) and `changed_at`.") == ([], ["state", "changed_at"])
    assert _names("Outputs: `verdict` (`MUST` or `SHOULD`); `clause`.") == ([], ["verdict", "clause"])


def test_a_parenthesis_that_goes_on_with_the_list_still_names_inputs() -> None:
    assert _names("Needs `page` (or `doc`) and `lang` (plus `glossary`, optionally).")[0] == ["page", "doc", "lang",
                                                                                               "glossary"]
    assert _names("Reads `diff` (and, for a merge commit, `parents`).")[0] == ["diff", "parents"]


def test_a_backticked_name_in_parentheses_that_follow_no_name_is_still_read() -> None:
    assert _names("Inputs: the run's settings (`threshold`), `window`.")[0] == ["threshold", "window"]
