"""The `mcp` step runner: one attempt = one `tools/call` on the skill's server.

`create_runner(ctx)` is the `mcp` kind's runner factory (`orchestrator.kinds.mcp`).
Per attempt, `run(request)`:

1. finds the server in the run's mcp.json (Settings.mcp_config, else the plan's,
   else the lookup beside the spec and in the working directory; see `config`;
   with `Settings.require_trust`, as under `skillweave serve`, only a trusted file
   gives servers, and `untrusted_use` lets the server refuse such a run before it
   starts), starting it on first use (one session per server per run, see `pool`);
2. refuses a tool the server does not list (mcp_unknown_tool) and arguments that
   break the tool's own `inputSchema` (mcp_invalid_params, with a JSON pointer),
   without sending anything;
3. calls the tool with the step input as its arguments, under
   `request.timeout_s` (else the skill's timeout), reset by each progress
   notification;
4. returns the output: `structuredContent` when present, else the single text
   block parsed as JSON when it is JSON, else `{"text": ...}` (plus `content`,
   the other blocks, when there are some); or a classified StepFailure (see
   `classify`). It never raises for a step failure.

A connection lost mid-call is replayed once on a restarted server when the tool
is safe to repeat; a step whose recovery rules explicitly retry timeouts or
transient failures counts as "the spec says so" for tools that are not.
Outcome meta: server, tool, pid, process (1 = first process of that server in
this run), restarts, progress. With telemetry on, the call is an `execute_tool`
span (`orchestrator.telemetry`) and the MCP SDK sends its trace context in the
request's `_meta` (`traceparent`, `tracestate`), so the server can continue it. A failure's message, detail and stderr tail have
the values the mcp.json took from the environment replaced by `${VAR}`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Collection
from pathlib import Path
from typing import TYPE_CHECKING, Any

from orchestrator import telemetry
from orchestrator.config import Settings
from orchestrator.errors import ConfigError, Diagnostic, McpError
from orchestrator.mcp_client.classify import classify_exception, classify_tool_error
from orchestrator.mcp_client.config import UNTRUSTED, McpConfig, resolve_mcp_config
from orchestrator.mcp_client.pool import PROBE_TIMEOUT_S, ServerPool
from orchestrator.mcp_client.proxy import ProxiedBlock
from orchestrator.mcp_client.schema import ToolInfo
from orchestrator.mcp_client.transport import Opener, open_server, read_tail
from orchestrator.policy import ErrorClass
from orchestrator.runner import RunnerContext, StepFailure, StepOutcome, StepRequest
from orchestrator.security.trust import UntrustedConfigError

if TYPE_CHECKING:
    from orchestrator.plan.model import Plan

KIND = "mcp"
# The engine makes this runner as a run starts and calls `prepare()` (the kind's trait
# `prepared_at_start`, orchestrator.kinds.mcp; RunnerSet.prepare): making it costs an import.
_TAIL_KINDS = frozenset({"mcp_start", "mcp_connection_lost", "setup"})


def convert_result(result: Any) -> Any:
    """A `CallToolResult` as step output: structured, else JSON text, else `{"text": ...}`."""
    if result.structured_content is not None:
        return result.structured_content
    texts = [block.text for block in result.content if getattr(block, "type", None) == "text"]
    others = [block for block in result.content if getattr(block, "type", None) != "text"]
    if len(texts) == 1 and not others:
        try:
            return json.loads(texts[0])
        except ValueError:
            pass
    output: dict[str, Any] = {"text": "\n".join(texts)}
    if others:
        output["content"] = [
            dict(b.dump) if isinstance(b, ProxiedBlock) else b.model_dump(mode="json", by_alias=True, exclude_none=True)
            for b in others
        ]
    return output


def result_text(result: Any) -> str:
    """The text blocks of a result, joined (what an `isError` result says)."""
    return "\n".join(
        block.text for block in result.content if getattr(block, "type", None) == "text"
    )


def compiled_check(schema: dict[str, Any]) -> Any:
    """A compiled `jsonschema_rs` validator for the common case, a valid call (None: use
    `check_arguments` alone). Formats are not asserted, as `jsonschema` does not by default;
    a schema with a `$ref` is left to `jsonschema`, which fetches nothing."""
    if not schema or "$ref" in json.dumps(schema, default=str):
        return None
    import jsonschema_rs

    try:
        return jsonschema_rs.validator_for(schema, validate_formats=False)
    except Exception:  # a schema it cannot compile: `jsonschema` judges it
        return None


def check_arguments(info: ToolInfo, arguments: dict[str, Any], fast: Any = None) -> StepFailure | None:
    """The first way `arguments` break the tool's inputSchema, or None. `fast` (from
    `compiled_check`) passes a valid call without importing `jsonschema`, which explains a refusal."""
    schema = info.input_schema
    if not schema:
        return None
    if fast is not None and fast.is_valid(arguments):
        return None
    from jsonschema.exceptions import SchemaError, best_match
    from jsonschema.validators import validator_for
    from referencing.exceptions import Unresolvable

    from orchestrator.schemaref import offline_registry

    try:
        validator = validator_for(schema)(schema, registry=offline_registry())
        error = best_match(validator.iter_errors(arguments))
    except (SchemaError, Unresolvable):
        return None  # the server's schema is broken or refers outside itself (never fetched); the server judges
    if error is None:
        return None
    pointer = "".join(
        "/" + str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path
    )
    schema_at = "/".join(str(p) for p in error.absolute_schema_path)
    return StepFailure(
        error_class=ErrorClass.INVALID_INPUT,
        kind="mcp_invalid_params",
        message=f"{info.server}/{info.name}: input{pointer} breaks the tool's inputSchema: {error.message}",
        detail=f"schema keyword at {schema_at or '(root)'}; value: {error.instance!r}"[:2000],
        pointer=pointer,
    )


class McpRunner:
    """Runs `mcp` skills for one run; `aclose()` stops every server it started."""

    kind = KIND
    # The runner times each call out itself: from when the call is sent (not while the
    # server starts or waits for a per-server slot), restarted by progress notifications,
    # followed by a probe that kills a hung server, and without retrying an ambiguous call
    # to a destructive tool. The kind says so to the engine (`KindTraits.enforces_timeout`),
    # which allows the kind's margin before it cuts `run()` off.

    def __init__(
        self,
        ctx: RunnerContext,
        *,
        config: McpConfig | None = None,
        opener: Opener = open_server,
        probe_timeout_s: float = PROBE_TIMEOUT_S,
    ) -> None:
        self.ctx = ctx
        self._config = config
        self._opener = opener
        self._probe_timeout_s = probe_timeout_s
        self._pool: ServerPool | None = None
        self._fast: dict[tuple[str, str], Any] = {}  # (server, tool) -> compiled_check(...)

    @property
    def pool(self) -> ServerPool:
        """The run's sessions (created on first use; the config is resolved then)."""
        if self._pool is None:
            config = self._config if self._config is not None else _resolve_config(self.ctx)
            self._pool = ServerPool(
                config,
                log_dir=self.ctx.run_dir / "mcp",
                concurrency=self.ctx.plan.limits.per_server_concurrency,
                opener=self._opener,
                probe_timeout_s=self._probe_timeout_s,
            )
        return self._pool

    def prepare(self, steps: Collection[str]) -> None:
        """Start the servers of the mcp steps among `steps` (those still to run) now, in the
        background, while the run's first steps go (the engine calls this as the run starts).
        Not those only steps behind an approval gate use: nothing of such a step happens
        before a person approves it. A server that fails to start fails its first step's
        attempt, as it would have."""
        plan = self.ctx.plan
        servers = sorted({
            skill.server
            for step in plan.steps
            if step.id in steps
            and (skill := plan.skills.get(step.skill)) is not None
            and skill.kind == KIND and skill.server
            and (step.policy.approval is None or not step.policy.approval.required)
        })
        if not servers:
            return
        try:
            pool = self.pool
        except (ConfigError, McpError):
            return  # the mcp.json cannot be read: the first attempt says why
        for server in servers:
            pool.prestart(server)

    async def run(self, request: StepRequest) -> StepOutcome:
        outcome = await self._attempt(request)
        if outcome.failure is None or self._pool is None:
            return outcome
        redactor = self._pool.config.redactor  # values the mcp.json took from the environment
        if redactor.empty:
            return outcome
        failure = outcome.failure.model_copy(
            update={"message": redactor.redact(outcome.failure.message), "detail": redactor.redact(outcome.failure.detail)}
        )
        return outcome.model_copy(update={"failure": failure, "stderr_tail": redactor.redact(outcome.stderr_tail)})

    async def _attempt(self, request: StepRequest) -> StepOutcome:
        started = time.perf_counter()
        skill = request.skill
        server, tool = skill.server, skill.tool
        if not server or not tool:
            return _outcome(
                started,
                StepFailure(
                    error_class=ErrorClass.UNRECOVERABLE,
                    kind="setup",
                    message=f"skill {skill.name!r} is an mcp skill without skillweave.server and skillweave.tool",
                ),
            )
        where = f"{server}/{tool}"
        arguments = {} if request.input is None else request.input
        if not isinstance(arguments, dict):
            return _outcome(
                started,
                StepFailure(
                    error_class=ErrorClass.INVALID_INPUT,
                    kind="mcp_invalid_params",
                    message=f"{where}: tool arguments must be a JSON object, got {type(arguments).__name__}",
                    pointer="",
                ),
            )
        meta = {"server": server, "tool": tool}
        retry_safe, retry_allowed = True, self._spec_retries(request.step_id)
        try:
            pool = self.pool
            tools, restarts = await pool.ensure(server)
            info = tools.get(tool)
            if info is None:
                known = ", ".join(sorted(tools)) or "none"
                return _outcome(
                    started,
                    StepFailure(
                        error_class=ErrorClass.UNRECOVERABLE,
                        kind="mcp_unknown_tool",
                        message=f"{where}: server {server!r} has no tool {tool!r} (it offers: {known})",
                    ),
                    meta,
                )
            if (server, tool) not in self._fast:
                self._fast[server, tool] = compiled_check(dict(info.input_schema))
            violation = check_arguments(info, arguments, self._fast[server, tool])
            if violation is not None:
                return _outcome(started, violation, meta)
            retry_safe = info.annotations.retry_safe
            timeout = request.timeout_s if request.timeout_s is not None else skill.timeout_s
            with telemetry.tool_call(server, tool) as traced:  # the SDK puts its context in `_meta`
                call = await pool.call(
                    server,
                    tool,
                    arguments,
                    timeout_s=timeout,
                    replay_if_lost=retry_safe or retry_allowed,
                )
                traced.set({"skillweave.mcp.pid": call.pid, "skillweave.mcp.restarts": restarts + call.restarts})
                if call.result.is_error:
                    traced.fail("tool_error", pool.config.redactor.redact(result_text(call.result)))
        except (McpError, ConfigError) as exc:
            failure = classify_exception(
                exc, where=where, retry_safe=retry_safe, retry_allowed=retry_allowed
            )
            pid = self._pool.pid(server) if self._pool is not None else None
            if pid is not None:
                meta["pid"] = str(pid)  # the process that failed the call (it may be gone)
            tail = self._tail(server) if failure.kind in _TAIL_KINDS else ""
            return _outcome(started, failure, meta, tail)
        except Exception as exc:  # the runner boundary: a bug or an SDK surprise becomes a failure
            return _outcome(
                started,
                StepFailure(
                    error_class=ErrorClass.UNRECOVERABLE,
                    kind="mcp_client",
                    message=f"{where}: MCP client error: {type(exc).__name__}: {exc}",
                ),
                meta,
            )
        meta.update(
            pid=str(call.pid or ""),
            process=str(call.generation),
            restarts=str(restarts + call.restarts),
            progress=str(call.progress),
        )
        if call.result.is_error:
            failure = classify_tool_error(
                result_text(call.result), where=where, retry_safe=retry_safe
            )
            return _outcome(started, failure, meta)
        return StepOutcome(
            output=convert_result(call.result), duration_s=time.perf_counter() - started, meta=meta
        )

    def _spec_retries(self, step_id: str) -> bool:
        """Whether the step's recovery rules explicitly retry timeouts or transient failures."""
        try:
            step = self.ctx.plan.step(step_id)
        except KeyError:
            return False
        return any(
            rule.on in (ErrorClass.TIMEOUT, ErrorClass.TRANSIENT)
            and rule.retry is not None
            and rule.retry.max_retries > 0
            for rule in step.policy.rules
        )

    def _tail(self, server: str) -> str:
        return read_tail(self.pool.stderr_log(server)) if self._pool is not None else ""

    async def aclose(self) -> None:
        if self._pool is not None:
            await self._pool.aclose()


