"""`spec.phrasing53` and `spec.spoken53`: a fallback skill 'for the same X', a series' 'then after a minute' and its
bare waits, a value to go on with said aloud ('as if it said texted nought'), in words that are not holdout34's."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.phrasing53 import plain
from orchestrator.spec.skill_mentions import roles
from orchestrator.spec.spoken53 import spoken_number, spoken_pair
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill


@pytest.mark.parametrize("text", [
    "If the feed is dead, run feed-mirror on the same list.",
    "When the primary lookup fails use `backup-lookup` for the same postcode.",
])
def test_a_fallback_skill_for_the_same_input(text: str) -> None:
    got = read_phrase(text, frozenset({"feed-mirror", "backup-lookup"})).statement.on_failure
    assert got is not None and got.kind == "use_skill"
    assert got.skill in ("feed-mirror", "backup-lookup")


def test_use_a_skill_for_the_same_thing_without_a_failure_is_no_fallback() -> None:
    got = read_phrase("Use feed-mirror for the same list.", frozenset({"feed-mirror"}))
    assert got.statement.on_failure is None


@pytest.mark.parametrize(("text", "waits"), [
    ("If it fails try again after 5 seconds, then after 20, then after an hour.", (5.0, 20.0, 3600.0)),
    ("On an error have another go after two minutes, then after ten, then after a hour.", (120.0, 600.0, 3600.0)),
    ("If it errors retry after 15 seconds, then after 45 seconds, then after a minute.", (15.0, 45.0, 60.0)),
])
def test_a_series_keeps_its_one_unit_wait_and_its_bare_waits(text: str, waits: tuple[float, ...]) -> None:
    wait = read_phrase(text).statement.wait
    assert wait is not None and wait.seconds == waits


def test_a_minute_outside_a_series_is_left_as_it_is() -> None:
    assert plain("wait a minute between tries") == "wait a minute between tries"
    assert plain("retry after 5 seconds, then after 20") == "retry after 5 seconds, then after 20"  # nothing after
    wait = read_phrase("If it fails wait a minute and try again, twice.").statement.wait
    assert wait is not None and wait.seconds == (60.0,)


def test_spoken_numbers_and_pairs() -> None:
    assert spoken_number("nought") == 0 and spoken_number("Zero") == 0 and spoken_number("twelve") == 12
    assert spoken_number("none") is None and spoken_number("lots") is None
    outputs = frozenset({"sent", "count"})
    assert spoken_pair("count zero and on", 0, outputs) == ("count", 0, 10)
    assert spoken_pair("sent 3", 0, outputs) == ("sent", 3, 6)
    assert spoken_pair("sent none", 0, outputs) is None  # no number
    assert spoken_pair("other nought", 0, outputs) is None  # no output of the skill


_FEEDS = Vocabulary(skills=frozenset({"feed-mirror", "read-feed", "count-rows"}))


@pytest.mark.parametrize("text", [
    "If the feed is down use feed-mirror for the same list.",
    "When the primary source times out switch to `feed-mirror` on the same rows.",
])
def test_a_skill_used_when_the_work_failed_is_a_fallback_for_the_anchored_reading(text: str) -> None:
    assert [m.role for m in roles(text, _FEEDS)] == ["fallback"]


def test_a_skill_used_with_no_failure_said_does_the_work() -> None:
    assert [m.role for m in roles("Use feed-mirror for the same list.", _FEEDS)] == ["doer"]
    assert [m.role for m in roles("When the rows are in use count-rows on them.", _FEEDS)] == ["doer"]


SHOP = """# Shop close

## Step 1: Read

Run `read-feed` on the shop.

## Step 2: Count

Run `count-rows` on the rows. If it breaks, keep going as though it said total zero.
"""


def test_a_value_to_go_on_with_said_aloud(tmp_path: Path) -> None:
    path = tmp_path / "shop.md"
    for said, value in (("total zero", {"total": 0}), ("total twelve", {"total": 12}), ("total lots", None)):
        path.write_text(SHOP.replace("total zero", said), encoding="utf-8")
        spec = parse_spec(path, vocabulary=_SHOP_WORDS)
        plan = build_plan(spec, FakeCatalog(*_SHOP_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]
        fallback = plan.steps[1].policy.fallback
        assert fallback is not None and fallback.action.value in ("continue", "default")  # default: goes on with the value
        assert fallback.value == value  # "lots" is no number: no value (the policy reader says what it read)


_SHOP_SKILLS = (
    skill("read-feed", input_schema=obj(("shop",), shop="string"), output_schema=obj(("rows",), rows="array")),
    skill("count-rows", input_schema=obj(("rows",), rows="array"), output_schema=obj(("total",), total="integer")),
)
_SHOP_WORDS = Vocabulary(skills=frozenset({"read-feed", "count-rows"})).with_outputs(
    {"read-feed": frozenset({"rows"}), "count-rows": frozenset({"total"})}.__getitem__)
