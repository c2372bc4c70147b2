"""Host paths mounted read-only into the real sandbox (`SandboxRequest.mounts`).

A folder of CSV files is readable at its in-sandbox path, a file beside it on the
host stays invisible, writes into the mounts are refused, and what the script
writes into its work directory comes back as artifacts. Under bwrap, cold and
warm; the unshare fallback, which has no file-system isolation, refuses it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError
from sandbox_modes import MODES, mode_id, usable, write_script

from orchestrator.sandbox import (
    FailureKind,
    Isolation,
    ReadOnlyMount,
    ResourceLimits,
    Sandbox,
    SandboxRequest,
)

pytestmark = pytest.mark.e2e

LIMITS = ResourceLimits(wall_s=20, cpu_s=10, memory_mb=256, max_procs=16)

READER = """
import csv, json, os, sys
folder = "/inputs/data"
seen = {"listing": sorted(os.listdir(folder)), "rows": 0}
for name in seen["listing"]:
    with open(os.path.join(folder, name), newline="") as f:
        seen["rows"] += sum(1 for _ in csv.reader(f))
with open("/inputs/single.csv") as f:
    seen["single"] = f.read()
hidden = json.load(sys.stdin)
seen["beside"] = {}
for path in (hidden, "/inputs/secret.txt", "/inputs/" + os.path.basename(hidden)):
    try:
        with open(path) as f:
            seen["beside"][path] = f.read()
    except OSError as exc:
        seen["beside"][path] = "denied: " + exc.strerror
seen["writes"] = {}
for path in ("/inputs/data/new.csv", "/inputs/data/a.csv", "/inputs/new.txt"):
    try:
        with open(path, "a") as f:
            f.write("x")
        seen["writes"][path] = "written"
    except OSError as exc:
        seen["writes"][path] = exc.strerror
with open("summary.txt", "w") as f:
    f.write("rows=%d" % seen["rows"])
json.dump(seen, sys.stdout)
"""


@pytest.fixture(params=MODES, ids=mode_id)
def mode(request: pytest.FixtureRequest) -> tuple[Isolation, bool]:
    return usable(request.param)


@pytest.fixture
def sandbox(mode: tuple[Isolation, bool]) -> Iterator[Sandbox]:
    iso, warm = mode
    sandbox = Sandbox(force=iso, warm=warm)
    yield sandbox
    asyncio.run(sandbox.aclose())


@pytest.fixture
def host(tmp_path: Path) -> Path:
    tmp_path.chmod(0o755)  # as root the script reads as an unprivileged uid
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    for name, rows in (("a.csv", 3), ("b.csv", 2)):
        (data / name).write_text("".join(f"{i},{i * i}\n" for i in range(rows)))
        (data / name).chmod(0o644)
    (tmp_path / "secret.txt").write_text("beside the folder")
    (tmp_path / "secret.txt").chmod(0o644)
    (tmp_path / "single.csv").write_text("one,file\n")
    (tmp_path / "single.csv").chmod(0o644)
    return tmp_path


def _request(skill: Path, entry: str, host: Path, copies: Path) -> SandboxRequest:
    return SandboxRequest(
        skill_dir=skill,
        entry=entry,
        input=str(host / "secret.txt"),
        limits=LIMITS,
        artifact_dir=copies,
        mounts=(
            ReadOnlyMount(source=host / "data", target="/inputs/data"),
            ReadOnlyMount(source=host / "single.csv", target="/inputs/single.csv"),
        ),
    )


async def test_a_mounted_folder_is_readable_the_file_beside_it_invisible_and_writes_refused(
    sandbox: Sandbox, host: Path, tmp_path: Path
) -> None:
    skill = tmp_path / "skill"
    entry = write_script(skill, READER)
    skill.chmod(0o755)
    request = _request(skill, entry, host, tmp_path / "copies")
    result = await asyncio.wait_for(sandbox.run(request), 60)
    if sandbox.isolation is not Isolation.BWRAP:
        assert result.failure is not None and result.failure.kind is FailureKind.SETUP
        assert "read-only mounts need bwrap" in result.failure.message
        return
    assert result.ok, (result.failure, result.stderr_tail)
    seen = result.output
    assert seen["listing"] == ["a.csv", "b.csv"] and seen["rows"] == 5
    assert seen["single"] == "one,file\n"
    assert all(text.startswith("denied: ") for text in seen["beside"].values()), seen["beside"]
    assert "written" not in seen["writes"].values(), seen["writes"]
    assert [a.path for a in result.artifacts] == ["summary.txt"]
    assert (tmp_path / "copies" / "summary.txt").read_text() == "rows=5"
    assert sorted(p.name for p in (host / "data").iterdir()) == ["a.csv", "b.csv"]
    assert (host / "data" / "a.csv").read_text() == "0,0\n1,1\n2,4\n"


async def test_a_mount_whose_source_is_missing_is_a_setup_failure(
    sandbox: Sandbox, host: Path, tmp_path: Path
) -> None:
    skill = tmp_path / "skill"
    entry = write_script(skill, "print('{}')\n")
    skill.chmod(0o755)
    request = SandboxRequest(
        skill_dir=skill,
        entry=entry,
        limits=LIMITS,
        mounts=(ReadOnlyMount(source=host / "nope", target="/inputs/nope"),),
    )
    result = await asyncio.wait_for(sandbox.run(request), 60)
    assert result.failure is not None and result.failure.kind is FailureKind.SETUP
    if sandbox.isolation is Isolation.BWRAP:
        assert result.failure.message == f"read-only mount {host / 'nope'} does not exist"


@pytest.mark.parametrize("target", ["/etc/passwd", "/inputs", "inputs/x", "/inputs/../etc", "/inputs/a/"])
def test_mount_targets_stay_below_inputs(tmp_path: Path, target: str) -> None:
    with pytest.raises(ValidationError, match="below /inputs"):
        ReadOnlyMount(source=tmp_path, target=target)


def test_overlapping_mounts_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="overlap"):
        SandboxRequest(
            skill_dir=tmp_path,
            entry="main.py",
            mounts=(
                ReadOnlyMount(source=tmp_path, target="/inputs/a"),
                ReadOnlyMount(source=tmp_path, target="/inputs/a/b"),
            ),
        )
