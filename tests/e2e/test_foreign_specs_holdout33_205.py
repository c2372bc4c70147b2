"""holdout33 205 (an SMS thread copied off a phone: "Gaz 07:22  1st job-intake with the postcode n door type")
through the real `skillweave`: its texts read as a chat's turns (`spec.sms50`). Blind at 5b05160b: the whole thread
one paragraph, the clock times at the texts' heads read as values (postcode 22, mobile 36), l.20's done check
"(sent = true)" read as step 4's fallback value (SILENT: a failed text would have gone on as sent), l.19's 5 min lost.

Each step aspect, each policy / whole-run / success line, and the three runs of expect.yaml; what is still not as
meant is in KNOWN (aspect or line -> why) as a strict xfail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from foreign_kit import RunReports, assert_ends_as_meant, plan_json, run_wanted
from holdout_kit import Holdout, meant_inputs

FOLDER = "205-locksmith-lockout-texts"
# l.14: Gaz is texted only when the quote is over £150, given 10 minutes, and silence is no booking
APPROVAL = {(FOLDER, 3): {"required": True, "timeout_s": 600.0, "on_timeout": "reject",
                          "when": ("steps['#2'].output.price > 150",)}}
H = Holdout("foreign-specs-holdout33", {}, APPROVAL, meant_inputs, set())
_NAMES = ("l.7's list is read (postcode, 'door type', 'their mobile'), each part matched to the name a skill reads "
          "(`plan.prose_inputs`): 'door type' is the skill's `door`, not the author's `door_type`, and 'what time they "
          "rang' matches no name (warned at l.7), so `called_at` is given nothing (warned at l.10)")
_REFUSED = ("refused honestly at start (exit 2): the run's `door_type` and `call_time` are unknown inputs, as " + _NAMES[:60]
            + "...: the plan takes door, mobile, postcode")
KNOWN: dict[tuple[Any, ...], str] = {
    (1, "input door"): _NAMES, (2, "input called_at"): _NAMES,
    ("run", 0): _REFUSED, ("run", 1): _REFUSED, ("run", 2): _REFUSED,
}


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(H.spec_of(FOLDER))


def _known(key: tuple[Any, ...]) -> list[Any]:
    return [pytest.mark.xfail(strict=True, reason=KNOWN[key])] if key in KNOWN else []


@pytest.mark.parametrize(("number", "aspect"), [pytest.param(n, a, marks=_known((n, a)))
                                                for n, a in H.aspects(FOLDER)])
def test_205_step_is_planned_as_meant(plan: dict[str, Any], number: int, aspect: str) -> None:
    assert H.misread(plan, FOLDER, number, aspect) is None


@pytest.mark.parametrize(("kind", "line", "number", "nth"), [pytest.param(*i, marks=_known(i[:2]))
                                                             for i in H.line_items(FOLDER)])
def test_205_policy_limit_and_success_lines_read_as_meant(plan: dict[str, Any], kind: str, line: int, number: int,
                                                          nth: int) -> None:
    assert H.read_as_meant(plan, FOLDER, kind, line, number, nth)


def test_205_no_clock_time_is_a_value_and_the_done_check_is_no_fallback(plan: dict[str, Any]) -> None:
    literals = [b for s in plan["steps"] for b in s["inputs"].values() if b.get("kind") == "literal"]
    assert all(b.get("value") not in (22, 36, "22", "36") for b in literals)
    assert plan["steps"][3]["policy"]["fallback"]["action"] != "use"


@pytest.mark.parametrize("n", [pytest.param(n, marks=_known(("run", n)))
                               for n in range(1 + len(H.expect(FOLDER).get("more_runs") or []))])
def test_205_run_ends_with_its_authors_output(tmp_path: Path, n: int) -> None:
    report = RunReports(tmp_path, H.spec_of, H.expect)(FOLDER, n)
    assert_ends_as_meant(report, run_wanted(H.expect(FOLDER), n), None)
