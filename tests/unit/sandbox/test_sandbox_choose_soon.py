"""`Sandbox.choose_soon`: the mechanism is probed in a thread as a run starts, and the
first attempt uses that choice (the same one it would have made itself)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from orchestrator.errors import ConfigError, IsolationError
from orchestrator.runners.script import ScriptRunner
from orchestrator.sandbox import (
    ENV_SANDBOX,
    FailureKind,
    Isolation,
    Sandbox,
    SandboxRequest,
    SpawnRequest,
    SpawnResult,
)
from orchestrator.sandbox.detect import make_launcher
from orchestrator.sandbox.host import HostTools, find_runtime


class Spawner:
    def __init__(self) -> None:
        self.requests: list[SpawnRequest] = []

    async def __call__(self, request: SpawnRequest) -> SpawnResult:
        self.requests.append(request)
        return SpawnResult(returncode=0, started=True, stdout=b'{"ok": true}')


class Chooser:
    """Stands in for `choose_launcher`: records the threads it ran in, waits for `go`,
    then answers what a host with no working mechanism but `none` would."""

    def __init__(self, answer: str | None = None, error: Exception | None = None) -> None:
        self.go = threading.Event()
        self.threads: list[str] = []
        self.answer = answer
        self.error = error

    def __call__(
        self, runtime: object, tools: object, *, as_root: bool
    ) -> tuple[object, tuple[str, ...]]:
        self.threads.append(threading.current_thread().name)
        assert self.go.wait(timeout=30)
        if self.error is not None:
            raise self.error
        if self.answer is not None:
            return self.answer, ("bwrap unavailable: no user namespaces",)
        return make_launcher(Isolation.NONE, find_runtime(), HostTools(), as_root=False), (
            "bwrap unavailable: no user namespaces",
        )


@pytest.fixture(autouse=True)
def _auto(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_SANDBOX, raising=False)
    monkeypatch.delenv("SKILLWEAVE_REQUIRE_ISOLATION", raising=False)


@pytest.fixture
def request_(tmp_path: Path) -> SandboxRequest:
    skill = tmp_path / "skill"
    (skill / "scripts").mkdir(parents=True)
    (skill / "scripts" / "main.py").write_text("print('{}')\n")
    return SandboxRequest(
        skill_dir=skill, entry="scripts/main.py", input={}, workdir_parent=tmp_path / "attempts"
    )


def chooser(monkeypatch: pytest.MonkeyPatch, made: Chooser) -> Chooser:
    monkeypatch.setattr("orchestrator.sandbox.core.choose_launcher", made)
    return made


async def test_the_first_run_waits_for_the_background_choice_without_blocking_the_loop_and_uses_it(
    monkeypatch: pytest.MonkeyPatch, request_: SandboxRequest
) -> None:
    made = chooser(monkeypatch, Chooser())
    spawner = Spawner()
    sandbox = Sandbox(spawner=spawner)
    sandbox.choose_soon()
    sandbox.choose_soon()  # once only
    attempt = asyncio.ensure_future(sandbox.run(request_))
    for _ in range(20):  # the loop keeps going while the probe is under way
        await asyncio.sleep(0)
    assert not attempt.done() and spawner.requests == []
    made.go.set()
    result = await asyncio.wait_for(attempt, timeout=30)
    assert result.ok and result.isolation is Isolation.NONE
    assert "bwrap unavailable: no user namespaces" in result.notes
    assert made.threads == ["skillweave-sandbox-choice"]  # probed once, and not on the loop
    await sandbox.run(request_)
    assert made.threads == ["skillweave-sandbox-choice"] and len(spawner.requests) == 2


async def test_a_required_isolation_is_still_refused_when_the_background_probe_found_none(
    monkeypatch: pytest.MonkeyPatch, request_: SandboxRequest
) -> None:
    made = chooser(monkeypatch, Chooser())
    made.go.set()
    spawner = Spawner()
    sandbox = Sandbox(require_isolation=True, spawner=spawner)
    sandbox.choose_soon()
    with pytest.raises(IsolationError, match=r"isolation is required.*no user namespaces"):
        await sandbox.run(request_)
    assert spawner.requests == []


async def test_a_host_where_nothing_runs_is_a_setup_failure_after_a_background_probe_as_before(
    monkeypatch: pytest.MonkeyPatch, request_: SandboxRequest
) -> None:
    made = chooser(monkeypatch, Chooser(answer="the Python runtime is not searchable"))
    made.go.set()
    spawner = Spawner()
    sandbox = Sandbox(spawner=spawner)
    sandbox.choose_soon()
    result = await sandbox.run(request_)
    assert result.failure is not None and result.failure.kind is FailureKind.SETUP
    assert "the Python runtime is not searchable" in result.failure.message
    assert spawner.requests == []


async def test_an_error_while_choosing_in_the_background_is_raised_by_the_first_run(
    monkeypatch: pytest.MonkeyPatch, request_: SandboxRequest
) -> None:
    made = chooser(monkeypatch, Chooser(error=ConfigError("no runtime here")))
    made.go.set()
    sandbox = Sandbox(spawner=Spawner())
    sandbox.choose_soon()
    with pytest.raises(ConfigError, match="no runtime here"):
        await sandbox.run(request_)
    assert made.threads == ["skillweave-sandbox-choice", "MainThread"]


async def test_a_cancelled_first_run_leaves_the_choice_to_finish_for_the_next(
    monkeypatch: pytest.MonkeyPatch, request_: SandboxRequest
) -> None:
    made = chooser(monkeypatch, Chooser())
    sandbox = Sandbox(spawner=Spawner())
    sandbox.choose_soon()
    attempt = asyncio.ensure_future(sandbox.run(request_))
    await asyncio.sleep(0)
    attempt.cancel()
    with pytest.raises(asyncio.CancelledError):
        await attempt
    made.go.set()
    assert (await sandbox.run(request_)).ok
    assert made.threads == ["skillweave-sandbox-choice"]


def test_the_script_runner_starts_the_choice_when_the_run_prepares_it() -> None:
    class Recording:
        chosen = 0

        def choose_soon(self) -> None:
            self.chosen += 1

    sandbox = Recording()
    ScriptRunner(sandbox).prepare({"step-2"})
    assert sandbox.chosen == 1
    ScriptRunner(object()).prepare({"step-2"})  # a sandbox without it (a test's fake) is left alone
