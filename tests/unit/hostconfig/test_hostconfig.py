"""Host config merging: never clobber, keep unknown keys, back up what changes."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from orchestrator.errors import ConfigError
from orchestrator.hostconfig import (
    HttpEntry,
    ServerCommand,
    apply_install,
    backup_path,
    json_change,
    locations,
    merge_json,
    plan_install,
    skill_changes,
)

COMMAND = ServerCommand(command="skillweave")


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    root = tmp_path / "bundle"
    (root / "alpha" / "scripts").mkdir(parents=True)
    (root / "alpha" / "SKILL.md").write_text("---\nname: alpha\ndescription: A.\n---\n# Alpha\n")
    (root / "alpha" / "scripts" / "main.py").write_text("print('a')\n")
    (root / "_templates" / "skill").mkdir(parents=True)
    (root / "_templates" / "skill" / "SKILL.md").write_text("template\n")
    (root / "not-a-skill").mkdir()
    (root / "not-a-skill" / "notes.txt").write_text("x\n")
    return root


def test_merging_keeps_every_key_it_does_not_set() -> None:
    base = {"mcpServers": {"other": {"command": "x"}, "skillweave": {"command": "old", "env": {"A": "1"}}}, "keep": 1}
    merged = merge_json(base, {"mcpServers": {"skillweave": {"command": "skillweave", "args": ["serve"]}}})
    assert merged == {
        "mcpServers": {
            "other": {"command": "x"},
            "skillweave": {"command": "skillweave", "env": {"A": "1"}, "args": ["serve"]},
        },
        "keep": 1,
    }
    assert base["mcpServers"]["skillweave"]["command"] == "old"  # the input is not mutated


def test_a_config_that_already_has_the_entry_is_left_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    original = '{"mcpServers":{"skillweave":{"command":"skillweave","args":["serve"]}}}'
    path.write_text(original)
    change = json_change(path, {"mcpServers": {"skillweave": {"command": "skillweave", "args": ["serve"]}}})
    assert not change.changed
    assert change.diff() == ""


def test_a_config_that_is_not_json_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{\n  "mcpServers": {\n    oops\n}\n')
    with pytest.raises(ConfigError) as info:
        json_change(path, {"mcpServers": {}})
    assert info.value.where == f"{path}:3"


def test_a_config_holding_a_list_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text("[1, 2]\n")
    with pytest.raises(ConfigError):
        json_change(path, {"mcpServers": {}})


def test_skill_changes_copy_skill_folders_only(bundle: Path, tmp_path: Path) -> None:
    changes = skill_changes(bundle, tmp_path / "target")
    assert sorted(c.path.relative_to(tmp_path / "target").as_posix() for c in changes) == [
        "alpha/SKILL.md",
        "alpha/scripts/main.py",
    ]
    assert all(c.created for c in changes)


def test_installing_twice_changes_nothing_the_second_time(bundle: Path, tmp_path: Path) -> None:
    project, home = tmp_path / "p", tmp_path / "h"
    project.mkdir()
    first = plan_install("cursor", "project", project=project, home=home, bundle=bundle, command=COMMAND)
    assert apply_install(first) == []
    second = plan_install("cursor", "project", project=project, home=home, bundle=bundle, command=COMMAND)
    assert second.pending == ()
    config = json.loads((project / ".cursor" / "mcp.json").read_text())
    assert config == {"mcpServers": {"skillweave": {"command": "skillweave", "args": ["serve"]}}}


def test_changed_files_are_backed_up_and_extra_files_kept(bundle: Path, tmp_path: Path) -> None:
    project, home = tmp_path / "p", tmp_path / "h"
    skill = project / ".claude" / "skills" / "alpha"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("my edited copy\n")
    (skill / "mine.md").write_text("my own notes\n")
    (project / ".mcp.json").write_text('{"mcpServers": {"db": {"command": "db-server"}}}\n')
    plan = plan_install("claude", "project", project=project, home=home, bundle=bundle, command=COMMAND)
    backups = apply_install(plan)
    assert sorted(b.name for b in backups) == [".mcp.json.bak", "SKILL.md.bak"]
    assert (skill / "SKILL.md.bak").read_text() == "my edited copy\n"
    assert (skill / "mine.md").read_text() == "my own notes\n"
    config = json.loads((project / ".mcp.json").read_text())
    assert config["mcpServers"]["db"] == {"command": "db-server"}
    assert config["mcpServers"]["skillweave"] == {"type": "stdio", "command": "skillweave", "args": ["serve"]}


def test_backups_never_overwrite_an_earlier_backup(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text("{}")
    (tmp_path / "mcp.json.bak").write_text("older")
    assert backup_path(path).name == "mcp.json.bak.1"


def test_the_dry_run_diff_shows_the_new_entry(tmp_path: Path) -> None:
    path = tmp_path / ".mcp.json"
    path.write_text('{"mcpServers": {}}\n')
    diff = json_change(path, {"mcpServers": {"skillweave": {"command": "skillweave"}}}).diff()
    assert diff.startswith(f"--- {path}\n+++ {path}\n")
    assert '+    "skillweave": {' in diff


@pytest.mark.parametrize(
    ("host", "scope", "config", "skills"),
    [
        ("claude", "project", "P/.mcp.json", "P/.claude/skills"),
        ("claude", "user", "H/.claude.json", "H/.claude/skills"),
        ("cursor", "project", "P/.cursor/mcp.json", "P/.cursor/skills"),
        ("cursor", "user", "H/.cursor/mcp.json", "H/.cursor/skills"),
    ],
)
def test_each_host_and_scope_has_its_documented_locations(host: str, scope: str, config: str, skills: str) -> None:
    found = locations(host, scope, Path("P"), Path("H"))  # type: ignore[arg-type]
    assert found == (Path(config), Path(skills))


def test_a_config_that_is_not_utf8_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_bytes(b'{"mcpServers": {"x": "\xff"}}\n')
    with pytest.raises(ConfigError) as info:
        json_change(path, {"mcpServers": {}})
    assert info.value.where == str(path)
    assert info.value.message.startswith("not UTF-8 text")


# QA: symlinked configs, file modes, a non-object mcpServers ---------------------------


def test_a_symlinked_config_is_written_through_and_the_link_kept(tmp_path: Path, bundle: Path) -> None:
    """A dotfiles manager links ~/.claude.json into a repository: installing must update
    that file, not replace the link with a copy."""
    home = tmp_path / "home"
    home.mkdir()
    dotfiles = tmp_path / "dotfiles" / "claude.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text('{"mcpServers": {"mine": {"command": "y"}}, "theme": "dark"}\n')
    (home / ".claude.json").symlink_to(dotfiles)
    apply_install(plan_install("claude", "user", project=tmp_path, home=home, bundle=bundle, command=COMMAND))
    assert (home / ".claude.json").is_symlink()
    data = json.loads(dotfiles.read_text())
    assert set(data["mcpServers"]) == {"mine", "skillweave"}
    assert data["theme"] == "dark"


def test_new_files_get_ordinary_permissions_not_0600(tmp_path: Path, bundle: Path) -> None:
    (bundle / "alpha" / "scripts" / "main.py").chmod(0o755)
    project = tmp_path / "project"
    project.mkdir()
    mask = os.umask(0o022)
    try:
        apply_install(plan_install("claude", "project", project=project, home=tmp_path, bundle=bundle,
                                   command=COMMAND))
    finally:
        os.umask(mask)
    assert stat.S_IMODE((project / ".mcp.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((project / ".claude" / "skills" / "alpha" / "SKILL.md").stat().st_mode) == 0o644
    assert stat.S_IMODE((project / ".claude" / "skills" / "alpha" / "scripts" / "main.py").stat().st_mode) == 0o755


@pytest.mark.parametrize("value", ["[1]", "null", '"x"'])
def test_a_non_object_mcp_servers_is_refused_not_replaced(tmp_path: Path, value: str) -> None:
    path = tmp_path / ".mcp.json"
    path.write_text(f'{{"mcpServers": {value}}}\n')
    with pytest.raises(ConfigError, match=r"`mcpServers` is a .*not an object"):
        json_change(path, {"mcpServers": {"skillweave": {"command": "skillweave"}}})


# The HTTP entry: URL and the server's token ---------------------------------------------

HTTP = HttpEntry(url="http://127.0.0.1:8765/mcp", token="tok-secret-123")


@pytest.mark.parametrize(("host", "config"), [("claude", ".mcp.json"), ("cursor", ".cursor/mcp.json")])
def test_an_http_entry_carries_the_url_and_the_bearer_token(tmp_path: Path, bundle: Path, host: str, config: str) -> None:
    apply_install(plan_install(host, "project", project=tmp_path, home=tmp_path, bundle=bundle,  # type: ignore[arg-type]
                               command=COMMAND, http=HTTP))
    entry = json.loads((tmp_path / config).read_text())["mcpServers"]["skillweave"]
    assert entry["url"] == HTTP.url
    assert entry["headers"] == {"Authorization": "Bearer tok-secret-123"}
    assert "command" not in entry and "args" not in entry
    assert entry.get("type") == ("http" if host == "claude" else None)


def test_a_new_config_holding_the_token_is_0600_and_its_diff_hides_it(tmp_path: Path, bundle: Path) -> None:
    plan = plan_install("claude", "project", project=tmp_path, home=tmp_path, bundle=bundle, command=COMMAND, http=HTTP)
    assert "tok-secret-123" not in plan.changes[0].diff() and "Bearer ***" in plan.changes[0].diff()
    assert "tok-secret-123" not in repr(plan)
    apply_install(plan)
    assert stat.S_IMODE((tmp_path / ".mcp.json").stat().st_mode) == 0o600


def test_switching_transport_replaces_the_other_transports_keys_and_keeps_the_rest(
    tmp_path: Path, bundle: Path
) -> None:
    (tmp_path / ".mcp.json").write_text(json.dumps(
        {"mcpServers": {"skillweave": {"type": "stdio", "command": "skillweave", "args": ["serve"], "env": {"A": "1"}},
                        "other": {"command": "x"}}}
    ))
    apply_install(plan_install("claude", "project", project=tmp_path, home=tmp_path, bundle=bundle,
                               command=COMMAND, http=HTTP))
    servers = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]
    assert set(servers["skillweave"]) == {"type", "url", "headers", "env"}
    assert servers["other"] == {"command": "x"}
    apply_install(plan_install("claude", "project", project=tmp_path, home=tmp_path, bundle=bundle, command=COMMAND))
    back = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["skillweave"]
    assert back == {"type": "stdio", "command": "skillweave", "args": ["serve"], "env": {"A": "1"}}
