"""The planner's side of a YAML step's own words (`spec.yaml38`): what a step eats in words is bound by
the plan's values (a renamed one warned), another step's value said as `weather's warm_enough` takes
the field its words share a word with (warned), and one whose words share nothing gets the whole
output, warned; a step that goes with the first starts with it."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from tests.unit.spec.test_yaml38 import HIVES

S = {"type": "string"}
A = {"type": "array"}
B = {"type": "boolean"}

# a beekeeper's hive round, in her own keys: the reader's tests' text (`tests/unit/spec/test_yaml38.py`)
CATALOG = FakeCatalog(
    skill("bee-weather", input_schema=obj(("date",), date=S),
          output_schema=obj(("warm_risk", "wind"), warm_risk=B, wind=S)),
    skill("hive-inspect", input_schema=obj(("hive",), hive={"type": "object"}), output_schema=obj(("ok",), ok=B)),
    skill("hive-summary", input_schema=obj(("reports", "warm", "max_hives"), reports=A, warm=B,
                                           max_hives={"type": "integer"}), output_schema=obj(("text",), text=S)),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.yaml", "yaml"), CATALOG, settings=SETTINGS)


def test_the_beekeepers_plan_binds_each_value_and_warns_each_renamed_one() -> None:
    plan = _plan(HIVES)
    weather, inspect, summary = plan.steps
    assert (weather.inputs["date"].source, weather.inputs["date"].name) == ("input", "day")
    assert not inspect.depends_on and inspect.for_each is not None
    assert inspect.inputs["hive"].source == "item"
    assert summary.inputs["warm"].pointer == "/warm_risk"  # `warm_enough` shares a word with `warm_risk` only
    assert summary.inputs["reports"].gather
    messages = " ".join(w.message for w in plan.warnings)
    assert "warm_risk" in messages and "`date`" in messages


def test_a_possessive_whose_words_name_no_field_takes_the_one_sharing_the_inputs_name_warned() -> None:
    plan = _plan(HIVES.replace("weather's warm_enough", "weather's sky_report"))
    assert plan.steps[2].inputs["warm"].pointer == "/warm_risk"
    [said] = [w for w in plan.warnings if "sky_report" in w.message]
    assert "with the input's own name `warm`" in said.message


def test_a_possessive_whose_words_share_nothing_at_all_gets_the_whole_output_warned() -> None:
    plan = _plan(HIVES.replace("weather's warm_enough", "weather's sky_report").replace("warm:", "mild:"))
    summary = plan.steps[2]
    assert "warm" not in summary.inputs or not summary.inputs["warm"].pointer
    assert [w for w in plan.warnings if "sky_report" in w.message]
