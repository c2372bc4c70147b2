"""Collecting files from the work directory without ever following a symlink."""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path

import pytest

from orchestrator.sandbox.artifact import (
    MAX_ARTIFACT_DEPTH,
    MAX_ARTIFACT_ENTRIES,
    MAX_ARTIFACT_FILES,
    Collected,
    collect_artifacts,
    listed_paths,
)
from orchestrator.sandbox.model import FailureKind
from orchestrator.sandbox.workspace import remove_tree


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


def _collect(*args: object, **kwargs: object) -> tuple[tuple[object, ...], tuple[str, ...]]:
    collected = collect_artifacts(*args, **kwargs)  # type: ignore[arg-type]
    assert collected.failure is None, collected.failure
    return collected.artifacts, collected.notes


def _paths(artifacts: tuple[object, ...]) -> list[str]:
    return [a.path for a in artifacts]  # type: ignore[attr-defined]


def test_without_a_list_every_regular_file_is_collected_with_size_and_hash(work: Path) -> None:
    artifacts, notes = _collect(work, {"ok": True}, max_bytes=1 << 20)
    assert _paths(artifacts) == ["out/data.json", "report.txt"]
    report = artifacts[1]
    assert report.size == 5  # type: ignore[attr-defined]
    assert report.sha256 == hashlib.sha256(b"hello").hexdigest()  # type: ignore[attr-defined]
    assert notes == ()


def test_an_artifacts_list_in_the_output_selects_the_files(work: Path) -> None:
    output = {"artifacts": ["report.txt", {"path": "out/data.json"}]}
    artifacts, _ = _collect(work, output, max_bytes=1 << 20)
    assert _paths(artifacts) == ["report.txt", "out/data.json"]


def test_a_listed_directory_brings_its_files(work: Path) -> None:
    artifacts, _ = _collect(work, {"artifacts": ["out"]}, max_bytes=1 << 20)
    assert _paths(artifacts) == ["out/data.json"]


def test_symlinks_out_of_the_work_directory_are_not_followed(work: Path, outside: Path) -> None:
    (work / "link.txt").symlink_to(outside)
    (work / "dirlink").symlink_to(outside.parent, target_is_directory=True)
    output = {"artifacts": ["link.txt", "dirlink/secret.txt", "report.txt"]}
    copies = work.parent / "copies"
    artifacts, notes = _collect(work, output, max_bytes=1 << 20, copy_to=copies)
    assert _paths(artifacts) == ["report.txt"]
    assert any("link.txt skipped: a symlink" in n for n in notes)
    assert any("dirlink/secret.txt skipped: a symlink" in n for n in notes)
    copied = [p for p in copies.rglob("*") if p.is_file()]
    assert copied == [copies / "report.txt"]
    assert all("TOP SECRET" not in p.read_text() for p in copied)


def test_collecting_everything_skips_symlinks_and_says_so(work: Path, outside: Path) -> None:
    (work / "link.txt").symlink_to(outside)
    (work / "out" / "up").symlink_to(outside.parent, target_is_directory=True)
    artifacts, notes = _collect(work, None, max_bytes=1 << 20)
    assert _paths(artifacts) == ["out/data.json", "report.txt"]
    assert sorted(notes) == [
        "artifact link.txt skipped: a symlink, not followed",
        "artifact out/up skipped: a symlink, not followed",
    ]


@pytest.mark.parametrize("bad", ["../outside/secret.txt", "/etc/passwd", "out/../../x", ""])
def test_listed_paths_outside_the_work_directory_are_refused(work: Path, bad: str) -> None:
    artifacts, notes = _collect(work, {"artifacts": [bad]}, max_bytes=1 << 20)
    assert artifacts == ()
    assert notes == (f"artifact {bad!r} skipped: outside the work directory",)


def test_missing_and_special_files_are_reported_not_collected(work: Path) -> None:
    os.mkfifo(work / "pipe")
    output = {"artifacts": ["nope.txt", "pipe"]}
    artifacts, notes = _collect(work, output, max_bytes=1 << 20)
    assert artifacts == ()
    assert notes == (
        "artifact nope.txt skipped: no such file",
        "artifact pipe skipped: not a regular file",
    )


def test_a_work_directory_already_removed_had_nothing_and_named_files_are_missing(
    tmp_path: Path,
) -> None:
    gone = tmp_path / "gone"
    assert collect_artifacts(gone, {"n": 1}, max_bytes=1 << 20) == Collected()
    artifacts, notes = _collect(gone, {"artifacts": ["a.txt", "../x"]}, max_bytes=1 << 20)
    assert artifacts == ()
    assert notes == (
        "artifact a.txt skipped: no such file",
        "artifact '../x' skipped: outside the work directory",
    )


def test_the_size_cap_bounds_what_is_collected(work: Path) -> None:
    (work / "big.bin").write_bytes(b"x" * 100)
    artifacts, notes = _collect(work, None, max_bytes=50)
    assert _paths(artifacts) == ["out/data.json", "report.txt"]
    assert notes == ("artifact big.bin skipped: over the artifact size cap",)


