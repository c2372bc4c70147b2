"""Through the real `skillweave`: a fallback skill named the way a document names things, without
backticks ('quoted', *italic*, a link), is recognised from the catalog's names and runs when the step
fails; a value to go on with written as "use a <field> of <n>" is the output the run goes on with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from foreign_kit import plan_json, run, script_skill

_IO = "Inputs: `city` (text). Outputs: `rate` (number), `source` (text)."


def _skill(root: Path, name: str, what: str, body: str) -> None:
    script_skill(root, name, what, _IO, body)


def _workspace(tmp_path: Path, recovery: str) -> Path:
    _skill(tmp_path, "live-rate", "Looks up today's rate for a city from the live feed.",
           "import sys\nprint('feed unreachable', file=sys.stderr)\nsys.exit(1)\n")
    _skill(tmp_path, "cached-rate", "Gives last week's stored rate for a city.",
           "import json, sys\nd = json.load(sys.stdin)\nprint(json.dumps({'rate': 1.25, 'source': 'cache:' + d['city']}))\n")
    _skill(tmp_path, "ratebook", "Reads the printed rate book for a city.",
           "import json, sys\nd = json.load(sys.stdin)\nprint(json.dumps({'rate': 1.5, 'source': 'book:' + d['city']}))\n")
    spec = tmp_path / "workflow-spec.md"
    spec.write_text(f"""# Rate card

Inputs: `city` (text)

## Step 1: Rate

Look up the rate for `city` with `live-rate`. {recovery}
""", encoding="utf-8")
    return spec


def _run(spec: Path, tmp_path: Path) -> tuple[str, object]:
    """The run's status (a fallback used makes it `degraded`) and the step's output."""
    given = tmp_path / "inputs.json"
    given.write_text(json.dumps({"city": "Lyon"}), encoding="utf-8")
    done = run("run", str(spec), "--input-file", str(given), "--json", "--state-dir", str(tmp_path / "state"))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    result = json.loads(done.stdout)
    return result["status"], result["outputs"]["step-1"]


@pytest.mark.parametrize(("named", "skill", "output"), [
    ("*cached-rate*", "cached-rate", {"rate": 1.25, "source": "cache:Lyon"}),
    ("'cached-rate'", "cached-rate", {"rate": 1.25, "source": "cache:Lyon"}),
    ("[cached-rate](skills/cached-rate/SKILL.md)", "cached-rate", {"rate": 1.25, "source": "cache:Lyon"}),
    # one word, no hyphen: only the catalog's names tell it from a word
    ("*ratebook*", "ratebook", {"rate": 1.5, "source": "book:Lyon"}),
])
def test_a_fallback_skill_named_without_backticks_runs_when_the_step_fails(named: str, skill: str, output: object,
                                                                          tmp_path: Path) -> None:
    spec = _workspace(tmp_path, f"Never retry it: if the lookup fails, use module {named} instead.")
    step = plan_json(spec)["steps"][0]
    assert (step["policy"]["retry"]["max_retries"], step["policy"]["fallback"]["skill"]) == (0, skill)
    assert _run(spec, tmp_path) == ("degraded", output)


def test_a_value_said_with_its_field_is_what_the_run_goes_on_with(tmp_path: Path) -> None:
    spec = _workspace(tmp_path, "No automatic retry. If the lookup fails, use a rate of 0 and carry on.")
    assert _run(spec, tmp_path) == ("degraded", {"rate": 0})
