"""Planning: a spec and the skill catalog in, a frozen reviewable Plan out.

    build_plan(spec, catalog, *, settings, chooser=None, tool_schemas=None) -> Plan
        bind, derive dependencies, map inputs, build contracts, merge policies;
        raises PlanError listing every binding or contract error
    check_plan(plan, spec) -> list[Diagnostic]
        the static checks (errors and warnings), see `orchestrator.plan.checks`
    load_plan(path) -> Plan              a saved plan JSON (ConfigError when it is not one)
    render_plan(plan, "json"|"mermaid"|"text") -> str
    find_ties(spec, catalog) -> {step id: candidates}
        steps an LLM tie-breaker must decide; an async caller asks the model first, then
        passes `chooser=lambda step, candidates: picks.get(step.id)`

This package is the model and the pure builder: it imports nothing above it (no
skill catalog loading, no llm, no mcp_client). Reading the spec and the catalog,
asking the model to break ties and asking servers for tool schemas is the compile
pipeline's work (`orchestrator.compile`). Importing it stays cheap: no mcp,
anthropic, jsonschema or jinja2 (the `When` check imports jinja2 only when a step
has a condition); and importing the package (or `orchestrator.plan.model`) imports the
model only: the builder, the checks and the renderings are imported by their first use.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orchestrator.plan.model import PLAN_FORMAT, Plan

if TYPE_CHECKING:
    from orchestrator.config import Settings
    from orchestrator.kinds import BoundSkill
    from orchestrator.plan.bind import SkillChooser
    from orchestrator.plan.build import SkillCatalog, ToolSchemas, plan_sha256
    from orchestrator.plan.checks import check_plan
    from orchestrator.plan.render import FORMATS, Format, render_plan
    from orchestrator.spec.model import WorkflowSpec

# The builder's names, imported on first use: importing `orchestrator.plan.model` (the
# journal and the engine do, on every run) runs this file, and a run whose plan is read
# from a file or the compile cache needs none of the builder, the checks or the spec readers.
_LAZY = {
    "SkillChooser": "orchestrator.plan.bind",
    "SkillCatalog": "orchestrator.plan.build",
    "ToolSchemas": "orchestrator.plan.build",
    "plan_sha256": "orchestrator.plan.build",
    "check_plan": "orchestrator.plan.checks",
    "FORMATS": "orchestrator.plan.render",
    "Format": "orchestrator.plan.render",
    "render_plan": "orchestrator.plan.render",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

__all__ = [
    "FORMATS",
    "Format",
    "Plan",
    "SkillCatalog",
    "SkillChooser",
    "ToolSchemas",
    "build_plan",
    "check_plan",
    "find_ties",
    "load_plan",
    "plan_sha256",
    "render_plan",
]


def build_plan(
    spec: WorkflowSpec,
    catalog: SkillCatalog,
    *,
    settings: Settings,
    chooser: SkillChooser | None = None,
    tool_schemas: ToolSchemas | None = None,
) -> Plan:
    """The plan of `spec` against `catalog`. Pure (unless `tool_schemas` starts servers).
    Raises PlanError with every error found while binding skills and building contracts
    (the warnings follow the errors). `tool_schemas(server, tool)` fills the schemas an mcp
    skill does not declare from its tool's own (provenance "mcp")."""
    from orchestrator.errors import PlanError
    from orchestrator.plan.build import draft_plan

    plan, errors = draft_plan(spec, catalog, settings=settings, chooser=chooser, tool_schemas=tool_schemas)
    if errors:
        raise PlanError([*errors, *plan.warnings])
    return plan


def find_ties(spec: WorkflowSpec, catalog: SkillCatalog) -> dict[str, tuple[BoundSkill, ...]]:
    """Steps whose free-text binding matches several skills equally, with the candidates."""
    from orchestrator.plan.bind import find_ties as ties
    from orchestrator.plan.build import skills_of

    return ties(spec, skills_of(catalog))


def load_plan(path: Path, max_bytes: int | None = None) -> Plan:
    """A plan saved by `skillweave plan --format json`: a regular file of at most `max_bytes`
    (default: SKILLWEAVE_MAX_DATA_BYTES). ConfigError when the file is not a plan of this
    format or was edited after it was written (its hash does not match)."""
    import json

    from pydantic import ValidationError

    from orchestrator.config import ENV_MAX_DATA_BYTES, file_caps
    from orchestrator.errors import ConfigError, NotFoundError
    from orchestrator.filecap import read_capped
    from orchestrator.hints import Hint, HintAction
    from orchestrator.plan.build import plan_sha256

    try:
        limit = file_caps().data_bytes if max_bytes is None else max_bytes
        text = read_capped(path, limit, ENV_MAX_DATA_BYTES).decode("utf-8")
    except FileNotFoundError:
        raise NotFoundError(f"{path}: no such plan file") from None
    except OSError as exc:
        raise ConfigError(f"cannot read the plan: it is {exc.strerror}", where=str(path)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"cannot read the plan: {exc}", where=str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not JSON: {exc.msg}", where=f"{path}:{exc.lineno}") from None
    except ValueError as exc:  # an integer of thousands of digits
        raise ConfigError(f"not a skillweave plan: {exc}", where=str(path)) from None
    except RecursionError:
        raise ConfigError("not a skillweave plan (nested too deeply to read)", where=str(path)) from None
    if not isinstance(data, dict) or "steps" not in data or "spec" not in data:
        raise ConfigError("not a skillweave plan (no `spec` and `steps`)", where=str(path))
    if data.get("format") != PLAN_FORMAT:
        raise ConfigError(f"plan format {data.get('format')!r} is not {PLAN_FORMAT}", where=str(path),
                          hint=Hint(action=HintAction.PLAN_AGAIN))
    try:
        plan = Plan.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        at = "/".join(str(p) for p in first["loc"])
        raise ConfigError(f"not a valid plan: {at}: {first['msg']} "
                          f"({exc.error_count()} problem(s))", where=str(path)) from None
    if plan.sha256 and plan.sha256 != plan_sha256(plan):
        raise ConfigError("the plan's sha256 does not match its content (edited by hand?)", where=str(path),
                          hint=Hint(action=HintAction.PLAN_AGAIN))
    return plan
