"""The script runner: requests to the sandbox, sandbox results to classified step outcomes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from orchestrator.config import Settings
from orchestrator.plan.model import Plan, SpecRef
from orchestrator.policy import ErrorClass
from orchestrator.runner import RunnerContext, StepRequest
from orchestrator.runners.script import ScriptRunner, create_runner
from orchestrator.sandbox.model import (
    FailureKind,
    Isolation,
    SandboxFailure,
    SandboxRequest,
    SandboxResult,
)
from orchestrator.testing import fake_skill


class FakeSandbox:
    def __init__(self, result: SandboxResult) -> None:
        self.result = result
        self.requests: list[SandboxRequest] = []

    async def run(self, request: SandboxRequest) -> SandboxResult:
        self.requests.append(request)
        return self.result


def skill_dir(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "main.py").write_text("print('{}')\n")
    return tmp_path


def request(tmp_path: Path, **fields: object) -> StepRequest:
    values: dict[str, object] = {
        "run_id": "r1",
        "step_id": "fetch",
        "attempt": 2,
        "idempotency_key": "r1:fetch:2",
        "skill": fake_skill("fetcher", path=str(skill_dir(tmp_path)), entry="scripts/main.py", network=True),
        "input": {"module": "json"},
        "timeout_s": 12.5,
        "run_dir": tmp_path / "run",
    }
    values.update(fields)
    return StepRequest(**values)  # type: ignore[arg-type]


def failed(kind: FailureKind, exit_code: int | None = 1, stderr: str = "") -> SandboxResult:
    return SandboxResult(
        failure=SandboxFailure(kind=kind, message=f"{kind.value} happened"),
        exit_code=exit_code,
        stderr_tail=stderr,
        isolation=Isolation.BWRAP,
    )


async def test_the_request_carries_input_limits_network_and_the_idempotency_key(tmp_path: Path) -> None:
    sandbox = FakeSandbox(SandboxResult(output={"ok": True}, isolation=Isolation.BWRAP, duration_s=0.3))
    outcome = await ScriptRunner(sandbox).run(request(tmp_path, item_index=3))
    assert outcome.ok and outcome.output == {"ok": True}
    assert outcome.meta["isolation"] == "bwrap"
    sent = sandbox.requests[0]
    assert sent.entry == "scripts/main.py"
    assert sent.input == {"module": "json"}
    assert sent.limits.wall_s == 12.5
    assert sent.network is True
    assert sent.env["SKILLWEAVE_IDEMPOTENCY_KEY"] == "r1:fetch:2"
    assert (sent.env["SKILLWEAVE_ATTEMPT"], sent.env["SKILLWEAVE_ITEM"]) == ("2", "3")


async def test_a_regenerated_version_runs_instead_of_the_entry(tmp_path: Path) -> None:
    sandbox = FakeSandbox(SandboxResult(output=1, isolation=Isolation.NONE))
    override = tmp_path / "v2.py"
    override.write_text("print(1)\n")
    await ScriptRunner(sandbox).run(request(tmp_path, script_override=override))
    assert sandbox.requests[0].script == override


@pytest.mark.parametrize(
    ("kind", "exit_code", "error_class"),
    [
        (FailureKind.CODE_ERROR, 1, ErrorClass.CODE_ERROR),
        (FailureKind.CODE_ERROR, 2, ErrorClass.INVALID_INPUT),
        (FailureKind.OUTPUT_CONTRACT, 0, ErrorClass.CODE_ERROR),
        (FailureKind.TIMEOUT, None, ErrorClass.TIMEOUT),
        (FailureKind.RESOURCE_LIMIT, None, ErrorClass.CODE_ERROR),
        (FailureKind.SETUP, None, ErrorClass.UNRECOVERABLE),
    ],
)
async def test_sandbox_failures_map_to_error_classes(
    tmp_path: Path, kind: FailureKind, exit_code: int | None, error_class: ErrorClass
) -> None:
    outcome = await ScriptRunner(FakeSandbox(failed(kind, exit_code, "Traceback\nKeyError: 'x'\n"))).run(request(tmp_path))
    assert outcome.failure is not None
    assert outcome.failure.error_class is error_class
    assert outcome.failure.detail.endswith("KeyError: 'x'\n")


async def test_exit_2_says_the_script_refused_its_input(tmp_path: Path) -> None:
    result = failed(FailureKind.CODE_ERROR, 2, "module name is empty\n")
    outcome = await ScriptRunner(FakeSandbox(result)).run(request(tmp_path))
    assert outcome.failure is not None
    assert outcome.failure.message == "the script refused its input (exit 2): module name is empty"


async def test_a_skill_without_its_script_is_a_code_error_for_the_regenerator(tmp_path: Path) -> None:
    sandbox = FakeSandbox(SandboxResult(output=1, isolation=Isolation.NONE))
    (tmp_path / "empty").mkdir()
    skill = fake_skill("empty", path=str(tmp_path / "empty"), entry="scripts/main.py")
    outcome = await ScriptRunner(sandbox).run(request(tmp_path, skill=skill))
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.kind) == (ErrorClass.CODE_ERROR, "missing_code")
    assert sandbox.requests == []


async def test_artifacts_are_kept_in_the_run_directory_per_step_and_item(tmp_path: Path) -> None:
    from orchestrator.sandbox.model import SandboxArtifact

    made = SandboxArtifact(path="docs/json.md", size=7, sha256="ab" * 32)
    sandbox = FakeSandbox(SandboxResult(output={"files": ["docs/json.md"]}, isolation=Isolation.BWRAP, artifacts=(made,)))
    runner = ScriptRunner(sandbox)
    first = request(tmp_path)
    plain = await runner.run(first)
    item = await runner.run(first.model_copy(update={"item_index": 3}))

    run_dir = tmp_path / "run"
    assert [r.artifact_dir for r in sandbox.requests] == [run_dir / "artifacts/fetch", run_dir / "artifacts/fetch/3"]
    assert [a.path for a in plain.artifacts] == ["docs/json.md"]
    assert (plain.meta["artifact_dir"], item.meta["artifact_dir"]) == ("artifacts/fetch", "artifacts/fetch/3")


async def test_each_attempt_starts_with_an_empty_artifact_folder(tmp_path: Path) -> None:
    stale = tmp_path / "run" / "artifacts" / "fetch" / "old.txt"
    stale.parent.mkdir(parents=True)
    stale.write_text("from attempt 1")
    sandbox = FakeSandbox(SandboxResult(output={}, isolation=Isolation.BWRAP))
    outcome = await ScriptRunner(sandbox).run(request(tmp_path))
    assert not stale.exists()
    assert stale.parent.is_dir()
    assert "artifact_dir" not in outcome.meta  # nothing was kept


async def test_without_a_run_directory_nothing_is_copied(tmp_path: Path) -> None:
    sandbox = FakeSandbox(SandboxResult(output={}, isolation=Isolation.BWRAP))
    await ScriptRunner(sandbox).run(request(tmp_path, run_dir=None))
    assert sandbox.requests[0].artifact_dir is None



class IsolatedAs:
    def __init__(self, isolation: Isolation) -> None:
        self.isolation = isolation


@pytest.mark.parametrize(
    ("isolation", "network", "contained"),
    [
        (Isolation.BWRAP, False, True),
        (Isolation.BWRAP, True, False),  # it may reach someone
        (Isolation.UNSHARE, False, False),  # it may write the user's files
        (Isolation.NONE, False, False),
    ],
)
def test_only_a_script_under_bwrap_without_network_is_contained(
    isolation: Isolation, network: bool, contained: bool
) -> None:
    runner = ScriptRunner(IsolatedAs(isolation))
    assert runner.contained(fake_skill("s", network=network)) is contained


def test_containment_follows_the_sandbox_this_host_gives() -> None:
    from orchestrator.sandbox import Sandbox

    if Sandbox().isolation is not Isolation.BWRAP:
        pytest.skip("bwrap cannot run on this host")
    assert ScriptRunner(Sandbox()).contained(fake_skill("s")) is True
    assert ScriptRunner(Sandbox(force=Isolation.UNSHARE)).contained(fake_skill("s")) is False


def test_the_runs_runner_first_kills_what_an_earlier_process_of_the_run_left_running(
    tmp_path: Path,
) -> None:
    # a script's daemonised child from before a SIGKILL, out of the work directory
    left = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(60)"],
        cwd=tmp_path,
        env={**os.environ, "SKILLWEAVE_RUN_ID": "run-7"},
    )
    try:
        plan = Plan(
            name="p", spec=SpecRef(path="s.md", sha256="0", format="markdown"), steps=(), skills={}
        )
        ctx = RunnerContext(settings=Settings(), plan=plan, run_id="run-7", run_dir=tmp_path / "run-7")
        create_runner(ctx)
        assert left.wait(timeout=10) == -9
    finally:
        left.kill()
        left.wait()
