"""The server's questions to the client: its roots, and a person's approval.

Two protocol eras ask differently. On a 2026-07-28 connection a server cannot
send requests to the client: a tool *returns* its question (`InputRequiredResult`
with `input_requests` and a sealed `request_state`), and the client calls the
same tool again with the answers. On an older connection the server sends the
request (`roots/list`, `elicitation/create`) in the middle of the call. This
module hides the difference: each question has a `pending` form (return it) and
a `read` form (the answer on the retry), plus a direct form for older clients.

`request_state` is plain JSON of `Round`; the SDK seals it, so a client cannot
forge a run id or a step into it.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Literal

import anyio
from mcp.server.mcpserver import Context
from mcp.shared.message import ServerMessageMetadata
from mcp_types import (
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsRequest,
    ListRootsResult,
)
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, ConfigDict, ValidationError

logger = logging.getLogger(__name__)

MODERN = "2026-07-28"
ROOTS_KEY = "roots"
APPROVAL_KEY = "approval"


class Round(BaseModel):
    """What a returned question was about, echoed back (sealed) on the retry."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["roots", "approval"]
    run_id: str | None = None
    step: str | None = None


class Answer(BaseModel):
    """A person's answer at an approval gate. None anywhere means "no answer"."""

    model_config = ConfigDict(frozen=True)

    approved: bool
    comment: str | None = None


class ApprovalForm(BaseModel):
    """The form shown in the host (flat, primitive fields only, as elicitation demands)."""

    decision: Literal["approve", "reject"]
    comment: str = ""


def is_modern(ctx: Context[Any, Any]) -> bool:
    version = ctx.protocol_version
    return version is not None and is_version_at_least(version, MODERN)


def can_elicit(ctx: Context[Any, Any]) -> bool:
    caps = ctx.client_capabilities
    elicitation = caps.elicitation if caps is not None else None
    # A bare `elicitation: {}` predates modes and means form support; url-only does not.
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def can_list_roots(ctx: Context[Any, Any]) -> bool:
    caps = ctx.client_capabilities
    return caps is not None and caps.roots is not None


def round_of(ctx: Context[Any, Any]) -> Round | None:
    """The question this call is the retry of, if any."""
    state = ctx.request_state
    if not state:
        return None
    try:
        return Round.model_validate_json(state)
    except ValidationError:
        return None


def response(ctx: Context[Any, Any], key: str) -> Any:
    responses = ctx.input_responses or {}
    return responses.get(key)


# Roots -----------------------------------------------------------------------------


def roots_question() -> InputRequiredResult:
    return InputRequiredResult(
        input_requests={ROOTS_KEY: ListRootsRequest(method="roots/list")},
        request_state=Round(kind="roots").model_dump_json(),
    )


def read_roots(ctx: Context[Any, Any]) -> list[str] | None:
    """The root URIs a retry carries, or None when this call carries none."""
    answer = response(ctx, ROOTS_KEY)
    if not isinstance(answer, ListRootsResult):
        return None
    return [str(root.uri) for root in answer.roots]


async def fetch_roots(ctx: Context[Any, Any]) -> list[str]:
    """Ask an older client for its roots mid-call; no roots when it cannot answer."""
    try:
        result = await ctx.session.send_request(
            ListRootsRequest(method="roots/list"),
            ListRootsResult,
            metadata=ServerMessageMetadata(related_request_id=ctx.request_id),
        )
    except Exception as exc:  # the client's failure to answer is not ours to raise
        logger.info("roots/list failed: %s", exc)
        return []
    return [str(root.uri) for root in result.roots]


# Approvals -------------------------------------------------------------------------


PREVIEW_CHARS = 500


def approval_message(run_id: str, step: str, step_name: str, workflow: str | None, step_input: Any = None) -> str:
    what = f"Workflow {workflow!r} (run {run_id})" if workflow else f"Run {run_id}"
    message = (
        f"{what} waits for your approval before step {step} ({step_name}). "
        "Approve to continue, reject to refuse the step."
    )
    if step_input is not None:
        shown = json.dumps(step_input, default=str)
        if len(shown) > PREVIEW_CHARS:
            shown = shown[:PREVIEW_CHARS] + "…"
        message += f"\nThe step's input: {shown}"
    return message


def approval_question(run_id: str, step: str, message: str) -> InputRequiredResult:
    from mcp.server.elicitation import render_elicitation_schema

    request = ElicitRequest(
        method="elicitation/create",
        params=ElicitRequestFormParams(message=message, requested_schema=render_elicitation_schema(ApprovalForm)),
    )
    return InputRequiredResult(
        input_requests={APPROVAL_KEY: request},
        request_state=Round(kind="approval", run_id=run_id, step=step).model_dump_json(),
    )


def answer_from(result: ElicitResult | None) -> Answer | None:
    """Accepted with a decision -> an Answer; declined, cancelled or malformed -> None."""
    if result is None or result.action != "accept" or result.content is None:
        return None
    try:
        form = ApprovalForm.model_validate(result.content)
    except ValidationError:
        return None
    return Answer(approved=form.decision == "approve", comment=form.comment or None)


def read_approval(ctx: Context[Any, Any]) -> Answer | None:
    answer = response(ctx, APPROVAL_KEY)
    return answer_from(answer if isinstance(answer, ElicitResult) else None)


async def ask_approval(ctx: Context[Any, Any], message: str, timeout_s: float) -> Answer | None:
    """Ask an older client's person mid-call. No answer within `timeout_s`, a decline,
    a cancel or a client error all mean None: the run stays paused."""
    from mcp.server.elicitation import render_elicitation_schema

    with anyio.move_on_after(timeout_s):
        try:
            result = await ctx.session.elicit_form(
                message=message,
                requested_schema=render_elicitation_schema(ApprovalForm),
                related_request_id=ctx.request_id,
            )
        except Exception as exc:  # a client that fails to answer leaves the gate closed
            logger.info("elicitation failed: %s", exc)
            return None
        return answer_from(result)
    return None
