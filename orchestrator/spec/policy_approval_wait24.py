"""A person's wait said again after the approval that already holds it (twenty-fourth round).

    If the load is over 20 t the supervisor must sign it off first - give her 1 hr.
    No answer in 1 hr = no lift, stop there.
        -> the approval waits 3600 s, then rejects; the second sentence is that wait said again,
           never the step's attempt timeout (3600 s) nor a failure rule of the step

A form or a memo says the approver's time where it asks for the sign-off and then says what silence
means in a sentence of its own ("No answer in 2 hrs = we do not sail"). When the step's approval
already waits that long, the sentence is the approval's: what it says silence means is the approval's
outcome. A different time ("No answer in 10 min, retry") is left to the policy reader as before.
"""

from __future__ import annotations

from orchestrator.policy import ApprovalPolicy
from orchestrator.spec import condition as cond


def approval_wait_again(approval: ApprovalPolicy, sentence: str) -> ApprovalPolicy | None:
    """The approval with `sentence`'s outcome when the sentence says the approval's own wait again
    with what silence means ("No answer in 2 hrs = we do not sail"), else None."""
    if approval.timeout_s is None:
        return None
    seconds, then = cond.approval_timeout(sentence)
    if seconds is None or then is None or abs(seconds - approval.timeout_s) > 1e-6:
        return None
    return approval.model_copy(update={"on_timeout": then})
