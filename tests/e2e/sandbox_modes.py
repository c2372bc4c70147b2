"""The sandbox mechanisms the e2e suites run under, one test id each.

bwrap and the unshare fallback, cold, plus the warm fork server under bwrap;
SKILLWEAVE_SANDBOX=bwrap|unshare|none narrows a run to one mechanism. A
mechanism this host cannot run is skipped with the probe's reason.
"""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import pytest

from orchestrator.sandbox import ENV_SANDBOX, Isolation, probe_isolation

_FORCED = os.environ.get(ENV_SANDBOX, "").strip().lower()
ISOLATIONS = [Isolation(_FORCED)] if _FORCED not in ("", "auto") else [Isolation.BWRAP, Isolation.UNSHARE]
# (isolation, warm): the warm path (a fork server) runs under bwrap only
MODES = [(iso, False) for iso in ISOLATIONS] + [(iso, True) for iso in ISOLATIONS if iso is Isolation.BWRAP]


def mode_id(mode: tuple[Isolation, bool]) -> str:
    return f"warm-{mode[0]}" if mode[1] else str(mode[0])


def usable(mode: tuple[Isolation, bool]) -> tuple[Isolation, bool]:
    """`mode`, or a skip saying why this host cannot run it."""
    iso, _ = mode
    if iso is not Isolation.NONE:
        reason = probe_isolation(iso)
        if reason is not None:
            pytest.skip(f"{iso} cannot run scripts on this host: {reason}")
    return mode


def write_script(skill: Path, source: str, name: str = "main.py") -> str:
    """Write a script into a test skill, readable by the per-run uid a root sandbox uses."""
    path = skill / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.parent.chmod(0o755)
    path.write_text(textwrap.dedent(source))
    path.chmod(0o644)
    return name
