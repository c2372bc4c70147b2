"""Well-behaved (and merely buggy) scripts through the real sandbox: the contract.

Each test runs under bwrap and under the unshare fallback (named in the test
id); SKILLWEAVE_SANDBOX=bwrap|unshare|none narrows the run to one mechanism.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from sandbox_modes import MODES, mode_id, usable, write_script

from orchestrator.sandbox import (
    FailureKind,
    ResourceLimits,
    Sandbox,
    SandboxRequest,
    SandboxResult,
)
from orchestrator.sandbox.network import find_slirp

pytestmark = pytest.mark.e2e


LIMITS = ResourceLimits(wall_s=15, cpu_s=10, memory_mb=256)


@pytest.fixture(scope="module", params=MODES, ids=mode_id)
def sandbox(request: pytest.FixtureRequest) -> Iterator[Sandbox]:
    iso, warm = usable(request.param)
    sandbox = Sandbox(force=iso, warm=warm)
    assert sandbox.warm is warm
    yield sandbox
    asyncio.run(sandbox.aclose())


@pytest.fixture
def skill(tmp_path: Path) -> Path:
    skill = tmp_path / "skill"
    (skill / "scripts").mkdir(parents=True)
    for folder in (skill, skill / "scripts"):
        folder.chmod(0o755)  # as root the script runs under an unprivileged uid
    return skill


def _write(skill: Path, source: str, name: str = "scripts/main.py") -> str:
    return write_script(skill, source, name)


async def _run(sandbox: Sandbox, skill: Path, entry: str, **kw: object) -> SandboxResult:
    values: dict[str, object] = {"skill_dir": skill, "entry": entry, "limits": LIMITS}
    values.update(kw)
    async with asyncio.timeout(30):
        result = await sandbox.run(SandboxRequest.model_validate(values))
    assert result.isolation is sandbox.isolation
    assert not any("warm path unavailable" in note for note in result.notes)
    return result


async def test_unicode_goes_in_and_comes_out_intact(sandbox: Sandbox, skill: Path) -> None:
    entry = _write(
        skill,
        """
        import json, sys
        data = json.load(sys.stdin)
        print("journal: é ✓", file=sys.stderr)
        json.dump({"echo": data["text"], "length": len(data["text"])}, sys.stdout, ensure_ascii=False)
        """,
    )
    text = "héllo ✓ 日本語 🎉"
    result = await _run(sandbox, skill, entry, input={"text": text})
    assert result.ok, result.failure
    assert result.output == {"echo": text, "length": len(text)}
    assert result.stderr_tail == "journal: é ✓\n"
    assert result.exit_code == 0


async def test_a_large_valid_output_under_the_cap_is_accepted(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = _write(
        skill,
        """
        import json, sys
        json.dump({"rows": [{"i": i, "name": "row %d" % i} for i in range(100_000)]}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry)
    assert result.ok, result.failure
    assert len(result.output["rows"]) == 100_000
    assert result.stdout_bytes > 2_000_000


@pytest.mark.parametrize(
    ("source", "says"),
    [
        ("print('hello, world')", "stdout is not JSON"),
        ("print('{\"ok\": true}')\nprint('done')", "text after the JSON document"),
        ("pass", "stdout is empty"),
    ],
    ids=["text", "json-then-text", "nothing"],
)
async def test_stdout_that_is_not_one_json_document_is_an_output_contract_failure(
    sandbox: Sandbox, skill: Path, source: str, says: str
) -> None:
    result = await _run(sandbox, skill, _write(skill, source))
    assert result.failure is not None and result.failure.kind is FailureKind.OUTPUT_CONTRACT
    assert says in result.failure.message
    assert result.exit_code == 0


@pytest.mark.parametrize(
    ("source", "exit_code", "says"),
    [
        ("import sys\nsys.exit(3)", 3, "status 3"),
        ("raise ValueError('bad row 7')", 1, "ValueError: bad row 7"),
        ("def broken(:\n    pass", 1, "SyntaxError"),
    ],
    ids=["exit-3", "exception", "syntax-error"],
)
async def test_exit_codes_and_exceptions_are_code_errors(
    sandbox: Sandbox, skill: Path, source: str, exit_code: int, says: str
) -> None:
    result = await _run(sandbox, skill, _write(skill, source))
    assert result.failure is not None and result.failure.kind is FailureKind.CODE_ERROR
    assert result.exit_code == exit_code
    assert says in result.failure.message


