"""`skillweave serve`: the MCP server, over stdio (default) or streamable HTTP."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import click

from orchestrator.cli._common import (
    debug_option,
    handle_errors,
    settings_from,
    skills_dir_option,
    state_dir_option,
)

ENV_ROOTS = "SKILLWEAVE_SERVE_ROOTS"


def server_roots(given: tuple[Path, ...], env: Mapping[str, str] | None = None) -> tuple[Path, ...]:
    """The server's roots: `--root` folders, else SKILLWEAVE_SERVE_ROOTS (os.pathsep-separated),
    else the working directory; each must be an existing folder (NotFoundError naming it)."""
    from orchestrator.errors import NotFoundError

    env = os.environ if env is None else env
    where = "--root"
    if not given and env.get(ENV_ROOTS):
        given, where = tuple(Path(p) for p in env[ENV_ROOTS].split(os.pathsep) if p), ENV_ROOTS
    for folder in given:
        if not folder.is_dir():
            raise NotFoundError(f"{where} {folder}: no such folder")
    return tuple(p.resolve() for p in given) or (Path.cwd(),)


@click.command(name="serve")
@click.option(
    "--transport",
    type=click.Choice(["stdio", "http"]),
    default="stdio",
    show_default=True,
    help="stdio for a host that starts the server; http to serve clients over the network.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP: the address to bind.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="HTTP: the port to listen on."
)
@click.option(
    "--allow-host",
    "allowed_hosts",
    multiple=True,
    help="HTTP: another Host header value to accept (repeatable), e.g. myhost:8765.",
)
@click.option(
    "--allow-origin",
    "allowed_origins",
    multiple=True,
    help="HTTP: another Origin to accept (repeatable), e.g. https://myhost.",
)
@click.option(
    "--root",
    "roots",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A folder the tools may read and write (repeatable; default: the working directory, or "
    "$SKILLWEAVE_SERVE_ROOTS). Relative paths resolve against the first. A client's roots only narrow these.",
)
@click.option(
    "--token",
    default=None,
    help="HTTP: the bearer token clients must send (default: $SKILLWEAVE_SERVE_TOKEN, else the one "
    "kept in <state dir>/serve-token, else a new one written there).",
)
@click.option(
    "--approval-timeout",
    type=float,
    default=120.0,
    show_default=True,
    help="Seconds a person has to answer an approval asked in the host; then the run stays paused.",
)
@state_dir_option
@skills_dir_option
@debug_option
@handle_errors
def serve(
    transport: str,
    host: str,
    port: int,
    allowed_hosts: tuple[str, ...],
    allowed_origins: tuple[str, ...],
    roots: tuple[Path, ...],
    token: str | None,
    approval_timeout: float,
    state_dir: Path | None,
    skills_dirs: tuple[Path, ...],
    debug: bool,
) -> None:
    """Serve skillweave as an MCP server.

    Tools: list_skills, validate_spec, plan_workflow, run_workflow, get_run, list_runs,
    resume_run, approve_step. Paths given to tools must lie inside the server's roots (the
    working directory, or --root folders); a client's declared roots can only narrow them.
    The server starts no command from an mcp.json until you trust it (`skillweave trust`).
    Runs share the state directory with the CLI.

    Over HTTP the server binds 127.0.0.1, checks Host and Origin headers, and requires
    `Authorization: Bearer <token>` on every request; the token is printed at start.
    """
    import anyio

    from orchestrator.errors import NotFoundError
    from orchestrator.server import HttpOptions, ServerConfig, run_http, run_stdio

    for folder in skills_dirs:  # refused now, not by every tool call later
        if not folder.is_dir():
            raise NotFoundError(f"--skills-dir {folder}: no such folder")
    folders = server_roots(roots)
    settings = settings_from(
        state_dir=state_dir, skills_dirs=skills_dirs or None, debug=debug or None, require_trust=True
    )
    config = ServerConfig(
        settings=settings, root=folders[0], extra_roots=folders[1:], elicit_timeout_s=approval_timeout
    )
    from orchestrator import telemetry

    telemetry.active()  # an exporter in OTEL_*: traced from the first request (whose `_meta` a run joins)
    from orchestrator.preload import resume_gc

    resume_gc()  # paused by the CLI's start (`orchestrator.cli.main`)
    if transport == "stdio":
        anyio.run(run_stdio, config)
        return
    options = HttpOptions.from_env(
        host=host, port=port, token=token, allowed_hosts=allowed_hosts, allowed_origins=allowed_origins
    )
    anyio.run(run_http, config, options)
