"""Big specs validate in time linear in their size (issue 25, finding 3): 10 000 steps, in
markdown and in YAML, as a chain, with templates, or all unreachable, are read, planned and
checked under a 60 s CPU limit (some 10 s here; main needed 100 to 200 s and, for the
unreachable ones, hours; a fan-out in words at each step took 100 s before the reader kept what
the steps before make as it went), and their messages stay short. Past the caps a spec is one error:
more than 10 000 steps, more than 1 000 fields on one line, and a 1.4-million-item `Input:`
line is over the 1 MiB file cap. The limits are resource bounds, not timings."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bounded import SKILLWEAVE, Outcome, run_bounded

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

N = 10_000
ROOMY = 2 << 30  # address space: a 10 000-step plan holds about 0.4 GB


def validate(spec: Path) -> Outcome:
    return run_bounded([SKILLWEAVE, "validate", str(spec)], cwd=spec.parent, memory=ROOMY, cpu_s=60, wall_s=300)


def markdown(n: int, *, lines: str = "- Input: module_name\n- Output: existing_docs\n") -> str:
    steps = "".join(f"### Step {i}: S{i}\n- Skill: `fetch-docs`\n{lines}\n" for i in range(1, n + 1))
    return (f"# Big\n\n## Inputs\n- module_name (string): m\n\n## Workflow Steps\n\n{steps}"
            "## Convergence Criteria\n- Wall time: 1000 h\n- Max total attempts: 100000\n")


def yaml_spec(n: int, step: str) -> str:
    head = "name: big\ninputs: {module_name: {type: string}}\nlimits: {wall_time: 1000h, max_total_attempts: 100000}\n"
    return head + "steps:\n" + "".join("  - " + step.format(i=i, prev=i - 1) + "\n" for i in range(n))


@pytest.mark.parametrize("shape", ["markdown chain", "yaml chain", "yaml templates"])
def test_ten_thousand_steps_validate_within_a_cpu_bound(tmp_path: Path, shape: str) -> None:
    if shape == "markdown chain":  # each step's "Per module." asks the fan-out reader for the list before it
        spec = tmp_path / "big.md"
        spec.write_text(markdown(N, lines="- Input: module_name\n- Output: existing_docs\n- Per module.\n"),
                        encoding="utf-8")
    else:
        spec = tmp_path / "big.yaml"
        step = ("{{id: s{i}, skill: fetch-docs, depends_on: s{prev}}}" if shape == "yaml chain" else
                "{{id: s{i}, skill: fetch-docs, input: {{module_name: '{{{{ steps.s{prev}.output.existing_docs }}}}'}}}}")
        spec.write_text(yaml_spec(N, step).replace("depends_on: s-1", "depends_on: []")
                        .replace("steps.s-1.output.existing_docs", "inputs.module_name"), encoding="utf-8")
    outcome = validate(spec)
    assert outcome.returncode == 0, outcome
    assert f"ok: {N} steps" in outcome.stdout, outcome


def test_ten_thousand_unreachable_steps_are_reported_in_bounded_lines(tmp_path: Path) -> None:
    spec = tmp_path / "dead.yaml"
    spec.write_text(yaml_spec(N, "{{id: s{i}, skill: fetch-docs, when: 'false'}}"), encoding="utf-8")
    outcome = validate(spec)
    assert outcome.returncode == 2, outcome
    lines = [line for line in outcome.stderr.splitlines() if "can never run" in line]
    assert len(lines) == N, outcome
    assert max(map(len, lines)) < 400, max(lines, key=len)


def test_a_step_that_cannot_run_names_ten_of_the_steps_it_cuts_off_and_counts_the_rest(tmp_path: Path) -> None:
    spec = tmp_path / "head.yaml"
    spec.write_text(yaml_spec(N, "{{id: s{i}, skill: fetch-docs, depends_on: s{prev}}}")
                    .replace("depends_on: s-1", "when: 'false'"), encoding="utf-8")
    outcome = validate(spec)
    assert outcome.returncode == 2, outcome
    assert outcome.stderr.splitlines()[0] == (
        f"{spec}:5: s0 (s0) can never run: When `false` is always false (so neither can s1, s2, s3, s4, s5, "
        f"s6, s7, s8, s9, s10 and {N - 11} more, downstream of it)"), outcome


def test_more_than_ten_thousand_steps_is_one_error_at_the_first_one_too_many(tmp_path: Path) -> None:
    spec = tmp_path / "huge.md"
    spec.write_text(markdown(N + 1, lines=""), encoding="utf-8")
    outcome = validate(spec)
    assert outcome.returncode == 2, outcome
    assert outcome.stderr.splitlines()[0].endswith(
        "the spec has 10,001 steps; at most 10,000 (split it into several workflows)"), outcome


def test_a_line_of_100_000_inputs_is_one_error_and_a_line_of_1_4_million_is_over_the_file_cap(tmp_path: Path) -> None:
    def one_step(count: int) -> str:
        items = ", ".join(f"a{i}" for i in range(count))
        return f"# Wide\n\n## Workflow Steps\n\n### Step 1: A\n- Skill: `fetch-docs`\n- Input: {items}\n- Output: x\n"

    wide = tmp_path / "wide.md"
    wide.write_text(one_step(100_000), encoding="utf-8")
    outcome = validate(wide)
    assert outcome.returncode == 2, outcome
    assert outcome.stderr.startswith(f"{wide}:7: step-1 has 100,000 input fields; at most 1,000 "), outcome
    assert outcome.peak_rss_mb < 400, outcome

    widest = tmp_path / "widest.md"
    widest.write_text(one_step(1_400_000), encoding="utf-8")
    outcome = validate(widest)
    assert outcome.returncode == 2, outcome
    assert outcome.stderr.startswith(f"{widest}: the spec is larger than the 1 MiB limit"), outcome
