"""The public API is what `orchestrator.__all__` names, pinned here; `import orchestrator`
stays cheap."""

from __future__ import annotations

import subprocess
import sys

import orchestrator

PUBLIC = [
    "ConfigError",
    "Diagnostic",
    "Hint",
    "HintAction",
    "IsolationError",
    "JournalError",
    "LLMAuthError",
    "LLMError",
    "LimitExceededError",
    "McpError",
    "NotFoundError",
    "Plan",
    "PlanError",
    "PlanStep",
    "ReplayMissError",
    "ResumeError",
    "RunError",
    "RunErrorInfo",
    "RunEvent",
    "RunReport",
    "RunResult",
    "RunStatus",
    "RunSummary",
    "Settings",
    "SkillError",
    "SkillweaveError",
    "SpecError",
    "StepStatus",
    "StepSummary",
    "UserError",
    "Workflow",
    "__version__",
    "compile_spec",
    "load_plan",
]


def test_all_is_pinned() -> None:
    assert orchestrator.__all__ == PUBLIC


def test_every_public_name_resolves_and_is_defined_where_it_says() -> None:
    for name in PUBLIC:
        value = getattr(orchestrator, name)
        if name != "__version__":
            assert value.__module__.startswith("orchestrator."), name
            assert value.__name__ == name


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        orchestrator.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        assert "NoSuchThing" in str(exc)
    else:
        raise AssertionError("no AttributeError")


def _modules_after(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"import sys\n{code}\nprint(' '.join(sys.modules))"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    return set(done.stdout.split())


def test_importing_orchestrator_imports_no_heavy_stack() -> None:
    loaded = _modules_after("import orchestrator")
    assert not {m for m in loaded if m.split(".")[0] in ("mcp", "anthropic", "jsonschema", "pydantic")}
    assert "orchestrator.api" not in loaded


def test_the_workflow_class_comes_without_the_mcp_and_llm_stacks() -> None:
    loaded = _modules_after("from orchestrator import Workflow")
    assert not {m for m in loaded if m.split(".")[0] in ("mcp", "anthropic", "jsonschema")}
