"""The trust store: a file's real path and content hash, 0600, changed means untrusted again."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from orchestrator.errors import ConfigError
from orchestrator.security.trust import ENV_TRUST_FILE, TrustStore, sha256_of, store_path

CONFIG = '{"mcpServers": {"docs": {"command": "python", "args": ["-m", "docs"]}}}\n'


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "project" / "mcp.json"
    path.parent.mkdir()
    path.write_text(CONFIG)
    return path


@pytest.fixture
def store(tmp_path: Path) -> TrustStore:
    return TrustStore(tmp_path / "config" / "skillweave" / "trust.json")


def test_a_file_never_trusted_is_unknown(store: TrustStore, config: Path) -> None:
    assert store.verdict(config, config.read_bytes()) == "unknown"
    assert not store.path.exists()  # reading makes no store


def test_a_trusted_file_is_trusted_by_real_path_and_hash(store: TrustStore, config: Path) -> None:
    record = store.add(config)
    assert record.path == os.path.realpath(config)
    assert record.sha256 == sha256_of(CONFIG.encode())
    assert store.verdict(config, config.read_bytes()) == "trusted"
    link = config.parent / "linked.json"
    link.symlink_to(config)
    assert store.verdict(link, config.read_bytes()) == "trusted"  # the same file, reached by a link


def test_a_changed_file_is_untrusted_again(store: TrustStore, config: Path) -> None:
    store.add(config)
    config.write_text(CONFIG.replace("docs", "evil"))
    assert store.verdict(config, config.read_bytes()) == "changed"
    store.add(config)
    assert store.verdict(config, config.read_bytes()) == "trusted"
    assert len(store.records()) == 1  # the newer record replaced the older


def test_the_same_content_elsewhere_is_not_trusted(store: TrustStore, config: Path, tmp_path: Path) -> None:
    store.add(config)
    copy = tmp_path / "copy.json"
    copy.write_text(CONFIG)
    assert store.verdict(copy, copy.read_bytes()) == "unknown"


def test_revoking_removes_the_record(store: TrustStore, config: Path) -> None:
    store.add(config)
    removed = store.revoke(config)
    assert [r.path for r in removed] == [os.path.realpath(config)]
    assert store.verdict(config, config.read_bytes()) == "unknown"
    assert store.revoke(config) == []


def test_a_deleted_file_can_still_be_revoked(store: TrustStore, config: Path) -> None:
    store.add(config)
    config.unlink()
    assert len(store.revoke(config)) == 1


def test_the_store_is_mode_0600_in_a_0700_folder(store: TrustStore, config: Path) -> None:
    store.add(config)
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    assert json.loads(store.path.read_text())["version"] == 1


def test_a_store_others_can_write_is_refused(store: TrustStore, config: Path) -> None:
    store.add(config)
    store.path.chmod(0o666)
    with pytest.raises(ConfigError) as info:
        store.verdict(config, config.read_bytes())
    assert info.value.where == str(store.path)
    assert "chmod 600" in info.value.message


def test_a_store_that_is_not_skillweaves_is_refused_naming_it(store: TrustStore, config: Path) -> None:
    store.path.parent.mkdir(parents=True)
    store.path.write_text('{"trusted": "everything"}')
    store.path.chmod(0o600)
    with pytest.raises(ConfigError) as info:
        store.records()
    assert info.value.where == str(store.path)


def test_the_store_location_follows_the_environment(tmp_path: Path) -> None:
    assert store_path({ENV_TRUST_FILE: str(tmp_path / "t.json")}) == tmp_path / "t.json"
    assert store_path({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "skillweave" / "trust.json"
    assert store_path({}) == Path.home() / ".config" / "skillweave" / "trust.json"
