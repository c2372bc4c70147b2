"""`skillweave trust`: record, list and revoke the mcp.json files the MCP server may start
commands from (see `orchestrator.security.trust`)."""

from __future__ import annotations

from pathlib import Path

import click

from orchestrator.cli._common import debug_option, echo_json, handle_errors, json_option


@click.command(name="trust")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--list", "listing", is_flag=True, help="List the trusted files.")
@click.option("--revoke", is_flag=True, help="Stop trusting the PATHs.")
@json_option
@debug_option
@handle_errors
def trust(paths: tuple[Path, ...], listing: bool, revoke: bool, as_json: bool, debug: bool) -> None:
    """Trust an mcp.json: let `skillweave serve` start the commands it lists.

    Records each PATH's real path and the SHA-256 of its content in your trust store
    ($SKILLWEAVE_TRUST_FILE, else $XDG_CONFIG_HOME/skillweave/trust.json, else
    ~/.config/skillweave/trust.json; mode 0600). A file changed since is untrusted
    again. Read the file first: trusting it lets any client of your skillweave
    server start what it lists. `skillweave run` from your shell needs no trust.
    """
    from orchestrator.errors import ConfigError, NotFoundError
    from orchestrator.mcp_client.config import load_mcp_config
    from orchestrator.security.trust import TrustStore

    store = TrustStore()
    if listing:
        if paths or revoke:
            raise ConfigError("--list takes no PATH and no --revoke", where="--list")
        records = store.records()
        if as_json:
            echo_json({"store": str(store.path), "trusted": [r.model_dump(mode="json") for r in records]})
            return
        for record in records:
            click.echo(f"{record.path}  sha256:{record.sha256[:16]}  trusted {record.trusted_at}")
        if not records:
            click.echo(f"nothing trusted ({store.path})")
        return
    if not paths:
        raise ConfigError("give the mcp.json to trust (or --list, or --revoke PATH)", where="trust")
    done: list[dict[str, str]] = []
    for path in paths:
        if revoke:
            removed = store.revoke(path)
            if not removed:
                raise NotFoundError(f"{path}: not in the trust store ({store.path})")
            done += [{"path": r.path, "sha256": r.sha256, "action": "revoked"} for r in removed]
            if not as_json:
                click.echo(f"{path}: no longer trusted")
            continue
        if not path.is_file():
            raise NotFoundError(f"{path}: no such file")
        load_mcp_config(path, bundled=False)  # a broken file is refused (file:line), never trusted
        record = store.add(path)
        done.append({"path": record.path, "sha256": record.sha256, "action": "trusted"})
        if not as_json:
            click.echo(f"{record.path}: trusted (sha256:{record.sha256[:16]}); the server may start what it lists")
    if as_json:
        echo_json({"store": str(store.path), "changed": done})