def _resolve_config(ctx: RunnerContext) -> McpConfig:
    return config_for_plan(ctx.plan, ctx.settings)


def config_for_plan(plan: Plan, settings: Settings, run_config: str | None = None) -> McpConfig:
    """The mcp.json a run of `plan` uses: the settings' --mcp-config, else the run's own
    (`run_config`, recorded when it started), else the plan's, else the lookup beside the
    spec and in the working directory. Trust is required when the settings say so."""
    explicit = settings.mcp_config
    for recorded in (run_config, plan.mcp_config):
        if explicit is None and recorded:
            explicit = Path(recorded)
    spec_path = Path(plan.spec.path) if plan.spec.path else None
    return resolve_mcp_config(explicit=explicit, spec_path=spec_path, require_trust=settings.require_trust)


def untrusted_use(plan: Plan, settings: Settings, run_config: str | None = None) -> Diagnostic | None:
    """Why a run of `plan` would be refused a server (the file, what it would start, how to
    trust it), when it would start one from an mcp.json that is not trusted; else None."""
    used = sorted({s.server for s in plan.skills.values() if s.kind == KIND and s.server})
    if not used:
        return None
    config = config_for_plan(plan, settings, run_config)
    for name in used:
        diag = config.broken.get(name)
        if diag is not None and diag.code == UNTRUSTED:
            return diag
    return None


def refuse_untrusted(plan: Plan, settings: Settings, run_config: str | None = None) -> None:
    """UntrustedConfigError when a run of `plan` would start a server from an untrusted mcp.json."""
    diag = untrusted_use(plan, settings, run_config)
    if diag is not None:
        raise UntrustedConfigError(diag.message, where=diag.where, hint=diag.hint)


def _outcome(
    started: float, failure: StepFailure, meta: dict[str, str] | None = None, tail: str = ""
) -> StepOutcome:
    return StepOutcome(
        failure=failure,
        duration_s=time.perf_counter() - started,
        meta=dict(meta or {}),
        stderr_tail=tail,
    )


def create_runner(ctx: RunnerContext) -> McpRunner:
    """The `mcp` kind's runner factory (`orchestrator.kinds.mcp`)."""
    return McpRunner(ctx)
