"""`skillweave skills ...` and `skillweave new ...` through the installed command."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from orchestrator.resources import specs_dir

pytestmark = pytest.mark.e2e

SKILLWEAVE = Path(sys.executable).parent / "skillweave"


@dataclass
class Ran:
    code: int
    stdout: str
    stderr: str


def skillweave(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> Ran:
    command = (
        [str(SKILLWEAVE)]
        if SKILLWEAVE.exists()
        else [sys.executable, "-c", "from orchestrator.cli import main; main()"]
    )
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_")}
    environment.update({"COLUMNS": "120", **(env or {})})
    done = subprocess.run(
        [*command, *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in done.stderr
    return Ran(done.returncode, done.stdout, done.stderr)


def write_skill(folder: Path, frontmatter: str, body: str = "# Body\n\nDo the thing.\n") -> Path:
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\n{frontmatter}\n---\n{body}")
    return folder


# --- skills list ------------------------------------------------------------------------


def test_skills_list_json_shows_the_bundled_skills_with_kind_and_origin(tmp_path: Path) -> None:
    ran = skillweave("skills", "list", "--json", cwd=tmp_path)
    assert (ran.code, ran.stderr) == (0, "")
    listed = json.loads(ran.stdout)
    assert listed["problems"] == []
    kinds = {s["name"]: (s["kind"], s["origin"]) for s in listed["skills"]}
    assert {
        k: kinds[k] for k in ("fetch-docs", "analyze-module", "generate-docs", "validate-markdown")
    } == {
        "fetch-docs": ("mcp", "bundled"),
        "analyze-module": ("script", "bundled"),
        "generate-docs": ("script", "bundled"),
        "validate-markdown": ("script", "bundled"),
    }
    fetch = next(s for s in listed["skills"] if s["name"] == "fetch-docs")
    assert set(fetch) == {
        "name",
        "kind",
        "origin",
        "description",
        "path",
        "entry",
        "server",
        "tool",
        "sha256",
        "warnings",
    }
    assert (fetch["server"], fetch["tool"], fetch["entry"]) == ("docs", "get_docs", None)


def test_skills_list_table_lists_instruction_only_skills_from_a_skills_dir(
    tmp_path: Path, external_skills: Path
) -> None:
    ran = skillweave(
        "skills", "list", "--skills-dir", external_skills / "obra__superpowers", cwd=tmp_path
    )
    assert (ran.code, ran.stderr) == (0, "")
    lines = ran.stdout.splitlines()
    assert lines[0].split() == ["name", "kind", "origin", "description"]
    row = next(line for line in lines if line.startswith("systematic-debugging "))
    assert row.split()[:3] == ["systematic-debugging", "instructions", "dir"]
    assert "Use when encountering any bug, test failure, or unexpected…" in row
    fetch = next(line for line in lines if line.startswith("fetch-docs "))
    assert fetch.split()[:3] == ["fetch-docs", "mcp", "bundled"]


def test_skills_list_finds_the_skills_beside_a_spec_and_in_the_environment(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills" / "local-one", "name: local-one\ndescription: Local.")
    write_skill(tmp_path / "env" / "env-one", "name: env-one\ndescription: From the environment.")
    (tmp_path / "flow.md").write_text("# Workflow: x\n")
    ran = skillweave(
        "skills", "list", "--json", "--spec", tmp_path / "flow.md",
        cwd=tmp_path, env={"SKILLWEAVE_SKILLS_PATH": str(tmp_path / "env")},
    )  # fmt: skip
    origins = {s["name"]: s["origin"] for s in json.loads(ran.stdout)["skills"]}
    assert (origins["local-one"], origins["env-one"]) == ("spec", "env")


def test_skills_list_reports_shadowing_naming_both_paths(tmp_path: Path) -> None:
    write_skill(tmp_path / "mine" / "fetch-docs", "name: fetch-docs\ndescription: My own fetcher.")
    ran = skillweave("skills", "list", "--skills-dir", "mine", cwd=tmp_path)
    assert ran.code == 0
    bundled = next(
        s
        for s in json.loads(skillweave("skills", "list", "--json", cwd=tmp_path).stdout)["skills"]
        if s["name"] == "fetch-docs"
    )
    assert ran.stderr == (
        f"{tmp_path.resolve()}/mine/fetch-docs/SKILL.md: skill 'fetch-docs' (dir) would shadow the bundled "
        f"skill of the same name at {bundled['path']}/SKILL.md; rename one of them\n"
    )


def test_skills_list_with_a_missing_skills_dir_exits_2(tmp_path: Path) -> None:
    ran = skillweave("skills", "list", "--skills-dir", "nowhere", cwd=tmp_path)
    assert (ran.code, ran.stdout, ran.stderr) == (2, "", "--skills-dir nowhere: no such folder\n")


# --- skills validate ----------------------------------------------------------------


def test_validate_accepts_the_valid_external_skills_and_names_the_offending_keys(
    external_skills: Path,
) -> None:
    ran = skillweave("skills", "validate", "external-skills", cwd=external_skills.parent)
    assert ran.code == 2
    assert ran.stdout == (
        "external-skills/anthropics__skills/claude-api/SKILL.md:3: 'description' is 1068 characters; "
        "the limit is 1024\n"
        "external-skills/trailofbits__skills/git-cleanup/SKILL.md:4: 'disable-model-invocation' is a host "
        "extension key, not an Agent Skills key (breaks strict; claude-code, cursor accept it)\n"
    )
    assert ran.stderr == "25 skills checked (strict): 2 errors, 0 warnings\n"


def test_validate_under_the_claude_code_profile_accepts_git_cleanup(external_skills: Path) -> None:
    ran = skillweave(
        "skills", "validate", "--profile", "claude-code", "external-skills/trailofbits__skills",
        cwd=external_skills.parent,
    )  # fmt: skip
    assert ran.code == 0
    assert ran.stdout == (
        "external-skills/trailofbits__skills/git-cleanup/SKILL.md:4: warning: 'disable-model-invocation' is a "
        "host extension key, not an Agent Skills key (breaks strict; claude-code, cursor accept it)\n"
    )
    assert ran.stderr == "7 skills checked (claude-code): 0 errors, 1 warning\n"


def test_validate_the_bundled_skills_is_clean_in_every_profile(repo_root: Path) -> None:
    for profile in ("strict", "claude-code", "cursor"):
        ran = skillweave("skills", "validate", "--profile", profile, "skills", cwd=repo_root)
        assert (ran.code, ran.stdout) == (0, "")
        assert ran.stderr.endswith(f"checked ({profile}): 0 errors, 0 warnings\n")


def test_validate_takes_a_skill_md_path_and_reports_json(external_skills: Path) -> None:
    ran = skillweave(
        "skills", "validate", "--json", "external-skills/anthropics__skills/claude-api/SKILL.md",
        cwd=external_skills.parent,
    )  # fmt: skip
    assert ran.code == 2
    assert json.loads(ran.stdout) == {
        "profile": "strict",
        "errors": 1,
        "warnings": 0,
        "skills": [
            {
                "path": "external-skills/anthropics__skills/claude-api",
                "valid": False,
                "fixes": [],
                "diagnostics": [
                    {
                        "file": "external-skills/anthropics__skills/claude-api/SKILL.md",
                        "line": 3,
                        "severity": "error",
                        "code": "description-too-long",
                        "message": "'description' is 1068 characters; the limit is 1024",
                    }
                ],
            }
        ],
    }


def test_validate_fix_moves_the_extension_key_and_the_skill_then_passes(
    tmp_path: Path, external_skills: Path
) -> None:
    shutil.copytree(
        external_skills / "trailofbits__skills" / "git-cleanup", tmp_path / "git-cleanup"
    )
    original_body = (tmp_path / "git-cleanup" / "SKILL.md").read_text().split("\n---\n", 1)[1]
    ran = skillweave("skills", "validate", "--fix", "git-cleanup", cwd=tmp_path)
    assert (ran.code, ran.stdout) == (
        0,
        "git-cleanup/SKILL.md:4: fixed: moved 'disable-model-invocation' under metadata as 'true'\n",
    )
    text = (tmp_path / "git-cleanup" / "SKILL.md").read_text()
    assert text.split("\n---\n", 1)[1] == original_body
    assert "metadata:\n  disable-model-invocation: 'true'\n" in text
    again = skillweave("skills", "validate", "git-cleanup", cwd=tmp_path)
    assert (again.code, again.stdout, again.stderr) == (
        0,
        "",
        "1 skill checked (strict): 0 errors, 0 warnings\n",
    )


def test_validate_reports_broken_yaml_with_its_line_and_no_traceback(tmp_path: Path) -> None:
    write_skill(tmp_path / "broken", "name: broken\ndescription: [unclosed")
    ran = skillweave("skills", "validate", "broken", cwd=tmp_path)
    assert ran.code == 2
    assert ran.stdout.startswith("broken/SKILL.md:4: invalid YAML in the frontmatter:")


@pytest.mark.parametrize(
    ("args", "stderr"),
    [
        (("empty",), "empty: no SKILL.md in this folder or below it\n"),
        (
            ("notes.txt",),
            "notes.txt: not a SKILL.md (give a skill folder, a SKILL.md, or a folder of skills)\n",
        ),
    ],
)
def test_validate_refuses_paths_without_skills(
    tmp_path: Path, args: tuple[str, ...], stderr: str
) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("hi")
    ran = skillweave("skills", "validate", *args, cwd=tmp_path)
    assert (ran.code, ran.stdout, ran.stderr) == (2, "", stderr)


def test_validate_of_a_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    ran = skillweave("skills", "validate", "nope", cwd=tmp_path)
    assert ran.code == 2
    assert "Path 'nope' does not exist" in ran.stderr


# --- new skill / new spec ---------------------------------------------------------------


@pytest.mark.parametrize("kind", ["script", "mcp", "llm"])
def test_new_skill_writes_a_skill_that_validates(tmp_path: Path, kind: str) -> None:
    ran = skillweave("new", "skill", "tidy-notes", "--kind", kind, cwd=tmp_path)
    assert ran.code == 0
    assert ran.stdout.splitlines()[0] == "created skills/tidy-notes/SKILL.md"
    assert (
        ran.stderr
        == "next: edit skills/tidy-notes/SKILL.md, then `skillweave skills validate skills/tidy-notes`\n"
    )
    listed = json.loads(
        skillweave("skills", "list", "--json", "--skills-dir", "skills", cwd=tmp_path).stdout
    )
    assert {s["name"]: s["kind"] for s in listed["skills"]}["tidy-notes"] == kind
    assert skillweave("skills", "validate", "skills/tidy-notes", cwd=tmp_path).code == 0


def test_new_skill_refuses_a_bad_name_and_an_existing_folder(tmp_path: Path) -> None:
    bad = skillweave(
        "new", "skill", "Tidy_Notes", "--kind", "script", "--dir", "here", cwd=tmp_path
    )
    assert (bad.code, bad.stdout) == (2, "")
    assert (
        bad.stderr
        == "invalid skill name 'Tidy_Notes': it has uppercase letters; use lowercase letters, digits and hyphens\n"
    )
    assert not (tmp_path / "here").exists()
    (tmp_path / "here" / "taken").mkdir(parents=True)
    taken = skillweave("new", "skill", "taken", "--kind", "llm", "--dir", "here", cwd=tmp_path)
    assert (taken.code, taken.stderr) == (
        2,
        "here/taken already exists; refusing to overwrite it\n",
    )


def test_new_spec_renders_the_template_and_refuses_to_overwrite(tmp_path: Path) -> None:
    template = specs_dir() / "workflow-spec.template.md"
    if not template.is_file():
        pytest.skip(f"the spec template is not bundled yet: {template}")
    ran = skillweave("new", "spec", "doc-pipeline", cwd=tmp_path)
    assert (ran.code, ran.stdout) == (0, "created doc-pipeline.md\n")
    text = (tmp_path / "doc-pipeline.md").read_text()
    assert "{{" not in text and "doc-pipeline" in text and "Doc Pipeline" in text
    again = skillweave("new", "spec", "doc-pipeline", cwd=tmp_path)
    assert (again.code, again.stderr) == (
        2,
        "doc-pipeline.md already exists; refusing to overwrite it\n",
    )
    assert (tmp_path / "doc-pipeline.md").read_text() == text
    elsewhere = skillweave("new", "spec", "other", "-o", "specs/other.md", cwd=tmp_path)
    assert (elsewhere.code, elsewhere.stdout) == (0, "created specs/other.md\n")


def test_new_spec_refuses_a_bad_name(tmp_path: Path) -> None:
    ran = skillweave("new", "spec", "My Flow", cwd=tmp_path)
    assert (ran.code, ran.stdout) == (2, "")
    assert ran.stderr.startswith("invalid spec name 'My Flow': it ")


def test_new_spec_renders_whatever_template_is_bundled_strictly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from orchestrator.cli import cli, new_cmd

    (tmp_path / "specs").mkdir()
    template = tmp_path / "specs" / "workflow-spec.template.md"
    monkeypatch.setattr(new_cmd, "specs_dir", lambda: tmp_path / "specs")
    monkeypatch.chdir(tmp_path)
    template.write_text("# {{ title }}\n\nname: {{ name }}\n")
    ok = CliRunner().invoke(cli, ["new", "spec", "my-flow"])
    assert (ok.exit_code, (tmp_path / "my-flow.md").read_text()) == (
        0,
        "# My Flow\n\nname: my-flow\n",
    )
    template.write_text("{{ owner }}\n")
    broken = CliRunner().invoke(cli, ["new", "spec", "other-flow"])
    assert broken.exit_code == 1
    assert broken.stderr == f"{template}: cannot render the spec template: 'owner' is undefined\n"
    assert not (tmp_path / "other-flow.md").exists()
    template.unlink()
    missing = CliRunner().invoke(cli, ["new", "spec", "third-flow"])
    assert (missing.exit_code, missing.stderr) == (2, f"the spec template is missing: {template}\n")
