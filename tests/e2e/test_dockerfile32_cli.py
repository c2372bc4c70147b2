"""A print shop's Containerfile run through the real `skillweave run` (`spec.dockerfile32`): its ARG is the input,
its ENV a constant fed as a literal, a RUN per skill with `--each=@1.jobs` / `@item` and an `@all(2)` gather, and a
HEALTHCHECK that is the run's success check: a small day succeeds with the sheet's text, a day whose sheet is over
the press's limit fails on the check instead of a false `succeeded`."""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import prose_skills, run_report

pytestmark = pytest.mark.e2e

CONTAINERFILE = """\
# press-day -- one press sheet per day
FROM press-runner:1
ARG ORDERS
ENV OPERATOR="Ines @ Press"

# 1) split the day's orders into print jobs
RUN job-split orders=$ORDERS

# 2) each job priced on its own; the pricing box drops out now and then
RUN --each=@1.jobs --retries=2 --backoff=0s price-job job=@item

RUN --no-retry press-sheet priced=@all(2) operator=$OPERATOR

HEALTHCHECK CMD test "$(press-sheet.fits)" = "true"
"""

_SKILLS = {
    "job-split": ("`orders` (list of text)", "`jobs` (list of text)", 'print(json.dumps({"jobs": d["orders"]}))'),
    "price-job": ("`job` (text)", "`sheets` (int)", 'print(json.dumps({"sheets": 40}))'),
    "press-sheet": ("`priced` (list), `operator` (text)", "`text` (text), `fits` (true or false)",
                    'n = sum(x["sheets"] for x in d["priced"]); '
                    'print(json.dumps({"text": f"{n} sheets by {d[\'operator\']}", "fits": n <= 100}))'),
}


def test_a_containerfile_runs_to_its_output_and_its_healthcheck_is_checked(tmp_path: Path) -> None:
    prose_skills(tmp_path, _SKILLS, "print shop")
    spec = tmp_path / "Containerfile"
    spec.write_text(CONTAINERFILE, encoding="utf-8")
    state = str(tmp_path / "state")
    code, result = run_report(spec, state, "--input", 'ORDERS=["flyers", "cards"]')
    assert code == 0 and result["status"] == "succeeded", result
    assert result["outputs"]["step-3"] == {"text": "80 sheets by Ines @ Press", "fits": True}
    code, result = run_report(spec, state, "--input", 'ORDERS=["a", "b", "c"]')
    assert code != 0 and result["status"] == "failed", result  # 120 sheets: over the press's limit
    assert "/fits" in result["error"]["message"]
