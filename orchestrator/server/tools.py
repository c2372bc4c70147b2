"""The MCP tools: the CLI's commands, for an agent host.

Paths are confined to the server's roots (`roots`); a client's roots only narrow
them. No tool starts a command from an mcp.json that the person has not trusted
(`skillweave trust`): a run that would is refused before it is recorded, naming
the file, what it would start and how to trust it; validating or planning such a
spec warns (`trusted`).

Each tool returns a pydantic model (structured content, with the model's JSON
Schema as the tool's outputSchema). A failure is a tool error (`isError`) whose
text is `where: message`, the same line the CLI prints; nothing a client sends
can crash the server. A tool may instead return an `InputRequiredResult`: a
question for the client (its roots, or a person's approval) on 2026-07-28
connections, after which the client calls the same tool again with the answer.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.shared.uri_template import UriTemplate
from mcp_types import InputRequiredResult, ToolAnnotations
from pydantic import Field

from orchestrator.engine.model import ApprovalDecision, ApprovalRequest, RunEvent, RunStatus
from orchestrator.errors import ResumeError, SkillweaveError, UserError
from orchestrator.report.progress import ProgressCount
from orchestrator.server import dialogue
from orchestrator.server.models import (
    PlanDocument,
    RunList,
    RunView,
    SkillInfo,
    SkillList,
    Validation,
)
from orchestrator.server.roots import RootSet, beside_spec
from orchestrator.server.runs import Asker, Execution, RunRegistry
from orchestrator.server.trusted import plan_warnings, refuse_untrusted_plan, refuse_untrusted_run
from orchestrator.server.views import run_brief, run_view, step_infos
from orchestrator.server.wording import render_error
from orchestrator.server.workspace import Workspace

if TYPE_CHECKING:
    from orchestrator.plan.model import Plan

logger = logging.getLogger(__name__)

APPROVER = "mcp-elicitation"
MAX_WAIT_S = 50.0

SpecPath = Annotated[
    str,
    Field(description="Path of a workflow spec (.md or .yaml), relative to the server's working directory"),
]
RunIdArg = Annotated[str, Field(description="The run id that run_workflow or list_runs returned")]
ForceArg = Annotated[
    bool,
    Field(
        description="true: resume even though the spec or a skill changed since the run started, or another "
        "process seems to hold the run (as the CLI's `resume --force`); only when the person agrees"
    ),
]
SKILL_URI = UriTemplate.parse("skill://{name}{?spec}")


@contextmanager
def tool_errors() -> Iterator[None]:
    """The server's edge: our errors become `where: message` tool errors; anything
    else is logged and reported as an internal error, never a crashed server."""
    try:
        yield
    except (ToolError, MCPError):
        raise
    except SkillweaveError as exc:
        raise ToolError(render_error(exc)) from exc
    except Exception as exc:
        logger.exception("tool crashed")
        raise ToolError(f"internal error: {type(exc).__name__}: {exc} (a skillweave bug)") from exc


def skill_uri(name: str, spec: str | None = None) -> str:
    """The resource URI of a skill's SKILL.md; a skill found beside a spec carries the
    spec (as the client gave it), since only that spec's catalog has it."""
    return SKILL_URI.expand({"name": name, "spec": spec} if spec is not None else {"name": name})


def describe(event: RunEvent) -> str:
    where = event.step or "run"
    if event.item is not None:
        where += f"[{event.item}]"
    if event.attempt is not None:
        where += f"/{event.attempt}"
    text = event.type.replace("_", " ")
    return f"{where}: {text}" + (f": {event.message}" if event.message else "")


def refusal(execution: Execution, decided: dialogue.Answer | None) -> str:
    """Why an execution did not run, for the client; after a recorded decision, that the
    decision stands and how to continue."""
    failure = execution.failure
    error = execution.error or "the run ended without a summary"
    if decided is None:
        return render_error(failure) if failure is not None else error
    what = "approval" if decided.approved else "rejection"
    said = render_error(failure, hint=False) if failure is not None else error
    text = f"{what} recorded; the run did not resume: {said}"
    if isinstance(execution.failure, ResumeError):
        text += "; call resume_run with force=true to continue anyway"
    return text


async def forward_progress(ctx: Context[Any, Any], events: MemoryObjectReceiveStream[RunEvent]) -> None:
    """Each engine event becomes one progress notification (units done of the total: `ProgressCount`)."""
    counter = ProgressCount()
    async with events:
        async for event in events:
            progress, total = counter.update(event)
            try:
                await ctx.report_progress(progress, total, describe(event))
            except Exception as exc:  # a client that stopped listening does not stop the watch
                logger.debug("progress notification failed: %s", exc)


