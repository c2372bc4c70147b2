"""Ways out of the sandbox that QA found, closed, checked through the real sandbox.

- a skill's entry that is a symlink to a root-only file outside the folder;
- root-only host files under the fallbacks, which once kept CAP_DAC_READ_SEARCH;
- a work directory filled past its total quota, one file under the size limit at a time.

Each test runs under every mechanism of `sandbox_modes` (bwrap, unshare, warm
bwrap); the ones about isolation none force it, since that is what it is about.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_modes import MODES, mode_id, usable, write_script

from orchestrator.sandbox import (
    FailureKind,
    Isolation,
    ResourceLimits,
    Sandbox,
    SandboxRequest,
    SandboxResult,
)

pytestmark = pytest.mark.e2e

SMALL = ResourceLimits(wall_s=20, cpu_s=10, memory_mb=256, max_procs=16)
READER = """
import json, sys
found = {}
for path in json.load(sys.stdin):
    try:
        with open(path) as f:
            found[path] = f.read()
    except OSError as exc:
        found[path] = "denied: " + type(exc).__name__
json.dump(found, sys.stdout)
"""


@pytest.fixture(scope="module", params=MODES, ids=mode_id)
def sandbox(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    iso, warm = usable(request.param)
    sandbox = Sandbox(force=iso, warm=warm)
    yield sandbox
    asyncio.run(sandbox.aclose())


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    skill = tmp_path / "skill"
    skill.mkdir()
    skill.chmod(0o755)  # as root the script runs under an unprivileged uid
    return skill


@pytest.fixture
def root_only() -> Iterator[tuple[Path, str]]:
    """A file only root may read (0600 in a 0700 folder of /var/tmp, which all may search;
    not /tmp, which each unshare run gets afresh)."""
    secret = f"secret-{uuid.uuid4().hex}"
    folder = Path(tempfile.mkdtemp(prefix="skillweave-root-only-", dir="/var/tmp"))
    assert folder.stat().st_mode & 0o777 == 0o700
    path = folder / "secret.txt"
    path.write_text(secret)
    path.chmod(0o600)
    yield path, secret
    shutil.rmtree(folder)


async def _run(
    sandbox: Sandbox, skill: Path, entry: str, *, input: object = None, **limits: object
) -> SandboxResult:
    request = SandboxRequest(
        skill_dir=skill, entry=entry, input=input, limits=SMALL.merged(**limits)
    )
    async with asyncio.timeout(60):
        return await sandbox.run(request)


def _needs_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("a root-only file is readable by its owner: this is about running as root")


async def test_an_entry_symlinked_to_a_root_only_file_outside_the_folder_is_refused_unread(
    sandbox: Sandbox, skill: Path, tmp_path: Path
) -> None:
    secret = f"secret-{uuid.uuid4().hex}"
    target = tmp_path / "private" / "evil.py"
    target.parent.mkdir(mode=0o700)
    target.write_text(f'print(\'{{"leak": "{secret}"}}\')\n')
    target.chmod(0o600)
    (skill / "scripts").mkdir(mode=0o755)
    (skill / "scripts" / "main.py").symlink_to(target)
    result = await _run(sandbox, skill, "scripts/main.py")
    assert result.failure is not None and result.failure.kind is FailureKind.SETUP
    assert result.failure.message == (
        f"skill skill: entry 'scripts/main.py' leads outside the skill folder "
        f"(a symlink to {target.resolve()}); refusing to run it"
    )
    assert secret not in result.model_dump_json()


async def test_a_root_only_file_is_unreadable_to_the_script(
    sandbox: Sandbox, skill: Path, root_only: tuple[Path, str]
) -> None:
    _needs_root()
    path, secret = root_only
    entry = write_script(skill, READER)
    result = await _run(sandbox, skill, entry, input=[str(path), "/etc/shadow"])
    assert result.ok, result.failure
    assert secret not in json.dumps(result.output)
    # bwrap does not even mount them; the fallbacks see the host's files, as another user
    denied = "FileNotFoundError" if sandbox.isolation is Isolation.BWRAP else "PermissionError"
    assert result.output == {
        str(path): f"denied: {denied}",
        "/etc/shadow": "denied: PermissionError",
    }


async def test_isolation_none_as_root_reads_no_root_only_file_or_refuses_saying_why(
    skill: Path, root_only: tuple[Path, str]
) -> None:
    _needs_root()
    path, secret = root_only
    entry = write_script(skill, READER)
    result = await _run(Sandbox(force=Isolation.NONE), skill, entry, input=[str(path)])
    assert secret not in result.model_dump_json()
    if result.failure is not None:  # a runtime other users cannot reach, as here under /root
        assert result.failure.kind is FailureKind.SETUP
        assert (
            "runs scripts under an unprivileged uid, which cannot reach" in result.failure.message
        )
    else:
        assert result.output == {str(path): "denied: PermissionError"}


async def test_filling_the_work_directory_past_its_quota_one_file_at_a_time_is_stopped(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = write_script(
        skill,
        """
        import time
        for i in range(10_000):  # 1 MB files, each under the file size limit, forever
            with open(f"fill-{i}.bin", "wb") as f:
                f.write(b"x" * (1 << 20))
            time.sleep(0.01)
        print("{}")
        """,
    )
    result = await _run(sandbox, skill, entry, work_dir_mb=4, file_size_mb=2, wall_s=60)
    assert result.failure is not None and result.failure.kind is FailureKind.RESOURCE_LIMIT
    assert result.failure.message == "script wrote more than 4 MB to its work directory"
    assert result.signal is not None  # killed while it ran, not at the end


async def test_a_script_that_fills_its_work_directory_and_exits_at_once_fails_after_it(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = write_script(
        skill,
        """
        for i in range(6):
            with open(f"fill-{i}.bin", "wb") as f:
                f.write(b"x" * (1 << 20))
        print("{}")
        """,
    )
    result = await _run(sandbox, skill, entry, work_dir_mb=4, file_size_mb=2)
    assert result.failure is not None and result.failure.kind is FailureKind.RESOURCE_LIMIT
    assert result.failure.message == "script wrote more than 4 MB to its work directory"


async def test_a_script_within_its_work_directory_quota_succeeds(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = write_script(
        skill,
        """
        with open("out.bin", "wb") as f:
            f.write(b"x" * (1 << 20))
        print('{"artifacts": ["out.bin"]}')
        """,
    )
    result = await _run(sandbox, skill, entry, work_dir_mb=4, file_size_mb=2)
    assert result.ok, result.failure
    assert [a.size for a in result.artifacts] == [1 << 20]