async def test_a_script_imports_the_stdlib_and_modules_from_its_skill_folder(
    sandbox: Sandbox, skill: Path
) -> None:
    _write(skill, "def double(x):\n    return 2 * x\n", "helpers/__init__.py")
    _write(skill, "PREFIX = 'mean'\n", "scripts/naming.py")
    entry = _write(
        skill,
        """
        import json, statistics, sys
        import helpers
        from naming import PREFIX
        values = json.load(sys.stdin)
        json.dump({PREFIX: statistics.mean(values), "double": helpers.double(len(values))}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry, input=[1, 2, 3, 6])
    assert result.ok, result.failure
    assert result.output == {"mean": 3, "double": 8}


async def test_the_orchestrators_site_packages_are_not_importable(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = _write(
        skill,
        """
        import json, sys
        try:
            import pydantic
            found = True
        except ImportError:
            found = False
        json.dump({"pydantic": found, "path": sys.path}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry)
    assert result.ok, result.failure
    assert result.output["pydantic"] is False


async def test_the_attempt_environment_carries_the_idempotency_key(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = _write(
        skill,
        """
        import json, os, sys
        json.dump({k: os.environ.get(k) for k in
                   ("SKILLWEAVE_IDEMPOTENCY_KEY", "PYTHONHASHSEED", "LC_ALL", "HOME")}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry, env={"SKILLWEAVE_IDEMPOTENCY_KEY": "run-1/s/2"})
    assert result.ok, result.failure
    out = result.output
    assert out["SKILLWEAVE_IDEMPOTENCY_KEY"] == "run-1/s/2"
    assert (out["PYTHONHASHSEED"], out["LC_ALL"]) == ("0", "C.UTF-8")
    assert out["HOME"] != os.environ.get("HOME")


async def test_files_written_to_the_work_directory_come_back_as_artifacts(
    sandbox: Sandbox, skill: Path, tmp_path: Path
) -> None:
    entry = _write(
        skill,
        """
        import json, os, sys
        os.makedirs("out", exist_ok=True)
        with open("out/report.md", "w") as f:
            f.write("# Report\\n")
        with open("scratch.tmp", "w") as f:
            f.write("not listed")
        json.dump({"artifacts": ["out/report.md"]}, sys.stdout)
        """,
    )
    copies = tmp_path / "copies"
    result = await _run(
        sandbox,
        skill,
        entry,
        artifact_dir=copies,
        keep_workdir=True,
        workdir_parent=tmp_path / "attempts",
    )
    assert result.ok, result.failure
    (artifact,) = result.artifacts
    assert artifact.path == "out/report.md"
    assert artifact.sha256 == hashlib.sha256(b"# Report\n").hexdigest()
    assert (copies / "out" / "report.md").read_text() == "# Report\n"
    assert result.workdir is not None and (result.workdir / "scratch.tmp").exists()


async def test_files_left_open_at_exit_are_complete_and_finalizers_run(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = _write(
        skill,
        """
        import json, sys
        plain = open("plain.txt", "w")
        plain.write("left open")

        class Note:
            def __del__(self):
                print("finalized", file=sys.stderr)

        def helper():  # makes the script's globals a reference cycle
            return plain

        note = Note()
        json.dump({"artifacts": ["plain.txt"]}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry)
    assert result.ok, result.failure
    (artifact,) = result.artifacts
    assert artifact.size == len("left open")
    assert "finalized" in result.stderr_tail


async def test_a_file_a_skill_module_left_open_is_complete(sandbox: Sandbox, skill: Path) -> None:
    _write(skill, "log = open('log.txt', 'w')\n", "scripts/journal.py")
    entry = _write(
        skill,
        """
        import json, sys
        import journal
        journal.log.write("kept " * 100)
        json.dump({"artifacts": ["log.txt"]}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry)
    assert result.ok, result.failure
    (artifact,) = result.artifacts
    assert artifact.size == len("kept ") * 100


async def test_the_run_ends_after_its_threads_and_atexit_handlers(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = _write(
        skill,
        """
        import atexit, json, sys, threading, time
        atexit.register(print, "atexit ran", file=sys.stderr)

        def late():
            time.sleep(0.2)
            json.dump({"from": "thread"}, sys.stdout)

        threading.Thread(target=late).start()
        """,
    )
    result = await _run(sandbox, skill, entry)
    assert result.ok, (result.failure, result.stderr_tail)
    assert result.output == {"from": "thread"}
    assert "atexit ran" in result.stderr_tail


@pytest.mark.parametrize(
    ("source", "exit_code", "stderr"),
    [
        ("import sys\nsys.exit('no rows to read')", 1, "no rows to read"),
        ("import sys\nsys.exit(None)", 0, ""),
        ("import sys\nsys.stdout.close()", 0, ""),
    ],
    ids=["message", "none", "closed-stdout"],
)
async def test_sys_exit_and_closed_streams_end_as_python_would(
    sandbox: Sandbox, skill: Path, source: str, exit_code: int, stderr: str
) -> None:
    result = await _run(sandbox, skill, _write(skill, source))
    assert result.exit_code == exit_code
    assert stderr in result.stderr_tail


async def test_output_buffered_before_stdout_was_replaced_still_arrives(
    sandbox: Sandbox, skill: Path
) -> None:
    source = "import io, sys\nsys.stdout.write('{\"a\": 1}')\nsys.stdout = io.StringIO()\n"
    result = await _run(sandbox, skill, _write(skill, source))
    assert result.ok, (result.failure, result.stderr_tail)
    assert result.output == {"a": 1}


async def test_a_traceback_starts_at_the_script(sandbox: Sandbox, skill: Path) -> None:
    entry = _write(skill, "def fail():\n    raise KeyError('row')\n\nfail()\n")
    result = await _run(sandbox, skill, entry)
    assert result.failure is not None and result.failure.kind is FailureKind.CODE_ERROR
    frames = [line for line in result.stderr_tail.splitlines() if line.startswith("  File ")]
    assert len(frames) == 2 and all("main.py" in line for line in frames), result.stderr_tail


async def test_the_work_directory_is_removed_unless_kept(
    sandbox: Sandbox, skill: Path, tmp_path: Path
) -> None:
    entry = _write(skill, "import json, os, sys\njson.dump(os.getcwd(), sys.stdout)\n")
    parent = tmp_path / "attempts"
    result = await _run(sandbox, skill, entry, workdir_parent=parent)
    assert result.ok, result.failure
    assert result.workdir is None
    assert list(parent.iterdir()) == []


async def test_a_regenerated_script_runs_in_place_of_the_entry(
    sandbox: Sandbox, skill: Path, tmp_path: Path
) -> None:
    _write(skill, "VERSION = 'helper'\n", "scripts/naming.py")
    entry = _write(skill, "raise SystemExit('the old, broken version')\n")
    regenerated = tmp_path / "run" / "v2.py"
    regenerated.parent.mkdir()
    regenerated.write_text(
        "import json, sys\nfrom naming import VERSION\njson.dump({'from': VERSION}, sys.stdout)\n"
    )
    regenerated.chmod(0o644)
    result = await _run(sandbox, skill, entry, script=regenerated)
    assert result.ok, result.failure
    assert result.output == {"from": "helper"}


async def test_the_network_is_there_only_when_the_skill_allows_it_and_never_the_hosts_loopback(
    sandbox: Sandbox, skill: Path
) -> None:
    if find_slirp() is None:
        pytest.skip("slirp4netns is not installed (scripts/install-system-packages.sh)")
    entry = _write(
        skill,
        """
        import json, socket, sys
        with open("/proc/net/route") as f:
            routed = any(line.split()[1] == "00000000" for line in f.readlines()[1:])
        try:
            socket.create_connection(("127.0.0.1", json.load(sys.stdin)), timeout=5).close()
            json.dump(["connected", routed], sys.stdout)
        except OSError as exc:
            json.dump([str(exc), routed], sys.stdout)
        """,
    )
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        allowed = await _run(sandbox, skill, entry, input=port, network=True)
        denied = await _run(sandbox, skill, entry, input=port)
    assert allowed.ok and denied.ok, (allowed.failure, denied.failure)
    assert allowed.output[1] is True and denied.output[1] is False  # a default route only when allowed
    assert allowed.output[0] != "connected" and denied.output[0] != "connected"


async def test_resource_use_is_reported(sandbox: Sandbox, skill: Path) -> None:
    entry = _write(
        skill,
        """
        import json, sys
        block = bytearray(40 * 1024 * 1024)
        total = sum(i * i for i in range(300_000))
        json.dump(total, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry)
    assert result.ok, result.failure
    assert result.usage.cpu_s > 0
    assert 40 * 1024 < result.usage.max_rss_kb < 256 * 1024
    assert json.dumps(result.output) == str(sum(i * i for i in range(300_000)))


async def test_multiprocessing_works_inside_the_sandbox(sandbox: Sandbox, skill: Path) -> None:
    entry = _write(
        skill,
        """
        import json, multiprocessing, sys

        def square(x):
            return x * x

        if __name__ == "__main__":
            with multiprocessing.Pool(2) as pool:
                json.dump(pool.map(square, range(6)), sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry)
    assert result.ok, (result.failure, result.stderr_tail)
    assert result.output == [0, 1, 4, 9, 16, 25]


async def test_the_usual_devices_work_and_shared_memory_is_writable(
    sandbox: Sandbox, skill: Path
) -> None:
    entry = _write(
        skill,
        """
        import json, os, sys, tempfile
        with open("/dev/null", "wb") as sink:
            sink.write(b"gone")
        seen = {
            "null": open("/dev/null", "rb").read(),
            "zero": open("/dev/zero", "rb").read(3).hex(),
            "random": len(open("/dev/random", "rb").read(16) + open("/dev/urandom", "rb").read(16)),
            "links": [os.readlink(f"/dev/{name}") for name in ("stdin", "stdout", "stderr", "fd")],
        }
        fd, path = tempfile.mkstemp(dir="/dev/shm")  # the host's own under unshare
        seen["shm"] = os.write(fd, b"kept")
        os.close(fd)
        os.unlink(path)
        json.dump({k: v.decode() if isinstance(v, bytes) else v for k, v in seen.items()}, sys.stdout)
        """,
    )
    result = await _run(sandbox, skill, entry)
    assert result.ok, (result.failure, result.stderr_tail)
    links = [f"/proc/self/fd/{fd}" for fd in range(3)] + ["/proc/self/fd"]
    assert result.output == {"null": "", "zero": "000000", "random": 32, "links": links, "shm": 4}
