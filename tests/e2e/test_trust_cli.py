"""`skillweave trust`: record, list and revoke, through the real command."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

import pytest
from serverkit import SKILLWEAVE

pytestmark = pytest.mark.e2e


def trust(store: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(SKILLWEAVE), "trust", *args],
        capture_output=True, text=True, timeout=60, env={**os.environ, "SKILLWEAVE_TRUST_FILE": str(store)},
    )


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"docs": {"command": "python", "args": ["-m", "docs"]}}}))
    return path


def test_trust_list_and_revoke_a_file(tmp_path: Path, config: Path) -> None:
    store = tmp_path / "conf" / "trust.json"
    added = trust(store, str(config))
    listed = trust(store, "--list", "--json")
    revoked = trust(store, "--revoke", str(config))
    after = trust(store, "--list")
    assert added.returncode == 0, added.stderr
    assert f"{config}: trusted (sha256:" in added.stdout
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    records = json.loads(listed.stdout)["trusted"]
    assert [r["path"] for r in records] == [str(config)]
    assert revoked.returncode == 0 and "no longer trusted" in revoked.stdout
    assert after.stdout.startswith("nothing trusted")


def test_a_broken_mcp_json_is_refused_at_its_line_and_not_recorded(tmp_path: Path) -> None:
    store = tmp_path / "trust.json"
    broken = tmp_path / "mcp.json"
    broken.write_text('{"mcpServers": {\n  "x": {"command": 3}}}')
    result = trust(store, str(broken))
    assert result.returncode == 2
    assert f"{broken}:2:" in result.stderr and "Traceback" not in result.stderr
    assert not store.exists()


def test_missing_files_and_unknown_records_are_usage_errors(tmp_path: Path, config: Path) -> None:
    store = tmp_path / "trust.json"
    missing = trust(store, str(tmp_path / "nope.json"))
    unknown = trust(store, "--revoke", str(config))
    nothing = trust(store)
    assert missing.returncode == 2 and "no such file" in missing.stderr
    assert unknown.returncode == 2 and "not in the trust store" in unknown.stderr
    assert nothing.returncode == 2 and "give the mcp.json to trust" in nothing.stderr
