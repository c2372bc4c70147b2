"""The attempt directory: how much a script put in it, counted cheaply."""

from __future__ import annotations

from pathlib import Path

from orchestrator.sandbox.workspace import ENTRY_BYTES, used_bytes


def test_used_bytes_counts_data_and_every_entry_at_least_a_block(tmp_path: Path) -> None:
    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "d" / "e" / "data.bin").write_bytes(b"x" * (256 * 1024))
    for i in range(10):
        (tmp_path / f"empty-{i}").touch()
    used = used_bytes(tmp_path, 1 << 30)
    assert used >= 256 * 1024 + 12 * ENTRY_BYTES


def test_used_bytes_stops_walking_once_past_the_cap(tmp_path: Path) -> None:
    for i in range(1000):
        (tmp_path / f"f-{i}").touch()
    cap = 10 * ENTRY_BYTES
    assert used_bytes(tmp_path, cap) == cap + ENTRY_BYTES  # eleven entries seen, not 1000


def test_used_bytes_never_follows_a_symlink_out(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "big.bin").write_bytes(b"x" * (1 << 20))
    work = tmp_path / "work"
    work.mkdir()
    (work / "link").symlink_to(outside)
    assert used_bytes(work, 1 << 30) == ENTRY_BYTES


def test_used_bytes_of_a_folder_that_is_gone_is_zero(tmp_path: Path) -> None:
    assert used_bytes(tmp_path / "gone", 100) == 0
