"""The ninth holdout's fan-outs and gathers, through the real `skillweave`: 58 "do this for every PR
in `prs`" / "everything `classify` produced, all PRs together", 60 `\\ForAll{$r \\in R$}` /
`\\{d_r\\}_{r \\in R}`, 62 "for EACH of those top 3" / "takes ALL the blurbs". Each is asserted as the
author meant it (expect.yaml); 60's loop and gather are read since round 37 (58's are in the holdout book).
"""

from __future__ import annotations

import pytest
from foreign_kit import FIXTURES, plan_json

pytestmark = pytest.mark.e2e

HOLDOUT = FIXTURES / "foreign-specs-holdout9"

def test_the_algorithms_forall_fans_out_over_runs_and_the_next_step_gathers_the_deltas() -> None:
    """60 l.12 `\\ForAll{$r \\in R$}` with `\\Require runs $R$`, l.16 `\\{d_r\\}` (round 37, `spec.markup37`)."""
    steps = {s["id"]: s for s in plan_json(HOLDOUT / "60-bench-triage-algorithm" / "spec.md")["steps"]}
    compare = steps["step-1"]
    assert compare["skill"] == "compare-timing"
    assert (compare["for_each"]["source"]["source"], compare["for_each"]["source"]["name"]) == ("input", "runs")
    assert {n: (b["source"], b["pointer"]) for n, b in compare["inputs"].items()} == {
        "bench": ("item", "/bench"), "baseline_ms": ("item", "/baseline_ms"), "current_ms": ("item", "/current_ms")}
    deltas = steps["step-2"]["inputs"]["deltas"]
    assert (deltas["step"], deltas["gather"]) == ("step-1", True)


def test_the_threads_blurbs_are_written_for_each_top_post_and_all_of_them_are_assembled() -> None:
    steps = {s["id"]: s for s in plan_json(HOLDOUT / "62-newsletter-tweet-thread" / "spec.md")["steps"]}
    blurb = steps["step-2"]
    assert blurb["skill"] == "write-blurb" and blurb["depends_on"] == ["step-1"]
    assert (blurb["for_each"]["source"]["step"], blurb["for_each"]["source"]["pointer"]) == ("step-1", "/top")
    assert {n: (b["source"], b["pointer"]) for n, b in blurb["inputs"].items()} == {"title": ("item", "/title"),
                                                                                  "url": ("item", "/url")}
    blurbs = steps["step-3"]["inputs"]["blurbs"]
    assert (blurbs["step"], blurbs["gather"]) == ("step-2", True)
