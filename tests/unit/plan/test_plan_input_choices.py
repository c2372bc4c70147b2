"""The values an input allows, said in its description or a comment on its YAML line
("one of staging or prod", `# staging | prod`), become its `enum` in the plan and are warned at
the line; a plain `one of: a, b` is not warned; examples and descriptions are no choices
(`plan.input_choices`)."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text

_CATALOG = FakeCatalog(skill("do-it", input_schema=obj(), output_schema=obj(("ok",), ok="boolean")))


def _plan(text: str, fmt: str = "markdown"):  # type: ignore[no-untyped-def]
    path = "w.yaml" if fmt == "yaml" else "w.md"
    return build_plan(parse_spec_text(text, path, fmt), _CATALOG, settings=SETTINGS)  # type: ignore[arg-type]


def _choices(plan) -> dict[str, list[str] | None]:  # type: ignore[no-untyped-def]
    return {i.name: i.schema_.get("enum") for i in plan.inputs}


def _warned(plan) -> list[int]:  # type: ignore[no-untyped-def]
    return [w.line for w in plan.warnings if w.code == "plan.input-choices"]


def test_a_lab_protocol_in_yaml_gives_the_choices_in_a_comment_on_the_input_s_line() -> None:
    text = ("name: plate run\ninputs:\n  plate_id: {type: string}\n  mode: dry  # dry | wet\n"
            "steps:\n  - id: run\n    skill: do-it\n")
    plan = _plan(text, "yaml")
    assert _choices(plan) == {"plate_id": None, "mode": ["dry", "wet"]}
    assert _warned(plan) == [4]


def test_a_recipe_card_says_one_of_in_the_input_s_description() -> None:
    text = ("# Loaf\n\n## Inputs\n- flour: which flour, one of rye, spelt or wheat\n- grams: dough weight\n\n"
            "## Steps\n1. Bake with `do-it`.\n")
    plan = _plan(text)
    assert _choices(plan) == {"flour": ["rye", "spelt", "wheat"], "grams": None}
    assert _warned(plan) == [4]
    warned = next(w for w in plan.warnings if w.code == "plan.input-choices")
    assert "one of: rye, spelt, wheat" in warned.message


def test_an_hr_checklist_that_says_it_plainly_is_not_warned() -> None:
    text = ("# Onboarding\n\n## Inputs\n- site: one of: `hq`, `remote`\n- start: first day\n\n"
            "## Steps\n1. Book the desk with `do-it`.\n")
    plan = _plan(text)
    assert _choices(plan)["site"] == ["hq", "remote"]
    assert _warned(plan) == []


def test_a_podcast_run_sheet_s_examples_and_descriptions_are_no_choices() -> None:
    text = ("# Episode\n\n## Inputs\n- feed: e.g. main | bonus\n- audio: either the raw take or a cleaned file\n"
            "- guest: the guest's name or handle\n\n## Steps\n1. Cut it with `do-it`.\n")
    plan = _plan(text)
    assert _choices(plan) == {"feed": None, "audio": None, "guest": None}
    assert _warned(plan) == []


def test_a_ship_s_log_default_outside_the_choices_keeps_the_input_open_and_says_so() -> None:
    text = ("name: watch\ninputs:\n  watch: dog  # first | middle\nsteps:\n  - id: log\n    skill: do-it\n")
    plan = _plan(text, "yaml")
    assert _choices(plan) == {"watch": None}
    [warned] = [w for w in plan.warnings if w.code == "plan.input-choices"]
    assert warned.line == 3 and "none of them" in warned.message