def test_the_file_count_is_capped(tmp_path: Path) -> None:
    for i in range(MAX_ARTIFACT_FILES + 5):
        (tmp_path / f"f{i:05d}").write_bytes(b"")
    artifacts, notes = _collect(tmp_path, None, max_bytes=1 << 20)
    assert len(artifacts) == MAX_ARTIFACT_FILES
    assert f"artifacts stopped at {MAX_ARTIFACT_FILES} files" in notes


def test_only_an_artifacts_list_of_paths_selects_files() -> None:
    assert listed_paths({"artifacts": ["a", {"path": "b"}, 3]}) == ["a", "b"]
    assert listed_paths({"artifacts": "a"}) is None
    assert listed_paths(["a"]) is None


def test_an_output_listing_a_flood_of_names_fails_at_once_without_opening_any(tmp_path: Path) -> None:
    names = [f"f{i}" for i in range(3_000_000)]
    collected = collect_artifacts(tmp_path, {"artifacts": names}, max_bytes=1 << 20)
    assert collected.artifacts == ()
    assert collected.failure is not None and collected.failure.kind is FailureKind.RESOURCE_LIMIT
    assert collected.failure.message == "the output lists 3,000,000 artifacts; at most 1,000 are collected"


def test_a_work_directory_of_too_many_entries_fails_and_lists_nothing(tmp_path: Path) -> None:
    for i in range(MAX_ARTIFACT_ENTRIES + 1):
        os.close(os.open(tmp_path / f"{i}", os.O_CREAT | os.O_WRONLY))
    copies = tmp_path.parent / "copies"
    collected = collect_artifacts(tmp_path, None, max_bytes=1 << 20, copy_to=copies)
    assert collected.artifacts == ()
    assert collected.failure is not None
    assert "holds more than 20,000 files and folders" in collected.failure.message
    assert not copies.exists()


def test_a_tree_thousands_of_folders_deep_fails_as_a_resource_limit_not_a_crash(tmp_path: Path) -> None:
    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(3000):  # far past PATH_MAX and the recursion limit
        os.mkdir("d", dir_fd=fd)
        below = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = below
    os.close(os.open("deep.txt", os.O_CREAT | os.O_WRONLY, dir_fd=fd))
    os.close(fd)
    (tmp_path / "top.txt").write_text("x")
    collected = collect_artifacts(tmp_path, None, max_bytes=1 << 20)
    assert collected.failure is not None and collected.failure.kind is FailureKind.RESOURCE_LIMIT
    assert f"nests folders deeper than {MAX_ARTIFACT_DEPTH} levels" in collected.failure.message
    listed = collect_artifacts(tmp_path, {"artifacts": ["top.txt", "d/" * 100 + "x"]}, max_bytes=1 << 20)
    assert [a.path for a in listed.artifacts] == ["top.txt"]
    assert listed.notes[0].endswith("skipped: nested too deep")
    remove_tree(tmp_path / "d")  # pytest's own clean-up recurses
    assert list(tmp_path.iterdir()) == [tmp_path / "top.txt"]


def test_collecting_past_its_time_bound_fails(work: Path) -> None:
    collected = collect_artifacts(work, None, max_bytes=1 << 20, time_s=-1)
    assert collected.failure is not None
    assert collected.failure.message.startswith("collecting artifacts took longer than")


def test_notes_on_skipped_files_are_bounded(work: Path) -> None:
    names = [f"missing-{i}" for i in range(500)]
    artifacts, notes = _collect(work, {"artifacts": names}, max_bytes=1 << 20)
    assert artifacts == () and len(notes) == 21
    assert notes[-1] == "480 more artifact notes left out"


def test_a_copy_that_cannot_be_written_raises_and_leaves_no_partial_file(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (work / "big.bin").write_bytes(b"x" * (3 << 20))
    copies = work.parent / "copies"
    real_open = open

    class _FullDisk:
        def __init__(self, path: Path) -> None:
            self.file = real_open(path, "wb")
            self.written = 0

        def __enter__(self) -> _FullDisk:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def write(self, data: bytes) -> int:
            if self.written + len(data) > (1 << 20):
                raise OSError(errno.ENOSPC, "No space left on device")
            self.written += len(data)
            return self.file.write(data)

    def fake_open(path: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if mode == "wb" and str(path).startswith(str(copies)):
            return _FullDisk(Path(str(path)))
        return real_open(path, mode, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", fake_open)
    with pytest.raises(OSError) as raised:
        collect_artifacts(work, {"artifacts": ["report.txt", "big.bin"]}, max_bytes=1 << 30, copy_to=copies)
    assert raised.value.errno == errno.ENOSPC
    assert raised.value.filename == str(copies / "big.bin")
    assert not (copies / "big.bin").exists()
