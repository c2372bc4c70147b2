"""`$ref` in a skill's schema through the real command (issue 25, finding 8): `skills validate`
reports it with the schema's file:line, `validate` and `run` refuse the spec before any step,
and the loopback server the ref names is never asked for anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bounded import skillweave

pytestmark = pytest.mark.e2e


@pytest.fixture
def evil_url(schema_server: tuple[str, list[str]]) -> tuple[str, list[str]]:
    base, seen = schema_server
    return f"{base}/evil.json", seen


def _project(root: Path, ref: str) -> tuple[Path, Path]:
    folder = root / "skills" / "echo"
    (folder / "schemas").mkdir(parents=True)
    (folder / "scripts").mkdir()
    (folder / "SKILL.md").write_text(
        "---\nname: echo\ndescription: Echoes its input.\nmetadata:\n  skillweave.kind: script\n"
        "  skillweave.input-schema: schemas/input.json\n---\nEchoes.\n", encoding="utf-8")
    (folder / "scripts" / "main.py").write_text("import json, sys\njson.dump(json.load(sys.stdin), sys.stdout)\n",
                                                encoding="utf-8")
    schema = {"type": "object", "properties": {"value": {"$ref": ref}}}
    (folder / "schemas" / "input.json").write_text(json.dumps(schema, indent=2) + "\n", encoding="utf-8")
    spec = root / "flow.md"
    spec.write_text("# Flow\n\n## Inputs\n- value (string): v\n\n## Workflow Steps\n\n### Step 1: Echo\n"
                    "- Skill: `echo`\n- Input: value\n- Output: value\n", encoding="utf-8")
    return folder, spec


@pytest.mark.parametrize("kind", ["url", "file"])
def test_a_ref_out_of_the_skill_folder_is_reported_and_never_followed(
    tmp_path: Path, evil_url: tuple[str, list[str]], kind: str
) -> None:
    url, seen = evil_url
    ref = url if kind == "url" else "file:///etc/passwd"
    folder, spec = _project(tmp_path, ref)
    schema = folder / "schemas" / "input.json"
    expected = f"{schema}:5: $ref '{ref}' leaves the skill folder"

    checked = skillweave("skills", "validate", str(folder), cwd=tmp_path)
    assert checked.returncode == 2, checked
    assert expected in checked.stdout, checked

    for command in (["validate", str(spec)], ["run", str(spec), "--input", "value=x"]):
        outcome = skillweave(*command, cwd=tmp_path)
        assert outcome.returncode == 2, outcome
        assert "internal error" not in outcome.stderr and "Traceback" not in outcome.stderr, outcome
        assert expected in outcome.stderr, outcome
    assert seen == []
