"""JCL job decks as specs (`spec.jcl50`): `// SET` symbols are the workflow's inputs (a placeholder value none's
default), each `//NAME EXEC SKILL=X` card a step running skill X in any letter case, its SYSIN `FIELD=VALUE`
cards its inputs (`&X` an input, `STEPnn.F` a step's output, `STEPnn.*` every result gathered, `EACH.F` the loop
item's field), `FOREACH=` its loop, `//*` cards its words, the JOB card's TIME= the run's limit in minutes."""

from __future__ import annotations

from pathlib import Path

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec
from orchestrator.spec.jcl50 import _placeholder, is_jcl
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a payroll deck: a real SET value (a default), a loop over a list, a gather, a literal, a step comment
_PAYROLL = """\
//PAYRUN   JOB (PY01),'PAYROLL',CLASS=B,TIME=(45,30)
//*  FORTNIGHTLY PAY RUN
//         SET PERIOD='PP-NN'
//         SET SITE='HQ1'
//LIST     EXEC SKILL=LIST-STAFF
//SYSIN    DD *
SITE=&SITE.
PERIOD=&PERIOD
/*
//PAY      EXEC SKILL=CALC-PAY,FOREACH=LIST.STAFF
//*   IF IT FAILS RETRY 3 TIMES, 20 SECONDS APART
//SYSIN    DD *
EMP=EACH.EMP_NO
RATE=EACH.RATE
/*
//BANK     EXEC SKILL=SEND-BANK-FILE
//SYSIN    DD *
LINES=PAY.*          <== EVERY PAY LINE
FORMAT=BACS
/*
//
"""

# a greenhouse deck: steps named by order, an IEFBR14 program card (not a step), output references
_GREEN = """\
//WATER    JOB 'GREENHOUSE'
//         SET HOUSE='NN'
//STEP1    EXEC SKILL=read-soil
//SYSIN    DD *
HOUSE=&HOUSE
/*
//CLEAN    EXEC PGM=IEFBR14
//STEP2    EXEC SKILL=Open-Valves
//*   TIMEOUT 90 SECONDS
//SYSIN    DD *
ZONES=STEP1.DRY_ZONES
/*
"""

_SKILLS = [
    skill("list-staff", input_schema=obj(("site", "period"), site="string", period="string"),
          output_schema=obj(("staff",), staff="array")),
    skill("calc-pay", input_schema=obj(("emp", "rate"), emp="string", rate="number"),
          output_schema=obj(("net",), net="number")),
    skill("send-bank-file", input_schema=obj(("lines", "format"), lines="array", format="string"),
          output_schema=obj(("sent",), sent="boolean")),
    skill("read-soil", input_schema=obj(("house",), house="string"), output_schema=obj(("dry_zones",), dry_zones="array")),
    skill("open-valves", input_schema=obj(("zones",), zones="array"), output_schema=obj(("opened",), opened="integer")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(tmp_path: Path, text: str, name: str):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text)
    spec = parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_payroll_deck_reads_its_symbols_steps_loop_gather_and_limit(tmp_path: Path) -> None:
    spec, plan = _plan(tmp_path, _PAYROLL, "PAYRUN.jcl")
    inputs = {i.name: i for i in spec.inputs or ()}
    assert list(inputs) == ["PERIOD", "SITE"] and inputs["SITE"].default == "HQ1" and inputs["PERIOD"].default is None
    listing, pay, bank = plan.steps
    assert [s.skill for s in plan.steps] == ["list-staff", "calc-pay", "send-bank-file"]
    assert listing.inputs["site"].source == "input" and listing.inputs["site"].name == "SITE"
    assert pay.for_each is not None and pay.inputs["emp"].source == "item" and pay.depends_on == ("step-1",)
    assert pay.policy.retry.max_retries == 3
    assert bank.inputs["lines"].step == "step-2" and bank.inputs["format"].value == "BACS"
    assert plan.limits.wall_time_s == 45 * 60 + 30


def test_a_deck_without_a_job_suffix_is_known_by_its_job_card_and_a_program_card_is_no_step(tmp_path: Path) -> None:
    assert is_jcl("water.txt", _GREEN)
    spec, plan = _plan(tmp_path, _GREEN, "water.txt")
    soil, valves = plan.steps
    assert (soil.skill, valves.skill) == ("read-soil", "open-valves")
    assert valves.inputs["zones"].step == "step-1" and valves.inputs["zones"].pointer == "/dry_zones"
    assert valves.policy.attempt_timeout_s == 90.0
    assert any("IEFBR14" in w.message or "not a step" in w.message for w in spec.warnings)


def test_near_misses_are_not_decks() -> None:
    assert not is_jcl("notes.txt", "// a C++ comment\nint main() { return 0; }\n")
    assert not is_jcl("run.txt", "//JOB1  JOB 'X'\n//S1  EXEC PGM=SORT\n")  # a deck that runs no skill
    assert _placeholder("YYYY-MM") and _placeholder("NNN") and _placeholder("")
    assert not _placeholder("HQ1") and not _placeholder("2027-05") and not _placeholder("ABC")
