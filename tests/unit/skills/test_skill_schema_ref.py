"""`$ref` in a skill's schema (issue 25, finding 8): followed only inside the skill folder.

A ref to a URL, to `file://`, to an absolute path or out through `..` or a symlink is an
error naming the schema file and line, under every profile and on load; nothing is read
or fetched. Relative refs inside the folder are embedded, so the plan's schema is one
self-contained document."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from orchestrator.contracts import ContractChecker
from orchestrator.errors import SkillError
from orchestrator.schemaref import external_refs
from orchestrator.skills import load_skill, validate_skill_folder

SkillMaker = Callable[..., Path]


def rendered(folder: Path) -> list[str]:
    return [d.render() for d in validate_skill_folder(folder, "strict")]




def _with_input(script_skill: SkillMaker, schema: str, **files: str) -> Path:
    return script_skill("refs", files={"schemas/input.json": schema, **files})


def test_a_ref_to_a_url_is_an_error_naming_the_schema_line_and_nothing_is_fetched(
    script_skill: SkillMaker, schema_server: tuple[str, list[str]]
) -> None:
    url, hits = schema_server
    folder = _with_input(script_skill, '{\n  "type": "object",\n  "properties": {"x": {"$ref": "'
                         + url + '/evil.json"}}\n}\n')
    assert rendered(folder) == [
        f"{folder}/schemas/input.json:3: $ref '{url}/evil.json' leaves the skill folder: only '#/...' "
        "(this file) and relative paths to files inside the skill folder are followed"
    ]
    with pytest.raises(SkillError):
        load_skill(folder)
    assert hits == []


@pytest.mark.parametrize("ref", ["file:///etc/passwd", "/etc/passwd", "../../outside.json",
                                 "sub/../../../outside.json#/x", "//evil.example/x.json"])
def test_a_ref_that_leaves_the_folder_is_an_error_and_reads_nothing_there(
    script_skill: SkillMaker, tmp_path: Path, ref: str
) -> None:
    (tmp_path / "outside.json").write_text('{"type": "string"}', encoding="utf-8")  # beside the skill folder
    folder = _with_input(script_skill, json.dumps({"properties": {"x": {"$ref": ref}}}))
    assert folder.parent == tmp_path
    found = rendered(folder)
    assert len(found) == 1 and found[0].startswith(f"{folder}/schemas/input.json:1: $ref '{ref}' ")
    assert "outside the skill folder" in found[0] or "leaves the skill folder" in found[0]


def test_a_ref_through_a_symlink_out_of_the_folder_is_an_error(script_skill: SkillMaker, tmp_path: Path) -> None:
    (tmp_path / "secret.json").write_text('{"type": "string"}', encoding="utf-8")
    folder = _with_input(script_skill, '{"properties": {"x": {"$ref": "common.json"}}}')
    (folder / "schemas" / "common.json").symlink_to(tmp_path / "secret.json")
    assert rendered(folder) == [f"{folder}/schemas/input.json:1: $ref 'common.json' leads outside the "
                                f"skill folder (to {(tmp_path / 'secret.json').resolve()})"]


def test_relative_refs_inside_the_folder_are_embedded_and_validate_as_written(script_skill: SkillMaker) -> None:
    folder = _with_input(
        script_skill,
        '{"type": "object", "properties": {"name": {"$ref": "defs/common.json#/$defs/name"},'
        ' "tags": {"$ref": "defs/common.json#/$defs/tags"}}, "required": ["name"]}',
        **{"schemas/defs/common.json": '{"$id": "https://example.com/common", "$defs": {'
           '"name": {"type": "string", "minLength": 2}, "tags": {"type": "array", "items": {"$ref": "#/$defs/name"}},'
           ' "back": {"$ref": "../input.json"}}}'},
    )
    assert rendered(folder) == []
    skill = load_skill(folder)
    schema = skill.input_schema
    assert schema is not None and external_refs(schema) == []
    checker = ContractChecker()
    assert checker.is_valid(schema, {"name": "ab", "tags": ["cd"]})
    assert not checker.is_valid(schema, {"name": "a"})
    assert not checker.is_valid(schema, {"name": "ab", "tags": ["c"]})


def test_files_that_refer_to_each_other_are_read_once_each(script_skill: SkillMaker) -> None:
    folder = _with_input(
        script_skill, '{"$ref": "a.json"}',
        **{"schemas/a.json": '{"type": "object", "properties": {"b": {"$ref": "b.json"}}}',
           "schemas/b.json": '{"type": "object", "properties": {"a": {"$ref": "a.json"}}}'},
    )
    schema = load_skill(folder).input_schema
    assert schema is not None
    assert sorted(schema["$defs"]) == ["skillweave.schemas.a.json", "skillweave.schemas.b.json"]
    checker = ContractChecker()
    assert checker.is_valid(schema, {"b": {"a": {"b": {}}}})
    assert not checker.is_valid(schema, {"b": {"a": 3}})


def test_a_referenced_file_changes_the_skills_content_hash(script_skill: SkillMaker) -> None:
    folder = _with_input(script_skill, '{"$ref": "a.json"}', **{"schemas/a.json": '{"type": "object"}'})
    before = load_skill(folder).sha256
    (folder / "schemas" / "a.json").write_text('{"type": "array"}', encoding="utf-8")
    assert load_skill(folder).sha256 != before


def test_a_ref_inside_a_data_keyword_is_data_not_a_ref(script_skill: SkillMaker) -> None:
    folder = _with_input(script_skill, '{"type": "object", "default": {"$ref": "http://x.example/"},'
                                       ' "examples": [{"$ref": "/etc/passwd"}]}')
    assert rendered(folder) == []
    assert load_skill(folder).input_schema == {"type": "object", "default": {"$ref": "http://x.example/"},
                                               "examples": [{"$ref": "/etc/passwd"}]}


def test_the_files_a_schema_refers_to_count_against_the_cap_together(
    script_skill: SkillMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLWEAVE_MAX_SPEC_BYTES", "2K")
    big = json.dumps({"description": "x" * 1200})
    folder = _with_input(script_skill, '{"allOf": [{"$ref": "a.json"}, {"$ref": "b.json"}]}',
                         **{"schemas/a.json": big, "schemas/b.json": big})
    found = rendered(folder)
    assert len(found) == 1 and "$ref 'b.json': 'b.json' is larger than" in found[0], found


def test_a_contract_checker_never_fetches_a_ref_it_is_handed(schema_server: tuple[str, list[str]]) -> None:
    url, hits = schema_server
    schema = {"type": "object", "properties": {"x": {"$ref": f"{url}/evil.json"}}}
    violations = ContractChecker().check(schema, {"x": 1})
    assert violations and "cannot be followed" in violations[0].message
    assert hits == []
