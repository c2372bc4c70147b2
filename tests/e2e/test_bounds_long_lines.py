"""A spec line of about 1 MB through the real `skillweave validate` (issue 25.3): the step,
input and policy readers each finish and answer exit 2 or 0, under a CPU limit that a
quadratic or exponential regex on such a line would exceed by hours. Each case is one that
did before: a `- Retries:` series (`1 s, 1 s, ...`: 2^n ways to read each duration), an
input bullet of spaces before `(`, a step bullet label padded with spaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bounded import SKILLWEAVE, run_bounded

_HEAD = "# F\n\n## Inputs\n- a (string): a\n\n## Workflow Steps\n\n### Step 1: One\n- Skill: `fetch-docs`\n"
_SIZE = 990_000
CASES = {
    "retries-series": _HEAD + "- Output: x\n- Retries: " + "1 s, " * (_SIZE // 5) + "\n",
    "input-padded": "# F\n\n## Inputs\n- a" + " " * _SIZE + "(\n\n## Workflow Steps\n\n### Step 1: One\n"
                    "- Skill: `fetch-docs`\n",
    "label-padded": _HEAD + "- Output" + " " * _SIZE + "x\n",
    "prose-durations": _HEAD + "- Output: x\n\nIf it fails, retry after " + "1 s " * (_SIZE // 4) + "!\n",
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_one_megabyte_spec_line_is_read_within_a_cpu_limit(tmp_path: Path, case: str) -> None:
    spec = tmp_path / "spec.md"
    spec.write_text(CASES[case], encoding="utf-8")
    assert spec.stat().st_size < 1 << 20  # under the spec cap: the readers do see the line
    outcome = run_bounded([SKILLWEAVE, "validate", str(spec)], cwd=tmp_path, cpu_s=30, wall_s=90.0)
    assert outcome.returncode in (0, 2), outcome
    assert "Traceback" not in outcome.stderr and "internal error" not in outcome.stderr, outcome


@pytest.mark.parametrize("field", ["Retries", "Timeout"])
def test_a_count_or_duration_of_4301_digits_is_not_read_and_not_an_internal_error(tmp_path: Path, field: str) -> None:
    spec = tmp_path / "spec.md"
    spec.write_text(_HEAD + f"- Output: x\n- {field}: {'9' * 4301}{' s' if field == 'Timeout' else ''}\n",
                    encoding="utf-8")
    outcome = run_bounded([SKILLWEAVE, "validate", str(spec)], cwd=tmp_path, cpu_s=30, wall_s=90.0)
    assert outcome.returncode == 2, outcome  # the spec's skill input is missing; the field itself only warns
    assert "internal error" not in outcome.stderr and "inf" not in outcome.stderr.split(), outcome
    assert f"{field.lower()} '999" in outcome.stderr.lower() or "not a duration" in outcome.stderr, outcome
