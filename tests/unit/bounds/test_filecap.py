"""Reading a file with a cap: only regular files, never past the cap, never a hang."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from orchestrator.config import ENV_MAX_DATA_BYTES, ENV_MAX_SPEC_BYTES, file_caps, load_settings
from orchestrator.errors import ConfigError
from orchestrator.filecap import FileCapError, read_capped, sha256_file


def test_a_regular_file_within_the_cap_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "spec.md"
    path.write_bytes(b"x" * 100)
    assert read_capped(path, 100, "VAR") == b"x" * 100


def test_a_file_one_byte_over_the_cap_is_refused_naming_the_cap_and_its_variable(tmp_path: Path) -> None:
    path = tmp_path / "spec.md"
    path.write_bytes(b"x" * 1025)
    with pytest.raises(FileCapError) as caught:
        read_capped(path, 1024, "SKILLWEAVE_MAX_SPEC_BYTES")
    assert caught.value.strerror == "larger than the 1 KiB limit (set SKILLWEAVE_MAX_SPEC_BYTES to raise it)"


def test_a_fifo_without_a_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "spec.md"
    os.mkfifo(fifo)
    with pytest.raises(FileCapError, match="a FIFO"):
        read_capped(fifo, 1 << 20, "VAR")  # a plain open() would block here


def test_a_symlink_to_a_device_is_refused_without_reading_it(tmp_path: Path) -> None:
    link = tmp_path / "spec.md"
    link.symlink_to("/dev/zero")
    with pytest.raises(FileCapError, match="a device, not a regular file"):
        read_capped(link, 1 << 20, "VAR")


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileCapError, match="a directory"):
        read_capped(tmp_path, 1 << 20, "VAR")


def test_a_refusal_is_an_oserror_so_callers_report_it_as_they_report_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        read_capped(tmp_path, 1, "VAR")


def test_hashing_a_fifo_or_device_never_reads_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert sha256_file(fifo) == hashlib.sha256(b"<a FIFO (named pipe)>").hexdigest()
    assert sha256_file("/dev/zero") == hashlib.sha256(b"<a device>").hexdigest()
    regular = tmp_path / "f"
    regular.write_bytes(b"abc" * 100_000)
    assert sha256_file(regular) == hashlib.sha256(b"abc" * 100_000).hexdigest()


def test_the_caps_default_to_1_mib_for_specs_and_64_mib_for_data() -> None:
    caps = file_caps({})
    assert (caps.spec_bytes, caps.data_bytes) == (1 << 20, 64 << 20)


def test_the_caps_come_from_the_environment_with_a_unit() -> None:
    caps = file_caps({ENV_MAX_SPEC_BYTES: "4M", ENV_MAX_DATA_BYTES: "1000"})
    assert (caps.spec_bytes, caps.data_bytes) == (4 << 20, 1000)
    assert load_settings({ENV_MAX_SPEC_BYTES: "512k"}).caps.spec_bytes == 512 << 10


@pytest.mark.parametrize("raw", ["lots", "0", "-5", "1T"])
def test_a_cap_that_is_not_a_size_is_a_config_error_naming_the_variable(raw: str) -> None:
    with pytest.raises(ConfigError) as caught:
        file_caps({ENV_MAX_SPEC_BYTES: raw})
    assert caught.value.where == ENV_MAX_SPEC_BYTES


def test_a_skill_md_replaced_by_a_fifo_is_refused_by_the_llm_runner_without_a_hang(tmp_path: Path) -> None:
    from orchestrator.llm.runner import skill_body

    os.mkfifo(tmp_path / "SKILL.md")
    with pytest.raises(FileCapError, match="a FIFO"):
        skill_body(tmp_path)


def test_regeneration_falls_back_to_the_description_when_skill_md_is_over_the_cap(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from orchestrator.engine.versions import instructions as _instructions
    from orchestrator.plan.model import BoundSkill

    monkeypatch.setenv(ENV_MAX_SPEC_BYTES, "1024")
    (tmp_path / "SKILL.md").write_text("---\nname: big\n---\n" + "x" * 2000, encoding="utf-8")
    skill = BoundSkill(name="big", kind="script", path=str(tmp_path), origin="dir", sha256="0" * 64,
                       description="what it does")
    assert _instructions(skill) == "what it does"
    monkeypatch.setenv(ENV_MAX_SPEC_BYTES, "4096")
    assert _instructions(skill).startswith("x" * 2000)


@pytest.mark.parametrize("kind", ["fifo", "dev-zero"])
def test_a_lockfile_that_is_a_fifo_or_dev_zero_is_a_config_error_not_a_hang(tmp_path: Path, kind: str) -> None:
    from orchestrator.lockfile import load_lock

    lock = tmp_path / "flow.md.lock.json"
    if kind == "fifo":
        os.mkfifo(lock)
    else:
        lock.symlink_to("/dev/zero")
    with pytest.raises(ConfigError, match=r"cannot read the lockfile: .*not a regular file"):
        load_lock(lock)
