"""The sandbox's public surface is what the engine codes against: pin it."""

from __future__ import annotations

import inspect

import orchestrator.sandbox as sandbox


def test_the_public_names_are_pinned() -> None:
    assert sorted(sandbox.__all__) == [
        "ENV_SANDBOX",
        "FailureKind",
        "Isolation",
        "ReadOnlyMount",
        "ResourceLimits",
        "ResourceUsage",
        "Sandbox",
        "SandboxArtifact",
        "SandboxFailure",
        "SandboxRequest",
        "SandboxResult",
        "SpawnRequest",
        "SpawnResult",
        "Spawner",
        "detect_isolation",
        "probe_isolation",
        "reap_leftovers",
        "run_script",
        "spawn_process",
    ]
    assert all(hasattr(sandbox, name) for name in sandbox.__all__)


def test_sandbox_takes_only_keyword_options_and_runs_asynchronously() -> None:
    params = inspect.signature(sandbox.Sandbox).parameters
    assert list(params) == ["require_isolation", "force", "spawner", "warm"]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values())
    assert inspect.iscoroutinefunction(sandbox.Sandbox.run)
    assert inspect.iscoroutinefunction(sandbox.run_script)
    assert sandbox.ENV_SANDBOX == "SKILLWEAVE_SANDBOX"
