"""A loop that names its list but not its item (`repeat_for: screen.valid`, `- For each: members`) is read
as `item in <list>`, warned, in documents of several kinds (a registrar's YAML with phases, a kennel's
markdown intake list, a choir's YAML rota, a greenhouse's markdown heading steps); a value that names no
list stays an error at its line."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec_text


def _yaml(loop: str) -> str:
    return ("name: rota\nsteps:\n  - id: screen\n    skill: pick-singers\n"
            f"  - id: call\n    skill: ring-singer\n    depends_on: [screen]\n    for_each: {loop}\n")


@pytest.mark.parametrize(("loop", "wanted"), [
    ("screen.valid", "item in steps.screen.output.valid"),  # a registrar's list of valid requests
    ("singers", "item in singers"),  # a choir's rota: an input list
])
def test_a_yaml_loop_naming_only_its_list_loops_over_it_warned(loop: str, wanted: str) -> None:
    spec = parse_spec_text(_yaml(loop), "r.yaml", "yaml")
    assert spec.steps[1].for_each == wanted
    assert any(w.code == "spec.for-each" and "names the list but not its item" in w.message for w in spec.warnings)


@pytest.mark.parametrize("text", [
    # a kennel's intake list, a heading per step
    "# Intake\n\n## Steps\n\n### Step 1: Book\n- Skill: `book-kennel`\n- For each: dogs\n",
    # a greenhouse's watering steps
    "# Water\n\n## Steps\n\n### Step 1: Spray\n- Skill: `spray-bed`\n- For each: step-1.beds\n",
])
def test_a_markdown_for_each_naming_only_its_list_is_read_as_item_in_it(text: str) -> None:
    spec = parse_spec_text(text, "w.md", "markdown")
    assert spec.steps[0].for_each is not None and spec.steps[0].for_each.startswith("item in ")


def test_a_value_that_is_no_list_name_stays_an_error_at_its_line() -> None:
    with pytest.raises(SpecError) as caught:
        parse_spec_text(_yaml("'every singer who said yes!'"), "r.yaml", "yaml")
    [found] = caught.value.diagnostics
    assert (found.file, found.line, found.code) == ("r.yaml", 8, "spec.for-each")
