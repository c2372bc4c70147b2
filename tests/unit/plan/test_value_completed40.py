"""A value to go on with that names some of an object output's fields is completed with the contract's empty
value for the others (`plan.recovery._whole_value`), and that is said: a warning at the policy's line names
the fields set empty. A value that names every field is no warning."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("score-film", input_schema=obj(("film",), film="string"),
          output_schema=obj(("title", "minutes", "cleared"), title="string", minutes="number", cleared="boolean")),
)


def _plan(note: str) -> tuple[dict[str, object], list[tuple[int, str]]]:
    text = f"# Night\n\n## Steps\n\n1. Score the film with `score-film`.\n   - {note}\n"
    spec = parse_spec_text(text, "flow.md", "markdown", Vocabulary(skills=frozenset({"score-film"})))
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    fallback = plan.steps[0].policy.fallback
    warnings = [(w.line, w.message) for w in [*spec.warnings, *plan.warnings]]
    return (fallback.value if isinstance(fallback.value, dict) else {}), warnings


@pytest.mark.parametrize("note", [
    "If scoring breaks, set cleared to false and move on.",
    "Should it crash, carry on with cleared = false.",
])
def test_a_value_naming_some_fields_is_completed_and_said(note: str) -> None:
    value, warnings = _plan(note)
    assert value == {"title": "", "minutes": 0, "cleared": False}  # the contract's empty values
    said = [m for line, m in warnings if "the value to go on with says only cleared" in m]
    assert said and "title, minutes" in said[0]
    assert any(line == 6 for line, m in warnings if "says only cleared" in m)


def test_a_value_naming_every_field_is_no_warning() -> None:
    value, warnings = _plan('If scoring breaks, carry on with title = "none", minutes = 0, cleared = false.')
    assert value == {"title": "none", "minutes": 0, "cleared": False}
    assert not any("says only" in m for _line, m in warnings)
