"""A SKILL.md that lists what it takes under an Inputs heading of its own (a list, a table or a
JSON example after "## Input", "**What it takes**", "Inputs:") has those names read as its
inputs, so a step binds them, or is warned at its line when nothing gives one (`plan.instruction_sections`)."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, skill

from orchestrator.kinds import BoundSkill
from orchestrator.plan import build_plan
from orchestrator.plan.wanted import read_instructions
from orchestrator.spec import parse_spec_text


def _inputs(body: str) -> list[tuple[str, bool, bool]]:
    return [(n.name, n.optional, n.example) for n in read_instructions(body, "S.md").inputs]


def _outputs(body: str) -> list[str]:
    return [n.name for n in read_instructions(body, "S.md").outputs]


def test_a_ship_s_log_skill_lists_its_inputs_under_a_heading() -> None:
    body = ("Writes the watch entry.\n\n## Input\n\n- `position` (lat, lon)\n- wind_kt: knots\n"
            "- Note: the log is kept in UTC\n\n## Output\n\n- `entry`\n")
    assert _inputs(body) == [("position", False, False), ("wind_kt", False, False)]
    assert _outputs(body) == ["entry"]


def test_a_recipe_card_skill_gives_a_table_with_a_header_row() -> None:
    body = ("Scales a recipe.\n\n**What it takes**\n\n| name | what |\n|------|------|\n| `servings` | how many |\n"
            "| flour_g | grams (optional, default 500) |\n\n## Notes\n\n- `oven`: not an input\n")
    assert _inputs(body) == [("servings", False, False), ("flour_g", True, False)]


def test_a_lab_protocol_skill_shows_a_json_example_under_its_inputs_label() -> None:
    body = ('Runs the plate.\n\nInputs:\n\n```json\n{"plate_id": "P-1", "wells": [{"id": "A1"}]}\n```\n\n'
            "Returns:\n\n1. `calls`\n")
    assert _inputs(body) == [("plate_id", False, True), ("wells", False, True)]
    assert _outputs(body) == ["calls"]


def test_a_podcast_run_sheet_skill_numbers_its_parameters() -> None:
    body = "# Cut the episode\n\n### Parameters\n\n1. episode_no — the number\n2. **guest** (name)\n"
    assert _inputs(body) == [("episode_no", False, False), ("guest", False, False)]


def test_a_list_under_a_heading_of_another_kind_or_in_fenced_code_is_no_input() -> None:
    assert _inputs("## Usage\n\n- `verbose`: louder\n\n```\n## Inputs\n- `nope`\n```\n") == []
    assert _inputs("## Input\n\nThe file is read whole.\n\n## Errors\n\n- `timeout`: retried\n") == []


class _Entry:
    def __init__(self, bound: BoundSkill, body: str) -> None:
        self._bound, self.name, self.body, self.body_line = bound, bound.name, body, 5
        self.skill_md = f"/skills/{bound.name}/SKILL.md"

    def bound(self) -> BoundSkill:
        return self._bound


class _Catalog(FakeCatalog):
    def __init__(self, *entries: _Entry) -> None:
        super().__init__(*(e.bound() for e in entries))
        self._skills = {e.name: e for e in entries}  # type: ignore[misc]


_CATALOG = _Catalog(
    _Entry(skill("log-watch"), "Writes the entry.\n\n## Input\n\n- `position`\n- `wind_kt`\n- `barometer`\n\n"
                               "## Output\n\n- `entry`\n"),
    _Entry(skill("file-entry"), "Files it.\n\n**What it takes**\n\n| name | type |\n|---|---|\n| `entry` | text |\n"
                                "| `skipper` | initials |\n"))

_LOG = """\
# Ship's log, each watch

## Inputs
- position: the fix
- wind_kt: wind

## Steps
1. Write it with `log-watch`.
2. File it with `file-entry`.
"""


def test_names_under_a_skill_s_input_heading_are_bound_and_the_ones_nothing_gives_are_warned() -> None:
    plan = build_plan(parse_spec_text(_LOG, "w.md", "markdown"), _CATALOG, settings=SETTINGS)
    assert plan.step("step-1").inputs["wind_kt"].name == "wind_kt"
    assert plan.step("step-2").inputs["entry"].step == "step-1"
    warned = {(w.line, w.message.split("reads ")[1][:12]) for w in plan.warnings if w.code == "plan.input-not-given"}
    assert warned == {(8, "`barometer` "), (9, "`skipper` (/")}


_KITCHEN = _Catalog(
    _Entry(skill("scale-recipe"), 'Scales it.\n\nInput:\n\n```json\n{"servings": 4, "units": "metric"}\n```\n'),
    _Entry(skill("print-card"), 'Reads `{"card": ..., "font": "serif"}` and prints it.\n'))

_CARD = """\
# Recipe card

## Inputs
- servings: how many plates

## Steps
1. Scale it with `scale-recipe`.
2. Print it with `print-card`.
"""


def test_a_key_of_a_skill_s_json_example_is_bound_and_not_warned_when_nothing_gives_it() -> None:
    # an example's keys may be optional ones the prose says later ("waits `pause_s` (default 0)")
    plan = build_plan(parse_spec_text(_CARD, "w.md", "markdown"), _KITCHEN, settings=SETTINGS)
    assert plan.step("step-1").inputs["servings"].name == "servings"
    assert [w for w in plan.warnings if w.code == "plan.input-not-given"] == []
