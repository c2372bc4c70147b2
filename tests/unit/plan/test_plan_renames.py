"""A skill input filled from a value the text gives under another name is a warned rename, never a
silent guess; a value the text names that the skill does not read is no input of the step."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill, step, workflow

from orchestrator.errors import Diagnostic
from orchestrator.plan import build_plan
from orchestrator.plan.build import draft_plan
from orchestrator.plan.model import InputBinding
from orchestrator.plan.rename import renames
from orchestrator.spec import parse_spec_text

GEOCODE = skill("geocode-city", input_schema=obj(("city", "country"), city="string", country="string"),
                output_schema=obj(("lat",), lat="number", lon="number"))
FORECAST = skill("get-forecast", input_schema=obj(("position",), position="object"),
                 output_schema=obj(("summary",), summary="string"))
CATALOG = FakeCatalog(GEOCODE, FORECAST)

_SPEC = """\
# Weather

Inputs: `home_city`, `home_country`.

## Steps

1. **Locate**: `geocode-city` takes the `home_city` and the `home_country`.
2. **Forecast**: `get-forecast` reads the position `lat` from Locate.
"""


def _plan(text: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, "w.md", "markdown")
    return build_plan(spec, CATALOG, settings=SETTINGS)


def test_renames_pair_an_input_with_the_one_given_name_that_holds_its_words() -> None:
    assert renames(["version", "date"], ["new_version", "release_date"], "") == [
        ("version", "new_version"), ("date", "release_date")]


def test_renames_pair_an_input_written_as_a_word_next_to_the_value() -> None:
    assert renames(["report"], ["html"], "and sends the report `html` on") == [("report", "html")]
    assert renames(["report"], ["html"], "and sends the `html` to the report desk") == []


def test_two_names_that_both_hold_the_input_s_words_pair_with_neither() -> None:
    assert renames(["date"], ["start_date", "end_date"], "") == []


def test_a_skill_input_filled_from_a_differently_named_value_is_bound_and_warned() -> None:
    plan = _plan(_SPEC)
    locate = plan.step("step-1")
    assert locate.inputs["city"] == InputBinding(source="input", name="home_city", optional=False)
    assert locate.inputs["country"] == InputBinding(source="input", name="home_country", optional=False)
    renamed = [w for w in plan.warnings if w.code in ("plan.input-renamed", "plan.input-qualified") and w.line == 7]
    assert {("`home_city`" in w.message, "`city`" in w.message) for w in renamed} >= {(True, True)}
    assert len(renamed) == 2


def test_an_input_written_next_to_the_value_it_takes_is_bound_to_it_and_warned() -> None:
    plan = _plan(_SPEC)
    forecast = plan.step("step-2")
    assert forecast.inputs["position"] == InputBinding(source="step", step="step-1", pointer="/lat")
    assert "lat" not in forecast.inputs
    assert [w.line for w in plan.warnings if w.code == "plan.input-renamed" and "`position`" in w.message] == [8]


class _Said:
    """A catalog entry with SKILL.md instructions, as a loaded skill has."""

    def __init__(self, bound: object, body: str) -> None:
        self._bound, self.body, self.body_line = bound, body, 5
        self.name = bound.name  # type: ignore[attr-defined]
        self.skill_md = f"/skills/{self.name}/SKILL.md"

    def bound(self) -> object:
        return self._bound


def _said_catalog(kind: str) -> FakeCatalog:
    resize = skill("resize-image", kind=kind)
    catalog = FakeCatalog(resize)
    catalog._skills = {"resize-image": _Said(resize, "Inputs: `image_url`, `width` (pixels), `quality` (optional).")}  # type: ignore[attr-defined]
    return catalog


def _steps(kind: str) -> tuple[list[Diagnostic], list[Diagnostic]]:
    spec = workflow(step(1, "Shrink", "`resize-image`", description="Shrink the picture at image_url.",
                         input_values={"fit": "cover"}), inputs=("image_url",))
    _, errors = draft_plan(spec, _said_catalog(kind), settings=SETTINGS)  # type: ignore[arg-type]
    plan_warnings = [] if errors else list(build_plan(spec, _said_catalog(kind), settings=SETTINGS).warnings)
    return list(errors), plan_warnings


def test_an_input_its_skill_md_names_that_nothing_gives_is_warned_at_the_step_s_line() -> None:
    errors, warnings = _steps("script")
    assert errors == []
    missing = [w for w in warnings if w.code == "plan.input-not-given"]
    assert [(w.line, "`width`" in w.message, "SKILL.md:5" in w.message) for w in missing] == [(10, True, True)]
    assert not any("`quality`" in w.message for w in missing)  # said to be optional
