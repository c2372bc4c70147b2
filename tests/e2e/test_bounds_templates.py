"""`When` conditions and input templates through the real command and server (issue 25,
finding 3): Jinja2 no longer folds `'x' * 4000000000` while compiling (11.7 GB on main), a
constant condition that would build gigabytes is a plan error at its line, and a template that
formats `'%999999999s'` fails its step with one bounded line naming the step and the spec line.
Every process runs under a 1 GiB address-space limit."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from tests.bounded import MEMORY, SKILLWEAVE, Outcome, skillweave

pytestmark = pytest.mark.e2e

SPEC = """name: conditions
inputs: {{module_name: {{type: string}}, deep: {{type: boolean, default: false}}}}
steps:
  - id: fetch
    skill: fetch-docs
    input: {{module_name: "{template}"}}
    when: "{when}"
"""


def write(tmp_path: Path, when: str, template: str = "{{ inputs.module_name }}") -> Path:
    spec = tmp_path / "flow.yaml"
    spec.write_text(SPEC.format(when=when, template=template), encoding="utf-8")
    return spec


def bounded(outcome: Outcome) -> None:
    assert not outcome.timed_out, outcome
    assert "internal error" not in outcome.stderr and "Traceback" not in outcome.stderr, outcome
    assert outcome.peak_rss_mb < 400, outcome


def test_a_constant_condition_that_would_build_gigabytes_is_a_plan_error_at_its_line(tmp_path: Path) -> None:
    spec = write(tmp_path, "'x' * 4000000000")
    outcome = skillweave("validate", str(spec), cwd=tmp_path)
    bounded(outcome)
    assert outcome.returncode == 2, outcome
    assert (f"{spec}:7: fetch (fetch) can never run: When `'x' * 4000000000` cannot be evaluated: `*` would "
            "build more than the 64 Mi characters or items a template or condition may build") in outcome.stderr


def test_a_condition_is_not_computed_while_it_is_compiled(tmp_path: Path) -> None:
    spec = write(tmp_path, "inputs.deep and 'x' * 4000000000")
    checked = skillweave("validate", str(spec), cwd=tmp_path)
    bounded(checked)
    assert checked.returncode == 0, checked
    ran = skillweave("run", str(spec), "--input", "module_name=json", "--input", "deep=true", cwd=tmp_path)
    bounded(ran)
    assert ran.returncode == 1, ran
    assert (f"condition \"inputs.deep and 'x' * 4000000000\" ({spec}:4): `*` would build more than the "
            "64 Mi characters") in ran.stderr, ran


def test_a_template_that_formats_a_huge_width_fails_its_step_in_one_bounded_line(tmp_path: Path) -> None:
    spec = write(tmp_path, "true", template="{{ '%999999999s' % 1 }}{{ inputs.module_name }}")
    ran = skillweave("run", str(spec), "--input", "module_name=json", cwd=tmp_path)
    bounded(ran)
    assert ran.returncode == 1, ran
    assert (f"step fetch failed: template \"{{{{ '%999999999s' % 1 }}}}{{{{ inputs.module_name }}}}\" "
            f"({spec}:6): a %-format width or precision of 999999999 is over 10000") in ran.stderr, ran


async def test_validate_spec_through_the_server_stays_small(tmp_path: Path) -> None:
    spec = write(tmp_path, "'x' * 4000000000")
    limited = (f"import os, resource; resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY})); "
               f"os.execv({SKILLWEAVE!r}, [{SKILLWEAVE!r}, 'serve', '--state-dir', {str(tmp_path / 'state')!r}])")
    params = StdioServerParameters(command=sys.executable, args=["-c", limited], cwd=tmp_path,
                                   env={k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_")})
    with anyio.fail_after(90):
        async with Client(params) as client:
            answer = await client.call_tool("validate_spec", {"spec": str(spec)})
            again = await client.call_tool("list_skills", {})
    text = "\n".join(getattr(block, "text", "") for block in answer.content)
    assert "cannot be evaluated: `*` would build more than the 64 Mi characters" in text, text
    assert "Traceback" not in text and "internal error" not in text
    assert not again.is_error  # the server lives on
