"""Which failures a policy sentence is for, when its words picture one failure but do not restrict to it.

The policy grammar (`spec.phrase`) gives a sentence a failure class when it names one ("if it times
out", "on 5xx"). Two ways of writing name none on purpose, and this module says so:

- a reason said AFTER the policy, as an afterthought: "wait a quarter of an hour and try once more,
  the agency is slow to pick up", "cap it at 60 s; the scanner hangs now and then" — "slow" and
  "hangs" there say why the author wants the policy, not which failures it is for (`trailing_reason_spans`; the reason said before the policy is
  `spec.grammar_families11.reason_spans` and its neighbours);
- a retry and then a fallback for when the step STILL fails: "if it times out, try again after
  5 min; if it still fails, use `backup`" — the author pictures the likely failure, then says what
  happens whenever the step fails: the retry and fallback are the step's own, for every failure
  (`widened`). The author restricts it only by saying what other failures do ("any other error
  stops the run", "for anything else, fail"), or by naming the class again ("if it still times out").
  A crash pictured ("if the script crashes, retry twice; if it still fails, ...") keeps its rule: the
  step's own retry is for transient failures, so the rule's retry is the only one a code error gets.
"""

from __future__ import annotations

from orchestrator.policy import ErrorClass, PolicyStatement
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SLOWNESS = (r"(?:slow|sluggish|laggy|flaky|unreliable|patchy|glacial|overloaded|busy|hit[\s-]and[\s-]miss)")
# ", the crew desk is slow to pick up", " - the feed is a bit flaky in the mornings": why, said after the policy
_TRAILING = _rx(r"(?i)(?:,|;|\s[-\u2013\u2014]|\()\s*+(?:because\s+|as\s+|since\s+|cos\s+)?(?:(?:the|our|their|its|this|that|"
                r"they|it)\s+)?(?:[\w'-]{1,30}+\s+){0,4}?(?:is|are|gets|can\s+be|tends\s+to\s+be|has\s+been|runs|'s)\s+"
                r"(?:(?:often|always|usually|really|very|pretty|quite|a\s+bit|kind\s+of|painfully|notoriously|so|super)\s+)?"
                + _SLOWNESS + r"\b(?P<rest>[^.;!?]{0,100}+)"
                # "; the historian hangs sometimes": a failure said as a habit, after the policy
                r"|(?:,|;|\s[-\u2013\u2014]|\()\s*+(?:(?:the|our|their|its|this|that|they|it)\s+)?(?:[\w'-]{1,30}+\s+){0,4}?"
                r"(?:hangs|freezes|stalls|times\s+out|drops\s+out|falls\s+over|flakes\s+out|chokes|locks\s+up|crashes)\s+"
                r"(?:sometimes|often|occasionally|now\s+and\s+(?:then|again)|from\s+time\s+to\s+time|a\s+lot|at\s+times|"
                r"every\s+so\s+often)\b(?P<rest2>[^.;!?]{0,100}+)")
_CONDITION = _rx(r"(?i)(?<!\w)(?:if|when|whenever|should|unless|in\s+case|too)(?!\w)")
# "if it still fails", "if that doesn't work either", "still no luck", "if it's still down": the step failing, whatever the failure
_STILL = _rx(r"(?i)(?<!\w)(?:(?:if|when|should)\s+(?:it|that|this|they|the\s+[\w-]{1,30}+)\s+(?:still\s+|again\s+)?(?:fails?|"
             r"doesn'?t\s+work|does\s+not\s+work|won'?t\s+work|will\s+not\s+work|breaks|errors?(?:\s+out)?)\s+(?:again|too|"
             r"either|after\s+(?:that|those|the\s+retr(?:y|ies)))|(?:if|when|should)\s+(?:it|that|this|they|the\s+[\w-]{1,30}+)\s+"
             r"still\s+(?:fails?|doesn'?t\s+work|does\s+not\s+work|won'?t\s+work|breaks|errors?(?:\s+out)?)|still\s+no\s+luck|"
             r"still\s+failing|(?:if|when)\s+(?:it|that|this|they|the\s+[\w-]{1,30}+)(?:'s|'re|\s+is|\s+are)\s+still\s+(?:down|"
             r"failing|broken|offline|unreachable|dead|not\s+(?:working|answering|responding|back))|(?:if|when)\s+(?:the\s+)?retr(?:y|ies)\s+(?:fail|run\s+out|are\s+used\s+up))(?!\w)")
# the author says what other failures do: the class rule is meant as written
_OTHERS = _rx(r"(?i)(?<!\w)(?:(?:any|every|all)\s+other\s+(?:failures?|errors?|problems?|faults?)|anything\s+else|"
              r"other\s+(?:failures|errors|problems|faults)|for\s+(?:any|all)\s+(?:the\s+)?rest|otherwise\s+fail)(?!\w)")


def trailing_reason_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` adds, after its policy, why the author wants it ("..., the agency is slow to
    pick up"): no failure class. A clause with a condition of its own ("..., if it is slow") keeps it."""
    spans: list[tuple[int, int]] = []
    for m in _TRAILING.finditer(text):
        if m.start() == 0 or not text[:m.start()].strip():
            continue  # nothing said before it: the reason is not after a policy
        rest = "rest" if m.group("rest") is not None else "rest2"
        clause = text[m.start():m.start(rest)]
        if _CONDITION.search(clause) is None and _CONDITION.search(m.group(rest)) is None:
            spans.append(m.span())
    return spans


def widened(text: str, statement: PolicyStatement) -> PolicyStatement:
    """`statement` for every failure when `text` retries a pictured failure and then says what
    happens when the step still fails (module docstring); as it is otherwise."""
    # a timeout or an outage pictured: the step's own retry covers those anyway. A crash pictured keeps its
    # rule, whose retry is the only one a code error gets (the step's own retry is for transient failures)
    if statement.applies_to not in (ErrorClass.TIMEOUT, ErrorClass.TRANSIENT) or statement.on_failure is None \
            or statement.whole_run:
        return statement
    retried = statement.retries is not None or statement.max_attempts is not None or statement.wait is not None
    if not retried or _STILL.search(text) is None or _OTHERS.search(text) is not None:
        return statement
    return statement.model_copy(update={"applies_to": None})


_rx.save()
