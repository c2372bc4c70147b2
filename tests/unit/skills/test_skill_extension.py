"""The skillweave.* metadata keys: errors under every profile, resolved values on load."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from orchestrator.errors import SkillError
from orchestrator.kinds import BuiltinKind
from orchestrator.skills import load_skill, validate_skill_folder

SkillMaker = Callable[..., Path]


def rendered(folder: Path, profile: str = "strict") -> list[str]:
    return [d.render() for d in validate_skill_folder(folder, profile)]  # type: ignore[arg-type]


def test_a_complete_script_skill_is_valid_and_loads_its_settings(script_skill: SkillMaker) -> None:
    folder = script_skill("echo", extra=('skillweave.timeout: "12.5"', "skillweave.network: allow"))
    assert rendered(folder) == []
    skill = load_skill(folder, "spec")
    assert (skill.kind, skill.entry, skill.timeout_s, skill.network, skill.origin) == (
        BuiltinKind.SCRIPT,
        "scripts/main.py",
        12.5,
        True,
        "spec",
    )
    assert skill.input_schema == {"type": "object", "properties": {"x": {"type": "string"}}}
    assert skill.entry_path == folder.resolve() / "scripts/main.py"


def test_a_skill_without_skillweave_keys_is_instructions_only(make_skill: SkillMaker) -> None:
    folder = make_skill("notes", "name: notes\ndescription: d\nmetadata:\n  author: me")
    skill = load_skill(folder)
    assert skill.kind == BuiltinKind.INSTRUCTIONS
    assert skill.metadata == {"author": "me"}
    assert skill.bound().kind == BuiltinKind.INSTRUCTIONS


def test_an_absent_entry_script_is_a_warning_because_the_llm_writes_it(
    script_skill: SkillMaker,
) -> None:
    folder = script_skill("later", files={"scripts/main.py": None})
    assert rendered(folder) == [
        f"{folder}/SKILL.md:6: warning: the entry script 'scripts/main.py' does not exist yet: "
        "the LLM will write its first version"
    ]
    assert load_skill(folder).entry == "scripts/main.py"


def test_a_script_skill_without_an_entry_key_defaults_to_scripts_main_py(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill(
        "plain",
        "name: plain\ndescription: d\nmetadata:\n  skillweave.kind: script",
        files={"scripts/main.py": "print('{}')\n"},
    )
    assert load_skill(folder).entry == "scripts/main.py"


@pytest.mark.parametrize(
    ("extra", "line", "message"),
    [
        (("skillweave.kind: script",), 0, ""),  # control: nothing wrong
        (
            ("skillweave.retries: '3'",),
            9,
            "unknown key 'skillweave.retries' (known: kind, input-schema, output-schema, timeout, entry, network, server, tool, url, method)",
        ),
        (
            ("skillweave.input_schema: x.json",),
            9,
            "unknown key 'skillweave.input_schema' (did you mean 'skillweave.input-schema'?)",
        ),
        (
            ("skillweave.network: maybe",),
            9,
            "'skillweave.network' must be deny or allow, not 'maybe'",
        ),
        (
            ("skillweave.timeout: '-3'",),
            9,
            "'skillweave.timeout' must be a positive number of seconds, not '-3'",
        ),
        (
            ("skillweave.timeout: soon",),
            9,
            "'skillweave.timeout' must be a positive number of seconds, not 'soon'",
        ),
    ],
)
def test_broken_skillweave_keys_are_errors_naming_the_key(
    script_skill: SkillMaker, extra: tuple[str, ...], line: int, message: str
) -> None:
    folder = script_skill("bad", extra=extra if line else ())
    expected = [f"{folder}/SKILL.md:{line}: {message}"] if line else []
    for profile in ("strict", "claude-code", "cursor"):
        assert rendered(folder, profile) == expected


def test_an_unknown_kind_is_an_error(make_skill: SkillMaker) -> None:
    folder = make_skill("k", "name: k\ndescription: d\nmetadata:\n  skillweave.kind: shell")
    assert rendered(folder) == [
        f"{folder}/SKILL.md:5: 'skillweave.kind' 'shell' is not script, mcp, llm or http"
    ]
    with pytest.raises(SkillError) as caught:
        load_skill(folder)
    assert caught.value.diagnostics[0].line == 5


def test_skillweave_keys_without_a_kind_are_an_error(make_skill: SkillMaker) -> None:
    folder = make_skill("k", "name: k\ndescription: d\nmetadata:\n  skillweave.timeout: '3'")
    assert rendered(folder) == [
        f"{folder}/SKILL.md:4: 'skillweave.kind' is missing (script, mcp, llm or http)"
    ]


def test_an_mcp_skill_needs_a_server_and_a_tool(make_skill: SkillMaker) -> None:
    folder = make_skill(
        "m", "name: m\ndescription: d\nmetadata:\n  skillweave.kind: mcp\n  skillweave.tool: ''"
    )
    assert rendered(folder) == [
        f"{folder}/SKILL.md:4: an mcp skill needs 'skillweave.server'",
        f"{folder}/SKILL.md:6: an mcp skill needs 'skillweave.tool'",
    ]


def test_an_mcp_skill_loads_its_server_and_tool(make_skill: SkillMaker) -> None:
    folder = make_skill(
        "m",
        "name: m\ndescription: d\nmetadata:\n  skillweave.kind: mcp\n  skillweave.server: docs\n"
        "  skillweave.tool: get_docs\n  skillweave.entry: x.py",
    )
    skill = load_skill(folder)
    assert (skill.kind, skill.server, skill.tool, skill.entry) == (
        BuiltinKind.MCP,
        "docs",
        "get_docs",
        None,
    )
    assert [w.message for w in skill.warnings] == [
        "'skillweave.entry' means nothing for a mcp skill; it is ignored"
    ]


def test_an_entry_outside_the_skill_folder_is_refused(script_skill: SkillMaker) -> None:
    folder = script_skill("esc", extra=())
    text = (folder / "SKILL.md").read_text().replace("scripts/main.py", "../../evil.py")
    (folder / "SKILL.md").write_text(text)
    assert rendered(folder) == [
        f"{folder}/SKILL.md:6: 'skillweave.entry' must be a path inside the skill folder, not '../../evil.py'"
    ]


def test_a_missing_schema_file_is_an_error_on_its_key(script_skill: SkillMaker) -> None:
    folder = script_skill("s", files={"schemas/output.json": None})
    assert rendered(folder) == [
        f"{folder}/SKILL.md:8: 'skillweave.output-schema': the schema file 'schemas/output.json' does not exist"
    ]


def test_a_schema_that_is_not_json_is_reported_at_its_own_line(script_skill: SkillMaker) -> None:
    folder = script_skill("s", files={"schemas/input.json": '{\n  "type": "object",\n  oops\n}'})
    assert rendered(folder) == [
        f"{folder}/schemas/input.json:3: not valid JSON: Expecting property name enclosed in double quotes (column 3)"
    ]


def test_an_invalid_json_schema_names_where_it_breaks(script_skill: SkillMaker) -> None:
    folder = script_skill(
        "s", files={"schemas/input.json": {"type": "object", "properties": {"x": {"type": 5}}}}
    )
    (diagnostic,) = validate_skill_folder(folder, "strict")
    assert diagnostic.file == f"{folder}/schemas/input.json"
    assert diagnostic.message.startswith(
        "not a valid JSON Schema at /properties/x/type: 5 is not valid"
    )


def test_load_skill_raises_on_our_errors_but_tolerates_what_hosts_tolerate(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill("tolerant", f"name: tolerant\ndescription: {'d' * 1100}\nmodel: opus")
    skill = load_skill(folder)
    assert [w.code for w in skill.warnings] == ["description-too-long", "unknown-key"]
    assert all(w.severity == "warning" for w in skill.warnings)


def test_the_hash_covers_the_entry_and_schemas(script_skill: SkillMaker) -> None:
    folder = script_skill("h")
    before = load_skill(folder).sha256
    (folder / "scripts/main.py").write_text("print('{}')\n")
    after_entry = load_skill(folder).sha256
    (folder / "schemas/output.json").write_text('{"type": "object"}')
    after_schema = load_skill(folder).sha256
    (folder / "notes.txt").write_text("not covered")
    assert len({before, after_entry, after_schema}) == 3
    assert load_skill(folder).sha256 == after_schema


def test_bound_carries_what_the_plan_needs(script_skill: SkillMaker) -> None:
    folder = script_skill("b", extra=('skillweave.timeout: "7"',))
    skill = load_skill(folder, "bundled")
    bound = skill.bound()
    assert bound.model_dump() == {
        "name": "b",
        "kind": BuiltinKind.SCRIPT,
        "path": str(folder.resolve()),
        "origin": "bundled",
        "sha256": skill.sha256,
        "description": "Echoes its input.",
        "entry": "scripts/main.py",
        "server": None,
        "tool": None,
        "network": False,
        "timeout_s": 7.0,
        "input_schema": skill.input_schema,
        "output_schema": skill.output_schema,
    }


def test_an_entry_symlinked_out_of_the_skill_folder_is_an_error_at_its_line(
    script_skill: SkillMaker, tmp_path: Path
) -> None:
    secret = tmp_path / "private" / "secret.py"
    secret.parent.mkdir(mode=0o700)
    secret.write_text("print('{}')\n")
    secret.chmod(0o600)
    folder = script_skill("linked", files={"scripts/main.py": None, "scripts/util.py": ""})
    (folder / "scripts" / "main.py").symlink_to(secret)
    assert rendered(folder) == [
        f"{folder}/SKILL.md:6: 'skillweave.entry' 'scripts/main.py' leads outside the skill "
        f"folder (a symlink to {secret.resolve()})"
    ]
    with pytest.raises(SkillError):
        load_skill(folder)


def test_a_declared_path_through_a_symlinked_folder_out_of_the_skill_is_an_error(
    script_skill: SkillMaker, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "input.json").write_text('{"type": "object"}')
    folder = script_skill("linked-dir", files={"schemas/input.json": None})
    (folder / "link").symlink_to(outside)
    text = (folder / "SKILL.md").read_text()
    (folder / "SKILL.md").write_text(text.replace("schemas/input.json", "link/input.json"))
    assert rendered(folder) == [
        f"{folder}/SKILL.md:7: 'skillweave.input-schema' 'link/input.json' leads outside the "
        f"skill folder (a symlink to {(outside / 'input.json').resolve()})"
    ]


def test_a_default_entry_symlinked_out_of_the_skill_folder_is_an_error(
    make_skill: SkillMaker,
) -> None:
    folder = make_skill(
        "plain-link",
        "name: plain-link\ndescription: d\nmetadata:\n  skillweave.kind: script",
        files={"scripts/.keep": ""},
    )
    (folder / "scripts" / "main.py").symlink_to("/etc/hostname")
    assert rendered(folder) == [
        f"{folder}/SKILL.md:4: the entry 'scripts/main.py' leads outside the skill folder "
        "(a symlink to /etc/hostname)"
    ]


def test_a_symlink_that_stays_inside_the_skill_folder_is_fine(script_skill: SkillMaker) -> None:
    folder = script_skill("inner-link", files={"scripts/real.py": "print(1)\n"})
    (folder / "scripts" / "main.py").unlink()
    (folder / "scripts" / "main.py").symlink_to("real.py")
    assert rendered(folder) == []
