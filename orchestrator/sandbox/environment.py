"""The script's environment: built from an allowlist, never copied from ours.

Nothing of the orchestrator's own environment reaches a script: no API keys,
tokens, HOME or PATH of the parent. A script sees the fixed variables below
plus what the caller passes in `SandboxRequest.env` (the engine passes
`SKILLWEAVE_IDEMPOTENCY_KEY`, `SKILLWEAVE_RUN_ID`, ...). Even there, a name
that looks like a credential is dropped, and reported, unless it is one of
ours (`SKILLWEAVE_*`): secrets do not belong in a sandbox.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"

FIXED_ENV: Mapping[str, str] = {
    "PATH": SANDBOX_PATH,
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONHASHSEED": "0",
    "PYTHONUTF8": "1",
    "PYTHONIOENCODING": "utf-8",
    "PYTHONNOUSERSITE": "1",
}

_NAME = re.compile(r"\A[A-Za-z_][A-Za-z0-9_]*+\Z")
_SECRET = re.compile(
    r"API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE_?KEY|ACCESS_?KEY|SESSION_?KEY|COOKIE",
    re.IGNORECASE,
)
OWN_PREFIX = "SKILLWEAVE_"


def build_env(
    extra: Mapping[str, str], *, home: str, tmpdir: str
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The environment for one attempt, and notes on what was refused."""
    env = dict(FIXED_ENV)
    env["HOME"] = home
    env["TMPDIR"] = tmpdir
    notes: list[str] = []
    for name, value in extra.items():
        if not _NAME.match(name) or "\0" in value:
            notes.append(f"environment variable {name!r} dropped: not a valid name or value")
        elif not name.startswith(OWN_PREFIX) and _SECRET.search(name):
            notes.append(f"environment variable {name} dropped: it looks like a secret")
        else:
            env[name] = value
    return env, tuple(notes)
