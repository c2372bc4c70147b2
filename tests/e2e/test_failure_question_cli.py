"""A failure asked as a short question and answered in the next sentence, through `skillweave plan
--format json`: the answer is the step's fallback (`spec.failure_question43`), so the skill it names is
not refused as one no step runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from foreign_kit import output_schema_skill

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))


def _plan(tmp_path: Path, body: str) -> subprocess.CompletedProcess[str]:
    output_schema_skill(tmp_path, "tide-table-scraper", {"tides": "array"})
    output_schema_skill(tmp_path, "tide-table-printed", {"tides": "array"})
    spec = tmp_path / "tides.md"
    spec.write_text(f"# Harbour tides\n\n## Steps\n\n1. **Get tides** with `tide-table-scraper`.\n   {body}\n",
                    encoding="utf-8")
    return subprocess.run([SKILLWEAVE, "plan", str(spec), "--format", "json"], capture_output=True, text=True,
                          timeout=60, check=False)


def test_the_answer_to_a_failure_question_is_the_step_s_fallback(tmp_path: Path) -> None:
    done = _plan(tmp_path, "Tide scraper broken? Do that step with `tide-table-printed`.")
    assert done.returncode == 0, done.stderr
    step = json.loads(done.stdout)["steps"][0]
    assert step["skill"] == "tide-table-scraper"
    assert step["policy"]["fallback"]["action"] == "skill"
    assert step["policy"]["fallback"]["skill"] == "tide-table-printed"
    assert step["provenance"]["policy.fallback"]["where"].endswith("tides.md:6")


def test_without_the_question_the_skill_is_still_refused(tmp_path: Path) -> None:
    done = _plan(tmp_path, "Do that step with `tide-table-printed`.")
    assert done.returncode == 2
    assert "`tide-table-printed` is named here but no step runs it" in done.stderr
