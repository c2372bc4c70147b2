"""Rows of the policy grammar (`spec.grammar`): a person's wait is no retry.

Joined to the grammar's tables through `spec.grammar_families8`, so the grammar's own module does
not grow. "Wait 30 min max; no answer = go anyway", "give them 2 hours, silence means no", "allow up
to 1 h - no reply, we stop": a time given to someone, with what their silence means, is the wait of
a person's approval (read by `spec.approval_lead` when the step's approval is read). When no
approval was read the policy reader meets the sentence: it is reported as not a policy of the step
(`EARLY`), never read as a wait between retries or an attempt's timeout.
"""

from __future__ import annotations

from orchestrator.spec.approval_sign import WAIT_FOR_ROLE
from orchestrator.spec.grammar_row import Row

EARLY: tuple[Row, ...] = (
    Row("ambiguous", r"(?<!\w)(?:wait|give\s+(?:him|her|them|it|the\s+[\w-]+(?:\s+[\w-]+)?)|allow)\s+(?:up\s+to\s+)?{D}"
        r"(?:\s+(?:max|tops|at\s+most))?\s*[;,.:—–-]?\s*(?:no\s+(?:answer|reply|response|word|ok)|silence|nothing\s+back)"
        r"\b[^.]*",
        value="a time given to a person with what their silence means is the wait of an approval, not a retry or a "
              "timeout of the step; write it on the step's approval (`Approval: required, timeout 30m -> approve`)"),
    Row("ambiguous", WAIT_FOR_ROLE,  # "Wait max 30 min for the inspector" (`approval_sign`)
        value="a time waited for a person (an inspector, a manager) is the wait of their sign-off, not a retry or a "
              "timeout of the step; write it on the step's approval (`Approval: required, timeout 30m -> reject`)"),
)
GATES = {"EARLY": r"|silence|answer|reply|wait"}
