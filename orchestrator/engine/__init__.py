"""The engine: durable execution of a Plan. The CLI and the MCP server use only this facade.

    run_id = create_run(plan, inputs, settings)          # validated, recorded
    summary = await execute_run(run_id, settings)       # runs, or resumes after a crash
    approve_step(run_id, "publish", settings)           # from any process
    summary = await execute_run(run_id, settings)       # continues past the gate
    get_run(run_id, settings); list_runs(settings)

    with journal_session():                              # several calls, one journal connection
        run_id = create_run(plan, inputs, settings)
        summary = await execute_run(run_id, settings)

The engine decides; it touches the world only through its backend
(`orchestrator.engine.backend`, the seam between deciding and acting): this
facade runs the local one (`orchestrator.engine.local`: step runners, the
regenerator, the approver, the journal); `orchestrator.temporal` runs the same
decision code as a Temporal workflow. Every state change
is an event in the journal (`orchestrator.journal`) made durable before any
effect outside the run relying on it, so `execute_run` on an interrupted run
replays the journal and goes on: completed steps and items never run again,
attempts that were in flight run again as new attempts (with new idempotency
keys), and the final outputs equal those of an uninterrupted run. A contained
attempt (a script under bwrap without network) starts before its start is
durable; if a crash loses it, it runs again under the same number and key.

Semantics worth knowing (details in the modules):

- Skips (`scheduler`): a step is skipped when its `when` is false, when a
  non-optional binding reads a step without output (skipped, or failed and
  continued), when every step it depends on was skipped, or when a routing step
  chose another branch. Ordering-only dependencies on a failed-and-continued
  step do not skip. A `for each` step evaluates `when` per item and leaves out
  the items where it is false; its output is the list of the item outputs, in
  input order.
- Recovery (`recovery`, `regeneration`): `PlanStep.policy_for(error class)`
  decides; transient and timeout failures share one retry budget; code errors
  of script skills are regenerated; a validator with `feedback` sends its code
  errors back to its producer first (only the producer and the validator run
  again). Regeneration that cannot be had (no LLM, a rejected key, a replay
  miss) is recorded as unavailable and spends no budget; the fallback's message
  then says why regeneration did not help. The engine reads what it needs
  of a skill's kind from its `KindTraits` (`orchestrator.kinds`), never its
  name: a kind whose runner enforces its own timeout (mcp) classifies it
  itself and is cut off only after the kind's margin; only a regenerable
  kind (script) gets new code; a containable one may start before its start
  is durable. A `for each` item applies DEFAULT and
  SKILL fallbacks on its own; FAIL, ESCALATE and CONTINUE of an item apply to
  its whole step.
- Summaries: in a finished run, steps it never reached are `not_run` and steps
  it cut short are `cancelled`.
- Limits: attempts are counted per step (per item in a `for each`) and in
  total (items included); regenerations per step and in total; LLM tokens from
  runners and the regenerator; wall time counts executing time only: pauses
  and time waiting at approval gates are left out. Reaching a limit fails the
  run naming it; compensations still run.
- Failure (`compensation`): a failed or escalated run compensates its
  succeeded steps in reverse completion order, then finishes.
- Approvals (`approval`): see there; `approve_step` works from any process.
- A run is executed by one process at a time: resuming a run another live
  process holds is refused, and two processes starting one run at once cannot
  both claim it.
"""

from __future__ import annotations

import hashlib
import os
import socket
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from orchestrator.config import Settings
from orchestrator.contracts import ContractChecker
from orchestrator.engine.approval import check_decision
from orchestrator.engine.clock import Clock, SystemClock
from orchestrator.engine.graph import plan_graph
from orchestrator.engine.input_alias import alias_notes, input_aliases
from orchestrator.engine.listing import list_summaries, unreadable_run
from orchestrator.engine.local import local_scope
from orchestrator.engine.model import (
    ApprovalDecision,
    ApprovalRequest,
    Approver,
    RunErrorInfo,
    RunEvent,
    RunStatus,
    RunSummary,
    RunTotals,
    StepStatus,
    StepSummary,
)
from orchestrator.engine.scheduler import Scheduler
from orchestrator.engine.state import RunState
from orchestrator.engine.unknown_input import unknown_inputs_message
from orchestrator.errors import ConfigError, NotFoundError, ResumeError, UserError
from orchestrator.filecap import hash_into, sha256_file
from orchestrator.hints import Hint, HintAction
from orchestrator.ids import RunId, new_run_id
from orchestrator.journal.events import ApprovalDecided, RunCreated
from orchestrator.journal.plans import encode_plan
from orchestrator.journal.session import journal_session, use_journal
from orchestrator.journal.store import DB_NAME, Journal
from orchestrator.plan.model import Plan
from orchestrator.runner import Regenerator, StepRunner

