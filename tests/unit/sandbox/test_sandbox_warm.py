"""The warm path's command lines and switches (the fork server itself is tested in e2e)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.sandbox import Isolation, Sandbox, SandboxRequest, SpawnRequest, SpawnResult
from orchestrator.sandbox.bootstrap import BOOTSTRAP, PYTHON_FLAGS
from orchestrator.sandbox.core import ENV_SANDBOX_WARM
from orchestrator.sandbox.environment import FIXED_ENV
from orchestrator.sandbox.host import Runtime, find_tools
from orchestrator.sandbox.launcher import HOST, BwrapLauncher, Layout
from orchestrator.sandbox.warm import ENV_PAD, server_command, server_env, server_input

RUNTIME = Runtime(executable=Path("/opt/py/bin/python3.11"), roots=(Path("/opt/py"),))


def _pairs(argv: list[str], flag: str) -> list[tuple[str, str]]:
    return [(argv[i + 1], argv[i + 2]) for i, a in enumerate(argv) if a == flag]


@pytest.mark.parametrize("as_root", [True, False], ids=["root", "user"])
def test_the_fork_servers_bwrap_keeps_its_capabilities_and_the_host_tree_for_the_jobs(
    as_root: bool, tmp_path: Path
) -> None:
    launcher = BwrapLauncher(Path("/x/bwrap"), RUNTIME, as_root=as_root)
    argv = launcher.server_argv(["py", "-c", "serve"])
    assert argv[argv.index("--cap-add") + 1] == "ALL" and "--cap-drop" not in argv
    assert ("/", HOST) in _pairs(argv, "--bind")
    assert {"/work", "/skill", "/script"} <= {
        argv[i + 1] for i, a in enumerate(argv) if a == "--dir"
    }
    assert "--unshare-net" not in argv  # each job gets its own network namespace
    assert ("--unshare-user" in argv) is not as_root
    for flag in ("--unshare-pid", "--die-with-parent", "--new-session", "--info-fd"):
        assert flag in argv
    assert argv[-3:] == ["py", "-c", "serve"]
    layout = Layout(skill_dir=tmp_path, entry="m.py", script=tmp_path / "m.py", workdir=tmp_path)
    assert HOST not in launcher.argv(layout, ["py"])  # a cold run never sees the host tree


def test_the_server_runs_the_forkserver_source_with_the_bootstrap_and_the_scripts_flags() -> None:
    command = server_command("/opt/py/bin/python3.11")
    assert command[: 1 + len(PYTHON_FLAGS)] == ["/opt/py/bin/python3.11", *PYTHON_FLAGS]
    source, bootstrap = server_input().decode().split("\0")
    assert "def serve()" in source and bootstrap == BOOTSTRAP
    assert "def serve()" not in " ".join(command)  # jobs see the server's command line


def test_the_servers_stub_splits_its_input_into_the_source_and_the_bootstrap() -> None:
    stub = server_command("python")[-1]
    done = subprocess.run(
        [sys.executable, "-c", stub],
        input=b"import sys\nprint(repr(sys.argv[1:]))\0the bootstrap",
        capture_output=True,
        check=True,
    )
    assert done.stdout.decode().strip() == repr(
        ["import sys\nprint(repr(sys.argv[1:]))", "the bootstrap"]
    )


def test_the_servers_environment_is_the_fixed_one_with_room_for_each_jobs() -> None:
    env = server_env()
    assert {k: env[k] for k in FIXED_ENV} == dict(FIXED_ENV)
    assert len(env["SKILLWEAVE_WARM_PAD"]) == ENV_PAD


async def test_a_warm_sandbox_with_an_injected_spawner_runs_through_that_spawner(
    tmp_path: Path,
) -> None:
    seen: list[SpawnRequest] = []

    async def spawner(request: SpawnRequest) -> SpawnResult:
        seen.append(request)
        return SpawnResult(returncode=0, started=True, stdout=b"{}")

    (tmp_path / "m.py").write_text("")
    tmp_path.chmod(0o755)  # as root the script would run under an unprivileged uid
    sandbox = Sandbox(force=Isolation.NONE, spawner=spawner, warm=True)
    result = await sandbox.run(SandboxRequest(skill_dir=tmp_path, entry="m.py"))
    assert result.ok and len(seen) >= 1 and sandbox.warm is False
    await sandbox.aclose()


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("0", False), ("", False)])
def test_the_environment_variable_turns_the_warm_path_on(
    value: str, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if find_tools().bwrap is None:
        pytest.skip("no bwrap here: the warm path needs it")
    monkeypatch.setenv(ENV_SANDBOX_WARM, value)
    monkeypatch.delenv("SKILLWEAVE_SANDBOX", raising=False)
    assert Sandbox(force=Isolation.BWRAP).warm is expected
    assert Sandbox(force=Isolation.BWRAP, warm=not expected).warm is not expected
