"""`skillweave install claude|cursor`: the skills and the MCP server entry, for people
who do not use the plugin. Merges into existing files (backups kept); `--dry-run`
shows the diff and writes nothing.

`--transport stdio` (the default) has the host start `skillweave serve` itself.
`--transport http` points the host at `skillweave serve --transport http` that the
person runs: the entry holds the URL and the server's bearer token (`--token`,
`SKILLWEAVE_SERVE_TOKEN`, else the one kept in the state directory's
`serve-token`, made there now if missing), which the server started in that
project with that state directory will require."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from orchestrator.cli._common import debug_option, echo_json, handle_errors, json_option
from orchestrator.hostconfig import (
    Host,
    HttpEntry,
    InstallPlan,
    Scope,
    ServerCommand,
    apply_install,
    plan_install,
    server_command,
)
from orchestrator.resources import skills_dir

NEXT_STEPS = {
    "claude": (
        "Start (or restart) Claude Code in {where}, run /mcp to see the skillweave server, then say for "
        'example: "Use the orchestrate-workflow skill to build a workflow that fetches the docs of a '
        'module, analyzes it and writes a summary."'
    ),
    "cursor": (
        "Reload Cursor in {where} and enable the skillweave server under Settings > MCP, then ask the "
        'agent for example: "Use the orchestrate-workflow skill to build and run a workflow that ..."'
    ),
}


def _shown(path: Path, project: Path) -> str:
    try:
        return str(path.relative_to(project))
    except ValueError:
        return str(path).replace(str(Path.home()), "~", 1)


def _report(plan: InstallPlan, project: Path, *, dry_run: bool, backups: list[Path]) -> None:
    verb = "would change" if dry_run else "changed"
    config = plan.changes[0]
    if config.changed:
        state = "created" if config.created else "updated"
        click.echo(f"{_shown(plan.config_file, project)}: mcpServers.skillweave {state}"
                   + (" (dry run)" if dry_run else ""))
    else:
        click.echo(f"{_shown(plan.config_file, project)}: mcpServers.skillweave already up to date")
    skills = plan.changes[1:]
    names = sorted({c.path.relative_to(plan.skills_dir).parts[0] for c in skills})
    new = sum(1 for c in skills if c.created)
    updated = sum(1 for c in skills if c.changed and not c.created)
    click.echo(
        f"{_shown(plan.skills_dir, project)}/: {len(names)} skills ({', '.join(names)}); "
        f"{new} new and {updated} updated files {verb}, {len(skills) - new - updated} unchanged"
    )
    for backup in backups:
        click.echo(f"backup: {_shown(backup, project)}")
    click.echo(f"server command: {plan.command.command} {' '.join(plan.command.args)}")
    if plan.http is not None:
        click.echo(f"server URL: {plan.http.url} (the entry sends its bearer token; start the server "
                   "with the command above, in this folder, before the host connects)")
        config_file = Path(os.path.realpath(plan.config_file))
        if config_file.exists() and config_file.stat().st_mode & 0o077:
            click.echo(f"note: {_shown(plan.config_file, project)} holds the token and other users can read "
                       f"it: run `chmod 600 {plan.config_file}` (and keep it out of version control)")


def _show_diff(plan: InstallPlan, project: Path) -> None:
    """The config files as unified diffs; new skill files by name, changed ones as diffs."""
    if not plan.pending:
        click.echo("nothing to change")
        return
    config, skills = plan.changes[0], plan.changes[1:]
    if config.changed:
        click.echo(config.diff(), nl=False)
    for change in skills:
        if change.created:
            click.echo(f"+ create {_shown(change.path, project)} ({len(change.after)} bytes)")
        elif change.changed:
            click.echo(change.diff(), nl=False)
    click.echo("(dry run: nothing written)")


def _http_entry(project: Path, port: int, token: str | None, state_dir: Path | None, dry_run: bool) -> HttpEntry:
    """The URL and token of the HTTP server the person will run in `project`."""
    import secrets

    from orchestrator.security.files import read_private
    from orchestrator.security.token import given_token, obtain, token_file

    state = state_dir if state_dir is not None else project / ".skillweave"
    given = given_token(flag=token)
    url = f"http://127.0.0.1:{port}/mcp"
    if not dry_run:
        return HttpEntry(url=url, token=obtain(state, given).value)
    kept = read_private(token_file(state), "token file", readable_by_others=False)
    value = given or (kept.decode().strip() if kept else secrets.token_urlsafe(32))  # a dry run makes no file
    return HttpEntry(url=url, token=value)


def _run(
    host: Host,
    scope: Scope,
    project: Path,
    dry_run: bool,
    as_json: bool,
    transport: str = "stdio",
    port: int = 8765,
    token: str | None = None,
    state_dir: Path | None = None,
) -> None:
    project = project.resolve()
    command = server_command()
    http = None
    if transport == "http":
        http = _http_entry(project, port, token, state_dir, dry_run)
        args: tuple[str, ...] = ("serve", "--transport", "http", "--port", str(port))
        if state_dir is not None:
            args += ("--state-dir", str(state_dir.resolve()))
        command = ServerCommand(command=command.command, args=args)
    plan = plan_install(
        host, scope, project=project, home=Path.home(), bundle=skills_dir(), command=command, http=http
    )
    if dry_run and not as_json:
        _show_diff(plan, project)
        return
    backups = [] if dry_run else apply_install(plan)
    if as_json:
        payload: dict[str, Any] = {
            "host": host,
            "scope": scope,
            "dry_run": dry_run,
            "config_file": str(plan.config_file),
            "skills_dir": str(plan.skills_dir),
            "command": [plan.command.command, *plan.command.args],
            "changed": [str(c.path) for c in plan.pending],
            "backups": [str(b) for b in backups],
            "transport": transport,
        }
        if http is not None:
            payload["url"] = http.url
        if dry_run:
            payload["diff"] = "".join(c.diff() for c in plan.pending)
        echo_json(payload)
        return
    _report(plan, project, dry_run=dry_run, backups=backups)
    where = "this folder" if scope == "project" else "any folder"
    click.echo(NEXT_STEPS[host].format(where=where))


def _common(f: Any) -> Any:
    f = click.option(
        "--state-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="HTTP: the state directory the server will use (default <project>/.skillweave); "
        "its serve-token is the token.",
    )(f)
    f = click.option("--token", default=None, help="HTTP: the server's bearer token (default: see --state-dir).")(f)
    f = click.option(
        "--port", type=click.IntRange(1, 65535), default=8765, show_default=True, help="HTTP: the server's port."
    )(f)
    f = click.option(
        "--transport",
        type=click.Choice(["stdio", "http"]),
        default="stdio",
        show_default=True,
        help="stdio: the host starts the server; http: the host connects to the one you run, with its token.",
    )(f)
    f = click.option("--dry-run", is_flag=True, help="Show the changes as a diff; write nothing.")(f)
    f = click.option(
        "--project",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("."),
        show_default=True,
        help="The project folder (for --scope project).",
    )(f)
    f = click.option(
        "--scope",
        type=click.Choice(["project", "user"]),
        default="project",
        show_default=True,
        help="project: this folder's config; user: your home folder's, for every project.",
    )(f)
    return f


@click.group(name="install")
def install() -> None:
    """Register the bundled skills and the skillweave MCP server with an agent host.

    Existing config files are merged, never replaced: other keys and servers are kept,
    and a changed file is first copied to <file>.bak. By default the host starts the
    server over stdio; --transport http instead points it at `skillweave serve
    --transport http` (which you run), with the server's bearer token in the entry.
    """


@install.command(name="claude")
@_common
@json_option
@debug_option
@handle_errors
def claude(
    scope: Scope,
    project: Path,
    dry_run: bool,
    transport: str,
    port: int,
    token: str | None,
    state_dir: Path | None,
    as_json: bool,
    debug: bool,
) -> None:
    """Claude Code: .mcp.json (or ~/.claude.json) and .claude/skills/ (or ~/.claude/skills/)."""
    _run("claude", scope, project, dry_run, as_json, transport, port, token, state_dir)


@install.command(name="cursor")
@_common
@json_option
@debug_option
@handle_errors
def cursor(
    scope: Scope,
    project: Path,
    dry_run: bool,
    transport: str,
    port: int,
    token: str | None,
    state_dir: Path | None,
    as_json: bool,
    debug: bool,
) -> None:
    """Cursor: .cursor/mcp.json and .cursor/skills/ (or the same under your home folder)."""
    _run("cursor", scope, project, dry_run, as_json, transport, port, token, state_dir)
