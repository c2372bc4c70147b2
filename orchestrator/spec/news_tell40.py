"""A "tell someone" said with no failure in its sentence (fortieth round).

The policy grammar reads "page the on-call", "tell Marcus", "email the office" as what to do when a
step fails (an escalation), wherever the sentence is. Said in a step's running text with no failure
anywhere in the sentence ("Oh, the coffee machine is fixed, tell Marcus.", "The rota is up, email the
office."), it passes on news, and is no failure policy of the step: `news_only` says so, and the
reader warns at its line instead of setting an escalation nobody asked for. A sentence that names a
failure or a condition ("if it breaks, tell Marcus", "when the upload is stuck, email the office",
"tell Marcus, it's down again") is read as before, as is "escalate to ..." (a word that is itself about
failing) and a sentence that says anything else of the policy.
"""

from __future__ import annotations

from orchestrator.policy import PolicyStatement
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TELLING = _rx(r"(?i)^(?:tell|inform|message|email|e-mail|slack|let)\b")
_FAILURE_SAID = _rx(r"(?i)\b(?:if|when|whenever|unless|otherwise|else|in\s+case|should|fail\w*|error\w*|broke\w*|"
                    r"breaks?|down|dead|wrong|stuck|hangs?|crash\w*|time[sd]?\s*-?\s*out|timeout|hiccups?|problems?|"
                    r"issues?|trouble|can'?t|cannot|won'?t|doesn'?t|didn'?t|isn'?t|not\s+working|offline|missing)\b")


def news_only(statement: PolicyStatement, sentence: str) -> bool:
    """Whether `statement` is an escalation by telling someone, alone, read from a sentence naming no failure."""
    failure = statement.on_failure
    if failure is None or failure.kind != "escalate" or not _TELLING.match((failure.message or "").strip()):
        return False
    if statement.model_copy(update={"on_failure": None}) != PolicyStatement():
        return False
    return _FAILURE_SAID.search(sentence) is None


_rx.save()
