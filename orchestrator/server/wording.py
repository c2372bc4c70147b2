"""How the MCP server words the hints errors carry (`orchestrator.hints`): as tools and arguments.

A host agent calling a tool has `inputs` and `force=true`, not the CLI's `--input` and
`--force`; the errors themselves name neither (they carry a `Hint`), and this module
says it the server's way.

    render_error(exc, hint=True)    `where: message` and (unless hint=False) its hint
    say(hint)                       the phrase alone (`resume_run with force=true resumes anyway`)
"""

from __future__ import annotations

import shlex

from orchestrator.errors import Diagnostic, SkillweaveError
from orchestrator.hints import Hint, HintAction, attach


def say(hint: Hint) -> str:
    match hint.action:
        case HintAction.GIVE_INPUT:
            return f"give it in the `inputs` argument, key '{hint.name}'"
        case HintAction.RESUME:
            return f"resume_run with run_id '{hint.run_id}' continues it"
        case HintAction.RESUME_ANYWAY:
            return "resume_run with force=true resumes anyway"
        case HintAction.RESUME_IF_GONE:
            return "call resume_run with force=true if that process is gone"
        case HintAction.CHOOSE_STATE_DIR:
            return "this server keeps its runs in that state directory, which is chosen when the server is started"
        case HintAction.PLAN_AGAIN:
            return "write it again with plan_workflow"
        case HintAction.ANSWER_FROM_RECORDING:
            return "or answer from a recording, chosen when the server is started"
        case HintAction.RECORD_AGAIN:
            return "record the calls again"
        case HintAction.FIX_SKILL:
            return "`skillweave skills validate --fix` does it"
        case HintAction.APPROVE:
            return f"approve_step with run_id '{hint.run_id}' and step '{hint.step}' (or reject=true)"
        case HintAction.LET_MODEL_CHOOSE:
            return "or let the model choose: a key or a recording, chosen when the server is started"
        case HintAction.TRUST:  # no tool trusts a file: the person does, from a shell
            return (f"if you wrote it or reviewed it, run `skillweave trust {shlex.quote(hint.name or 'PATH')}` "
                    "in a shell and try again")
        case HintAction.INTERPRET:
            return "`skillweave plan --interpret` in a shell asks the model to read it"


def render_diagnostic(d: Diagnostic) -> str:
    return attach(d.render(), d.hint, say)


def render_error(exc: SkillweaveError, *, hint: bool = True) -> str:
    diagnostics = getattr(exc, "diagnostics", None)
    if diagnostics:
        return "\n".join(render_diagnostic(d) if hint else d.render() for d in diagnostics)
    text = exc.render()
    if exc.setting is not None:
        text += " (chosen when the server was started)"
    return attach(text, exc.hint if hint else None, say)
