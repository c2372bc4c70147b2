"""What a step's text says its skill yields after the skill's arrow ("→ `merge-tags` ... → `merged`,
`kept`") is checked against what the skill's SKILL.md states it outputs: a name both say is required,
a name only the text says is not required and is warned at its line (a correct run is not failed for it)."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary


class _Said:
    def __init__(self, name: str, body: str) -> None:
        self._bound, self.body, self.body_line, self.name = skill(name), body, 5, name
        self.skill_md = f"/skills/{name}/SKILL.md"

    def bound(self) -> object:
        return self._bound


def test_an_output_the_skill_does_not_state_is_not_required_and_is_warned_at_its_line() -> None:
    catalog = FakeCatalog()
    catalog._skills = {"merge-tags": _Said("merge-tags", "Inputs: `tickets`. Outputs: `merged` (list), `count`.")}  # type: ignore[attr-defined]
    text = "# Macro\n\nInputs: `tickets`.\n\n## Steps\n\n1. Tags + merge → `merge-tags` on the `tickets` → `merged`, `kept`\n"
    spec = parse_spec_text(text, "m.md", "markdown", Vocabulary.of([("merge-tags", None)]))
    plan = build_plan(spec, catalog, settings=SETTINGS)  # type: ignore[arg-type]
    schema = plan.step("step-1").output_schema
    assert schema["required"] == ["merged"] and "kept" in schema["properties"]
    warned = [w for w in plan.warnings if w.code == "plan.output-not-stated"]
    assert [(w.line, "`kept`" in w.message) for w in warned] == [(7, True)]
