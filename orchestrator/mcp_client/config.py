"""`mcp.json`: the MCP servers a run can reach. Imports nothing of `mcp` (the planner reads it).

The file has the shape Claude Code (`.mcp.json`) and Cursor (`.cursor/mcp.json`) use:

    {"mcpServers": {
        "docs": {"command": "python", "args": ["-m", "my_docs"], "env": {"TOKEN": "${TOKEN}"}, "cwd": "."},
        "remote": {"type": "http", "url": "https://example.com/mcp",
                   "headers": {"Authorization": "Bearer ${API_TOKEN:-none}"}}}}

A server is stdio (`command`, `args`, `env`, `cwd`; `type` "stdio" or absent) or
streamable HTTP (`url`, `headers`; `type` "http" or absent). Other keys are
ignored, so files written for other hosts load. `${VAR}` and `${VAR:-default}`
are expanded from the environment in every string value (command, args, env,
cwd, url, headers); a variable that is unset and has no default makes that one
server unusable, with an error naming the file, line and key when it is used.
A value taken from the environment is a secret: each server carries a `Redactor`
for its own, which the transport, the pool and the runner apply to everything
they record about it (stderr log, errors, stderr tail; `orchestrator.security.redact`).
A relative `cwd` is relative to the file. A stdio server gets the SDK's safe
environment (PATH, HOME, ...) plus its `env`, never our whole environment.

Where the file is looked for (`locate_mcp_config`): `--mcp-config FILE`, else
`mcp.json` beside the spec, else `.mcp.json` then `.cursor/mcp.json` in the
working directory. The bundled servers in `mcp_servers/` (each a package with a
`__main__`) are always available under their own names, e.g. `docs` runs
`[sys.executable, "-m", "mcp_servers.docs"]`; an entry of the same name in the
file replaces the bundled one. A bundled server also receives the variables
`SKILLWEAVE_<NAME>_*` from our environment (the docs server's folder, sources
and fault knobs) and `XDG_RUNTIME_DIR` (where its warm host lives, so the
run's and the user's own starts share one; this process's if `env` has none).

With `require_trust` (the MCP server's runs and plans), a file that is not in the
trust store with its current content (`orchestrator.security.trust`) gives no
server: each of its entries is unusable (code `mcp-untrusted`), with a message
naming the file, the commands it would start (as written, `${VAR}` unexpanded)
and `skillweave trust PATH`; nothing in it is expanded. The bundled servers it
does not replace stay usable.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, NoReturn

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.config import ENV_MAX_SPEC_BYTES, file_caps
from orchestrator.errors import ConfigError, Diagnostic
from orchestrator.filecap import read_capped
from orchestrator.security.redact import Redactor, secret_from
from orchestrator.security.trust import (
    TrustStore,
    UntrustedConfigError,
    trust_hint,
    untrusted_message,
)

CONFIG_FILE_BESIDE_SPEC = "mcp.json"
CONFIG_FILES_IN_CWD = (".mcp.json", ".cursor/mcp.json")
BUNDLED_PACKAGE = "mcp_servers"
BUNDLED_ORIGIN = "bundled"
UNTRUSTED = "mcp-untrusted"  # the Diagnostic code of an entry of a file not trusted

_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class StdioServer(_Frozen):
    """A server we spawn and talk to over its stdin/stdout."""

    transport: Literal["stdio"] = "stdio"
    name: str
    command: str
    args: tuple[str, ...] = ()
    env: dict[str, str] = Field(default_factory=dict)
    cwd: str | None = None
    origin: str  # the mcp.json it came from, or "bundled"
    where: str  # file:line of its entry, for messages
    redactor: Redactor = Field(default_factory=Redactor, repr=False)  # its values from the environment


class HttpServer(_Frozen):
    """A streamable HTTP server at `url`."""

    transport: Literal["http"] = "http"
    name: str
    url: str
    headers: dict[str, str] = Field(default_factory=dict, repr=False)
    origin: str
    where: str
    redactor: Redactor = Field(default_factory=Redactor, repr=False)  # its values from the environment


ServerConfig = Annotated[StdioServer | HttpServer, Field(discriminator="transport")]


class McpConfig(_Frozen):
    """The servers of one mcp.json plus the bundled ones; `broken` ones fail when used."""

    path: str | None = None
    servers: dict[str, ServerConfig] = Field(default_factory=dict)
    broken: dict[str, Diagnostic] = Field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted({*self.servers, *self.broken}))

    @property
    def redactor(self) -> Redactor:
        """Every server's values from the environment (for messages that may name any)."""
        return Redactor.joined(s.redactor for s in self.servers.values())

    def server(self, name: str) -> StdioServer | HttpServer:
        """The server called `name`; ConfigError naming the file and key otherwise."""
        if name in self.broken:
            diag = self.broken[name]
            if diag.code == UNTRUSTED:
                raise UntrustedConfigError(diag.message, where=diag.where, hint=diag.hint)
            raise ConfigError(diag.message, where=diag.where)
        if name not in self.servers:
            known = ", ".join(self.names) or "none"
            source = (
                self.path
                or "no mcp.json found (looked for the one given, mcp.json beside the spec, .mcp.json, "
                ".cursor/mcp.json)"
            )
            raise ConfigError(
                f"mcpServers.{name}: no MCP server named {name!r} (known: {known})", where=source
            )
        return self.servers[name]

    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return tuple(self.broken[n] for n in sorted(self.broken))


