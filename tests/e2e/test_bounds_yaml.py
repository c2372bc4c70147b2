"""YAML through the real command (issue 25, findings 3 and 10): a 1 KB "billion laughs" in a
spec, in a SKILL.md's metadata or in an `--input-file`, and a 100 000-digit integer, are each an
exit-2 error with file:line, under a 1 GiB address-space limit, instead of gigabytes, an
internal error or exit 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bounded import Outcome, skillweave

pytestmark = pytest.mark.e2e

LAUGHS = "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)
SPEC = """name: laughs
inputs: {{module_name: {{type: string}}}}
a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]
{laughs}steps:
  - id: fetch
    skill: {skill}
    input: {{module_name: "{{{{ inputs.module_name }}}}", {extra}}}
"""


def refused_at(outcome: Outcome, where: str, words: str) -> None:
    assert not outcome.timed_out, outcome
    assert outcome.returncode == 2, outcome
    assert "internal error" not in outcome.stderr and "Traceback" not in outcome.stderr, outcome
    found = [line for line in (outcome.stderr + outcome.stdout).splitlines() if line.startswith(where)]
    assert found and words in found[0], outcome
    assert outcome.peak_rss_mb < 400, outcome


def test_billion_laughs_in_a_yaml_spec_is_an_error_at_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "laughs.yaml"
    spec.write_text(SPEC.format(laughs=LAUGHS, skill="fetch-docs", extra="extra: *i"), encoding="utf-8")
    assert spec.stat().st_size < 1024
    refused_at(skillweave("validate", str(spec), cwd=tmp_path, wall_s=60), f"{spec}:7:",
               "write the values out, or use fewer aliases")


def test_a_100_000_digit_integer_in_a_spec_is_exit_2_at_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "digits.yaml"
    spec.write_text(SPEC.format(laughs="", skill="fetch-docs", extra="n: " + "9" * 100_000), encoding="utf-8")
    refused_at(skillweave("validate", str(spec), cwd=tmp_path), f"{spec}:7:",
               "an integer of 100,000 digits is too long (at most 4300)")


def _laughing_skill(root: Path, value: str) -> Path:
    folder = root / "skills" / "laughing"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: laughing\ndescription: Says hello.\nmetadata:\n  skillweave.kind: llm\n"
        f"  author: {value}\n---\nSay hello to {{{{ module_name }}}}.\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("value", ["laughs", "digits"])
def test_a_skill_md_that_blows_up_is_refused_by_skills_validate_and_by_run(tmp_path: Path, value: str) -> None:
    if value == "laughs":
        nested = "{" + ", ".join(f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]"
                                 for p, n in zip("abcdefgh", "bcdefghi", strict=True)) + "}"
        folder = _laughing_skill(tmp_path, "{a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol], "
                                           f"more: {nested}}}")
        words = "write the values out, or use fewer aliases"
    else:
        folder = _laughing_skill(tmp_path, "9" * 100_000)
        words = "an integer of 100,000 digits is too long"
    skill_md = folder / "SKILL.md"
    refused_at(skillweave("skills", "validate", str(folder), cwd=tmp_path), f"{skill_md}:6:", words)
    spec = tmp_path / "flow.yaml"
    spec.write_text("name: flow\ninputs: {module_name: {type: string}}\nsteps:\n  - id: hello\n"
                    "    skill: laughing\n    input: {module_name: '{{ inputs.module_name }}'}\n", encoding="utf-8")
    ran = skillweave("run", str(spec), "--input", "module_name=json", cwd=tmp_path, wall_s=60)
    refused_at(ran, f"{spec}:", "skill `laughing` cannot be used")
    assert words in ran.stderr, ran


@pytest.mark.parametrize("body", ["laughs", "digits"])
def test_an_input_file_that_blows_up_is_a_usage_error(tmp_path: Path, body: str) -> None:
    spec = tmp_path / "flow.yaml"
    spec.write_text(SPEC.format(laughs="", skill="fetch-docs", extra=""), encoding="utf-8")
    inputs = tmp_path / "inputs.yaml"
    if body == "laughs":
        nested = "".join(f"  {line}\n" for line in LAUGHS.splitlines())
        inputs.write_text("module_name:\n  a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + nested,
                          encoding="utf-8")
        words = "write the values out, or use fewer aliases"
    else:
        inputs.write_text("module_name: json\nn: " + "9" * 100_000 + "\n", encoding="utf-8")
        words = "an integer of 100,000 digits is too long"
    refused_at(skillweave("run", str(spec), "--input-file", str(inputs), cwd=tmp_path, wall_s=60),
               f"{inputs}:", words)
