"""The seed example compiles to the plan it compiled to before steps could be written in
other shapes (issue 22): nothing changed but provenance entries that may be added.

`tests/fixtures/seed/plan.golden.json` is `skillweave plan <seed> --format json` from before
that work, with machine-specific parts normalised (`normalise`): the spec's and the skill
folders' paths, the sha256 of the plan and of each skill. A deliberate change to the seed's
plan updates it: `skillweave plan ../shared/fixtures/specs/fetch-analyze-document.seed.md
--format json` run through `normalise` below. The policy reader (issue 21) added keys only:
`budget_s`, `message` and `step` of retries and fallbacks (null), the check of step 4's
"issues = []" success criterion (`maxItems: 0`), and a warning for each success criterion
that is not a comparison. The binding rules (issue 20) changed the seed's plan where its Data
Contracts name a field: each edge `### Step k → Step k+1` whose `Step k+1 Input:` names a field
step k outputs is an explicit source, so step 3 takes `module_name` from step 2's output (the
analysis echoes it) rather than the workflow input, the edge step 2 -> step 3 carries it, and
the notes of the bindings the edges name say so (`explicit: the Data Contracts edge ...`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "fixtures" / "seed" / "plan.golden.json"
SKILLWEAVE = str(Path(sys.executable).with_name("skillweave"))
ADDED = ("read.", "routes")  # provenance keys a reading of prose may add; the seed has none


def normalise(plan: dict[str, Any], spec: Path) -> dict[str, Any]:
    """The plan without what depends on the machine: paths and hashes."""
    text = json.dumps(plan)
    text = text.replace(str(spec), "<seed>").replace(str(spec.parent), "<seed-dir>")
    data: dict[str, Any] = json.loads(text)
    data["sha256"] = ""
    data["spec"]["sha256"] = ""
    data["skills"] = {name: {"kind": s["kind"], "origin": s["origin"]} for name, s in data["skills"].items()}
    for step in data["steps"]:
        for prov in step["provenance"].values():
            if prov.get("source") == "skill" and prov.get("where"):
                prov["where"] = "<skill>/" + Path(prov["where"]).parent.name + "/SKILL.md"
    data["mcp_config"] = None
    return data


def test_the_seed_compiles_to_the_same_plan_as_before(seed_spec: Path) -> None:
    result = subprocess.run([SKILLWEAVE, "plan", str(seed_spec), "--format", "json"], capture_output=True,
                            text=True, timeout=120, cwd=REPO, check=False)
    assert result.returncode == 0, result.stderr
    now = normalise(json.loads(result.stdout), seed_spec)
    for step in now["steps"]:
        step["provenance"] = {k: v for k, v in step["provenance"].items() if not k.startswith(ADDED)}
    assert now == json.loads(GOLDEN.read_text(encoding="utf-8"))