__all__ = [
    "ApprovalDecision",
    "ApprovalRequest",
    "Approver",
    "Clock",
    "RunErrorInfo",
    "RunEvent",
    "RunStatus",
    "RunSummary",
    "RunTotals",
    "StepStatus",
    "StepSummary",
    "SystemClock",
    "approve_step",
    "create_run",
    "execute_run",
    "executing_elsewhere",
    "get_run",
    "input_alias_notes",
    "journal_session",
    "list_runs",
    "plan_hash",
    "prepare_run",
    "replay_run",
    "run_in_memory",
    "unreadable_run",
]

_SKIPPED_DIRS = {"__pycache__", ".git", "node_modules", ".venv"}


def plan_hash(plan: Plan) -> str:
    """The plan's own sha256 when it has one, else one over its JSON, step by step.

    Hashing step by step keeps memory flat for plans of many steps with big contracts.
    """
    if plan.sha256:
        return plan.sha256
    digest = hashlib.sha256()
    digest.update(plan.model_copy(update={"sha256": "", "steps": ()}).model_dump_json(by_alias=True).encode())
    for step in plan.steps:
        digest.update(b"\n")
        digest.update(step.model_dump_json(by_alias=True).encode())
    return digest.hexdigest()


def _hash_folder(folder: Path) -> str:
    digest = hashlib.sha256()
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.endswith(".pyc"):
                continue
            path = Path(root) / name
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            try:
                hash_into(digest, path)  # by blocks; a FIFO or device is not read
            except OSError:
                digest.update(b"<unreadable>")
    return digest.hexdigest()


def fingerprint(plan: Plan, spec_path: str | None = None) -> dict[str, str]:
    """Content hashes of what a run depends on besides its plan: the spec and each skill folder.

    `spec_path`: where the spec was when the run was created (the plan may name it
    relative to the directory it was made in)."""
    found: dict[str, str] = {}
    spec = Path(spec_path or plan.spec.path)
    if spec.is_file():
        found["spec"] = sha256_file(spec)
    for name, skill in sorted(plan.skills.items()):
        folder = Path(skill.path)
        if folder.is_dir():
            found[f"skill:{name}"] = _hash_folder(folder)
    return found


def _check_inputs(plan: Plan, inputs: Mapping[str, Any]) -> dict[str, Any]:
    declared = {i.name: i for i in plan.inputs}
    aliases = input_aliases(plan, inputs)  # `comp_rates` given for the plan's own reading `rates` (`input_alias`)
    inputs = {aliases.get(k, k): v for k, v in inputs.items()}
    unknown = sorted(set(inputs) - set(declared))
    if unknown and declared:
        raise ConfigError(unknown_inputs_message(unknown, plan.inputs, plan.warnings), where=f"inputs.{unknown[0]}")
    values = dict(inputs)
    checker = ContractChecker()
    for name, spec in declared.items():
        if name not in values:
            if spec.default is not None or not spec.required:
                if spec.default is not None:
                    values[name] = spec.default
                continue
            raise ConfigError(f"missing required input {name!r}", where=name,
                              hint=Hint(action=HintAction.GIVE_INPUT, name=name))
        violations = checker.check(spec.schema_, values[name])
        if violations:
            raise ConfigError(f"input {name!r} is invalid: {violations[0].render()}", where=f"inputs.{name}")
        if spec.schema_.get("format") == "path" and isinstance(values[name], str):
            values[name] = _host_path(name, values[name])
    return values


def input_alias_notes(plan: Plan, inputs: Mapping[str, Any]) -> list[str]:
    """What a run given `inputs` says of each key it takes as another input of the plan (`input_alias`), and of
    the keys a plan with no inputs at all leaves unused (a plan with inputs refuses them: `_check_inputs`)."""
    notes = alias_notes(input_aliases(plan, inputs))
    if inputs and not plan.inputs:
        named = ", ".join(repr(k) for k in sorted(inputs))
        notes.append(f"input{'s' if len(inputs) > 1 else ''} {named} {'are' if len(inputs) > 1 else 'is'} not taken: "
                     "the plan has no workflow inputs (none was read from the spec), so no step sees "
                     f"{'them' if len(inputs) > 1 else 'it'}; declare them in the spec's Inputs section")
    return notes


def _host_path(name: str, value: str) -> str:
    """A path input, absolute (a resumed run finds it from anywhere); it must exist."""
    path = Path(value).expanduser()
    if not path.exists():
        raise ConfigError(f"input {name!r}: {value} is not a file or folder (a path input is shown to the "
                          "scripts that read it, read-only)", where=f"inputs.{name}")
    return str(path.resolve())


