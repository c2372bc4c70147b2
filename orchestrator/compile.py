"""The compile pipeline: from a spec file to a checked, sealed Plan, in one place.

    spec file ─ load_catalog (bundled, the spec's skills/, --skills-dir, env) ─► Catalog
              ─ parse_spec, with the catalog's skill and tool names ─► WorkflowSpec
              ─ apply_lockfile (only with `<spec>.lock.json` or --interpret) ─► WorkflowSpec
              ─ draft_plan: bind steps (ties to the LLM when one is available),
                contracts (tool schemas from MCP servers when a skill has none),
                dependencies, input mapping, policies ─► Plan + errors
              ─ check_plan: the static checks ─► errors and warnings
              ─ seal ─► Plan (warnings in Plan.warnings)

    compile_spec(path, settings, *, chooser=None, tool_schemas=None, interpret=False, on_ask=None) -> Plan
        raises SpecError (the spec cannot be read) or PlanError carrying every error
        with its file:line, followed by the warnings; the spec's lockfile supplies the
        model's readings of policy sentences the grammar could not read, and
        `interpret` asks the model for the missing ones first; `on_ask("model")` and
        `on_ask("server")` are called before a tie is put to the model or an MCP server
        is asked for a tool's schemas (`orchestrator.compile_cache` keeps no such plan)
    load_spec_or_plan(path, settings) -> Plan
        a `.json` file is a saved plan (`orchestrator.plan.load_plan`); anything else
        is compiled

`orchestrator.plan` is the model and the pure builder; this module is the one that
reads files, asks the model to break ties and asks MCP servers for their tools'
schemas. The LLM and MCP stacks are imported only when a tie or a schema-less mcp
skill actually needs them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from orchestrator.config import Settings
from orchestrator.contracts import JsonSchema
from orchestrator.errors import ConfigError, Diagnostic, McpError, PlanError, Severity, SpecError
from orchestrator.hints import Hint, HintAction
from orchestrator.kinds import BoundSkill
from orchestrator.plan import Plan, SkillChooser, ToolSchemas, check_plan, load_plan
from orchestrator.plan.build import draft_plan, seal
from orchestrator.plan.location import line_key
from orchestrator.spec.model import StepSpec, UnreadSentence

if TYPE_CHECKING:
    from orchestrator.llm.interpret import PolicyInterpreter
    from orchestrator.plan.structure_reading import StructureReading
    from orchestrator.plan.structure_reading_lock import Applied
    from orchestrator.skills import Catalog
    from orchestrator.spec.model import WorkflowSpec
    from orchestrator.spec.vocabulary import Vocabulary

__all__ = ["compile_spec", "load_spec_or_plan"]


def compile_spec(
    path: Path,
    settings: Settings,
    *,
    chooser: SkillChooser | None = None,
    tool_schemas: ToolSchemas | None = None,
    interpret: bool = False,
    on_ask: Callable[[str], None] | None = None,
) -> Plan:
    """Parse, load the catalog (with the spec's `skills/`), build and check.

    Raises SpecError (the spec cannot be read) or PlanError carrying every error with
    its file:line, followed by the warnings. On success the warnings are in Plan.warnings.
    Without a chooser, a tie is put to the LLM when a key or a replay file is set.
    The spec's lockfile (`<spec>.lock.json`) supplies the model's readings of sentences
    the grammar could not read; `interpret` asks the model for the missing ones first.
    """
    from orchestrator.skills import load_catalog
    from orchestrator.spec import parse_spec

    locked = interpret or Path(path).with_name(Path(path).name + ".lock.json").is_file()  # `lockfile.lock_path`
    refused: SpecError | None = None
    catalog = load_catalog(settings, path)
    try:
        # with the model reading the structure (--interpret, a lockfile), the rules' reading is its input as ever
        spec = parse_spec(path, settings.caps.spec_bytes, _vocabulary(catalog), anchored=not locked)
    except SpecError as exc:
        if not locked or not _only_no_steps(exc):
            raise _with_interpret_hint(exc) from None
        refused, spec = exc, _stepless(path)  # the model may read the steps the rules could not
    structure = None
    if locked:
        from orchestrator.plan.interpretation import apply_lockfile

        spec, structure = _apply_structure(spec, path, settings, catalog, interpret=interpret)
        if refused is not None and structure is None:
            raise _with_interpret_hint(refused, spec.warnings)  # with a stale reading's warning
        reader = _ModelInterpreter(settings) if interpret else None
        try:
            spec = apply_lockfile(spec, Path(path), settings, interpret=interpret, interpreter=reader)
        finally:
            if reader is not None:
                reader.close()
    default_chooser = _ModelChooser(settings, on_ask) if chooser is None and _model_available(settings) else None
    if tool_schemas is None:
        tool_schemas = _ToolSchemasFromServers(settings, path, on_ask)
    try:
        plan, errors, warnings = _draft(spec, catalog, settings, chooser or default_chooser, tool_schemas, path)
        if errors and not locked and (again := _by_calls(path, settings, catalog, spec)) is not None:
            # a code file whose reading the planner refuses: read by its skill calls, if that plans (`spec.wired52`)
            plan2, errors2, warnings2 = _draft(again, catalog, settings, chooser or default_chooser, tool_schemas,
                                               path)
            if not errors2:
                spec, plan, errors, warnings = again, plan2, errors2, warnings2
        elif errors and not locked and (other := _other_reading(path, settings, catalog, spec)) is not None:
            # a code file read by its skill calls whose plan is refused: the other readers' reading, if that plans
            plan2, errors2, warnings2 = _draft(other, catalog, settings, chooser or default_chooser, tool_schemas,
                                               path)
            if not errors2:
                spec, plan, errors, warnings = other, plan2, errors2, warnings2
    finally:
        if default_chooser is not None:
            default_chooser.close()
    if errors:
        raise PlanError([*errors, *warnings])
    if structure is not None:
        from orchestrator.plan.structure_reading_lock import mark_llm

        plan = mark_llm(plan, structure)
    return seal(plan.model_copy(update={"warnings": tuple(warnings)}))


def load_spec_or_plan(path: Path, settings: Settings) -> Plan:
    """A `.json` file holding a saved plan is that plan; anything else is a spec, compiled (a JSON
    document of another shape too, `spec.json_kind`)."""
    from orchestrator.spec.json_kind import is_saved_plan

    if is_saved_plan(path):
        return load_plan(path, settings.caps.data_bytes)
    return compile_spec(path, settings)


def _model_available(settings: Settings) -> bool:
    return bool(settings.api_key) or settings.llm_replay is not None


class _ModelChooser:
    """The LLM tie-breaker, created only when a step's binding is actually a tie, so that
    planning without ties never imports the LLM stack. Its choice is recorded in the plan
    with provenance "llm"."""

    def __init__(self, settings: Settings, on_ask: Callable[[str], None] | None = None) -> None:
        self._settings = settings
        self._on_ask = on_ask
        self._chooser: SkillChooser | None = None
        self._close: Callable[[], None] | None = None

    def __call__(self, step: StepSpec, tied: tuple[BoundSkill, ...]) -> str | None:
        if self._on_ask is not None:
            self._on_ask("model")
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


class _ModelInterpreter:
    """The model that reads the policy sentences the grammar could not (`--interpret`),
    created at the first call so that a spec with nothing left to read imports no LLM
    stack; without a key or a replay file the call is a ConfigError (exit 2) before
    anything is sent."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings
        self._reader: PolicyInterpreter | None = None

    def __call__(self, sentences: Sequence[UnreadSentence]) -> Sequence[object]:
        if self._reader is None:
            if not _model_available(self._settings):
                raise ConfigError("the model reads the sentences the grammar could not: set ANTHROPIC_API_KEY",
                                  hint=Hint(action=HintAction.ANSWER_FROM_RECORDING))
            from orchestrator.llm.client import LLM
            from orchestrator.llm.interpret import PolicyInterpreter

            settings = self._settings
            self._reader = PolicyInterpreter(lambda: LLM(settings))
        return self._reader(sentences)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()


class _ModelStructureReader:
    """The model that reads the structure the rules could not (`--interpret`), created at the
    first call; without a key or a replay file the call is a ConfigError (exit 2)."""

    def __init__(self, settings: Settings, catalog: Catalog) -> None:
        self._settings, self._catalog = settings, catalog
        self._close: Callable[[], None] | None = None

    def __call__(self, spec: WorkflowSpec, doubts: Sequence[Diagnostic]) -> tuple[StructureReading, str]:
        if not _model_available(self._settings):
            raise ConfigError("the model reads the structure the rules could not: set ANTHROPIC_API_KEY",
                              hint=Hint(action=HintAction.ANSWER_FROM_RECORDING))
        from orchestrator.llm.client import LLM
        from orchestrator.llm.interpret_structure import StructureInterpreter, request_for

        settings = self._settings
        reader = StructureInterpreter(lambda: LLM(settings))
        self._close = reader.close
        answer = reader(request_for(spec, doubts, self._catalog))
        return answer.reading, answer.model

    def close(self) -> None:
        if self._close is not None:
            self._close()


class _ToolSchemasFromServers:
    """An mcp skill that declares no schemas gets its tool's own, asked of the server at plan
    time (`tools/list`). Called only for such skills, so planning skills that declare their
    schemas never starts a server; an unreachable server is a warning, not an error."""

    def __init__(self, settings: Settings, spec_path: Path, on_ask: Callable[[str], None] | None = None) -> None:
        self._settings = settings
        self._spec_path = spec_path
        self._on_ask = on_ask

    def __call__(self, server: str, tool: str) -> tuple[JsonSchema | None, JsonSchema | None]:
        if self._on_ask is not None:
            self._on_ask("server")
        from orchestrator.mcp_client.config import resolve_mcp_config
        from orchestrator.mcp_client.schema import describe_tool_sync

        config = resolve_mcp_config(
            explicit=self._settings.mcp_config, spec_path=self._spec_path, require_trust=self._settings.require_trust
        )
        try:
            info = describe_tool_sync(config, server, tool)
        except (OSError, RuntimeError, TimeoutError) as exc:
            raise McpError(f"{server}/{tool}: {exc}") from None
        from orchestrator.schemaref import external_refs

        for schema in (info.input_schema, info.output_schema):
            if outside := external_refs(schema):  # never fetched: the schemas are not used
                raise McpError(f"{server}/{tool}: the tool's schema has $ref '{outside[0]}', outside "
                               "itself; skillweave follows no such $ref")
        return (info.input_schema or None), info.output_schema


def _vocabulary(catalog: Catalog) -> Vocabulary:
    """The names the spec's readers may take for a skill's: every skill the catalog holds, and
    each MCP tool exactly one of them wraps."""
    import functools

    from orchestrator.plan.schema import properties_of
    from orchestrator.plan.wanted import read_instructions
    from orchestrator.spec.vocabulary import Vocabulary

    by_name = {s.name: s for s in catalog.skills}

    @functools.cache
    def outputs(name: str) -> frozenset[str]:  # what the planner reads them from, asked only when needed
        skill = by_name[name]
        if skill.output_schema is not None:
            return frozenset(properties_of(skill.output_schema))
        said = read_instructions(skill.body, str(skill.skill_md), skill.body_line)
        return frozenset(n.name for n in said.outputs)

    @functools.cache
    def inputs(name: str) -> frozenset[str]:
        skill = by_name[name]
        if skill.input_schema is not None:
            return frozenset(properties_of(skill.input_schema))
        said = read_instructions(skill.body, str(skill.skill_md), skill.body_line)
        return frozenset(n.name for n in said.inputs)

    @functools.cache
    def order(name: str) -> tuple[str, ...]:  # the inputs in the order listed (`spec.cobol55`: positional args)
        skill = by_name[name]
        if skill.input_schema is not None:
            return tuple(properties_of(skill.input_schema))
        said = read_instructions(skill.body, str(skill.skill_md), skill.body_line)
        return tuple(dict.fromkeys(n.name for n in said.inputs))

    return Vocabulary.of((s.name, s.tool) for s in catalog.skills).with_outputs(outputs, inputs, order)


def _draft(spec: WorkflowSpec, catalog: Catalog, settings: Settings, chooser: SkillChooser | None,
           tool_schemas: ToolSchemas, path: Path) -> tuple[Plan, list[Diagnostic], list[Diagnostic]]:
    """The draft plan of `spec`, its errors and its warnings (each sorted by line)."""
    try:
        plan, errors = draft_plan(spec, catalog, settings=settings, chooser=chooser, tool_schemas=tool_schemas)
        found = check_plan(plan, spec)
    except RecursionError:
        # a schema (a contract block, a skill's schema file) nested hundreds deep
        raise PlanError(Diagnostic(file=str(path), code="too-deep",
                                   message="a contract or skill schema is nested too deeply to plan; "
                                           "flatten it (use $defs and $ref)")) from None
    from orchestrator.plan.guards import LOST_STEP_CODE

    # a step the spec names that no step runs: the plan would run less than the spec says (`plan.guards`)
    lost = [d.model_copy(update={"severity": Severity.ERROR}) for d in plan.warnings if d.code == LOST_STEP_CODE]
    errors = sorted(dict.fromkeys([*errors, *lost, *(d for d in found if d.severity is Severity.ERROR)]), key=line_key)
    warnings = sorted(dict.fromkeys([*(d for d in plan.warnings if d.code != LOST_STEP_CODE),
                                     *(d for d in found if d.severity is Severity.WARNING)]), key=line_key)
    return plan, errors, warnings


def _by_calls(path: Path, settings: Settings, catalog: Catalog, spec: WorkflowSpec) -> WorkflowSpec | None:
    """A code file's second reading, by its skill calls (`spec.wired52`), when its first reading was another
    reader's; None when it is no code file, was read so already, or calls no skill in code."""
    from orchestrator.spec import parse_spec
    from orchestrator.spec.wired52 import BY_CALLS_SAID, ENABLED

    if not ENABLED or any(w.message.startswith(BY_CALLS_SAID) for w in spec.warnings):
        return None
    try:
        return parse_spec(path, settings.caps.spec_bytes, _vocabulary(catalog), by_calls=True)
    except SpecError:
        return None


def _other_reading(path: Path, settings: Settings, catalog: Catalog, spec: WorkflowSpec) -> WorkflowSpec | None:
    """A code file read by its skill calls first (`spec.wired52.code_first`), read again without that preference;
    None when it was not read so or the other reading is refused too."""
    from orchestrator.spec import parse_spec
    from orchestrator.spec.wired52 import BY_CALLS_SAID, FIRST

    if not any(w.message.startswith(BY_CALLS_SAID) for w in spec.warnings):
        return None
    token = FIRST.set(False)
    try:
        other = parse_spec(path, settings.caps.spec_bytes, _vocabulary(catalog))
    except SpecError:
        return None
    finally:
        FIRST.reset(token)
    return None if any(w.message.startswith(BY_CALLS_SAID) for w in other.warnings) else other


def _only_no_steps(exc: SpecError) -> bool:
    return bool(exc.diagnostics) and all(d.code == "spec.no-steps" for d in exc.diagnostics)


def _with_interpret_hint(exc: SpecError, warnings: Sequence[Diagnostic] = ()) -> SpecError:
    """A spec with no steps read: the message says the model can read them (`--interpret`)."""
    if not _only_no_steps(exc):
        return exc
    return SpecError([*(d.model_copy(update={"message": d.message.replace("has no steps", "has no steps the rules "
                                                                            "could read", 1),
                                             "hint": Hint(action=HintAction.INTERPRET)})
                        for d in exc.diagnostics), *warnings])


def _stepless(path: Path) -> WorkflowSpec:
    """The spec as text with no steps, for the model to read (the rules found none)."""
    import hashlib

    from orchestrator.config import ENV_MAX_SPEC_BYTES, file_caps
    from orchestrator.filecap import read_capped
    from orchestrator.spec.model import WorkflowSpec

    try:  # read again as parse_spec read it (capped, a regular file): it may have changed since
        text = read_capped(path, file_caps().spec_bytes, ENV_MAX_SPEC_BYTES).decode("utf-8").removeprefix("\ufeff")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(Diagnostic(file=str(path), message=f"the spec cannot be read again: {exc}",
                                   code="spec.file")) from None
    yaml = Path(path).suffix.lower() in (".yaml", ".yml")
    return WorkflowSpec(name=Path(path).stem, path=str(path), format="yaml" if yaml else "markdown", steps=(), text=text,
                        sha256=hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest())


def _apply_structure(spec: WorkflowSpec, path: Path, settings: Settings, catalog: Catalog, *,
                     interpret: bool) -> tuple[WorkflowSpec, Applied | None]:
    """The lockfile's structure reading, or with `interpret` the model's, where the rules doubt
    (`plan.structure_reading_lock`); the doubts are the rule-read plan's guard findings."""
    from orchestrator.plan.structure_reading_lock import apply_structure, structure_doubts

    def doubts(rules: WorkflowSpec) -> list[Diagnostic]:
        if not rules.steps:
            return structure_doubts(rules, ())
        drafted, _ = draft_plan(rules, catalog, settings=settings, tool_schemas=lambda server, tool: (None, None))
        return structure_doubts(rules, drafted.warnings)

    reader = _ModelStructureReader(settings, catalog)
    try:
        return apply_structure(spec, Path(path), settings, set(catalog.names), interpret=interpret,
                               doubts=doubts, reader=reader)
    finally:
        reader.close()
