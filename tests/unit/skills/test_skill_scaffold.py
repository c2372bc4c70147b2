from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.errors import UserError
from orchestrator.kinds import BuiltinKind
from orchestrator.skills import load_skill
from orchestrator.skills.scaffold import scaffold_skill


@pytest.mark.parametrize(
    ("kind", "files"),
    [
        ("script", ["SKILL.md", "schemas/input.json", "schemas/output.json", "scripts/main.py"]),
        ("mcp", ["SKILL.md"]),
        ("llm", ["SKILL.md", "schemas/input.json", "schemas/output.json"]),
    ],
)
def test_each_kind_scaffolds_a_skill_that_validates_and_loads(
    tmp_path: Path, kind: str, files: list[str]
) -> None:
    folder, written, findings = scaffold_skill("word-count", kind, tmp_path)  # type: ignore[arg-type]
    assert findings == []
    assert sorted(p.relative_to(folder).as_posix() for p in written) == files
    skill = load_skill(folder)
    assert (skill.name, skill.kind) == ("word-count", BuiltinKind(kind))
    assert skill.body.startswith("\n# Word Count\n")


def test_the_scaffolded_script_keeps_the_stdin_stdout_contract(tmp_path: Path) -> None:
    folder, _, _ = scaffold_skill("shout", "script", tmp_path)
    script = folder / "scripts" / "main.py"
    ok = subprocess.run(
        [sys.executable, script],
        input='{"text": "hi"}',
        capture_output=True,
        text=True,
        check=False,
    )
    bad = subprocess.run(
        [sys.executable, script], input="[]", capture_output=True, text=True, check=False
    )
    assert (ok.returncode, json.loads(ok.stdout)) == (0, {"result": "hi"})
    assert (bad.returncode, bad.stdout, bad.stderr) == (
        2,
        "",
        "shout: input must be a JSON object\n",
    )


def test_descriptions_and_mcp_names_are_quoted_safely(tmp_path: Path) -> None:
    folder, _, findings = scaffold_skill(
        "lookup",
        "mcp",
        tmp_path,
        description='Finds "things": fast # really',
        server="my server",
        tool="find",
    )
    assert findings == []
    skill = load_skill(folder)
    assert (skill.description, skill.server, skill.tool) == (
        'Finds "things": fast # really',
        "my server",
        "find",
    )


def test_an_invalid_name_or_an_existing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="invalid skill name 'Bad_Name': it has uppercase letters"):
        scaffold_skill("Bad_Name", "script", tmp_path)
    (tmp_path / "taken").mkdir()
    with pytest.raises(UserError, match="taken already exists; refusing to overwrite it"):
        scaffold_skill("taken", "script", tmp_path)
    assert list((tmp_path / "taken").iterdir()) == []