async def watch(ctx: Context[Any, Any], execution: Execution, limit_s: float, asker: Asker | None = None) -> None:
    """Wait up to `limit_s` for the execution to end, forwarding its progress. Leaving
    the watch closes the event stream; the forwarder sends what is buffered, then ends."""
    async with anyio.create_task_group() as group, execution.watched(asker) as events:
        group.start_soon(forward_progress, ctx, events)
        await execution.wait(limit_s)


class ToolSet:
    """The eight tools, bound to one server's workspace and run registry."""

    def __init__(self, workspace: Workspace, registry: RunRegistry) -> None:
        self.ws = workspace
        self.registry = registry

    def register(self, server: MCPServer[Any]) -> None:
        # Reads only the skill folders and the journal.
        read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
        # Compiling a spec may start the MCP servers of its mcp.json (or reach HTTP ones) to read
        # tool schemas: commands the server does not control, so not read-only and open-world.
        compiles = ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=True
        )
        # As above, and `output` overwrites an existing file.
        plans = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=True)
        # Executing a workflow runs its steps: scripts, model calls and MCP tools that may change things.
        runs = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=True)
        tools: list[tuple[Callable[..., Any], str, ToolAnnotations]] = [
            (self.list_skills, "List skills", read_only),
            (self.validate_spec, "Validate a workflow spec", compiles),
            (self.plan_workflow, "Plan a workflow", plans),
            (self.run_workflow, "Run a workflow", runs),
            (self.get_run, "Get a run", read_only),
            (self.list_runs, "List runs", read_only),
            (self.resume_run, "Resume a run", runs),
            (self.approve_step, "Approve or reject a step", runs),
        ]
        for fn, title, hints in tools:
            server.add_tool(fn, title=title, description=inspect.cleandoc(fn.__doc__ or ""), annotations=hints)

    # Catalog and specs -----------------------------------------------------------

    async def list_skills(
        self,
        ctx: Context[Any, Any],
        spec: Annotated[
            str | None,
            Field(description="Optional spec path: also list the skills in the `skills/` folder beside it"),
        ] = None,
    ) -> SkillList | InputRequiredResult:
        """List the skills a workflow can use: bundled, beside the spec, and from --skills-dir.

        Each has a kind: `script` (sandboxed Python), `mcp` (a tool on an MCP server),
        `llm` (a model call) or `instructions` (for agents only; cannot be a workflow step).
        Read a skill's instructions through its resource URI (`uri`: skill://<name>, with
        `?spec=<spec>` for a skill beside the spec).
        """
        with tool_errors():
            confined = await self.ws.confine(ctx, spec=spec)
            if isinstance(confined, InputRequiredResult):
                return confined
            return await self.ws.blocking(self._skills, confined.paths.get("spec"), spec)

    def _skills(self, spec: Path | None, shown: str | None) -> SkillList:
        from orchestrator.skills import load_catalog

        catalog = load_catalog(self.ws.settings, spec)
        return SkillList(
            skills=[
                SkillInfo(
                    name=s.name,
                    kind=s.kind,
                    origin=s.origin,
                    description=s.description,
                    path=str(s.path),
                    uri=skill_uri(s.name, shown if s.origin == "spec" else None),
                )
                for s in catalog
            ],
            problems=[d.render() for d in catalog.problems],
        )

    async def validate_spec(self, spec: SpecPath, ctx: Context[Any, Any]) -> Validation | InputRequiredResult:
        """Parse a workflow spec and run the static checks (unknown skills, cycles, missing
        inputs, handoff contracts, budgets) without running anything.

        On success: the steps, the skill bound to each, the inputs run_workflow needs, and
        warnings. On failure: a tool error listing every problem as `file:line: message`;
        fix them and validate again. An `mcp` skill that declares no schemas gets its tool's,
        asked of its MCP server: validating may start the servers named in the spec's mcp.json,
        once the person has trusted that file (`skillweave trust PATH` in a shell); until then
        a warning says what it would start.
        """
        with tool_errors():
            confined = await self.ws.confine(ctx, spec=spec)
            if isinstance(confined, InputRequiredResult):
                return confined
            return await self.ws.blocking(self._validate, confined.paths["spec"], spec)

    def _validate(self, path: Path, shown: str) -> Validation:
        from orchestrator.compile import compile_spec

        plan = compile_spec(path, self.ws.settings)
        return Validation(
            ok=True,
            spec=shown,
            name=plan.name,
            steps=step_infos(plan),
            inputs=[i.name for i in plan.inputs],
            warnings=plan_warnings(plan, self.ws.settings),
            plan_sha256=plan.sha256,
        )

    async def plan_workflow(
        self,
        spec: SpecPath,
        ctx: Context[Any, Any],
        format: Annotated[
            Literal["json", "mermaid", "text"],
            Field(description="json: the reviewable plan document; mermaid: a diagram; text: for people"),
        ] = "text",
        output: Annotated[
            str | None,
            Field(description="Optional path to save the plan to (inside the server's roots); a saved .json plan can be run"),
        ] = None,
    ) -> PlanDocument | InputRequiredResult:
        """Compile a spec into its plan: every step bound to one skill, its dependencies,
        input mapping, contracts, retry/timeout/fallback/approval policies and the limits,
        each decision with where it came from. Show it to the person before running. Like
        validate_spec, it may start the MCP servers of the spec's (trusted) mcp.json; `output`
        is overwritten if it exists."""
        with tool_errors():
            confined = await self.ws.confine(ctx, spec=spec, output=output)
            if isinstance(confined, InputRequiredResult):
                return confined
            paths = confined.paths
            return await self.ws.blocking(self._plan, paths["spec"], spec, format, paths.get("output"), output)

    def _plan(
        self,
        path: Path,
        shown: str,
        fmt: Literal["json", "mermaid", "text"],
        out: Path | None,
        out_shown: str | None,
    ) -> PlanDocument:
        from orchestrator.compile import compile_spec
        from orchestrator.plan import render_plan

        where = f"output={out_shown}"
        if out is not None and out.is_dir():
            raise UserError("is a folder; give the path of the file to save the plan to", where=where)
        plan = compile_spec(path, self.ws.settings)
        rendered = render_plan(plan, fmt)
        if out is not None:
            try:
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(rendered if rendered.endswith("\n") else rendered + "\n", encoding="utf-8")
            except OSError as exc:
                reason = exc.strerror or type(exc).__name__
                if isinstance(exc, FileExistsError | NotADirectoryError):
                    reason = "a file on the way is not a folder"
                raise UserError(f"cannot save the plan there: {reason}", where=where) from None
        return PlanDocument(
            spec=shown,
            name=plan.name,
            format=fmt,
            steps=step_infos(plan),
            plan_sha256=plan.sha256,
            rendered=rendered,
            written_to=str(out) if out is not None else None,
            warnings=plan_warnings(plan, self.ws.settings),
        )

    # Runs --------------------------------------------------------------------------

    async def run_workflow(
        self,
        spec: Annotated[
            str, Field(description="Path of a workflow spec, or of a plan saved by plan_workflow (.json)")
        ],
        ctx: Context[Any, Any],
        inputs: Annotated[
            dict[str, Any] | None, Field(description="The workflow's inputs by name (validate_spec lists them)")
        ] = None,
        wait: Annotated[
            bool,
            Field(
                description="true: wait for the run to finish or pause (up to ~45 s, then return it still "
                "running); false: return the run id at once and execute in the background"
            ),
        ] = True,
        backend: Annotated[
            Literal["local", "temporal"],
            Field(description="local: this server executes the run; temporal: `skillweave worker`s do"),
        ] = "local",
    ) -> RunView | InputRequiredResult:
        """Run a workflow: compile the spec (or load the saved plan), record a new durable run,
        and execute it, sending a progress notification per step event.

        Hosts time tool calls out after about 60 s, so for anything long pass wait=false, then
        call get_run with the run id every few seconds (or with wait_s to wait there) until
        `status` is no longer `running`. The run keeps executing if this call is cancelled.
        A run that reaches an approval gate pauses (status `paused`, `awaiting_approval` lists
        the steps): if the client supports elicitation the person is asked here; otherwise ask
        them yourself and call approve_step. Every run is in the journal and can be resumed.
        A spec whose mcp.json the person has not trusted is refused before anything runs: show
        them the error (it names the file and the commands) and let them decide to run
        `skillweave trust PATH` themselves.
        """
        with tool_errors():
            retry = dialogue.round_of(ctx)
            if retry is not None and retry.kind == "approval" and retry.run_id and retry.step:
                return await self._answered(ctx, retry.run_id, retry.step)
            confined = await self.ws.confine(ctx, spec=spec)
            if isinstance(confined, InputRequiredResult):
                return confined
            if backend == "temporal":  # checked as a local run is: the workers would start its servers
                from orchestrator.server.temporal_runs import run_on_temporal

                plan = await self.ws.blocking(self._checked_plan, confined.paths["spec"], confined.roots)
                return await run_on_temporal(self.ws.settings, plan, dict(inputs or {}),
                                             wait_s=self.ws.config.wait_limit_s if wait else 0)
            run_id = await self.ws.blocking(self._create, confined.paths["spec"], dict(inputs or {}), confined.roots)
            execution = self.registry.start(run_id)
            return await self._watch(ctx, execution, wait=wait)

    def _create(self, path: Path, inputs: dict[str, Any], roots: RootSet) -> str:
        from orchestrator.engine import create_run

        return str(create_run(self._checked_plan(path, roots), inputs, self.ws.settings))

    def _checked_plan(self, path: Path, roots: RootSet) -> Plan:
        """The plan of `path`, refused if it reads outside the roots or would start an untrusted server."""
        from orchestrator.compile import compile_spec
        from orchestrator.plan import load_plan
        from orchestrator.spec.json_kind import is_saved_plan

        saved = is_saved_plan(path)  # asked once: it reads the whole file
        plan = load_plan(path, self.ws.settings.caps.data_bytes) if saved else compile_spec(path, self.ws.settings)
        if saved:  # a spec's surroundings were confined with it
            self._confine_plan(plan, roots)
        refuse_untrusted_plan(plan, self.ws.settings)
        return plan

    def _confine_plan(self, plan: Plan, roots: RootSet) -> None:
        """A saved plan names its spec, its spec-local skills and maybe an mcp.json: what a
        run would read from them must lie inside the roots too (a plan can be written by hand)."""
        found: list[Path] = []
        if plan.spec.path:
            found += beside_spec(Path(plan.spec.path))
        found += [Path(s.path) for s in plan.skills.values() if s.origin == "spec"]
        configured = self.ws.settings.mcp_config
        if plan.mcp_config and (configured is None or Path(plan.mcp_config).resolve() != configured.resolve()):
            found.append(Path(plan.mcp_config))
        roots.confine_all(found)

    async def get_run(
        self,
        run_id: RunIdArg,
        ctx: Context[Any, Any],
        wait_s: Annotated[
            float,
            Field(ge=0, le=MAX_WAIT_S, description="Wait up to this many seconds for an executing run to finish or pause"),
        ] = 0,
    ) -> RunView:
        """A run's status: each step's status, attempts, retries and regenerations, the steps
        awaiting approval, the error, the outputs (cut short when large; the full report is
        the resource run://<id>/report) and what to do next."""
        with tool_errors():
            execution = self.registry.active(run_id)
            if execution is not None and wait_s > 0:
                await watch(ctx, execution, wait_s)
            return await self._view(run_id)

    async def list_runs(
        self,
        limit: Annotated[int, Field(ge=1, le=200, description="How many runs, newest first")] = 20,
        status: Annotated[
            Literal["pending", "running", "paused", "succeeded", "degraded", "failed", "escalated"] | None,
            Field(description="Only runs with this status"),
        ] = None,
    ) -> RunList:
        """The runs recorded in the state directory (shared with the `skillweave` CLI), newest first."""
        with tool_errors():
            return await self.ws.blocking(self._list, limit, status)

    def _list(self, limit: int, status: str | None) -> RunList:
        from orchestrator.engine import list_runs

        fetched = list_runs(self.ws.settings, limit=200 if status else limit)
        summaries = sorted(fetched, key=lambda s: s.created_at, reverse=True)
        chosen = [s for s in summaries if status is None or s.status.value == status][:limit]
        return RunList(runs=[run_brief(s, executing=self.registry.active(s.run_id) is not None) for s in chosen])

    async def resume_run(
        self,
        run_id: RunIdArg,
        ctx: Context[Any, Any],
        wait: Annotated[bool, Field(description="As for run_workflow")] = True,
        force: ForceArg = False,
    ) -> RunView | InputRequiredResult:
        """Continue a run that was interrupted (its server stopped or was killed), one not yet
        started, or one paused at an approval gate once the gate is decided: completed steps are
        never run again, attempts cut short run again. A run still waiting for approval stays
        paused (use approve_step). A run that finished (succeeded, failed or escalated) cannot
        be resumed: fix the cause and start a new run with run_workflow. A run whose spec or
        skills changed since it started is refused unless force=true."""
        with tool_errors():
            retry = dialogue.round_of(ctx)
            if retry is not None and retry.kind == "approval" and retry.run_id == run_id and retry.step:
                return await self._answered(ctx, run_id, retry.step)
            await self._view(run_id)  # NotFoundError for an unknown run, before starting anything
            await self.ws.blocking(refuse_untrusted_run, run_id, self.ws.settings)
            return await self._watch(ctx, self.registry.start(run_id, force=force), wait=wait)

    async def approve_step(
        self,
        run_id: RunIdArg,
        step: Annotated[str, Field(description="The step id awaiting approval (awaiting_approval in the run)")],
        ctx: Context[Any, Any],
        reject: Annotated[bool, Field(description="true to reject the step instead of approving it")] = False,
        comment: Annotated[str | None, Field(description="Why, for the run's record")] = None,
        wait: Annotated[bool, Field(description="As for run_workflow")] = True,
        force: ForceArg = False,
    ) -> RunView | InputRequiredResult:
        """Record a person's decision at an approval gate and continue the run. Only call this
        for a decision the person made; rejecting applies the step's rejection policy. If the
        decision is recorded but the run cannot continue (its spec or a skill changed while it
        was paused), the error says so: call resume_run with force=true to continue anyway."""
        with tool_errors():
            retry = dialogue.round_of(ctx)
            if retry is not None and retry.kind == "approval" and retry.run_id == run_id and retry.step:
                return await self._answered(ctx, run_id, retry.step)
            answer = dialogue.Answer(approved=not reject, comment=comment)
            await self.ws.blocking(refuse_untrusted_run, run_id, self.ws.settings)
            await self._decide(run_id, step, answer, by="mcp")
            execution = self.registry.start(run_id, force=force)
            return await self._watch(ctx, execution, wait=wait, decided=answer)

    # Watching, approvals -------------------------------------------------------------

    async def _view(self, run_id: str) -> RunView:
        from orchestrator.engine import executing_elsewhere, replay_run

        state = await self.ws.blocking(replay_run, run_id, self.ws.settings)
        executing = self.registry.active(run_id) is not None
        elsewhere = None if executing else executing_elsewhere(state)
        return run_view(state.summary(), executing=executing, elsewhere=elsewhere, warnings=state.plan.warnings)

    async def _decide(self, run_id: str, step: str, answer: dialogue.Answer, *, by: str) -> None:
        from orchestrator.engine import approve_step

        if self.registry.active(run_id) is not None:
            raise UserError("the run is executing; decide once it has paused", where=f"{run_id}/{step}")
        await self.ws.blocking(
            lambda: approve_step(
                run_id, step, self.ws.settings, reject=not answer.approved, comment=answer.comment, by=by
            )
        )

    def _asker(self, ctx: Context[Any, Any]) -> Asker | None:
        """For clients that can be asked mid-call (before 2026-07-28), a person at a gate."""
        if dialogue.is_modern(ctx) or not dialogue.can_elicit(ctx):
            return None
        timeout = self.ws.config.elicit_timeout_s

        async def ask(request: ApprovalRequest) -> ApprovalDecision | None:
            message = dialogue.approval_message(
                request.run_id, request.step_id, request.step_name, None, request.input
            )
            answer = await dialogue.ask_approval(ctx, message, timeout)
            if answer is None:
                return None
            return ApprovalDecision(approved=answer.approved, by=APPROVER, comment=answer.comment)

        return ask

    async def _watch(
        self, ctx: Context[Any, Any], execution: Execution, *, wait: bool, decided: dialogue.Answer | None = None
    ) -> RunView | InputRequiredResult:
        """The run once the watch ends: a tool error when the engine refused to execute it
        (`decided`: the decision that was recorded before, which the error then mentions)."""
        if wait:
            await watch(ctx, execution, self.ws.config.wait_limit_s, self._asker(ctx))
        else:  # only until the engine has accepted (or refused) the run: a refusal is reported here
            with anyio.move_on_after(self.ws.config.wait_limit_s):
                await execution.began.wait()
        if execution.done.is_set() and execution.error is not None:
            raise ToolError(refusal(execution, decided))
        view = await self._view(execution.run_id)
        asks = wait and dialogue.is_modern(ctx) and dialogue.can_elicit(ctx)
        if asks and view.status == RunStatus.PAUSED.value and view.awaiting_approval:
            step = view.awaiting_approval[0]
            name = next((s.name for s in view.steps if s.id == step), step)
            message = dialogue.approval_message(view.run_id, step, name, view.workflow)
            return dialogue.approval_question(view.run_id, step, message)
        return view

    async def _answered(self, ctx: Context[Any, Any], run_id: str, step: str) -> RunView | InputRequiredResult:
        """The retry after an approval question: apply the person's answer, or leave the
        run paused when they declined, cancelled or sent nothing usable."""
        answer = dialogue.read_approval(ctx)
        if answer is None:
            return await self._view(run_id)
        await self.ws.blocking(refuse_untrusted_run, run_id, self.ws.settings)
        await self._decide(run_id, step, answer, by=APPROVER)
        return await self._watch(ctx, self.registry.start(run_id), wait=True, decided=answer)