def prepare_run(
    plan: Plan, inputs: Mapping[str, Any], settings: Settings, *, run_id: str | None = None
) -> tuple[RunId, Plan, RunCreated]:
    """Validate the plan and `inputs` for a new run: (its id, the plan with its hash, its first event).

    What `create_run` records in the journal, and what another backend (Temporal)
    starts a run from: the same checks, the same plan hash."""
    plan_graph(plan)  # ConfigError when a hand-edited plan breaks what the engine relies on
    values = _check_inputs(plan, inputs)
    rid = RunId(run_id) if run_id else new_run_id()
    digest = plan_hash(plan)
    stored = plan if plan.sha256 else plan.model_copy(update={"sha256": digest})
    created = RunCreated(
        ts=SystemClock().now(),
        plan_name=plan.name,
        plan_sha256=digest,
        inputs=values,
        fingerprint=fingerprint(plan),
        mcp_config=str(settings.mcp_config.resolve()) if settings.mcp_config else None,
        spec_path=str(Path(plan.spec.path).resolve()) if Path(plan.spec.path).is_file() else None,
    )
    return rid, stored, created


def create_run(plan: Plan, inputs: Mapping[str, Any], settings: Settings, *, run_id: str | None = None) -> RunId:
    """Validate the plan and `inputs`, and record a new run (status pending)."""
    rid, stored, created = prepare_run(plan, inputs, settings, run_id=run_id)
    with use_journal(settings.state_dir) as journal:
        try:
            journal.run(rid)
        except NotFoundError:
            pass
        else:
            raise UserError(f"run {rid} already exists", where=rid)
        journal.create_run(rid, lambda: encode_plan(stored), created.inputs, created)
        journal.run_dir(rid).mkdir(parents=True, exist_ok=True)
    return rid


def _load(journal: Journal, run_id: str, plan: Plan | None = None) -> RunState:
    record = journal.run(run_id)  # NotFoundError for an unknown id
    if plan is None or plan_hash(plan) != record.plan_sha256:
        plan = journal.plan(run_id)
    return RunState.replay(
        run_id, plan, journal.events(run_id), lambda rel: journal.load_output(run_id, rel)
    )


def _run_journal(run_id: str, settings: Settings) -> AbstractContextManager[Journal]:
    """The journal holding `run_id`; NotFoundError, creating nothing, when the state
    directory has no journal at all (a command typed in the wrong folder)."""
    if not (Path(settings.state_dir) / DB_NAME).is_file():
        raise NotFoundError(
            f"no run {run_id!r} in {settings.state_dir} (no {DB_NAME} there)",
            where=run_id, hint=Hint(action=HintAction.CHOOSE_STATE_DIR),
        )
    return use_journal(settings.state_dir)


def replay_run(run_id: str, settings: Settings) -> RunState:
    """The run's state as replayed from its journal (for reports)."""
    with _run_journal(run_id, settings) as journal:
        return _load(journal, run_id)


