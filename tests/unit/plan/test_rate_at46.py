"""A rate said with "at" in a step's words is the value of the skill's input that is a rate (`plan.rate_at46`)."""

from __future__ import annotations

from orchestrator.plan.rate_at46 import is_rate, rate_at
from tests.unit.plan.plan_factory import SaidCatalog, plan_of_text


def test_a_number_after_at_is_the_rate() -> None:
    assert rate_at("fx_rate", "convert the invoice total at 1.17 before filing") == (1.17, "at 1.17")
    assert rate_at("rate", "price the hours at a rate of 0.85, rounded") == (0.85, "at a rate of 0.85")
    assert rate_at("duty-rate", "work out duty at 2 on each case") == (2, "at 2")


def test_no_rate_from_a_time_a_unit_a_bound_or_two_numbers() -> None:
    assert rate_at("fx_rate", "convert at 5 pm") is None
    assert rate_at("fx_rate", "convert at 09:00") is None
    assert rate_at("fx_rate", "convert at 20%") is None
    assert rate_at("fx_rate", "retry at most 3 times") is None
    assert rate_at("fx_rate", "convert at 1.1 or at 1.2") is None
    assert rate_at("threshold", "flag it at 0.2") is None  # no rate
    assert not is_rate("rates_table") and is_rate("vat_rate")


def test_a_step_gives_its_skill_the_rate_it_says() -> None:
    bodies = {"net-up": "Net figure.\n\nInputs: region (text).\nOutputs: net (number).\n",
              "tax-due": "Tax due.\n\nInputs: net (number), tax_rate (number, e.g. 0.2).\nOutputs: due (number).\n"}
    text = ("# Tax\n\n## Inputs\n- region: the region\n\n## Step 1: Net\nRun `net-up`.\n\n"
            "## Step 2: Tax\nRun `tax-due` on the net at 0.175.\n")
    plan = plan_of_text(text, SaidCatalog(bodies))
    rate = plan.steps[1].inputs["tax_rate"]
    assert (rate.source, rate.value) == ("literal", 0.175)
