"""holdout32 199 (a Gradle Kotlin build script, `build.gradle.kts`) through the real `skillweave`: its tasks read
as recipes (`spec.gradle49`). Blind at 843d74df: steps 3 and 4 ran at once with the others (l.14's "side by side"
read as covering every step, `dependsOn(...)` not read), three skill fields made required workflow inputs, literals
3 read from comments, and with those inputs supplied a run said `succeeded` with another output.

Each step aspect, each policy / whole-run / success line, and both runs of expect.yaml; what is still not as meant
would go in KNOWN (aspect or line -> why) as a strict xfail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from foreign_kit import RunReports, assert_ends_as_meant, plan_json, run_wanted
from holdout_kit import Holdout, meant_inputs

H = Holdout("foreign-specs-holdout32", {}, {}, meant_inputs, set())
FOLDER = "199-escape-room-gradle"
KNOWN: dict[tuple[Any, ...], str] = {}


@pytest.fixture(scope="module")
def plan() -> dict[str, Any]:
    return plan_json(H.spec_of(FOLDER))


def _known(key: tuple[Any, ...]) -> list[Any]:
    return [pytest.mark.xfail(strict=True, reason=KNOWN[key])] if key in KNOWN else []


@pytest.mark.parametrize(("number", "aspect"), [pytest.param(n, a, marks=_known((n, a)))
                                                for n, a in H.aspects(FOLDER)])
def test_199_step_is_planned_as_meant(plan: dict[str, Any], number: int, aspect: str) -> None:
    assert H.misread(plan, FOLDER, number, aspect) is None


@pytest.mark.parametrize(("kind", "line", "number", "nth"), [pytest.param(*i, marks=_known(i[:2]))
                                                             for i in H.line_items(FOLDER)])
def test_199_policy_limit_and_success_lines_read_as_meant(plan: dict[str, Any], kind: str, line: int, number: int,
                                                          nth: int) -> None:
    assert H.read_as_meant(plan, FOLDER, kind, line, number, nth)


def test_199_inputs_are_the_two_project_properties_and_nothing_is_warned_untrue(plan: dict[str, Any]) -> None:
    assert [i["name"] for i in plan["inputs"]] == ["venue", "day"]
    assert [w["line"] for w in plan["warnings"]] == [45]  # the success check, said to be read


@pytest.mark.parametrize("n", range(1 + len(H.expect(FOLDER).get("more_runs") or [])))
def test_199_run_ends_with_its_authors_output(tmp_path: Path, n: int) -> None:
    report = RunReports(tmp_path, H.spec_of, H.expect)(FOLDER, n)
    assert_ends_as_meant(report, run_wanted(H.expect(FOLDER), n), None)
