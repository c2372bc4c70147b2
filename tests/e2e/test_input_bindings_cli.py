"""Through the real CLI: a ferry crossing log whose skills' SKILL.md say what they read. The vessel
code the first step gives back (an echo) makes no later step wait for it; "manifest = the tally's
counted list" binds the manifest to that output over the workflow input; binding warnings name the
log's lines, never a SKILL.md."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from orchestrator.cli import cli

pytestmark = pytest.mark.e2e

LOG = """\
# Ferry crossing log

Whoever starts it pastes in: the vessel code and the manifest.

1. Tally the deck with `tally-deck`.
2. Book the berth with `book-berth`.
   - Depends on: none
3. File the crossing with `file-crossing`: manifest = the tally's counted list.
"""

SKILLS = {
    "tally-deck": ("Counts the vehicles on deck.", "Inputs: `vessel` (code), `manifest` (list of vehicles).\n\n"
                                                   "Outputs: `vessel`, `counted` (list), `total`."),
    "book-berth": ("Books a berth.", "Inputs: `vessel` (code).\n\nOutputs: `vessel`, `berth`."),
    "file-crossing": ("Files the crossing.", "Inputs: `vessel` (code), `manifest` (list), `berth`.\n\n"
                                             "Outputs: `filed`."),
}


def _skills(root: Path) -> Path:
    for name, (about, body) in SKILLS.items():
        folder = root / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {about}\nmetadata:\n"
                                         f"  skillweave.kind: llm\n---\n{body}\n")
    return root / "skills"


def test_an_echo_adds_no_wait_an_assignment_binds_and_warnings_name_the_log_s_lines(tmp_path: Path) -> None:
    spec = tmp_path / "log.md"
    spec.write_text(LOG)
    result = CliRunner().invoke(cli, ["plan", str(spec), "--skills-dir", str(_skills(tmp_path)), "--format", "json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    plan = json.loads(result.stdout)
    steps = {s["id"]: s for s in plan["steps"]}
    assert [i["name"] for i in plan["inputs"]] == ["vessel", "manifest"]
    assert steps["step-2"]["depends_on"] == []
    assert steps["step-3"]["inputs"]["vessel"]["source"] == "input"  # steps 1 and 2 both give back copies
    assert (steps["step-3"]["inputs"]["manifest"]["step"], steps["step-3"]["inputs"]["manifest"]["pointer"]) == (
        "step-1", "/counted")
    assert not [w for w in plan["warnings"] if "SKILL.md" in w["file"]]
