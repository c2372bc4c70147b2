"""The catalog: search order, origins, shadowing, broken skills, lookups."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from orchestrator.config import load_settings
from orchestrator.errors import NotFoundError, Severity, SkillError
from orchestrator.resources import skills_dir
from orchestrator.skills import Catalog, load_catalog, skill_folders

SkillMaker = Callable[..., Path]
OURS = ("analyze-module", "fetch-docs", "generate-docs", "validate-markdown")
BUNDLED = tuple(p.name for p in skill_folders(skills_dir()))


def settings(*dirs: Path, env: tuple[Path, ...] = ()) -> object:
    return load_settings(
        env={"SKILLWEAVE_SKILLS_PATH": ":".join(map(str, env))}, skills_dirs=tuple(dirs)
    )


def test_the_bundled_skills_load_without_problems() -> None:
    catalog = load_catalog(load_settings(env={}))
    assert catalog.names == BUNDLED
    assert set(OURS) <= set(BUNDLED)
    assert catalog.problems == ()
    assert {s.origin for s in catalog} == {"bundled"}
    assert all(s.warnings == () for s in catalog)


def test_skills_come_from_the_spec_folder_then_dirs_then_the_environment(
    tmp_path: Path, script_skill: SkillMaker
) -> None:
    spec = tmp_path / "project" / "flow.md"
    script_skill("from-spec", parent=spec.parent / "skills")
    script_skill("from-dir", parent=tmp_path / "extra")
    script_skill("from-env", parent=tmp_path / "envdir")
    catalog = load_catalog(settings(tmp_path / "extra", env=(tmp_path / "envdir",)), spec)  # type: ignore[arg-type]
    assert [(s.name, s.origin) for s in catalog][len(BUNDLED) :] == [
        ("from-spec", "spec"),
        ("from-dir", "dir"),
        ("from-env", "env"),
    ]
    assert "from-env" in catalog and "nothing" not in catalog
    assert len(catalog) == len(BUNDLED) + 3


def test_a_later_skill_of_the_same_name_is_an_error_naming_both_paths(
    tmp_path: Path, script_skill: SkillMaker
) -> None:
    first = script_skill("twin", parent=tmp_path / "one")
    second = script_skill("twin", parent=tmp_path / "two", description="A different twin.")
    catalog = load_catalog(settings(tmp_path / "one", tmp_path / "two"))  # type: ignore[arg-type]
    (problem,) = catalog.problems
    expected = (
        f"{second.resolve()}/SKILL.md: skill 'twin' (dir) would shadow the dir skill of the same name "
        f"at {first.resolve()}/SKILL.md; rename one of them"
    )
    assert problem.render() == expected
    with pytest.raises(SkillError) as caught:
        catalog.get("twin")
    assert caught.value.render() == expected


def test_a_user_skill_may_not_shadow_a_bundled_one(
    tmp_path: Path, script_skill: SkillMaker
) -> None:
    script_skill("fetch-docs", parent=tmp_path / "mine")
    catalog = load_catalog(settings(tmp_path / "mine"))  # type: ignore[arg-type]
    with pytest.raises(
        SkillError,
        match=r"would shadow the bundled skill of the same name at .*skills/fetch-docs/SKILL.md",
    ):
        catalog.get("fetch-docs")


def test_an_identical_copy_is_not_shadowing(tmp_path: Path, script_skill: SkillMaker) -> None:
    script_skill("same", parent=tmp_path / "one")
    script_skill("same", parent=tmp_path / "two")
    catalog = load_catalog(settings(tmp_path / "one", tmp_path / "two"))  # type: ignore[arg-type]
    assert catalog.problems == ()
    assert catalog.get("same").path == (tmp_path / "one" / "same").resolve()


def test_the_same_folder_given_twice_is_searched_once(
    tmp_path: Path, script_skill: SkillMaker
) -> None:
    script_skill("once", parent=tmp_path / "d")
    catalog = load_catalog(settings(tmp_path / "d", env=(tmp_path / "d",)))  # type: ignore[arg-type]
    assert catalog.problems == ()
    assert catalog.get("once").origin == "dir"


def test_a_broken_skill_is_reported_and_only_fatal_when_asked_for(
    tmp_path: Path, make_skill: SkillMaker, script_skill: SkillMaker
) -> None:
    make_skill(
        "broken",
        "name: broken\ndescription: d\nmetadata:\n  skillweave.kind: rocket",
        parent=tmp_path / "d",
    )
    script_skill("fine", parent=tmp_path / "d")
    catalog = load_catalog(settings(tmp_path / "d"))  # type: ignore[arg-type]
    (problem,) = catalog.problems
    assert problem.line == 5 and "'skillweave.kind' 'rocket'" in problem.message
    assert catalog.get("fine").name == "fine"
    with pytest.raises(SkillError, match="rocket"):
        catalog.get("broken")


def test_an_unknown_name_suggests_the_nearest(tmp_path: Path) -> None:
    catalog = load_catalog(load_settings(env={}))
    with pytest.raises(NotFoundError) as caught:
        catalog.get("fetch-doc")
    assert caught.value.message.startswith("unknown skill 'fetch-doc'; did you mean fetch-docs")
    with pytest.raises(NotFoundError) as nothing_near:
        Catalog().get("zzz")
    assert nothing_near.value.message == "unknown skill 'zzz'; known skills: none"


def test_folders_starting_with_underscore_or_dot_are_not_skills(
    tmp_path: Path, script_skill: SkillMaker
) -> None:
    script_skill("_draft", parent=tmp_path)
    script_skill(".hidden", parent=tmp_path)
    script_skill("real", parent=tmp_path)
    (tmp_path / "no-skill-here").mkdir()
    assert skill_folders(tmp_path) == [tmp_path / "real"]
    assert skill_folders(tmp_path / "real") == [tmp_path / "real"]
    assert (skills_dir() / "_templates").is_dir() and "_templates" not in [
        p.name for p in skill_folders(skills_dir())
    ]


def test_a_missing_skills_dir_is_an_error_and_a_missing_env_folder_a_warning(
    tmp_path: Path,
) -> None:
    with pytest.raises(NotFoundError, match=r"^no such folder$") as caught:
        load_catalog(settings(tmp_path / "nope"))  # type: ignore[arg-type]
    assert (caught.value.where, caught.value.setting) == (str(tmp_path / "nope"), "skills_dirs")
    catalog = load_catalog(settings(env=(tmp_path / "gone",)))  # type: ignore[arg-type]
    (problem,) = catalog.problems
    assert problem.severity is Severity.WARNING and problem.file == str(tmp_path / "gone")


def test_a_skill_folder_given_directly_is_loaded(tmp_path: Path, script_skill: SkillMaker) -> None:
    folder = script_skill("direct", parent=tmp_path)
    catalog = load_catalog(settings(folder))  # type: ignore[arg-type]
    assert catalog.get("direct").path == folder.resolve()