def locate_mcp_config(
    *, explicit: Path | None = None, spec_path: Path | None = None, cwd: Path | None = None
) -> Path | None:
    """The mcp.json to use, by the lookup order above; None when there is none."""
    if explicit is not None:
        if not explicit.is_file():
            raise ConfigError("no such file", where=str(explicit), setting="mcp_config")
        return explicit
    if spec_path is not None:
        beside = spec_path.parent / CONFIG_FILE_BESIDE_SPEC
        if beside.is_file():
            return beside
    base = cwd if cwd is not None else Path.cwd()
    for name in CONFIG_FILES_IN_CWD:
        candidate = base / name
        if candidate.is_file():
            return candidate
    return None


def load_mcp_config(
    path: Path | None,
    *,
    env: Mapping[str, str] | None = None,
    bundled: bool = True,
    require_trust: bool = False,
    trust: TrustStore | None = None,
) -> McpConfig:
    """Read `path` (may be None: bundled servers only) and add the bundled servers.
    `require_trust`: an untrusted file gives unusable entries instead (see above)."""
    env = os.environ if env is None else env
    servers: dict[str, StdioServer | HttpServer] = dict(bundled_servers(env)) if bundled else {}
    broken: dict[str, Diagnostic] = {}
    if path is not None:
        try:
            data = read_capped(path, file_caps(env).spec_bytes, ENV_MAX_SPEC_BYTES)
            text = data.decode("utf-8")
        except OSError as exc:  # a FIFO or device, or larger than the cap, too
            raise ConfigError(
                f"cannot read the MCP config: {exc.strerror or exc}", where=str(path)
            ) from None
        except UnicodeDecodeError:
            raise ConfigError("not UTF-8 text", where=str(path)) from None
        verdict = (trust or TrustStore()).verdict(path, data) if require_trust else "trusted"
        if verdict == "trusted":
            parsed, broken = parse_mcp_config(text, path=path, env=env)
        else:
            parsed, broken = {}, untrusted_entries(text, path=path, verdict=verdict)
        for name in broken:
            servers.pop(name, None)
        servers.update(parsed)
    return McpConfig(path=str(path) if path is not None else None, servers=servers, broken=broken)


def resolve_mcp_config(
    *,
    explicit: Path | None = None,
    spec_path: Path | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    require_trust: bool = False,
) -> McpConfig:
    """Locate and load in one go."""
    return load_mcp_config(
        locate_mcp_config(explicit=explicit, spec_path=spec_path, cwd=cwd),
        env=env,
        require_trust=require_trust,
    )


def untrusted_entries(text: str, *, path: Path, verdict: Literal["changed", "unknown"]) -> dict[str, Diagnostic]:
    """Each entry of an untrusted file, unusable, with what the file would start (as written)."""
    file = str(path)
    entries = _entries(text, file)
    actions: list[str] = []
    for name, entry in entries.items():
        _Entry(file, text, ("mcpServers", name), entry)
        if "command" in entry:
            actions.append(f"`{name}`: {shlex.join([entry['command'], *(entry.get('args') or [])])}")
        else:
            actions.append(f"`{name}`: a connection to {entry['url']}")
    message = untrusted_message(path, verdict, actions)
    return {
        name: Diagnostic(
            file=file, line=_line_of(text, ("mcpServers", name)), message=f"mcpServers.{name}: {message}",
            code=UNTRUSTED, hint=trust_hint(path),
        )
        for name in entries
    }


