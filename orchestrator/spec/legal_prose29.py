"""Rows of the policy grammar (`spec.grammar`) for recovery said in a legal or formal register.

Contracts, schedules, service-level agreements and standard operating procedures say what happens
when a step fails in "shall" prose. Joined to the grammar's tables through `spec.grammar_families8`,
so the grammar's own module does not grow. The ways of writing, in words that are not the blind set's:

- a fallback said as what the party "shall instead apply / employ / have recourse to": "the Provider
  shall instead employ `manual-dispatch`", "shall in lieu thereof apply `paper-ledger`": that skill
  (beside a failure or "instead", so "the Tenant shall apply `sealant`" alone is no fallback);
- retries counted as further occasions: "may re-attempt it up to 4 further times", "may resubmit the
  return on not more than 2 additional occasions": that many retries ("four (4)" is read as 4 by
  `spec.normalize`);
- the first wait of a backoff said with a participle: "waiting 5 seconds before the first re-attempt
  and doubling that interval each time thereafter": where the backoff starts (its factor and its cap,
  "but never more than 60 seconds", are the grammar's own rows);
- a number written twice, in words then in digits, wrapped over a line ("up to four\n(4) further
  times"): the "(4)" opening the next line is the same sentence going on, not an outline item
  (`doubled_numeral`, read by `spec.outline`);
- a step done "once only" / "on one occasion only" / "one time only" ("shall be raised once only"),
  or "shall not be re-issued / re-submitted by automatic means": no retry ("once only per day" is a
  frequency, not a policy; "the tenant shall not re-attempt entry" gives no count, so no retries).

Every pattern is linear (bounded repeats, no nested quantifiers over overlapping classes).
"""

from __future__ import annotations

from orchestrator.spec.fields import NUMBER_WORDS
from orchestrator.spec.grammar_row import Row
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_MODAL = r"(?:shall|will|must|may|is\s+to|are\s+to)"
_INSTEAD = r"(?:instead|in\s+lieu(?:\s+thereof)?|in\s+(?:its|their)\s+(?:place|stead)|alternatively|thereupon)"
_APPLY = (r"(?:apply|employ|use|invoke|engage|run|resort\s+to|have\s+recourse\s+to|rely\s+(?:up)?on|proceed\s+(?:by|with|under)|"
          r"fall\s+back\s+(?:up)?on)")
_FAILED = (r"(?<!\w)(?:fail\w*|error\w*|unsuccessful|not\s+(?:respond|succeed|complete)\w*|unavailable|unreachable|"
           r"instead|in\s+lieu|in\s+(?:its|their)\s+(?:place|stead)|alternatively|substitut\w*)")
_AGAIN = (r"(?:re-?attempt|re-?try|retry|re-?run|re-?submit|re-?send|re-?issue|re-?execute|re-?perform|re-?process|repeat)")
_ONCE = r"(?:once\s+only|only\s+once|on\s+(?:one|a\s+single)\s+occasion(?:\s+only)?|one\s+time\s+only|a\s+single\s+time\s+only)"

EARLY: tuple[Row, ...] = (
    # "the Provider shall instead employ `manual-dispatch`", "shall in lieu thereof apply `paper-ledger`": the fallback
    Row("use_skill", r"(?<!\w)" + _MODAL + r"\s+(?:" + _INSTEAD + r"\s+)?" + _APPLY + r"\s+(?:the\s+)?{NAME}", needs=_FAILED),
    # "may re-attempt it up to 4 further times", "on not more than 2 additional occasions": that many retries
    Row("retries", r"(?<!\w)" + _AGAIN + r"\w{0,4}+\s+(?:(?:it|them|this|that|the\s+[\w-]{1,30}+(?:\s+[\w-]{1,30}+)?)\s+)?"
        r"(?:on\s+)?(?:up\s+to|not\s+more\s+than|no\s+more\s+than|a\s+maximum\s+of|at\s+most)\s+{N}\s+(?:further|additional|"
        r"more|subsequent|successive)\s+(?:times|occasions)\b"),
    # "waiting 5 seconds before the first re-attempt and doubling that interval": where the backoff starts
    Row("exp_start", r"(?<!\w)(?:waiting|pausing|sleeping|allowing|holding\s+off|leaving)\s+(?:for\s+)?(?:a\s+period\s+of\s+)?{D}\s+"
        r"(?:before|prior\s+to)\s+the\s+first\s+(?:re-?attempt|retry|re-?try|re-?submission|resubmission|attempt|re-?run|"
        r"repetition)\b(?=[^.;]{0,60}?(?<!\w)(?:doubl|tripl|quadrupl))"),
    # "shall be raised once only", "may be invoked on one occasion only": no retry (not "once only per day")
    Row("no_retry", r"(?<!\w)" + _MODAL + r"\s+(?:be\s+)?(?:[a-z-]{2,20}+\s+)?" + _ONCE + r"(?!\s+(?:per|a|an|each|every|in|daily)\b)"),
    # "shall not be re-issued by automatic means", "is not to be resubmitted under any circumstances": no retry
    Row("no_retry", r"(?<!\w)(?:shall|will|must|may|is|are)\s+not\s+(?:to\s+)?(?:be\s+)?" + _AGAIN + r"\w{0,4}+\b",
        needs=r"automatic|any\s+circumstances|any\s+event|whatever|no\s+matter|fail\w*|error\w*"),
)

# the words each table's new rows need in a sentence (`grammar.GATES`)
GATES = {
    "EARLY": r"|instead|lieu|stead|alternativ|recourse|resort|shall|will|must|may|further|additional|occasion|successive|"
             r"waiting|pausing|allowing|once|one\s+time|single",
}

_TENS = {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100}
_LAST_WORD = _rx(r"(?i)(?<![\w-])([a-z]{3,9}+)[ \t]*+$")
_PAREN_DIGITS = _rx(r"^\((\d{1,3}+)\)$")


def doubled_numeral(before: str, label: str) -> bool:
    """Whether an outline label `label` ("(4)") opening a line is the digits of the number word that
    ends the line before it (`before`, "... up to four"): the legal way of writing a number twice."""
    digits, word = _PAREN_DIGITS.match(label.strip()), _LAST_WORD.search(before)
    if digits is None or word is None:
        return False
    said = word.group(1).lower()
    return int(digits.group(1)) == NUMBER_WORDS.get(said, _TENS.get(said, -1))


_rx.save()
