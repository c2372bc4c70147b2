"""`skills validate --fix`: unknown top-level keys move under metadata, as strings."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from orchestrator.errors import SkillError
from orchestrator.skills import apply_fix, plan_fix, validate_skill_folder
from orchestrator.skills.frontmatter import read_frontmatter

SkillMaker = Callable[..., Path]
BODY = "# Cleanup\n\n---\n\nA body with a thematic break, `code: x` and\nname: not-a-key\n"


def test_fix_moves_a_host_key_under_metadata_and_keeps_everything_else(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill(
        "git-tidy",
        """\
        name: git-tidy
        description: >
          Tidies branches,
          carefully.
        disable-model-invocation: true
        allowed-tools: Bash Read
        """,
        body=BODY,
    )
    skill_md = folder / "SKILL.md"
    assert [d.line for d in validate_skill_folder(folder, "strict")] == [6]
    result = apply_fix(skill_md, "strict")
    assert [c.render() for c in result.changes] == [
        f"{skill_md}:6: fixed: moved 'disable-model-invocation' under metadata as 'true'"
    ]
    assert skill_md.read_text() == (
        "---\n"
        "name: git-tidy\n"
        "description: >\n"
        "  Tidies branches,\n"
        "  carefully.\n"
        "allowed-tools: Bash Read\n"
        "metadata:\n"
        "  disable-model-invocation: 'true'\n"
        "---\n" + BODY
    )
    assert validate_skill_folder(folder, "strict") == []
    assert apply_fix(skill_md, "strict").changed is False  # a second run has nothing to do


def test_fix_merges_into_existing_metadata_in_place_and_quotes_its_values(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill(
        "merge",
        """\
        name: merge
        metadata:
          skillweave.kind: script
          skillweave.timeout: 30
        description: d
        tags: [a, b]
        user-invocable: false
        """,
        files={"scripts/main.py": "print('{}')\n"},
    )
    result = apply_fix(folder / "SKILL.md", "strict")
    assert [c.message for c in result.changes] == [
        "quoted metadata 'skillweave.timeout' as '30'",
        "moved 'tags' under metadata as '[\"a\", \"b\"]'",
        "moved 'user-invocable' under metadata as 'false'",
    ]
    fm = read_frontmatter(folder / "SKILL.md")
    assert fm.keys == ("name", "metadata", "description")
    metadata = fm.get("metadata")
    assert metadata is not None
    assert {c.key: c.value for c in metadata.children} == {
        "skillweave.kind": "script",
        "skillweave.timeout": "30",
        "tags": '["a", "b"]',
        "user-invocable": "false",
    }
    assert validate_skill_folder(folder, "strict") == []


def test_fix_under_claude_code_leaves_the_keys_claude_code_reads(make_skill: SkillMaker) -> None:
    folder = make_skill("keep", "name: keep\ndescription: d\nmodel: haiku\nflavour: mint")
    result = plan_fix(folder / "SKILL.md", "claude-code")
    assert [c.message for c in result.changes] == ["moved 'flavour' under metadata as 'mint'"]
    assert "model: haiku\n" in result.text
    assert (folder / "SKILL.md").read_text() != result.text  # plan_fix does not write


def test_fix_does_not_overwrite_a_metadata_key_of_the_same_name(make_skill: SkillMaker) -> None:
    folder = make_skill("clash", "name: clash\ndescription: d\nmetadata:\n  owner: a\nowner: b")
    result = plan_fix(folder / "SKILL.md", "strict")
    assert result.changed is False
    assert [d.render() for d in result.skipped] == [
        f"{folder}/SKILL.md:6: 'owner' is also in metadata: not moved; merge them by hand"
    ]


def test_fix_refuses_when_metadata_is_not_a_mapping(make_skill: SkillMaker) -> None:
    folder = make_skill("odd", "name: odd\ndescription: d\nmetadata: text\nextra: 1")
    result = plan_fix(folder / "SKILL.md", "strict")
    assert result.changed is False
    assert [d.message for d in result.skipped] == [
        "'metadata' is not a mapping: fix it by hand first"
    ]


def test_fix_of_an_unreadable_frontmatter_raises_with_the_line(make_skill: SkillMaker) -> None:
    folder = make_skill("yaml", "name: yaml\ndescription: [oops")
    with pytest.raises(SkillError) as caught:
        plan_fix(folder / "SKILL.md", "strict")
    assert caught.value.diagnostics[0].line is not None
