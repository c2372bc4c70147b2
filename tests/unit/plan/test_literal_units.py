"""`plan.literal_units`: values written with units, keyed, or as the document's constants.

Documents of our own: a deploy Makefile-like .env, a bakery recipe, a lab protocol, a consultancy
quote, an irrigation job sheet; none is a fixture's.
"""

from __future__ import annotations

from orchestrator.plan.literal_said import literal_said
from orchestrator.plan.literal_units import (
    bind_unit_literals,
    constant_said,
    keyed_mapping,
    keyed_number,
    rate_said,
)
from orchestrator.spec.model import StepSpec

_ENV = """# deploy settings
export REPLICAS=3
TIMEOUT_S := 45   # seconds, the LB gives up after that
SLACK_ROOM = \\#deploys
BUILD_DIR ?= out
GIT_SHA := $(shell git rev-parse HEAD)
"""


def test_constant_in_capitals() -> None:
    assert constant_said("replicas", _ENV)[0] == 3
    assert constant_said("timeout_s", _ENV)[0] == 45
    assert constant_said("slack_room", _ENV)[0] == "#deploys"


def test_negative_constant_default_or_made_by_the_shell() -> None:
    assert constant_said("build_dir", _ENV) is None  # `?=`: a default the run may replace
    assert constant_said("git_sha", _ENV) is None
    assert constant_said("replicas", "REPLICAS := 3\nREPLICAS := 5\n") is None  # two values: none
    assert constant_said("replicas", "replicas: 3 in prod") is None  # not a constant in capitals


def test_a_time_of_day_is_not_a_keyed_number_and_a_leading_zero_is_one() -> None:
    # a bakery sheet's 'start = 03:30' crashed the reader (json refuses '03'): a clock time is no number,
    # and digits written with a leading zero are a code, kept as written
    assert keyed_number("start", "batches from DOUGH SHEET; start = 03:30") is None
    assert keyed_number("gate", "boarding: gate = 07, desk = 2")[0] == "07"
    assert keyed_mapping("margins", "margins ug = 07 and pg = 0.3") == ({"ug": "07", "pg": 0.3}, "ug = 07 and pg = 0.3")
    assert keyed_number("offset", "the shift log says offset: 0.50 (approx)")[0] == 0.5


def test_keyed_number_in_a_lab_protocol_and_latex() -> None:
    assert keyed_number("threshold", "keep wells above 80% (threshold = 0.8, agreed)")[0] == 0.8
    assert keyed_number("threshold", r"reads above 80\% (threshold $=0.8$, fixed)")[0] == 0.8
    assert keyed_number("spin_speed", "spin it (spin speed = 4000)")[0] == 4000


def test_negative_keyed_number_in_a_condition() -> None:
    assert keyed_number("threshold", "if threshold = 0.8 then stop") is None
    assert keyed_number("threshold", "the threshold is set by QA") is None


def test_keyed_mapping_of_labelled_numbers() -> None:
    """A bakery's blend: "flour blend rye = 0.3, wheat = 0.7" for `blend`."""
    assert keyed_mapping("blend", "mix with the flour blend rye = 0.3, wheat = 0.7 as usual")[0] == {"rye": 0.3,
                                                                                                   "wheat": 0.7}
    assert keyed_mapping("margins", r"rake to the margins north $=0.6$, south $=0.4$")[0] == {"north": 0.6,
                                                                                             "south": 0.4}


def test_negative_keyed_mapping_far_from_the_name_or_single() -> None:
    assert keyed_mapping("blend", "mix the flour, then later the salt a = 1, b = 2 goes in") is None
    assert keyed_mapping("blend", "the blend rye = 0.3 only") is None


def test_rate_with_currency_per_unit() -> None:
    """A consultancy quote: "at our day rate of €950/day"; a courier: "£1.20 per mile"."""
    assert rate_said("day_rate", "billed at our day rate of €950/day, net 30")[0] == "€950/day"
    assert rate_said("mileage_rate", "mileage rate is £1.20 per mile")[0] == "£1.20 per mile"


def test_negative_rate_not_beside_the_name() -> None:
    assert rate_said("rate", "the invoice total was $385 for the hour we spent, then the rate changed") is None
    assert rate_said("rate", "costs $385/hr but that is not ours") is None


def test_number_with_another_names_units_is_not_this_names() -> None:
    """An irrigation job sheet: "with the crop and 25 mm/day water" is `water_mm_day`'s, not `crop`'s."""
    text = "drip-plan, with the crop and 25 mm/day water"
    assert literal_said("crop", text, ["water_mm_day"]) is None
    assert literal_said("water_mm_day", text, ["crop"])[0] == 25


def test_number_keyed_by_a_label_of_its_own_is_not_this_names() -> None:
    assert literal_said("samples", "blend the samples to the ratio ab 0.7", ["ratio"]) is None


def test_negative_plain_limit_still_read() -> None:
    assert literal_said("limit_mm", "Enter PINS in brake-pin-assess, limit 1.0 mm.", ["pins"])[0] == 1.0


def test_bind_unit_literals_warns_with_the_plain_way() -> None:
    step = StepSpec(id="step-2", number=2, name="Quote", where="quote.md:12",
                    description="`draft-quote` at the standard day rate of $900/day")
    bindings: dict = {}
    found = bind_unit_literals(step, ["day_rate"], {}, step.description, "", bindings, {}, "quote.md")
    assert bindings["day_rate"].value == "$900/day"
    assert 'day_rate: "$900/day"' in found[0].message
