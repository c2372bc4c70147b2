"""Planning: a spec and the skill catalog in, a frozen reviewable Plan out.

    build_plan(spec, catalog, *, settings, chooser=None, tool_schemas=None) -> Plan
        bind, derive dependencies, map inputs, build contracts, merge policies;
        raises PlanError listing every binding or contract error
    check_plan(plan, spec) -> list[Diagnostic]
        the static checks (errors and warnings), see `orchestrator.plan.checks`
    compile_spec(path, settings, *, chooser=None, tool_schemas=None, interpret=False) -> Plan
        parse + lockfile readings + catalog (with the spec's folder) + build + check; raises
        SpecError / PlanError carrying every error (file:line); warnings land in Plan.warnings.
        Without a chooser, a tie is put to the LLM when a key or --llm-replay is set;
        `interpret` has the model read the policy sentences the grammar could not.
    load_plan(path) -> Plan              a saved plan JSON (ConfigError when it is not one)
    load_spec_or_plan(path, settings)    a `.json` file is a plan, anything else is compiled
    render_plan(plan, "json"|"mermaid"|"text") -> str
    find_ties(spec, catalog) -> {step id: candidates}
        steps an LLM tie-breaker must decide; an async caller asks the model first, then
        passes `chooser=lambda step, candidates: picks.get(step.id)`

Importing this package stays cheap: no mcp, anthropic, jsonschema or jinja2
(the `When` check imports jinja2 only when a step has a condition).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from orchestrator.config import Settings
from orchestrator.errors import (
    ConfigError,
    Diagnostic,
    McpError,
    NotFoundError,
    PlanError,
    Severity,
)
from orchestrator.plan.bind import SkillChooser
from orchestrator.plan.build import SkillCatalog, ToolSchemas, draft_plan, plan_sha256, seal
from orchestrator.plan.checks import check_plan
from orchestrator.plan.location import line_key
from orchestrator.plan.model import PLAN_FORMAT, BoundSkill, JsonSchema, Plan
from orchestrator.plan.render import FORMATS, Format, render_plan
from orchestrator.spec.model import StepSpec, WorkflowSpec

__all__ = [
    "FORMATS",
    "Format",
    "Plan",
    "SkillCatalog",
    "SkillChooser",
    "ToolSchemas",
    "build_plan",
    "check_plan",
    "compile_spec",
    "find_ties",
    "load_plan",
    "load_spec_or_plan",
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
    plan, errors = draft_plan(spec, catalog, settings=settings, chooser=chooser, tool_schemas=tool_schemas)
    if errors:
        raise PlanError([*errors, *plan.warnings])
    return plan


def find_ties(spec: WorkflowSpec, catalog: SkillCatalog) -> dict[str, tuple[BoundSkill, ...]]:
    """Steps whose free-text binding matches several skills equally, with the candidates."""
    from orchestrator.plan.bind import find_ties as ties
    from orchestrator.plan.build import skills_of

    return ties(spec, skills_of(catalog))


def compile_spec(
    path: Path,
    settings: Settings,
    *,
    chooser: SkillChooser | None = None,
    tool_schemas: ToolSchemas | None = None,
    interpret: bool = False,
) -> Plan:
    """Parse, load the catalog (with the spec's `skills/`), build and check.

    Raises SpecError (the spec cannot be read) or PlanError carrying every error with
    its file:line, followed by the warnings. On success the warnings are in Plan.warnings.
    The spec's lockfile (`<spec>.lock.json`) supplies the model's readings of sentences
    the grammar could not read; `interpret` asks the model for the missing ones first.
    """
    from orchestrator.skills import load_catalog
    from orchestrator.spec import parse_spec

    spec = parse_spec(path)
    if interpret or Path(path).with_name(Path(path).name + ".lock.json").is_file():  # `lockfile.lock_path`
        from orchestrator.plan.interpretation import apply_lockfile

        spec = apply_lockfile(spec, Path(path), settings, interpret=interpret)
    catalog = load_catalog(settings, path)
    default_chooser = _ModelChooser(settings) if chooser is None and _model_available(settings) else None
    if tool_schemas is None:
        tool_schemas = _ToolSchemasFromServers(settings, path)
    try:
        plan, errors = draft_plan(
            spec, catalog, settings=settings, chooser=chooser or default_chooser, tool_schemas=tool_schemas
        )
        found = check_plan(plan, spec)
    except RecursionError:
        # a schema (a contract block, a skill's schema file) nested hundreds deep
        raise PlanError(Diagnostic(file=str(path), code="too-deep",
                                   message="a contract or skill schema is nested too deeply to plan; "
                                           "flatten it (use $defs and $ref)")) from None
    finally:
        if default_chooser is not None:
            default_chooser.close()
    errors = sorted(dict.fromkeys([*errors, *(d for d in found if d.severity is Severity.ERROR)]), key=line_key)
    warnings = sorted(dict.fromkeys([*plan.warnings, *(d for d in found if d.severity is Severity.WARNING)]),
                      key=line_key)
    if errors:
        raise PlanError([*errors, *warnings])
    return seal(plan.model_copy(update={"warnings": tuple(warnings)}))


def _model_available(settings: Settings) -> bool:
    return bool(settings.api_key) or settings.llm_replay is not None


class _ModelChooser:
    """The LLM tie-breaker, created only when a step's binding is actually a tie, so that
    planning without ties never imports the LLM stack. Its choice is recorded in the plan
    with provenance "llm"."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._chooser: SkillChooser | None = None
        self._close: Callable[[], None] | None = None

    def __call__(self, step: StepSpec, tied: tuple[BoundSkill, ...]) -> str | None:
        if self._chooser is None:
            from orchestrator.llm.chooser import PlannerChooser
            from orchestrator.llm.client import LLM

            settings = self._settings
            chooser = PlannerChooser(lambda: LLM(settings))
            self._chooser, self._close = chooser, chooser.close
        return self._chooser(step, tied)

    def close(self) -> None:
        if self._close is not None:
            self._close()


class _ToolSchemasFromServers:
    """An mcp skill that declares no schemas gets its tool's own, asked of the server at plan
    time (`tools/list`). Called only for such skills, so planning skills that declare their
    schemas never starts a server; an unreachable server is a warning, not an error."""

    def __init__(self, settings: Settings, spec_path: Path) -> None:
        self._settings = settings
        self._spec_path = spec_path

    def __call__(self, server: str, tool: str) -> tuple[JsonSchema | None, JsonSchema | None]:
        from orchestrator.mcp_client.config import resolve_mcp_config
        from orchestrator.mcp_client.schema import describe_tool_sync

        config = resolve_mcp_config(
            explicit=self._settings.mcp_config, spec_path=self._spec_path, require_trust=self._settings.require_trust
        )
        try:
            info = describe_tool_sync(config, server, tool)
        except (OSError, RuntimeError, TimeoutError) as exc:
            raise McpError(f"{server}/{tool}: {exc}") from None
        return (info.input_schema or None), info.output_schema


def load_plan(path: Path) -> Plan:
    """A plan saved by `skillweave plan --format json`. ConfigError when the file is not
    a plan of this format or was edited after it was written (its hash does not match)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise NotFoundError(f"{path}: no such plan file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the plan: {exc}", where=str(path)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not JSON: {exc.msg}", where=f"{path}:{exc.lineno}") from None
    except RecursionError:
        raise ConfigError("not a skillweave plan (nested too deeply to read)", where=str(path)) from None
    if not isinstance(data, dict) or "steps" not in data or "spec" not in data:
        raise ConfigError("not a skillweave plan (no `spec` and `steps`)", where=str(path))
    if data.get("format") != PLAN_FORMAT:
        raise ConfigError(f"plan format {data.get('format')!r} is not {PLAN_FORMAT}; "
                          "write it again with `skillweave plan`", where=str(path))
    try:
        plan = Plan.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        at = "/".join(str(p) for p in first["loc"])
        raise ConfigError(f"not a valid plan: {at}: {first['msg']} "
                          f"({exc.error_count()} problem(s))", where=str(path)) from None
    if plan.sha256 and plan.sha256 != plan_sha256(plan):
        raise ConfigError("the plan's sha256 does not match its content (edited by hand?); "
                          "write it again with `skillweave plan`", where=str(path))
    return plan


def load_spec_or_plan(path: Path, settings: Settings) -> Plan:
    """A `.json` file is a saved plan; anything else is a spec, compiled."""
    if path.suffix.lower() == ".json":
        return load_plan(path)
    return compile_spec(path, settings)

