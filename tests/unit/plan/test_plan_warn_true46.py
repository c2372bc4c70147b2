"""Warnings that must say what the plan read (round 46, holdout29's misdescribing warnings): an input the
text names itself in brackets is not listed again as "read from what the steps take" (`plan.dataflow`); a
gather said in words that the plan reads is not "not read as a field name" (`plan.warn_true46`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.errors import Diagnostic, Severity
from orchestrator.plan import build_plan
from orchestrator.plan.model import PlanStep
from orchestrator.plan.warn_true46 import drop_read_gathers
from orchestrator.spec import parse_spec_text

_CATALOG = FakeCatalog(
    skill("first-do", input_schema=obj(("lot_id", "grade"), lot_id="string", grade="string"),
          output_schema=obj(("rows",), rows="array")),
    skill("then-do", input_schema=obj(("rows",), rows="array"), output_schema=obj(("ok",), ok="boolean")),
)


def _plan(intro: str):  # type: ignore[no-untyped-def]
    text = f"# Flow\n\n{intro}\n\n1. Pull the rows with `first-do`.\n2. Check them with `then-do`.\n"
    return build_plan(parse_spec_text(text, "f.txt", "markdown"), _CATALOG, settings=SETTINGS)


@pytest.mark.parametrize("intro", [
    "The clerk hands it two things: the lot number (lot_id) and the milk grade (grade).",  # a dairy's sheet
    "It wants two things off you: the sack's lot (lot_id) and its grade (grade).",  # a mill's intake
])
def test_inputs_named_in_brackets_are_not_said_to_be_read_from_the_steps(intro: str) -> None:
    plan = _plan(intro)
    assert {"lot_id", "grade"} <= {i.name for i in plan.inputs}
    assert not [w for w in plan.warnings if w.code == "derived-inputs"]


def test_near_miss_an_input_the_brackets_do_not_name_is_still_said_derived() -> None:
    plan = _plan("The clerk hands it one thing: the lot number (lot_id).")
    warned = [w.message for w in plan.warnings if w.code == "derived-inputs"]
    assert warned and "grade (step-1" in warned[0] and "lot_id (" not in warned[0]


def _field_warning(line: int, part: str) -> Diagnostic:
    return Diagnostic(file="s.txt", line=line, message=f"'{part}' is not read as a field name; write `name (type)`",
                      severity=Severity.WARNING, code="spec.field")


def _step(line: int, gather: bool) -> PlanStep:
    return cast(PlanStep, SimpleNamespace(where=f"s.txt:{line}", inputs={"x": SimpleNamespace(gather=gather)}))


@pytest.mark.parametrize("part", [
    "the sorters' counts merged into one",  # a sorting office's sheet
    "the tasting scores pooled in one go",  # a judging rota
    "all the results from the survey rows",  # a removals sheet's own way
])
def test_a_gather_in_words_the_plan_reads_is_no_unread_field(part: str) -> None:
    assert drop_read_gathers([_field_warning(10, part)], [_step(10, gather=True)]) == []


def test_near_misses_the_warning_stays() -> None:
    kept = [_field_warning(10, "the van size, roughly")]  # no gather in its words
    assert drop_read_gathers(kept, [_step(10, gather=True)]) == kept
    kept = [_field_warning(10, "every sorter's counts combined")]  # the step gathers nothing
    assert drop_read_gathers(kept, [_step(10, gather=False)]) == kept
    kept = [_field_warning(11, "every sorter's counts combined")]  # another line
    assert drop_read_gathers(kept, [_step(10, gather=True)]) == kept