def _entries(text: str, file: str) -> dict[str, Any]:
    """The `mcpServers` object of the file; ConfigError (file:line) when the shape is wrong."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not valid JSON: {exc.msg}", where=f"{file}:{exc.lineno}") from None
    if not isinstance(data, dict) or "mcpServers" not in data:
        raise ConfigError("expected an object with an `mcpServers` map", where=f"{file}:1")
    entries = data["mcpServers"]
    if not isinstance(entries, dict):
        raise ConfigError(
            "mcpServers: expected an object of servers", where=_where(file, text, ("mcpServers",))
        )
    return entries


def parse_mcp_config(
    text: str, *, path: Path, env: Mapping[str, str]
) -> tuple[dict[str, StdioServer | HttpServer], dict[str, Diagnostic]]:
    """The file's servers, and those made unusable by an unset variable.

    Raises ConfigError (file:line, key path) when the file's structure is wrong.
    """
    file = str(path)
    entries = _entries(text, file)
    servers: dict[str, StdioServer | HttpServer] = {}
    broken: dict[str, Diagnostic] = {}
    for name, entry in entries.items():
        keys = ("mcpServers", name)
        where = _where(file, text, keys)
        _Entry(file, text, keys, entry)  # structural checks first: they raise
        try:
            servers[name] = _build(name, entry, path=path, text=text, env=env, where=where)
        except _UnsetVariableError as exc:
            broken[name] = Diagnostic(file=file, line=_line_of(text, exc.keys), message=exc.message)
    return servers, broken


def bundled_servers(env: Mapping[str, str] | None = None) -> dict[str, StdioServer]:
    """Every package under `mcp_servers/` with a `__main__`, run with this interpreter."""
    env = os.environ if env is None else env
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return {}
    servers: dict[str, StdioServer] = {}
    for location in spec.submodule_search_locations:
        root = Path(location)
        if not root.is_dir():
            continue
        for child in sorted(root.iterdir()):
            if not (child / "__main__.py").is_file() or child.name.startswith(("_", ".")):
                continue
            prefix = f"SKILLWEAVE_{child.name.upper()}_"
            server_env = {k: v for k, v in env.items() if k.startswith(prefix)}
            runtime = env.get("XDG_RUNTIME_DIR") or os.environ.get("XDG_RUNTIME_DIR")
            if runtime:
                server_env["XDG_RUNTIME_DIR"] = runtime
            pythonpath = str(root.parent)
            if env.get("PYTHONPATH"):
                pythonpath += os.pathsep + env["PYTHONPATH"]
            server_env["PYTHONPATH"] = pythonpath
            servers.setdefault(
                child.name,
                StdioServer(
                    name=child.name,
                    command=sys.executable,
                    args=("-m", f"{BUNDLED_PACKAGE}.{child.name}"),
                    env=server_env,
                    origin=BUNDLED_ORIGIN,
                    where=f"{BUNDLED_ORIGIN}:{BUNDLED_PACKAGE}/{child.name}",
                ),
            )
    return servers


def expand_vars(
    value: str, env: Mapping[str, str], keys: tuple[str, ...] = (), found: dict[str, str] | None = None
) -> str:
    """`${VAR}` and `${VAR:-default}` from `env`; an unset VAR without default raises.
    `found` collects the values taken from `env` (value -> VAR), to be redacted."""

    def substitute(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        if name in env:
            secret_from(name, env[name], found)
            return env[name]
        if default is not None:
            return default
        key = ".".join(keys)
        raise _UnsetVariableError(
            f"{key}: environment variable {name} is not set (set it, or write ${{{name}:-default}})",
            keys,
        )

    return _VAR.sub(substitute, value)


class _UnsetVariableError(Exception):
    def __init__(self, message: str, keys: tuple[str, ...]) -> None:
        super().__init__(message)
        self.message = message
        self.keys = keys


class _Entry:
    """Structural checks of one `mcpServers` entry; raises ConfigError at the key."""

    def __init__(self, file: str, text: str, keys: tuple[str, ...], entry: Any) -> None:
        self.file, self.text = file, text
        if not isinstance(entry, dict):
            self.fail(keys, "expected an object")
        kind = entry.get("type", entry.get("transport"))
        if kind is not None and kind not in ("stdio", "http", "streamable-http", "streamableHttp"):
            detail = (
                " (SSE servers are not supported; use streamable HTTP)" if kind == "sse" else ""
            )
            self.fail((*keys, "type"), f"unknown server type {kind!r}{detail}")
        has_command, has_url = "command" in entry, "url" in entry
        if has_command and has_url:
            self.fail(keys, "a server has either `command` (stdio) or `url` (HTTP), not both")
        if not has_command and not has_url:
            self.fail(keys, "a server needs `command` (stdio) or `url` (streamable HTTP)")
        if has_command:
            self.string(keys, entry, "command", required=True)
            self.strings(keys, entry, "args")
            self.mapping(keys, entry, "env")
            self.string(keys, entry, "cwd")
            if kind not in (None, "stdio"):
                self.fail((*keys, "type"), f"type {kind!r} does not go with `command`")
        else:
            url = self.string(keys, entry, "url", required=True)
            if url is not None and not url.startswith(("http://", "https://", "${")):
                self.fail((*keys, "url"), f"expected an http:// or https:// URL, got {url!r}")
            self.mapping(keys, entry, "headers")
            if kind == "stdio":
                self.fail((*keys, "type"), "type 'stdio' needs `command`, not `url`")

    def fail(self, keys: tuple[str, ...], message: str) -> NoReturn:
        raise ConfigError(f"{'.'.join(keys)}: {message}", where=_where(self.file, self.text, keys))

    def string(
        self, keys: tuple[str, ...], entry: dict[str, Any], key: str, *, required: bool = False
    ) -> str | None:
        value = entry.get(key)
        if value is None:
            if required:
                self.fail((*keys, key), "missing")
            return None
        if not isinstance(value, str) or (required and not value.strip()):
            self.fail((*keys, key), "expected a non-empty string")
        return str(value)

    def strings(self, keys: tuple[str, ...], entry: dict[str, Any], key: str) -> None:
        value = entry.get(key)
        if value is not None and (
            not isinstance(value, list) or not all(isinstance(v, str) for v in value)
        ):
            self.fail((*keys, key), "expected a list of strings")

    def mapping(self, keys: tuple[str, ...], entry: dict[str, Any], key: str) -> None:
        value = entry.get(key)
        if value is None:
            return
        if not isinstance(value, dict):
            self.fail((*keys, key), "expected an object of strings")
        for k, v in value.items():
            if not isinstance(v, str):
                self.fail((*keys, key, k), f"expected a string value, got {type(v).__name__}")


def _build(
    name: str, entry: dict[str, Any], *, path: Path, text: str, env: Mapping[str, str], where: str
) -> StdioServer | HttpServer:
    keys = ("mcpServers", name)
    origin = str(path)
    found: dict[str, str] = {}

    def expand(value: str, *at: str) -> str:
        return expand_vars(value, env, (*keys, *at), found)

    if "command" in entry:
        cwd = entry.get("cwd")
        if cwd is not None:
            expanded = Path(expand(cwd, "cwd"))
            cwd = str(expanded if expanded.is_absolute() else (path.parent / expanded).resolve())
        command = expand(entry["command"], "command")
        args = tuple(expand(a, "args", str(i)) for i, a in enumerate(entry.get("args") or ()))
        server_env = {k: expand(v, "env", k) for k, v in (entry.get("env") or {}).items()}
        return StdioServer(
            name=name,
            command=command,
            args=args,
            env=server_env,
            cwd=cwd,
            origin=origin,
            where=where,
            redactor=Redactor(secrets=found),
        )
    url = expand(entry["url"], "url")
    headers = {k: expand(v, "headers", k) for k, v in (entry.get("headers") or {}).items()}
    return HttpServer(
        name=name, url=url, headers=headers, origin=origin, where=where, redactor=Redactor(secrets=found)
    )


def _line_of(text: str, keys: tuple[str, ...]) -> int:
    """The line of the last of `keys` found in order in the JSON text (1 if none is)."""
    pos, found = 0, -1
    for key in keys:
        if key.isdigit():  # a list index: no key text to find
            continue
        idx = text.find(json.dumps(key), pos)
        if idx < 0:
            break
        pos = found = idx
    return text.count("\n", 0, found) + 1 if found >= 0 else 1


def _where(file: str, text: str, keys: tuple[str, ...]) -> str:
    return f"{file}:{_line_of(text, keys)}"
