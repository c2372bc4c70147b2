"""A dotenv file whose keys name skills as steps, read field by field (`spec.dotenv42`)."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import Vocabulary, parse_spec_text

_SHOP = """# nightly packing
ORDER_DAY=
MAX_SMALL=20
JOB1=fetch-orders   # ORDER_DAY -> rows, count
JOB1_TIMEOUT=45s
JOB2=big-pack       # only if count is over MAX_SMALL. rows
JOB3=small-pack     # else. rows
JOB3_RETRIES=3
"""

_CLINIC = """# clinic recall
PATIENT_ID=             # who
CUTOFF=30
STAGE_1=lookup-visits   # PATIENT_ID -> last_gap
STAGE_1_RETRY=3x_wait10s
STAGE_2=send-recall     # ONLY when last_gap is over CUTOFF
STAGE_2_SIGNOFF="if last_gap > 90 the nurse OKs it first. give her 2h. no answer = reject"
STAGE_3=note-chart      # last_gap from lookup-visits
TOTAL_TIMEOUT=5m
"""


def _read(text: str, skills: tuple[str, ...], name: str = "x.env"):
    return parse_spec_text(text, name, "dotenv", Vocabulary.of((s, None) for s in skills), anchored=False,
                           said="read as markdown text")


def test_a_packing_env_reads_its_job_keys_as_steps_with_a_condition_and_its_otherwise() -> None:
    spec = _read(_SHOP, ("fetch-orders", "big-pack", "small-pack"))
    assert [s.skill for s in spec.steps] == ["fetch-orders", "big-pack", "small-pack"]
    assert [s.id for s in spec.steps] == ["step-1", "step-2", "step-3"]
    assert [i.name for i in spec.inputs] == ["ORDER_DAY"]  # the variable's own name, as written
    assert spec.steps[1].depends_on == ("step-1",)
    assert "20" in (spec.steps[1].when or "") and "count" in (spec.steps[1].when or "")
    assert spec.steps[2].depends_on == ("step-1",)


def test_a_clinic_env_reads_settings_keys_a_signoff_and_the_whole_run_limit() -> None:
    spec = _read(_CLINIC, ("lookup-visits", "send-recall", "note-chart"))
    assert [s.skill for s in spec.steps] == ["lookup-visits", "send-recall", "note-chart"]
    assert "30" in (spec.steps[1].when or "")
    assert spec.steps[2].depends_on == ("step-1",)  # "from lookup-visits": the step that runs it


def test_a_dotenv_that_runs_no_skill_is_read_as_before() -> None:
    text = "DB_HOST=localhost\nDB_PORT=5432\nDEBUG=true\n"
    with pytest.raises(SpecError):
        _read(text, ("fetch-orders",))


def test_a_value_only_shaped_like_a_skill_is_no_step_when_the_catalog_knows_skills() -> None:
    text = "MODE=fast-path   # not a skill\nSTEP1=fetch-orders   # ORDER_DAY -> rows\nORDER_DAY=\n"
    spec = _read(text, ("fetch-orders",))
    assert [s.skill for s in spec.steps] == ["fetch-orders"]
    assert any("fast-path" in w.message or "MODE" in w.message for w in spec.warnings)
