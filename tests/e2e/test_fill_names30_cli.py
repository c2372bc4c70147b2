"""A pub quiz host sheet run through `skillweave run`: its fill-in lines are the inputs `rounds` and `teams`
(the names its skills read), the conditional room-split is skipped for 9 teams, and the scoreboard takes
"1 room" said for that case (`spec.fill_names30`, `plan.or_if_skipped30`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
SHEET = Path(__file__).resolve().parents[1] / "fixtures" / "foreign-specs-holdout24" / "152-quiz-night"


def test_a_quiz_sheet_with_nine_teams_skips_the_split_and_says_one_room(tmp_path: Path) -> None:
    shutil.copytree(SHEET, tmp_path / "quiz")
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"rounds": ["general knowledge", "music ", " ", "local history"], "teams": 9}),
                      encoding="utf-8")
    done = subprocess.run([SKILLWEAVE, "run", str(tmp_path / "quiz" / "spec.txt"), "--skills-dir",
                           str(tmp_path / "quiz" / "skills"), "--input-file", str(inputs), "--state-dir",
                           str(tmp_path / "state")], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "step-4  skipped" in done.stdout
    tail = done.stdout.split("output of step-5:", 1)[1]
    assert json.loads(tail[:tail.index("}") + 1]) == {"columns": 31, "rooms": 1, "ready": True}
