"""skillweave: Agent Skills and workflow specs in, a reviewable plan, a durable run.

The import package is `orchestrator`; the command is `skillweave`. The public Python
API (docs/api.md) is what `__all__` names:

    from orchestrator import Workflow

    flow = Workflow.from_spec("workflow.md", state_dir=".skillweave")
    result = flow.run({"module_name": "json"})

`import orchestrator` stays cheap: each name is imported on first use (module
`__getattr__`), and the heavy stacks (`mcp`, `anthropic`, `jsonschema`) only by the
modules that use them. Everything not in `__all__` is free to change.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS: dict[str, str] = {
    # the friendly face and the calls behind it
    "Workflow": "orchestrator.api",
    "RunResult": "orchestrator.api",
    "compile_spec": "orchestrator.api",
    "load_plan": "orchestrator.api",
    # the models they return
    "Plan": "orchestrator.plan.model",
    "PlanStep": "orchestrator.plan.model",
    "RunSummary": "orchestrator.engine.model",
    "StepSummary": "orchestrator.engine.model",
    "RunStatus": "orchestrator.engine.model",
    "StepStatus": "orchestrator.engine.model",
    "RunEvent": "orchestrator.engine.model",
    "RunErrorInfo": "orchestrator.engine.model",
    "RunReport": "orchestrator.report.model",
    "Settings": "orchestrator.config",
    "Diagnostic": "orchestrator.errors",
    "Hint": "orchestrator.hints",
    "HintAction": "orchestrator.hints",
    # the error tree
    "SkillweaveError": "orchestrator.errors",
    "UserError": "orchestrator.errors",
    "SpecError": "orchestrator.errors",
    "SkillError": "orchestrator.errors",
    "PlanError": "orchestrator.errors",
    "ConfigError": "orchestrator.errors",
    "NotFoundError": "orchestrator.errors",
    "ResumeError": "orchestrator.errors",
    "RunError": "orchestrator.errors",
    "LimitExceededError": "orchestrator.errors",
    "JournalError": "orchestrator.errors",
    "IsolationError": "orchestrator.errors",
    "LLMError": "orchestrator.errors",
    "LLMAuthError": "orchestrator.errors",
    "ReplayMissError": "orchestrator.errors",
    "McpError": "orchestrator.errors",
}

__all__ = [
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

if TYPE_CHECKING:
    from orchestrator.api import RunResult, Workflow, compile_spec, load_plan
    from orchestrator.config import Settings
    from orchestrator.engine.model import (
        RunErrorInfo,
        RunEvent,
        RunStatus,
        RunSummary,
        StepStatus,
        StepSummary,
    )
    from orchestrator.errors import (
        ConfigError,
        Diagnostic,
        IsolationError,
        JournalError,
        LimitExceededError,
        LLMAuthError,
        LLMError,
        McpError,
        NotFoundError,
        PlanError,
        ReplayMissError,
        ResumeError,
        RunError,
        SkillError,
        SkillweaveError,
        SpecError,
        UserError,
    )
    from orchestrator.hints import Hint, HintAction
    from orchestrator.plan.model import Plan, PlanStep
    from orchestrator.report.model import RunReport


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'orchestrator' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
