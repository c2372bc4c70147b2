"""Collecting files from the work directory without ever following a symlink."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from orchestrator.sandbox.artifact import MAX_ARTIFACT_FILES, collect_artifacts, listed_paths


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("TOP SECRET")
    return secret


@pytest.fixture
def work(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    (work / "report.txt").write_text("hello")
    (work / "out").mkdir()
    (work / "out" / "data.json").write_text("{}")
    return work


def _paths(artifacts: tuple[object, ...]) -> list[str]:
    return [a.path for a in artifacts]  # type: ignore[attr-defined]


def test_without_a_list_every_regular_file_is_collected_with_size_and_hash(work: Path) -> None:
    artifacts, notes = collect_artifacts(work, {"ok": True}, max_bytes=1 << 20)
    assert _paths(artifacts) == ["out/data.json", "report.txt"]
    report = artifacts[1]
    assert report.size == 5
    assert report.sha256 == hashlib.sha256(b"hello").hexdigest()
    assert notes == ()


def test_an_artifacts_list_in_the_output_selects_the_files(work: Path) -> None:
    output = {"artifacts": ["report.txt", {"path": "out/data.json"}]}
    artifacts, _ = collect_artifacts(work, output, max_bytes=1 << 20)
    assert _paths(artifacts) == ["report.txt", "out/data.json"]


def test_a_listed_directory_brings_its_files(work: Path) -> None:
    artifacts, _ = collect_artifacts(work, {"artifacts": ["out"]}, max_bytes=1 << 20)
    assert _paths(artifacts) == ["out/data.json"]


def test_symlinks_out_of_the_work_directory_are_not_followed(work: Path, outside: Path) -> None:
    (work / "link.txt").symlink_to(outside)
    (work / "dirlink").symlink_to(outside.parent, target_is_directory=True)
    output = {"artifacts": ["link.txt", "dirlink/secret.txt", "report.txt"]}
    copies = work.parent / "copies"
    artifacts, notes = collect_artifacts(work, output, max_bytes=1 << 20, copy_to=copies)
    assert _paths(artifacts) == ["report.txt"]
    assert any("link.txt skipped: a symlink" in n for n in notes)
    assert any("dirlink/secret.txt skipped: a symlink" in n for n in notes)
    copied = [p for p in copies.rglob("*") if p.is_file()]
    assert copied == [copies / "report.txt"]
    assert all("TOP SECRET" not in p.read_text() for p in copied)


def test_collecting_everything_skips_symlinks_and_says_so(work: Path, outside: Path) -> None:
    (work / "link.txt").symlink_to(outside)
    (work / "out" / "up").symlink_to(outside.parent, target_is_directory=True)
    artifacts, notes = collect_artifacts(work, None, max_bytes=1 << 20)
    assert _paths(artifacts) == ["out/data.json", "report.txt"]
    assert sorted(notes) == [
        "artifact link.txt skipped: a symlink, not followed",
        "artifact out/up skipped: a symlink, not followed",
    ]


@pytest.mark.parametrize("bad", ["../outside/secret.txt", "/etc/passwd", "out/../../x", ""])
def test_listed_paths_outside_the_work_directory_are_refused(work: Path, bad: str) -> None:
    artifacts, notes = collect_artifacts(work, {"artifacts": [bad]}, max_bytes=1 << 20)
    assert artifacts == ()
    assert notes == (f"artifact {bad!r} skipped: outside the work directory",)


def test_missing_and_special_files_are_reported_not_collected(work: Path) -> None:
    os.mkfifo(work / "pipe")
    output = {"artifacts": ["nope.txt", "pipe"]}
    artifacts, notes = collect_artifacts(work, output, max_bytes=1 << 20)
    assert artifacts == ()
    assert notes == (
        "artifact nope.txt skipped: no such file",
        "artifact pipe skipped: not a regular file",
    )


def test_a_work_directory_already_removed_had_nothing_and_named_files_are_missing(
    tmp_path: Path,
) -> None:
    gone = tmp_path / "gone"
    assert collect_artifacts(gone, {"n": 1}, max_bytes=1 << 20) == ((), ())
    artifacts, notes = collect_artifacts(gone, {"artifacts": ["a.txt", "../x"]}, max_bytes=1 << 20)
    assert artifacts == ()
    assert notes == (
        "artifact a.txt skipped: no such file",
        "artifact '../x' skipped: outside the work directory",
    )


def test_the_size_cap_bounds_what_is_collected(work: Path) -> None:
    (work / "big.bin").write_bytes(b"x" * 100)
    artifacts, notes = collect_artifacts(work, None, max_bytes=50)
    assert _paths(artifacts) == ["out/data.json", "report.txt"]
    assert notes == ("artifact big.bin skipped: over the artifact size cap",)


def test_the_file_count_is_capped(tmp_path: Path) -> None:
    for i in range(MAX_ARTIFACT_FILES + 5):
        (tmp_path / f"f{i:05d}").write_bytes(b"")
    artifacts, notes = collect_artifacts(tmp_path, None, max_bytes=1 << 20)
    assert len(artifacts) == MAX_ARTIFACT_FILES
    assert f"artifacts stopped at {MAX_ARTIFACT_FILES} files" in notes


def test_only_an_artifacts_list_of_paths_selects_files() -> None:
    assert listed_paths({"artifacts": ["a", {"path": "b"}, 3]}) == ["a", "b"]
    assert listed_paths({"artifacts": "a"}) is None
    assert listed_paths(["a"]) is None
