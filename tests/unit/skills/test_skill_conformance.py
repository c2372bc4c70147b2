"""Agent Skills frontmatter rules, judged under the strict, claude-code and cursor profiles."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from orchestrator.errors import Severity
from orchestrator.hints import Hint, HintAction
from orchestrator.skills import validate_skill_folder
from orchestrator.skills.conformance import name_problem, split_tools

SkillMaker = Callable[..., Path]


def rendered(folder: Path, profile: str = "strict") -> list[str]:
    return [d.render() for d in validate_skill_folder(folder, profile)]  # type: ignore[arg-type]


def test_a_minimal_skill_with_name_and_description_is_valid_everywhere(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill("tiny", "name: tiny\ndescription: Does a tiny thing.")
    for profile in ("strict", "claude-code", "cursor"):
        assert validate_skill_folder(folder, profile) == []


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("Fetch", "has uppercase letters; use lowercase letters, digits and hyphens"),
        ("-fetch", "starts or ends with a hyphen"),
        ("fetch-", "starts or ends with a hyphen"),
        ("fe--tch", "has consecutive hyphens"),
        ("fetch_docs", "may only contain lowercase letters, digits and single hyphens"),
        ("a" * 65, "is 65 characters; the limit is 64"),
        ("", "is empty"),
    ],
)
def test_invalid_names_are_explained(name: str, problem: str) -> None:
    assert name_problem(name) == problem


@pytest.mark.parametrize("name", ["a", "fetch-docs", "x2", "a" * 64, "v1-2-3"])
def test_valid_names_pass(name: str) -> None:
    assert name_problem(name) is None


def test_a_name_that_differs_from_its_folder_is_an_error_on_its_line(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill("folder-name", "description: d\nname: other-name")
    assert rendered(folder) == [
        f"{folder}/SKILL.md:3: 'name' 'other-name' differs from its folder name 'folder-name'"
    ]


def test_a_bad_name_format_names_the_key(make_skill: SkillMaker) -> None:
    folder = make_skill("Bad_Name", "name: Bad_Name\ndescription: d")
    assert rendered(folder) == [
        f"{folder}/SKILL.md:2: 'name' 'Bad_Name' has uppercase letters; use lowercase letters, digits and hyphens"
    ]


def test_a_missing_name_breaks_strict_and_cursor_but_claude_code_uses_the_folder(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill("nameless", "description: d")
    (strict,) = validate_skill_folder(folder, "strict")
    (claude,) = validate_skill_folder(folder, "claude-code")
    (cursor,) = validate_skill_folder(folder, "cursor")
    assert (strict.severity, claude.severity, cursor.severity) == (
        Severity.ERROR,
        Severity.WARNING,
        Severity.ERROR,
    )
    assert "'name' is missing" in strict.message


def test_description_of_1024_characters_passes_and_1025_fails(make_skill: SkillMaker) -> None:
    ok = make_skill("ok", f"name: ok\ndescription: {'x' * 1024}")
    long = make_skill("long", f"name: long\ndescription: {'x' * 1025}")
    assert rendered(ok) == []
    assert rendered(long, "claude-code") == [
        f"{long}/SKILL.md:3: 'description' is 1025 characters; the limit is 1024"
    ]


@pytest.mark.parametrize(
    ("frontmatter", "expected"),
    [
        ("name: s", "SKILL.md:1: 'description' is missing"),
        ("name: s\ndescription: ''", "SKILL.md:3: 'description' is empty"),
        ("name: s\ndescription: [a]", "SKILL.md:3: 'description' must be a string, not a list"),
        (
            "name: s\ndescription: d\ncompatibility: " + "c" * 501,
            "SKILL.md:4: 'compatibility' is 501 characters; the limit is 500",
        ),
        (
            "name: s\ndescription: d\nlicense: 2",
            "SKILL.md:4: 'license' must be a string, not an integer",
        ),
        (
            "name: s\ndescription: d\nmetadata: text",
            "SKILL.md:4: 'metadata' must be a mapping of strings, not a str",
        ),
        (
            "name: s\ndescription: d\nmetadata:\n  version: 1.0",
            "SKILL.md:5: metadata 'version' must be a string, not a number (quote it)",
        ),
        (
            "name: s\ndescription: d\nallowed-tools: 3",
            "SKILL.md:4: 'allowed-tools' must be a string, not an integer",
        ),
    ],
)
def test_spec_rules_name_the_offending_key_and_line(
    make_skill: SkillMaker, frontmatter: str, expected: str
) -> None:
    folder = make_skill("s", frontmatter)
    assert rendered(folder) == [f"{folder}/{expected}"]


def test_an_unknown_key_is_an_error_in_every_profile_and_fix_is_suggested(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill("s", "name: s\ndescription: d\nversion: '2'")
    expected = (
        f"{folder}/SKILL.md:4: unknown frontmatter key 'version': not an Agent Skills key "
        "(move it under metadata)"
    )
    for profile in ("strict", "claude-code", "cursor"):
        assert rendered(folder, profile) == [expected]
        (found,) = validate_skill_folder(folder, profile)  # type: ignore[arg-type]
        assert found.hint == Hint(action=HintAction.FIX_SKILL)  # the CLI says: skills validate --fix


def test_a_claude_code_key_breaks_strict_and_cursor_and_claude_code_accepts_it(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill("s", "name: s\ndescription: d\nmodel: haiku")
    message = (
        f"{folder}/SKILL.md:4: 'model' is a host extension key, not an Agent Skills key "
        "(breaks cursor, strict; claude-code accept it)"
    )
    assert rendered(folder, "strict") == [message]
    assert rendered(folder, "cursor") == [message]
    assert rendered(folder, "claude-code") == [
        message.replace("SKILL.md:4: ", "SKILL.md:4: warning: ")
    ]


def test_disable_model_invocation_is_accepted_by_both_hosts_but_not_strict(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill("s", "name: s\ndescription: d\ndisable-model-invocation: true")
    severities = {
        p: [d.severity for d in validate_skill_folder(folder, p)]
        for p in ("strict", "claude-code", "cursor")
    }
    assert severities == {
        "strict": [Severity.ERROR],
        "claude-code": [Severity.WARNING],
        "cursor": [Severity.WARNING],
    }


def test_allowed_tools_as_a_yaml_list_is_only_a_warning_for_claude_code(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill("s", "name: s\ndescription: d\nallowed-tools:\n  - Read\n  - Bash")
    assert [d.severity for d in validate_skill_folder(folder, "claude-code")] == [Severity.WARNING]
    (strict,) = validate_skill_folder(folder, "strict")
    assert strict.severity is Severity.ERROR and "'allowed-tools' is a YAML list" in strict.message


def test_an_empty_body_is_only_a_warning(make_skill: SkillMaker) -> None:
    folder = make_skill("s", "name: s\ndescription: d", body="\n")
    assert rendered(folder) == [
        f"{folder}/SKILL.md:5: warning: SKILL.md has no instructions after the frontmatter"
    ]


def test_a_lowercase_skill_md_is_reported_by_its_name(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "skill.md").write_text("---\nname: s\ndescription: d\n---\n")
    assert rendered(folder) == [f"{folder}/skill.md: the file must be named SKILL.md"]


def test_a_folder_without_skill_md_is_one_error(tmp_path: Path) -> None:
    assert rendered(tmp_path) == [f"{tmp_path}: no SKILL.md in this folder"]


def test_a_dangling_skill_md_symlink_says_where_it_points(tmp_path: Path) -> None:
    (tmp_path / "SKILL.md").symlink_to(tmp_path / "gone" / "SKILL.md")
    assert rendered(tmp_path) == [
        f"{tmp_path}/SKILL.md: SKILL.md is a symlink to {tmp_path}/gone/SKILL.md, which is not a readable file"
    ]


def test_allowed_tools_split_on_spaces_outside_parentheses() -> None:
    assert split_tools("Read Bash(git add:*) Grep") == ("Read", "Bash(git add:*)", "Grep")
    assert split_tools(["Read", "Write"]) == ("Read", "Write")
    assert split_tools(None) == ()
