"""mcp.json: parsing, ${VAR} expansion, lookup order, bundled servers, errors at file:line and key."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.errors import ConfigError
from orchestrator.mcp_client.config import (
    HttpServer,
    StdioServer,
    bundled_servers,
    expand_vars,
    load_mcp_config,
    locate_mcp_config,
    resolve_mcp_config,
)


def write(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def test_importing_config_does_not_import_mcp() -> None:
    code = "import sys, orchestrator.mcp_client.config; sys.exit('mcp' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_a_stdio_server_keeps_command_args_env_and_a_cwd_relative_to_the_file(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path / "conf" / "mcp.json",
        {
            "mcpServers": {
                "t": {"command": "tool", "args": ["-v", "x"], "env": {"A": "1"}, "cwd": "work"}
            }
        },
    )
    server = load_mcp_config(path, env={}).server("t")
    assert isinstance(server, StdioServer)
    assert (server.command, server.args, server.env) == ("tool", ("-v", "x"), {"A": "1"})
    assert server.cwd == str((tmp_path / "conf" / "work").resolve())
    assert server.origin == str(path)
    assert server.where == f"{path}:3"


def test_a_url_makes_an_http_server_with_headers(tmp_path: Path) -> None:
    path = write(
        tmp_path / "mcp.json",
        {"mcpServers": {"r": {"type": "http", "url": "https://h/mcp", "headers": {"X-Key": "k"}}}},
    )
    server = load_mcp_config(path, env={}).server("r")
    assert isinstance(server, HttpServer)
    assert (server.url, server.headers) == ("https://h/mcp", {"X-Key": "k"})


def test_variables_expand_in_env_and_headers_with_defaults() -> None:
    env = {"TOKEN": "s3cret", "EMPTY": ""}
    assert expand_vars("Bearer ${TOKEN}", env) == "Bearer s3cret"
    assert expand_vars("${MISSING:-fallback}/${TOKEN}", env) == "fallback/s3cret"
    assert expand_vars("${EMPTY:-unused}", env) == ""
    assert expand_vars("no $VAR or ${ here", env) == "no $VAR or ${ here"


def test_expansion_reaches_every_string_of_a_server(tmp_path: Path) -> None:
    path = write(
        tmp_path / "mcp.json",
        {
            "mcpServers": {
                "s": {
                    "command": "${BIN}/srv",
                    "args": ["--root", "${ROOT:-/r}"],
                    "env": {"K": "${KEY}"},
                },
                "h": {"url": "https://${HOST}/mcp", "headers": {"Authorization": "Bearer ${KEY}"}},
            }
        },
    )
    config = load_mcp_config(path, env={"BIN": "/opt", "KEY": "k1", "HOST": "example"})
    stdio = config.server("s")
    http = config.server("h")
    assert isinstance(stdio, StdioServer) and isinstance(http, HttpServer)
    assert (stdio.command, stdio.args, stdio.env) == ("/opt/srv", ("--root", "/r"), {"K": "k1"})
    assert (http.url, http.headers) == ("https://example/mcp", {"Authorization": "Bearer k1"})


def test_an_unset_variable_breaks_only_its_server_and_names_file_line_and_key(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path / "mcp.json",
        {
            "mcpServers": {
                "ok": {"command": "a"},
                "bad": {"url": "https://h", "headers": {"Auth": "${NOPE}"}},
            }
        },
    )
    config = load_mcp_config(path, env={})
    assert isinstance(config.server("ok"), StdioServer)
    with pytest.raises(ConfigError) as caught:
        config.server("bad")
    text = path.read_text().splitlines()
    line = next(i for i, row in enumerate(text, 1) if '"Auth"' in row)
    assert caught.value.where == f"{path}:{line}"
    assert "mcpServers.bad.headers.Auth" in caught.value.message
    assert "NOPE" in caught.value.message
    assert [d.where for d in config.diagnostics()] == [f"{path}:{line}"]


@pytest.mark.parametrize(
    ("entry", "key", "says"),
    [
        ({"command": 3}, "mcpServers.s.command", "non-empty string"),
        ({"command": "x", "args": "-v"}, "mcpServers.s.args", "list of strings"),
        ({"command": "x", "env": {"N": 1}}, "mcpServers.s.env.N", "string value"),
        ({"url": "ftp://h"}, "mcpServers.s.url", "http"),
        ({"command": "x", "url": "https://h"}, "mcpServers.s", "not both"),
        ({"args": []}, "mcpServers.s", "needs `command`"),
        ({"type": "sse", "url": "https://h"}, "mcpServers.s.type", "SSE"),
        ("x", "mcpServers.s", "expected an object"),
    ],
)
def test_a_malformed_entry_names_file_line_and_key(
    tmp_path: Path, entry: object, key: str, says: str
) -> None:
    path = write(tmp_path / "mcp.json", {"mcpServers": {"s": entry}})
    with pytest.raises(ConfigError) as caught:
        load_mcp_config(path, env={})
    assert caught.value.message.startswith(f"{key}: ")
    assert says in caught.value.message
    assert caught.value.where is not None and caught.value.where.startswith(f"{path}:")


def test_invalid_json_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{\n  "mcpServers": {\n    "a": {"command": "x",}\n  }\n}\n')
    with pytest.raises(ConfigError) as caught:
        load_mcp_config(path, env={})
    assert caught.value.where == f"{path}:3"


def test_a_file_without_mcp_servers_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "mcp.json", {"servers": {}})
    with pytest.raises(ConfigError, match="mcpServers"):
        load_mcp_config(path, env={})


def test_an_unknown_server_lists_the_known_ones(tmp_path: Path) -> None:
    path = write(tmp_path / "mcp.json", {"mcpServers": {"a": {"command": "x"}}})
    with pytest.raises(ConfigError) as caught:
        load_mcp_config(path, env={}).server("zzz")
    assert caught.value.where == str(path)
    assert "mcpServers.zzz" in caught.value.message
    assert "known: a, " in caught.value.message
    assert "docs" in caught.value.message


def test_the_bundled_docs_server_runs_with_this_interpreter() -> None:
    docs = bundled_servers({"SKILLWEAVE_DOCS_FAULT": "hang-first:1", "OTHER_SECRET": "x"})["docs"]
    assert (docs.command, docs.args) == (sys.executable, ("-m", "mcp_servers.docs"))
    assert docs.env["SKILLWEAVE_DOCS_FAULT"] == "hang-first:1"
    assert "OTHER_SECRET" not in docs.env
    assert docs.origin == "bundled"


def test_the_bundled_docs_server_keeps_its_warm_host_where_the_caller_s_runtime_folder_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/8")
    docs = bundled_servers({"XDG_RUNTIME_DIR": "/run/user/7", "XDG_CONFIG_HOME": "/c"})["docs"]
    assert docs.env["XDG_RUNTIME_DIR"] == "/run/user/7"
    assert "XDG_CONFIG_HOME" not in docs.env
    assert bundled_servers({})["docs"].env["XDG_RUNTIME_DIR"] == "/run/user/8"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    assert "XDG_RUNTIME_DIR" not in bundled_servers({})["docs"].env


def test_bundled_servers_are_there_without_a_file_and_a_file_entry_replaces_them(
    tmp_path: Path,
) -> None:
    assert load_mcp_config(None, env={}).server("docs").origin == "bundled"
    path = write(tmp_path / "mcp.json", {"mcpServers": {"docs": {"command": "my-docs"}}})
    replaced = load_mcp_config(path, env={}).server("docs")
    assert isinstance(replaced, StdioServer)
    assert replaced.command == "my-docs"


def test_lookup_prefers_the_flag_then_beside_the_spec_then_the_working_directory(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "specs" / "w.md"
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    assert locate_mcp_config(spec_path=spec, cwd=cwd) is None
    cursor = write(cwd / ".cursor" / "mcp.json", {"mcpServers": {}})
    assert locate_mcp_config(spec_path=spec, cwd=cwd) == cursor
    claude = write(cwd / ".mcp.json", {"mcpServers": {}})
    assert locate_mcp_config(spec_path=spec, cwd=cwd) == claude
    beside = write(tmp_path / "specs" / "mcp.json", {"mcpServers": {}})
    assert locate_mcp_config(spec_path=spec, cwd=cwd) == beside
    flag = write(tmp_path / "other.json", {"mcpServers": {}})
    assert locate_mcp_config(explicit=flag, spec_path=spec, cwd=cwd) == flag


def test_a_missing_mcp_config_flag_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file") as caught:
        locate_mcp_config(explicit=tmp_path / "nope.json")
    assert (caught.value.where, caught.value.setting) == (str(tmp_path / "nope.json"), "mcp_config")


def test_resolve_reads_the_file_it_finds(tmp_path: Path) -> None:
    write(tmp_path / ".mcp.json", {"mcpServers": {"a": {"command": "x"}}})
    config = resolve_mcp_config(cwd=tmp_path, env={})
    assert config.path == str(tmp_path / ".mcp.json")
    assert {"a", "docs"} <= set(config.names)


def test_importing_the_runner_pool_schema_and_classifier_does_not_import_mcp() -> None:
    modules = ", ".join(f"orchestrator.mcp_client.{m}" for m in ("runner", "pool", "schema", "classify"))
    code = f"import sys, {modules}; sys.exit('mcp' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
