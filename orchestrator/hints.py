"""What to do next, as data. Errors and diagnostics carry a `Hint`; each front end words it.

No module below the front ends names a command or a flag. An error says what the
person (or the host agent) can do, as an action and its arguments; the CLI words it as
a command line (`orchestrator.cli.wording`: `skillweave resume RUN --force`), the MCP
server as its tools' arguments (`orchestrator.server.wording`: `resume_run` with
`force=true`).

    Action               arguments     what it means
    give_input           name          give the workflow input `name`
    resume               run_id        continue the run
    resume_anyway        run_id        resume although its spec or a skill changed
    resume_if_gone       run_id        resume although another process seems to hold it,
                                       if that process is gone
    choose_state_dir     -             the runs are kept in another state directory
    plan_again           -             write the plan again from its spec
    answer_from_recording -            answer model calls from a recording (no key needed)
    record_again         -             record the model calls again
    fix_skill            -             let the fixer move unknown keys under metadata
    approve              run_id, step  decide the step's approval
    let_model_choose     -             let the model break a tie (a key, or a recording)
    trust                name          trust the mcp.json at path `name` (a person does it,
                                       from a shell), then try again
    interpret            -             have the model read the policy sentences the grammar
                                       could not (its readings go to the spec's lockfile)
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class HintAction(StrEnum):
    GIVE_INPUT = "give_input"
    RESUME = "resume"
    RESUME_ANYWAY = "resume_anyway"
    RESUME_IF_GONE = "resume_if_gone"
    CHOOSE_STATE_DIR = "choose_state_dir"
    PLAN_AGAIN = "plan_again"
    ANSWER_FROM_RECORDING = "answer_from_recording"
    RECORD_AGAIN = "record_again"
    FIX_SKILL = "fix_skill"
    APPROVE = "approve"
    LET_MODEL_CHOOSE = "let_model_choose"
    TRUST = "trust"
    INTERPRET = "interpret"


class Hint(BaseModel):
    """One thing to do next (see the module docstring for the actions and their arguments)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    action: HintAction
    run_id: str | None = None
    step: str | None = None
    name: str | None = None


# How a front end words a hint: a short phrase, no leading punctuation.
HintWording = Callable[[Hint], str]

# Hints a message carries in parentheses ("... (give it with ...)"); the others follow a "; ".
PARENTHETICAL = frozenset({
    HintAction.GIVE_INPUT, HintAction.RESUME_ANYWAY, HintAction.ANSWER_FROM_RECORDING, HintAction.LET_MODEL_CHOOSE,
})


def attach(text: str, hint: Hint | None, say: HintWording) -> str:
    """`text` followed by the hint as `say` words it: in parentheses, or after a "; "."""
    if hint is None:
        return text
    phrase = say(hint)
    return f"{text} ({phrase})" if hint.action in PARENTHETICAL else f"{text}; {phrase}"


def plain(hint: Hint) -> str:
    """A hint in words that name no front end (reports read by anyone, logs)."""
    match hint.action:
        case HintAction.GIVE_INPUT:
            return f"give the input {hint.name!r}"
        case HintAction.RESUME:
            return f"resume run {hint.run_id}"
        case HintAction.RESUME_ANYWAY:
            return "resuming with force resumes anyway"
        case HintAction.RESUME_IF_GONE:
            return "resume with force if that process is gone"
        case HintAction.CHOOSE_STATE_DIR:
            return "the runs may be kept in another state directory"
        case HintAction.PLAN_AGAIN:
            return "write the plan again from its spec"
        case HintAction.ANSWER_FROM_RECORDING:
            return "or answer from a recording"
        case HintAction.RECORD_AGAIN:
            return "record the calls again"
        case HintAction.FIX_SKILL:
            return "the skill validator's fix does it"
        case HintAction.APPROVE:
            return f"approve (or reject) step {hint.step} of run {hint.run_id}"
        case HintAction.LET_MODEL_CHOOSE:
            return "or let the model choose: a key or a recording"
        case HintAction.TRUST:
            return f"if you wrote it or reviewed it, trust {hint.name} and try again"
        case HintAction.INTERPRET:
            return "the model can read it (planning with interpret)"
