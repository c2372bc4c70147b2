"""A condition names a step's output as `step-id.field`; the ids are one pattern per plan
(`conditions.StepIds`), a trie, that places the longest id a name starts with."""

from __future__ import annotations

from orchestrator.plan.conditions import StepIds, rewrite_expression


def no_names(name: str, of: str | None) -> str | None:
    return f"inputs.{name}"


def test_a_step_id_then_a_field_is_that_steps_output_and_the_longest_id_wins() -> None:
    ids = StepIds(["to", "to-eur", "step-1", "step-10"])
    assert ids.rewrite("to-eur.amount > 3 and to.x") == "steps['to-eur'].output.amount > 3 and steps['to'].output.x"
    assert ids.rewrite("step-10.n + step-1.n") == "steps['step-10'].output.n + steps['step-1'].output.n"


def test_quoted_text_dotted_names_and_a_prefix_of_a_longer_word_are_left_as_written() -> None:
    ids = StepIds(["to", "a"])
    assert ids.rewrite("'to.x' == item.to.y and tox.z and data.a") == "'to.x' == item.to.y and tox.z and data.a"
    assert ids.rewrite("no dots at all") == "no dots at all"
    assert StepIds([]).rewrite("to.x") == "to.x"


def test_a_plan_of_ten_thousand_ids_compiles_them_once_for_every_condition() -> None:
    ids = StepIds([f"s{i}" for i in range(10_000)])
    assert ids.rewrite("s9999.ok and s12.ok") == "steps['s9999'].output.ok and steps['s12'].output.ok"
    assert rewrite_expression("s5.total > 1", no_names, ids, None) == "steps['s5'].output.total > 1"
