"""The HTTP server's bearer token: given, or kept in `<state dir>/serve-token`.

`skillweave serve --transport http` always requires `Authorization: Bearer <token>`,
on loopback too: any local process (a sandboxed script with network, another user's
program) can reach a loopback port, and only the token tells the person's client
from them. The token is `--token`, else `SKILLWEAVE_SERVE_TOKEN` (or the older name
`SKILLWEAVE_SERVER_TOKEN`), else the one in the state directory's `serve-token`
file, else a new random one written there. The file is mode 0600 and is kept, so
a host configured with the token (`skillweave install --transport http`) still
reaches the server after a restart; remove the file to make a new token. A token
that is given is written to the file too, for `install` to find.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from orchestrator.errors import ConfigError
from orchestrator.security.files import read_private, write_private

ENV_TOKEN = "SKILLWEAVE_SERVE_TOKEN"
ENV_TOKEN_OLD = "SKILLWEAVE_SERVER_TOKEN"  # the name before 0.x; still read
TOKEN_FILE = "serve-token"
TOKEN_BYTES = 32


class ServeToken(BaseModel):
    model_config = ConfigDict(frozen=True)

    value: str = Field(repr=False)
    file: Path  # where it is kept
    made: bool = False  # generated now (not given, not found)


def token_file(state_dir: Path) -> Path:
    return state_dir / TOKEN_FILE


def given_token(env: Mapping[str, str] | None = None, flag: str | None = None) -> str | None:
    """`flag` (the token the front end was given), else the environment's; None when neither is set."""
    env = os.environ if env is None else env
    value = flag or env.get(ENV_TOKEN) or env.get(ENV_TOKEN_OLD) or None
    if value is not None:
        if flag:
            check(value, None, setting="token")
        else:
            check(value, ENV_TOKEN)
    return value


def check(value: str, where: str | None, *, setting: str | None = None) -> None:
    """ConfigError unless `value` is one word; `where` (or the `setting`) says where it came from."""
    if not value.strip() or any(c.isspace() or not c.isprintable() for c in value):
        raise ConfigError("a token is one word of printable characters, without spaces", where=where, setting=setting)


def obtain(state_dir: Path, given: str | None = None) -> ServeToken:
    """The token to require: `given`, else the state directory's, else a new one (kept)."""
    path = token_file(state_dir)
    if given is not None:
        write_private(path, given.encode() + b"\n")
        return ServeToken(value=given, file=path)
    kept = read_private(path, "token file", readable_by_others=False)
    if kept is not None:
        value = kept.decode("utf-8", "replace").strip()
        check(value, str(path))
        return ServeToken(value=value, file=path)
    value = secrets.token_urlsafe(TOKEN_BYTES)
    write_private(path, value.encode() + b"\n")
    return ServeToken(value=value, file=path, made=True)