def executing_elsewhere(state: RunState) -> int | None:
    """The pid of another live process executing the run, if any (resume refuses it; the
    MCP server asks before it tells a client that a running run was interrupted)."""
    if state.status is not RunStatus.RUNNING or not state.sessions:
        return None
    last = state.sessions[-1]
    if last.host != socket.gethostname() or last.pid == os.getpid():
        return None
    try:
        os.kill(last.pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:
        return last.pid
    try:  # a zombie (killed, not yet reaped) is not alive
        with open(f"/proc/{last.pid}/stat") as fh:
            if fh.read().rsplit(")", 1)[-1].split()[0] == "Z":
                return None
    except OSError:
        pass
    return last.pid


def _check_resumable(state: RunState, force: bool) -> None:
    if state.status.finished:
        raise ResumeError(f"run {state.run_id} already {state.status.value}; nothing to resume", where=state.run_id)
    if force:
        return
    pid = executing_elsewhere(state)
    if pid is not None:
        raise ResumeError(
            f"run {state.run_id} is being executed by process {pid}",
            where=state.run_id, hint=Hint(action=HintAction.RESUME_IF_GONE, run_id=state.run_id),
        )
    if not state.fingerprint:
        return
    now = fingerprint(state.plan, state.spec_path)
    changed = sorted(k for k, v in state.fingerprint.items() if now.get(k) != v)
    if changed:
        names = ", ".join(k.replace("skill:", "skill ") for k in changed)
        raise ResumeError(
            f"run {state.run_id} cannot be resumed: changed since it started: {names}",
            where=state.run_id, hint=Hint(action=HintAction.RESUME_ANYWAY, run_id=state.run_id),
        )


async def execute_run(
    run_id: str,
    settings: Settings,
    *,
    runners: Mapping[str, StepRunner] | None = None,
    regenerator: Regenerator | None = None,
    approver: Approver | None = None,
    on_event: Callable[[RunEvent], None] | None = None,
    clock: Clock | None = None,
    force: bool = False,
    llm_client: object | None = None,
    plan: Plan | None = None,
) -> RunSummary:
    """Run, or resume, a recorded run until it finishes or pauses at an approval gate.

    Raises NotFoundError for an unknown run and ResumeError for one that finished,
    one executed by another live process, or one whose spec or skills changed
    (unless `force`). Step failures and limits do not raise: they end the run,
    and the summary says how. `plan`, when the caller holds the very plan the run
    was created with (same hash), spares parsing the journal's copy.
    """
    with _run_journal(run_id, settings) as journal:
        state = _load(journal, run_id, plan)
        _check_resumable(state, force)
        if settings.mcp_config is None and state.mcp_config is not None:  # the run's own, unless told
            settings = settings.model_copy(update={"mcp_config": Path(state.mcp_config)})
        run_dir = journal.run_dir(run_id)
        run_dir.mkdir(parents=True, exist_ok=True)
        async with local_scope(
            state.plan, state, settings, run_dir, clock or SystemClock(), journal=journal, runners=runners,
            regenerator=regenerator, approver=approver, on_event=on_event, llm_client=llm_client,
        ) as scope:
            await Scheduler(scope).execute()
        summary = state.summary()
        if settings.promote and summary.status is RunStatus.SUCCEEDED:
            summary = summary.model_copy(update={"notes": (*summary.notes, *_promote(state, run_dir))})
        return summary


def _promote(state: RunState, run_dir: Path) -> list[str]:
    """--promote: write each regenerated script that succeeded back into its skill folder."""
    from orchestrator.errors import SkillweaveError
    from orchestrator.llm.promote import promote_script

    notes: list[str] = []
    for sid, st in state.steps.items():
        if st.code_path is None or st.status is not StepStatus.SUCCEEDED:
            continue
        skill = state.plan.skill_of(sid)
        try:
            target = promote_script(
                Path(skill.path),
                skill.entry or Path(st.code_path).name,
                (run_dir / st.code_path).read_text(encoding="utf-8"),
                original_sha256=st.entry_sha256,
            )
        except SkillweaveError as exc:
            notes.append(f"step {sid}: {exc.render()}")
        else:
            notes.append(f"step {sid}: promoted {st.code_path} to {target}")
    return notes


async def run_in_memory(
    plan: Plan,
    inputs: Mapping[str, Any],
    *,
    runners: Mapping[str, StepRunner],
    settings: Settings | None = None,
    regenerator: Regenerator | None = None,
    approver: Approver | None = None,
    on_event: Callable[[RunEvent], None] | None = None,
    clock: Clock | None = None,
    run_dir: Path | None = None,
) -> RunSummary:
    """Execute a plan with no journal: same semantics, nothing durable (tests, benchmarks).

    Regenerated code still needs a directory: `run_dir` (default: a temporary one).
    """
    import tempfile

    settings = settings or Settings()
    plan_graph(plan)  # ConfigError when a hand-edited plan breaks what the engine relies on
    values = _check_inputs(plan, inputs)
    clock = clock or SystemClock()
    run_id = new_run_id()
    state = RunState(run_id, plan)
    state.apply(RunCreated(ts=clock.now(), plan_name=plan.name, plan_sha256=plan_hash(plan), inputs=values))
    with tempfile.TemporaryDirectory(prefix="skillweave-run-") as tmp:
        async with local_scope(
            plan, state, settings, run_dir or Path(tmp), clock, runners=runners, regenerator=regenerator,
            approver=approver, on_event=on_event,
        ) as scope:
            await Scheduler(scope).execute()
    return state.summary()


def approve_step(
    run_id: str,
    step_id: str,
    settings: Settings,
    *,
    reject: bool = False,
    comment: str | None = None,
    by: str | None = None,
    clock: Clock | None = None,
) -> None:
    """Record a decision on a step awaiting approval; `execute_run` then continues the run.

    A gate past its timeout is refused: its policy decides it when the run resumes.
    """
    with _run_journal(run_id, settings) as journal:
        state = _load(journal, run_id)
        now = (clock or SystemClock()).now()
        check_decision(state, step_id, now)
        journal.append(
            run_id,
            [
                ApprovalDecided(
                    ts=now,
                    step=step_id,
                    approved=not reject,
                    by=by or os.environ.get("USER") or "cli",
                    comment=comment,
                )
            ],
        )


def get_run(run_id: str, settings: Settings) -> RunSummary:
    return replay_run(run_id, settings).summary()


def list_runs(settings: Settings, limit: int = 50) -> list[RunSummary]:
    """The latest runs, newest first, summarized without their outputs (see `listing`)."""
    if not (Path(settings.state_dir) / DB_NAME).exists():
        return []
    with use_journal(settings.state_dir) as journal:
        return list_summaries(journal, journal.runs(limit))
