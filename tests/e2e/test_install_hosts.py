"""`skillweave install claude|cursor` into a temporary project and home, and the plugin manifests."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from serverkit import BIN, REPO, SKILLWEAVE, free_port, http_server

pytestmark = pytest.mark.e2e

BUNDLED = sorted(p.name for p in (REPO / "skills").iterdir() if (p / "SKILL.md").is_file())
KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


def install(project: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SKILLWEAVE), "install", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HOME": str(home), "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"},
    )


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def test_install_claude_merges_into_an_existing_mcp_json(project: Path, home: Path) -> None:
    existing = {"mcpServers": {"db": {"command": "db-server", "args": ["--ro"]}}, "$comment": "team config"}
    (project / ".mcp.json").write_text(json.dumps(existing))
    result = install(project, home, "claude")
    assert result.returncode == 0, result.stderr
    config = read_json(project / ".mcp.json")
    assert config["mcpServers"]["db"] == existing["mcpServers"]["db"]
    assert config["$comment"] == "team config"
    assert config["mcpServers"]["skillweave"]["args"] == ["serve"]
    assert read_json(project / ".mcp.json.bak") == existing
    installed = sorted(p.name for p in (project / ".claude" / "skills").iterdir())
    assert installed == BUNDLED
    assert "orchestrate-workflow" in installed
    checked = subprocess.run(
        [str(SKILLWEAVE), "skills", "validate", "--profile", "claude-code", str(project / ".claude" / "skills")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_install_claude_user_scope_writes_the_home_config(project: Path, home: Path) -> None:
    (home / ".claude.json").write_text(json.dumps({"numStartups": 7, "projects": {"/x": {}}}))
    result = install(project, home, "claude", "--scope", "user")
    assert result.returncode == 0, result.stderr
    config = read_json(home / ".claude.json")
    assert config["numStartups"] == 7 and config["projects"] == {"/x": {}}
    assert config["mcpServers"]["skillweave"]["command"].endswith("skillweave")
    assert (home / ".claude" / "skills" / "orchestrate-workflow" / "SKILL.md").is_file()
    assert not (project / ".mcp.json").exists()


def test_install_cursor_twice_changes_nothing_the_second_time(project: Path, home: Path) -> None:
    first = install(project, home, "cursor")
    second = install(project, home, "cursor")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    config = read_json(project / ".cursor" / "mcp.json")
    assert set(config["mcpServers"]) == {"skillweave"}
    assert "already up to date" in second.stdout
    assert not list((project / ".cursor").glob("*.bak*"))
    assert sorted(p.name for p in (project / ".cursor" / "skills").iterdir()) == BUNDLED


def test_a_dry_run_shows_the_diff_and_writes_nothing(project: Path, home: Path) -> None:
    (project / ".cursor").mkdir()
    (project / ".cursor" / "mcp.json").write_text('{"mcpServers": {"other": {"url": "http://x"}}}\n')
    result = install(project, home, "cursor", "--dry-run")
    assert result.returncode == 0, result.stderr
    assert '+    "skillweave": {' in result.stdout
    assert "+ create .cursor/skills/orchestrate-workflow/SKILL.md" in result.stdout
    assert (project / ".cursor" / "mcp.json").read_text() == '{"mcpServers": {"other": {"url": "http://x"}}}\n'
    assert not (project / ".cursor" / "skills").exists()


def test_a_config_that_is_not_json_is_left_alone(project: Path, home: Path) -> None:
    (project / ".mcp.json").write_text('{"mcpServers": {\n  broken\n')
    result = install(project, home, "claude")
    assert result.returncode == 2
    assert ".mcp.json:2:" in result.stderr
    assert "Traceback" not in result.stderr
    assert (project / ".mcp.json").read_text() == '{"mcpServers": {\n  broken\n'


async def test_the_installed_server_entry_starts_a_working_server(project: Path, home: Path) -> None:
    assert install(project, home, "cursor").returncode == 0
    entry = read_json(project / ".cursor" / "mcp.json")["mcpServers"]["skillweave"]
    # `skillweave` was on PATH at install time, so the entry names it; the host has the same PATH.
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    params = StdioServerParameters(command=entry["command"], args=entry["args"], cwd=project,
                                    env={"PATH": path, "XDG_RUNTIME_DIR": os.environ.get("XDG_RUNTIME_DIR", "")})
    with anyio.fail_after(60):
        async with Client(params) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
    assert "run_workflow" in tools


async def test_an_http_entry_reaches_the_server_run_in_the_project_with_its_token(project: Path, home: Path) -> None:
    port = free_port()
    installed = install(project, home, "claude", "--transport", "http", "--port", str(port), "--json")
    assert installed.returncode == 0, installed.stderr
    payload = json.loads(installed.stdout)
    entry = read_json(project / ".mcp.json")["mcpServers"]["skillweave"]
    token = entry["headers"]["Authorization"].removeprefix("Bearer ")
    assert token not in installed.stdout  # the JSON says where, not what
    assert payload["transport"] == "http" and payload["url"] == entry["url"]
    assert payload["command"][1:] == ["serve", "--transport", "http", "--port", str(port)]
    # the person starts the server as install said, in the project: it requires that token
    with http_server(project, port=port) as server:
        assert server.url == entry["url"]
        with anyio.fail_after(60):
            async with (
                create_mcp_http_client(headers=entry["headers"]) as http,
                Client(streamable_http_client(entry["url"], http_client=http)) as client,
            ):
                tools = {t.name for t in (await client.list_tools()).tools}
    assert "run_workflow" in tools


def test_an_http_dry_run_hides_the_token_and_makes_no_token_file(project: Path, home: Path) -> None:
    result = install(project, home, "cursor", "--transport", "http", "--dry-run", "--token", "given-token-42")
    assert result.returncode == 0, result.stderr
    assert '"Authorization": "Bearer ***"' in result.stdout
    assert "given-token-42" not in result.stdout
    assert not (project / ".skillweave").exists() and not (project / ".cursor").exists()


# The plugin manifests: the fields each host documents as required, and what they point at.


def test_the_claude_plugin_manifest_has_its_required_fields() -> None:
    plugin = read_json(REPO / ".claude-plugin" / "plugin.json")
    assert KEBAB.match(plugin["name"])
    assert isinstance(plugin.get("version", ""), str) and isinstance(plugin.get("description", ""), str)
    if "author" in plugin:
        assert isinstance(plugin["author"]["name"], str)
    server = plugin["mcpServers"]["skillweave"]
    assert server["command"] == "skillweave" and server["args"] == ["serve"]
    # Skills are found in skills/ at the plugin root, one folder with a SKILL.md each.
    assert "orchestrate-workflow" in BUNDLED
    assert not (REPO / ".claude-plugin" / "skills").exists()


def test_the_marketplace_lists_the_plugin_at_the_repository_root() -> None:
    market = read_json(REPO / ".claude-plugin" / "marketplace.json")
    plugin = read_json(REPO / ".claude-plugin" / "plugin.json")
    assert KEBAB.match(market["name"])
    assert market["owner"]["name"]
    [entry] = market["plugins"]
    assert entry["name"] == plugin["name"]
    assert entry["source"].startswith("./")
    assert (REPO / entry["source"] / ".claude-plugin" / "plugin.json").is_file()


CURSOR_KEYS = {
    "name", "displayName", "description", "version", "author", "publisher", "homepage", "repository",
    "license", "logo", "keywords", "category", "tags", "commands", "agents", "skills", "rules", "hooks",
    "variables", "mcpServers",
}  # fmt: skip


def test_the_cursor_plugin_manifest_follows_the_documented_schema() -> None:
    plugin = read_json(REPO / ".cursor-plugin" / "plugin.json")
    assert re.match(r"^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$", plugin["name"])
    assert set(plugin) <= CURSOR_KEYS  # the schema allows no other keys
    assert set(plugin["author"]) <= {"name", "email"} and plugin["author"]["name"]
    skills = REPO / plugin["skills"]
    assert skills.resolve() == (REPO / "skills").resolve()
    assert all(isinstance(plugin[k], list) for k in ("keywords",) if k in plugin)
    assert plugin["mcpServers"]["skillweave"] == {"command": "skillweave", "args": ["serve"]}
