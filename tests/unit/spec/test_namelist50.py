"""Fortran namelists as specs (`spec.namelist50`): a group with no `skill` its keys the workflow inputs (an empty
value none's default), each `&name ... /` group with `skill = '...'` a step, `'grp%f'` a group's field (an input
or a step's output), `'a%f or b%f'` whichever ran, `after` / `only_if` / `only_if = 'otherwise'` its waits and
branches, `!` comments its words; where some group says `after`, one that waits for nothing said is a root."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec
from orchestrator.spec.namelist50 import is_namelist, strip_comment
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a kiln firing: inputs with and without a default, two roots, a join, an if/otherwise pair, a whichever input
_KILN = """\
! kiln firing, whole run inside 2 hours
&params
  kiln  = ''
  cone  = 6          ! the cone to fire to
  glaze = .true.
/
&probe   skill = 'read-thermocouple'  kiln = 'params%kiln'  /
&load
  skill = 'load-schedule'
  cone  = 'params%cone'
  ! retry 3 times, 10 s apart
/
&plan
  skill  = 'ramp-plan'
  after  = 'probe', 'load'
  temp_c = 'probe%temp_c'
  steps  = 'load%steps'
  glaze  = 'params%glaze'
/
&fast
  skill   = 'fast-ramp'
  only_if = "plan%mode == 'fast'"
  ramp    = 'plan%ramp'
/
&slow
  skill   = 'slow-ramp'
  only_if = 'otherwise'
  ramp    = 'plan%ramp'
/
&log
  skill  = 'log-firing'
  after  = 'fast', 'slow'
  curve  = 'fast%curve or slow%curve'
  tag    = 'kiln ''B'' - east wall'
/
"""

# a garden namelist with no .nml suffix: known by its first group and its `skill =` keys; no `after` anywhere
_GARDEN = """\
&inputs bed = 'north' /
&dig
  skill = "dig-bed"
  bed = "inputs%bed"
/
&plant
  skill = "plant-bulbs"
  holes = "dig%holes"
  depth = 12.5
/
"""

_SKILLS = [
    skill("read-thermocouple", input_schema=obj(("kiln",), kiln="string"), output_schema=obj(("temp_c",), temp_c="number")),
    skill("load-schedule", input_schema=obj(("cone",), cone="integer"), output_schema=obj(("steps",), steps="array")),
    skill("ramp-plan", input_schema=obj(("temp_c", "steps", "glaze"), temp_c="number", steps="array", glaze="boolean"),
          output_schema=obj(("mode", "ramp"), mode="string", ramp="array")),
    skill("fast-ramp", input_schema=obj(("ramp",), ramp="array"), output_schema=obj(("curve",), curve="array")),
    skill("slow-ramp", input_schema=obj(("ramp",), ramp="array"), output_schema=obj(("curve",), curve="array")),
    skill("log-firing", input_schema=obj(("curve", "tag"), curve="array", tag="string"),
          output_schema=obj(("logged",), logged="boolean")),
    skill("dig-bed", input_schema=obj(("bed",), bed="string"), output_schema=obj(("holes",), holes="integer")),
    skill("plant-bulbs", input_schema=obj(("holes", "depth"), holes="integer", depth="number"),
          output_schema=obj(("planted",), planted="integer")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(tmp_path: Path, text: str, name: str):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text)
    spec = parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_kiln_namelist_reads_inputs_roots_join_branches_and_whichever(tmp_path: Path) -> None:
    spec, plan = _plan(tmp_path, _KILN, "kiln.nml")
    inputs = {i.name: i for i in spec.inputs or ()}
    assert inputs["kiln"].default is None and inputs["cone"].default == 6 and inputs["glaze"].default is True
    probe, load, ramp, fast, slow, log = plan.steps
    assert [s.depends_on for s in plan.steps] == [(), (), ("probe", "load"), ("plan",), ("plan",), ("fast", "slow")]
    assert probe.inputs["kiln"].source == "input" and probe.inputs["kiln"].name == "kiln"
    assert load.policy.retry.max_retries == 3
    assert ramp.inputs["temp_c"].step == "probe" and ramp.inputs["glaze"].name == "glaze"
    assert fast.when == "steps['plan'].output.mode == 'fast'" and slow.when == f"not ({fast.when})"
    assert log.inputs["curve"].any_of == ("fast", "slow") and log.inputs["tag"].value == "kiln 'B' - east wall"
    assert plan.limits.wall_time_s == 7200


def test_a_namelist_without_its_suffix_and_without_after_keeps_the_step_order(tmp_path: Path) -> None:
    assert is_namelist("garden.txt", _GARDEN)
    spec, plan = _plan(tmp_path, _GARDEN, "garden.txt")
    dig, plant = plan.steps
    assert spec.inputs is not None and spec.inputs[0].default == "north"
    assert dig.inputs["bed"].name == "bed" and plant.inputs["holes"].step == "dig" and plant.inputs["depth"].value == 12.5


def test_otherwise_with_no_condition_above_is_warned(tmp_path: Path) -> None:
    text = "&a skill = 'dig-bed' bed = 'x' /\n&b skill = 'plant-bulbs' only_if = 'else' holes = 'a%holes' /\n"
    spec, _ = _plan(tmp_path, text, "g.nml")
    assert any(w.line == 2 and "other branch" in w.message for w in spec.warnings)


def test_near_misses_are_not_namelists() -> None:
    assert not is_namelist("model.txt", "&physics\n  dt = 0.5\n/\n")  # a real namelist: no group names a skill
    assert not is_namelist("notes.md", "Plan & notes\nskill = 'x'\n")  # a `&` in prose is no group
    assert strip_comment("a = 'it''s ! here' ! note") == ("a = 'it''s ! here' ", 19)


@pytest.mark.parametrize("text", ["If the feed is down, swap to backup-feed.",
                                  "when it errors swap over to cached-rates"])
def test_swap_to_a_skill_is_its_fallback(text: str) -> None:
    on_failure = read_phrase(text, ["backup-feed", "cached-rates"]).statement.on_failure
    assert on_failure is not None and on_failure.skill in ("backup-feed", "cached-rates")


def test_swapping_a_part_is_no_fallback() -> None:
    assert read_phrase("swap to a bigger bag if it rains", ["backup-feed"]).statement.on_failure is None
