"""Shared fixtures of the sandbox unit tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.sandbox.host import Runtime


@pytest.fixture(autouse=True)
def _a_runtime_others_can_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """A `Sandbox` here runs fake spawners: give it a runtime an unprivileged uid could reach.

    As root, isolation none refuses a runtime other users cannot reach (a pyenv
    under /root 0700); that is a fact of the host, which these tests are not about.
    """
    runtime = Runtime(executable=Path("/usr/bin/python3"), roots=())
    monkeypatch.setattr("orchestrator.sandbox.core.find_runtime", lambda: runtime)
