"""The fourth holdout's policy lines (tests/fixtures/foreign-specs-holdout4), sentence by sentence.

Each policy line of each markdown spec's `expect.yaml` (27-31) is read, as a step section
gives it to the policy reader (`spec.phrase.read_phrase`), into what its author meant. The
specs' steps are found by the structural readers (not this test's concern; their plans are
judged in the e2e kit), so the policy reader is judged apart from where a line lands. The
compose-like YAML spec 32 is read through its YAML keys and is left to the YAML form's tests.

A whole-run limit's "or it fails" is what a wall time does anyway, so it is not asked. `MISSES`
lists the lines not read as meant yet, each with why; `SILENT` must stay empty: a line read
otherwise than meant is either the same plan or reported.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_foreign_policies import covers
from test_policy_corpus import _neutral, actual, expected

from orchestrator.spec.phrase import read_phrase

ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "foreign-specs-holdout4"
SPECS = sorted(p for p in ROOT.iterdir() if (p / "expect.yaml").is_file() and (p / "spec.md").is_file())

# (folder, line, the text's first 12 characters: a line may hold two policies) -> why it is not read as meant yet
MISSES: dict[tuple[str, int, str], str] = {
    ("27-invoice-recon-ticket", 33, 'If this blow'): "'fail the run and ping me' is the step failing as meant, but the ping is "
                                                     "warned (the run sends no message), and a warned line is not counted read",
    ("28-release-notes-slack", 19, 'and if one o'): "'file it under chore with an empty bullet': a value in words is not built into an "
                                    "object; the step goes on without one, and that is reported",
    ("28-release-notes-slack", 35, 'one more: gi'): "'(2 min)' repeats the timeout already read; the aside is reported as not understood",
    ("29-tls-rotation-confluence", 23, 'The whole pr'): "'past 60 minutes, stop and hand over': a whole-run escalation has no field; "
                                        "reported as not understood",
    ("30-sensor-calibration-notebook", 45, 'No point ret'): "no retry as meant, but 'the input is wrong' narrows the rule to invalid "
                                            "input (a class named as the reason, read as the failures it is for)",
    ("30-sensor-calibration-notebook", 83, 'the schedule'): "'the scheduler kills the kernel after 20 min, so the whole notebook has to "
                                            "be done by then': the limit is said before the run it bounds; reported",
    ("31-churn-outreach-minutes", 22, "If we can't "): "'leave that one blank' is the contract's empty draft; the step goes on without "
                                       "a value, and that is reported",
    ("31-churn-outreach-minutes", 26, "Lena: don't "): "no retry as meant; 'we want to know' leaves the default fallback, failing: the "
                                       "plan is the author's",
}
# misses whose plan differs from the author's without a warning (the reader's known silent narrowing)
UNWARNED = {k for k in MISSES if k[:2] in {("30-sensor-calibration-notebook", 45), ("31-churn-outreach-minutes", 26)}}


def _cases() -> list[tuple[Path, int | None, dict[str, Any]]]:
    out: list[tuple[Path, int | None, dict[str, Any]]] = []
    for folder in SPECS:
        e = yaml.load((folder / "expect.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
        out += [(folder, int(s["number"]), p) for s in e["steps"] for p in s.get("policies") or []]
        out += [(folder, None, p) for p in e.get("workflow_policies") or []]
    return out


CASES = _cases()


def _key(folder: Path, policy: dict[str, Any]) -> tuple[str, int, str]:
    return folder.name, int(policy["line"]), str(policy["text"])[:12]


def _sentence(text: str) -> str:
    return re.sub(r"\*\*|`(?=[a-z])|(?<=[a-z])`", "", text.strip())


def _meaning(policy: dict[str, Any], whole_run: bool) -> dict[str, Any]:
    meaning = _neutral(policy["meaning"])
    if whole_run and (meaning.get("on_failure") or {}).get("kind") == "fail":
        meaning = {k: v for k, v in meaning.items() if k != "on_failure"}
    return meaning


def _reads(policy: dict[str, Any], owner: int | None) -> tuple[bool, str]:
    meaning = _meaning(policy, whole_run=owner is None)
    got, problems, _ = actual(_sentence(str(policy["text"])))
    want = expected(meaning)
    return covers(got, want) and not problems, f"{got} problems={problems}\n want {want}"


@pytest.mark.parametrize(("folder", "owner", "policy"), CASES,
                         ids=[f"{f.name[:2]}-{o or 'wf'}-{p['line']}" for f, o, p in CASES])
def test_each_holdout4_policy_line_is_read_as_its_author_meant(folder: Path, owner: int | None,
                                                               policy: dict[str, Any]) -> None:
    ok, shown = _reads(policy, owner)
    miss = MISSES.get(_key(folder, policy))
    if miss is None:
        assert ok, f"{folder.name}:{policy['line']} {policy['text']!r}\n got  {shown}"
    else:
        assert not ok, f"{folder.name}:{policy['line']} is read as meant now: remove it from MISSES"


def test_a_holdout4_miss_says_why_and_is_a_line_of_the_specs() -> None:
    keys = {_key(f, p) for f, _, p in CASES}
    assert all(MISSES.values()) and set(MISSES) <= keys


@pytest.mark.parametrize("key", sorted(MISSES), ids=[f"{k[0][:2]}-{k[1]}" for k in sorted(MISSES)])
def test_a_holdout4_miss_is_reported_unless_listed_as_unwarned(key: tuple[str, int, str]) -> None:
    text = next(str(p["text"]) for f, _, p in CASES if _key(f, p) == key)
    assert bool(read_phrase(_sentence(text)).problems) is (key not in UNWARNED), text
