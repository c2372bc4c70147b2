"""Files skillweave reads are regular files under a cap (issue 25, finding 9): a spec that is
a symlink to /dev/zero, a FIFO, a directory, a huge spec, SKILL.md or schema, and
`--input-file`, `--llm-replay` or a saved plan on /dev/zero are each one exit-2 line naming
the file, never a hang, a MemoryError or an OOM kill. Every command runs under RLIMIT_AS
(1 GiB) and a wall-clock bound, so a regression fails the test instead of the machine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.bounded import Outcome, skillweave

pytestmark = pytest.mark.e2e

SPEC = """# Files

## Inputs
- module_name (string): a module

## Workflow Steps

### Step 1: Fetch
- Skill: `fetch-docs`
- Input: module_name
- Output: existing_docs
"""


def refused(outcome: Outcome, file: Path | str, words: str) -> None:
    assert not outcome.timed_out, outcome
    assert outcome.returncode == 2, outcome
    lines = [line for line in (outcome.stderr + outcome.stdout).splitlines()
             if line.startswith(f"{file}:")]  # `skills validate` prints its findings on stdout
    assert lines, outcome
    assert words in lines[0], outcome
    assert "internal error" not in outcome.stderr and "Traceback" not in outcome.stderr, outcome
    assert outcome.peak_rss_mb < 400, outcome


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "flow.md"
    path.write_text(SPEC, encoding="utf-8")
    return path


def test_a_spec_that_is_a_symlink_to_dev_zero_is_refused_as_a_device(tmp_path: Path) -> None:
    link = tmp_path / "zero.md"
    link.symlink_to("/dev/zero")
    refused(skillweave("validate", str(link), cwd=tmp_path), link, "a device, not a regular file")


def test_a_spec_that_is_a_fifo_is_refused_at_once_instead_of_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    refused(skillweave("validate", str(fifo), cwd=tmp_path, wall_s=30), fifo, "a FIFO")


def test_a_spec_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "folder.md"
    folder.mkdir()
    refused(skillweave("plan", str(folder), cwd=tmp_path), folder, "a directory")


def test_a_spec_over_the_cap_is_refused_naming_the_variable_that_raises_it(spec: Path) -> None:
    spec.write_text(SPEC + "\n" + ("filler text, " * 80 + "\n") * 1100, encoding="utf-8")  # about 1.1 MB
    refused(skillweave("validate", str(spec), cwd=spec.parent), spec,
            "larger than the 1 MiB limit (set SKILLWEAVE_MAX_SPEC_BYTES to raise it)")
    raised = skillweave("validate", str(spec), cwd=spec.parent, env={"SKILLWEAVE_MAX_SPEC_BYTES": "2M"})
    assert raised.returncode == 0, raised


def test_an_input_file_on_dev_zero_is_a_usage_error_not_a_memory_error(spec: Path) -> None:
    refused(skillweave("run", str(spec), "--input-file", "/dev/zero", cwd=spec.parent),
            "/dev/zero", "the input file is a device")


def test_a_replay_file_on_dev_zero_is_a_usage_error_not_a_memory_error(spec: Path) -> None:
    refused(skillweave("run", str(spec), "--input", "module_name=json", "--llm-replay", "/dev/zero",
                       cwd=spec.parent), "--llm-replay /dev/zero", "the recording is a device")  # the CLI names its setting


def test_a_saved_plan_over_the_data_cap_is_refused(spec: Path) -> None:
    plan = spec.with_name("plan.json")
    made = skillweave("plan", str(spec), "--format", "json", "-o", str(plan), cwd=spec.parent)
    assert made.returncode == 0 and plan.stat().st_size > 1024, made
    refused(skillweave("run", str(plan), "--input", "module_name=json", cwd=spec.parent,
                       env={"SKILLWEAVE_MAX_DATA_BYTES": "1K"}), plan,
            "larger than the 1 KiB limit (set SKILLWEAVE_MAX_DATA_BYTES")


def _skill(root: Path, schema: str = '{"type": "object"}') -> Path:
    folder = root / "skills" / "big"
    (folder / "schemas").mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: big\ndescription: A test skill.\nmetadata:\n  skillweave.kind: llm\n"
        "  skillweave.input-schema: schemas/input.json\n---\nSay hello.\n", encoding="utf-8")
    (folder / "schemas" / "input.json").write_text(schema, encoding="utf-8")
    return folder


def test_a_skill_md_over_the_cap_is_a_skill_error(tmp_path: Path) -> None:
    folder = _skill(tmp_path)
    skill_md = folder / "SKILL.md"
    with skill_md.open("a", encoding="utf-8") as out:
        out.write(("Lorem ipsum dolor sit amet. " * 40 + "\n") * 1000)  # about 1.1 MB
    refused(skillweave("skills", "validate", str(folder), cwd=tmp_path), skill_md,
            "SKILL.md is larger than the 1 MiB limit")


def test_a_schema_file_that_is_a_fifo_is_a_skill_error_not_a_hang(tmp_path: Path) -> None:
    folder = _skill(tmp_path)
    schema = folder / "schemas" / "input.json"
    schema.unlink()
    os.mkfifo(schema)
    outcome = skillweave("skills", "validate", str(folder), cwd=tmp_path, wall_s=30)
    refused(outcome, folder / "SKILL.md", "a FIFO (named pipe), not a regular file")
