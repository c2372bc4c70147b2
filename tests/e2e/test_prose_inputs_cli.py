"""Through the real CLI: a greenhouse sheet's intro says what whoever starts it pastes in; the parts
matched become the plan's inputs, and a key the plan does not take is refused naming the inputs it
does take and the line where the author spoke of that key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from orchestrator.cli import cli

pytestmark = pytest.mark.e2e

SKILLS = Path(__file__).resolve().parent / "skills"

SHEET = """\
# Greenhouse watering sheet

Whoever starts it pastes in: the start value, the dose to add and the vent setting.

1. Top up with `step-calc`.
"""


def test_a_key_the_plan_does_not_take_is_refused_with_the_inputs_it_takes_and_the_author_s_line(
        tmp_path: Path) -> None:
    spec = tmp_path / "sheet.md"
    spec.write_text(SHEET)
    given = tmp_path / "in.json"
    given.write_text(json.dumps({"value": 2, "add": 3, "vent_setting": "half"}))
    result = CliRunner().invoke(cli, ["run", str(spec), "--skills-dir", str(SKILLS), "--input-file", str(given),
                                      "--state-dir", str(tmp_path / "s")], catch_exceptions=False)
    assert result.exit_code == 2, result.output
    assert "unknown input 'vent_setting'" in result.stderr
    assert "the plan takes: add (" in result.stderr and ", value (" in result.stderr  # each with where it was read
    assert f"The spec speaks of 'vent_setting' at {spec}:3" in result.stderr
    assert "Traceback" not in result.stderr
