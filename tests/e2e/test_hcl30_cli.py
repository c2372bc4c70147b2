"""A bakery's HCL batch file run through the real `skillweave run` (`spec.hcl30`): its `variable` block is the
input, a `job` per skill with `for_each` / `each.value` and a `[*]` gather, a literal `baker = "..."`, and a
`check` block whose `condition` is the run's success check: a good day succeeds with the label's text, a day
whose labels do not all print fails on the check instead of a false `succeeded`."""

from __future__ import annotations

from pathlib import Path

import pytest
from foreign_kit import prose_skills, run_report

pytestmark = pytest.mark.e2e

BATCH = """\
# bake-day.hcl -- one oven load per loaf kind
variable "kinds" {
  description = "the loaf kinds on today's sheet"
}

job "plan" {
  skill = "oven-plan"
  kinds = var.kinds
}

job "bake" {
  skill    = "oven-load"
  for_each = job.plan.loads
  load     = each.value
  # the oven controller drops out: 2 more goes, 0s apart
}

job "label" {
  skill  = "shelf-label"
  loaves = job.bake[*]
  baker  = "Ana @ Crumb"
}

check "done" {
  condition = job.label.printed == true
}
"""

_SKILLS = {
    "oven-plan": ("`kinds` (list of text)", "`loads` (list of text)", 'print(json.dumps({"loads": d["kinds"]}))'),
    "oven-load": ("`load` (text)", "`loaves` (int)", 'print(json.dumps({"loaves": 12}))'),
    "shelf-label": ("`loaves` (list), `baker` (text)", "`text` (text), `printed` (true or false)",
                    'n = sum(x["loaves"] for x in d["loaves"]); '
                    'print(json.dumps({"text": f"{n} loaves by {d[\'baker\']}", "printed": n < 30}))'),
}


def test_an_hcl_batch_file_runs_to_its_output_and_its_check_block_is_checked(tmp_path: Path) -> None:
    prose_skills(tmp_path, _SKILLS, "bakery")
    spec = tmp_path / "bake-day.hcl"
    spec.write_text(BATCH, encoding="utf-8")
    state = str(tmp_path / "state")
    code, result = run_report(spec, state, "--input", 'kinds=["rye", "spelt"]')
    assert code == 0 and result["status"] == "succeeded", result
    assert result["outputs"]["label"] == {"text": "24 loaves by Ana @ Crumb", "printed": True}
    code, result = run_report(spec, state, "--input", 'kinds=["rye", "spelt", "seeded"]')
    assert code != 0 and result["status"] == "failed", result  # 36 loaves: the label did not print
    assert "/printed" in result["error"]["message"]
