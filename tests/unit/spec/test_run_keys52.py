"""Round 52: a config module's run check and whole-run limit under any key spelling (`doneWhen`, `success_if`,
`maxRunTime`, `timeLimit`: `spec.code_calls`), a top-level check key or block of the block readers (`done_when`,
`check {}`: `spec.hcl30`) the run's success check judged after the run (`spec.yaml_top.run_success`), not its
step's own output contract; with near-misses (a one-word constant, a step's own postcondition)."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = [
    skill("weigh-parcel", input_schema=obj(("parcel",), parcel="string"), output_schema=obj(("kg",), kg="number")),
    skill("print-label", input_schema=obj(("kg",), kg="number"),
          output_schema=obj(("printed", "copies"), printed="boolean", copies="integer")),
]
_NAMES = frozenset(s.name for s in _SKILLS)

_JS = """\
// parcel desk
module.exports = {
  inputs: { parcel: '' },
  %s: '%s',
  %s: 'label.printed === true',
  steps: [
    { id: 'weigh', skill: 'weigh-parcel', with: { parcel: 'inputs.parcel' } },
    { id: 'label', skill: 'print-label', with: { kg: 'weigh.kg' } },
  ],
};
"""

_PY = """\
# parcel desk
PARCEL = None
%s = "%s"
%s = "label.printed == True"
STEPS = [
    {"id": "weigh", "skill": "weigh-parcel", "with": {"parcel": PARCEL}},
    {"id": "label", "skill": "print-label", "with": {"kg": "weigh.kg"}},
]
"""


def _plan(tmp_path: Path, text: str, name: str):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text)
    return build_plan(parse_spec(path, vocabulary=Vocabulary(skills=_NAMES)), FakeCatalog(*_SKILLS),
                      settings=SETTINGS)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "name", "limit", "check"), [
    (_JS, "desk.config.js", "timeLimit", "success_if"),
    (_JS, "desk.config.js", "max_run_time", "doneWhen"),
    (_PY, "desk.py", "MAX_RUN_TIME", "DONE_WHEN"),
])
def test_a_modules_run_check_and_limit_under_another_key_spelling(tmp_path: Path, text: str, name: str, limit: str,
                                                                 check: str) -> None:
    plan = _plan(tmp_path, text % (limit, "15m", check), name)
    assert plan.limits.wall_time_s == 900.0
    assert [(c.step, c.schema_["properties"]["printed"]) for c in plan.run_checks] == [("label", {"const": True})]
    label = plan.steps[-1]
    assert "const" not in (label.output_schema or {}).get("properties", {}).get("printed", {})  # not label's own
    assert not any("used by no step" in w.message for w in plan.warnings)


def test_a_one_word_constant_stays_a_constant(tmp_path: Path) -> None:
    """`DEADLINE = "15m"` and `LIMIT`: one word, a constant a step may use, warned when none does."""
    plan = _plan(tmp_path, _PY % ("DEADLINE", "15m", "CHECKED", ), "desk.py")
    assert plan.limits.wall_time_s != 900.0 and not plan.run_checks
    assert {w.line for w in plan.warnings if "used by no step" in w.message} == {3, 4}


_CONF = """\
desk parcels {
    input  parcel;
    done_when  $label.printed = true;

    job weigh { uses weigh-parcel; with parcel $parcel; }
    job label { uses print-label; with kg $weigh.kg; }
}
"""

_TF = """\
variable "parcel" {}

job "weigh" {
  skill  = "weigh-parcel"
  parcel = var.parcel
}

job "label" {
  skill = "print-label"
  kg    = job.weigh.kg
  lifecycle {
    postcondition {
      condition = self.copies > 0
    }
  }
}

check "out" {
  assert {
    condition = job.label.printed == true
  }
}
"""


def test_a_block_files_top_level_check_is_the_runs(tmp_path: Path) -> None:
    for text, name, line in ((_CONF, "desk.conf", 3), (_TF, "desk.tf", 20)):
        plan = _plan(tmp_path, text, name)
        assert [(c.step, c.schema_["properties"]["printed"]) for c in plan.run_checks] == [("label",
                                                                                            {"const": True})], name
        assert plan.run_checks[0].where.endswith(f":{line}"), plan.run_checks[0].where
        assert "const" not in (plan.steps[-1].output_schema or {}).get("properties", {}).get("printed", {})


def test_a_steps_own_postcondition_stays_its_own_check(tmp_path: Path) -> None:
    """Near-miss: the postcondition inside the step is that step's own contract, not the run's."""
    plan = _plan(tmp_path, _TF, "desk.tf")
    assert plan.steps[-1].output_schema["properties"]["copies"].get("exclusiveMinimum") == 0
    assert all("copies" not in c.schema_.get("properties", {}) for c in plan.run_checks)
