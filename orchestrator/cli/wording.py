"""How the command line words the hints errors carry (`orchestrator.hints`): as commands and flags.

    render_error(exc)       `where: message` and its hint, as `handle_errors` prints it
    render_diagnostic(d)    `file:line: message` and its hint
    say(hint)               the phrase alone (`skillweave resume RUN`, `--force resumes anyway`)
"""

from __future__ import annotations

import shlex

from orchestrator.errors import Diagnostic, SkillweaveError
from orchestrator.hints import Hint, HintAction, attach


def say(hint: Hint) -> str:
    from orchestrator.cli._common import resume_command

    match hint.action:
        case HintAction.GIVE_INPUT:
            return f"give it with --input {hint.name}=VALUE"
        case HintAction.RESUME:
            return resume_command(hint.run_id or "RUN_ID")
        case HintAction.RESUME_ANYWAY:
            return "--force resumes anyway"
        case HintAction.RESUME_IF_GONE:
            return "use --force if that process is gone"
        case HintAction.CHOOSE_STATE_DIR:
            return "pass --state-dir or set SKILLWEAVE_STATE_DIR"
        case HintAction.PLAN_AGAIN:
            return "write it again with `skillweave plan`"
        case HintAction.ANSWER_FROM_RECORDING:
            return "or answer from a recording with --llm-replay FILE"
        case HintAction.RECORD_AGAIN:
            return "re-record with --llm-record FILE"
        case HintAction.FIX_SKILL:
            return "skillweave skills validate --fix moves it"
        case HintAction.APPROVE:
            return f"skillweave approve {hint.run_id} {hint.step} (or --reject)"
        case HintAction.LET_MODEL_CHOOSE:
            return "or let the model choose: set a key or --llm-replay FILE"
        case HintAction.TRUST:
            return f"if you wrote it or reviewed it, run `skillweave trust {shlex.quote(hint.name or 'PATH')}` and try again"
        case HintAction.INTERPRET:
            return "`skillweave plan --interpret` asks the model to read it"


# The flag that gives each setting an error may name (`SkillweaveError.setting`).
FLAGS = {
    "skills_dirs": "--skills-dir",
    "mcp_config": "--mcp-config",
    "llm_replay": "--llm-replay",
    "llm_record": "--llm-record",
    "state_dir": "--state-dir",
    "scenarios": "--scenario",
    "token": "--token",
}


def where_of(exc: SkillweaveError) -> str | None:
    """`where` as the command line says it: a workflow input as `--input NAME`, a value
    from a flag preceded by the flag (`--skills-dir PATH`)."""
    where = exc.where
    if where is not None and where.startswith("inputs."):
        return f"--input {where.removeprefix('inputs.')}"
    flag = FLAGS.get(exc.setting or "")
    if flag is not None:
        return f"{flag} {where}" if where else flag
    return where


def render_diagnostic(d: Diagnostic) -> str:
    return attach(d.render(), d.hint, say)


def render_error(exc: SkillweaveError) -> str:
    diagnostics = getattr(exc, "diagnostics", None)
    if diagnostics:
        return "\n".join(render_diagnostic(d) for d in diagnostics)
    where = where_of(exc)
    text = f"{where}: {exc.message}" if where else exc.message
    return attach(text, exc.hint, say)
