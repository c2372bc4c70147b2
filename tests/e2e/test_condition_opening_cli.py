"""An otherwise said at the opening of a chat message, through `skillweave plan --format json`: a ship's
crew chat whose third message says "if not" after its timestamp, speaker and step number is the
other branch of the second (its condition read from the message's opening), warned at its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from foreign_kit import output_schema_skill

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))


_skill = output_schema_skill


def test_a_chat_message_opening_with_if_not_is_the_other_branch_of_the_message_before(tmp_path: Path) -> None:
    _skill(tmp_path, "read-wind", {"wind_speed": "number"})
    _skill(tmp_path, "reef-sails", {"reefed": "boolean"})
    _skill(tmp_path, "hoist-sails", {"hoisted": "boolean"})
    spec = tmp_path / "crew.md"
    spec.write_text("03/06/2026, 05:40 - Skipper: 1) `read-wind` off the masthead\n\n"
                    "03/06/2026, 05:41 - Skipper: 2) if wind_speed is over 25: `reef-sails` on the main\n\n"
                    "03/06/2026, 05:41 - Skipper: 3) if not, `hoist-sails` and log it\n", encoding="utf-8")
    done = subprocess.run([SKILLWEAVE, "plan", str(spec), "--format", "json"], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["steps"][1]["when"] == "steps['step-1'].output.wind_speed > 25"
    assert plan["steps"][2]["when"] == "not (steps['step-1'].output.wind_speed > 25)"
    said = [w["line"] for w in plan["warnings"] if w["code"] == "spec.lead-condition"]
    assert 3 in said and 5 in said
