"""A person's approval said in the words of any document, beside the ones `spec.condition` knows.

"Filing MUST NOT proceed until a security owner approves the ticket", "shall not be prepared
without the prior written approval of the Finance Controller", "a Tier 2 lead has to OK the
credit", "needs a maintainer's OK", "I get a DM and eyeball it first": the cue is a person who
approves (or OKs, signs off, eyeballs) before the step goes on (`said_approval`). Its condition
may lead the sentence without an "if": "Where the subtotal exceeds EUR 10,000, ...", "Orders
over $150: ..." (`said_condition`, the currency and a number said twice dropped). Its wait may be
said as what the person gets ("Leads get 4 hours", "I give myself 1h", "absent such approval within
forty-eight (48) hours"), and what silence means as "treated as rejected", "deemed refused", "it
just goes out anyway" (`said_wait`). `spec.condition` asks this module when its own words find
nothing; what is read is shown in the plan and said at its line as any approval sentence is.
"""

from __future__ import annotations

from typing import Literal

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SAID = _rx(
    r"(?i)(?<![\w-])(?:must|shall|may|can|will|should|does|do)(?:\s+not|n['’]?t)\s+(?:be\s+\w+ed\s+|proceed|go\s+(?:out|ahead|live)|"
    r"run|start|ship|continue)\s*+(?:\w+\s+){0,3}?(?:until|unless|before|without)\s+[^.;]{0,80}?(?<![\w-])(?:approv\w*|"
    r"sign(?:s|ed)?\s+off|sign-?off|OKs?|okays?)(?![\w-])|"
    r"(?<![\w-])without\s+(?:the\s+|a\s+|an\s+)?(?:prior\s+)?(?:written\s+|explicit\s+)?(?:approval|sign-?off|consent)\s+(?:of|from)(?![\w-])|"
    r"(?<![\w-])(?:has|have|must|needs?|need)\s+to\s+(?-i:OK|okay|Ok)(?![\w-])|"
    r"(?<![\w-])(?:needs?|requires?|gets?)\s+(?:a|an|the)\s+[\w' -]{1,40}?['’]s\s+(?:OK|okay|approval|sign-?off|go-?ahead|"
    r"thumbs[- ]up|👍)(?![\w-])|"
    r"(?<![\w-])(?:eyeball|check|review|look\s+at|approve)s?\s+(?:it|them|each|the\s+\w+)\s+(?:first|before\s+it\s+goes)(?![\w-])")
# a condition leading the sentence without an "if": "Where the subtotal exceeds ...,", "Orders over $150:"
_LEAD = _rx(r"(?i)^\W*+(?:(?:where|whenever|when|if|in\s+case|for)\s+(?P<cond>(?:[^,;:]|[,.:](?=\d)){3,100}+)[,;:]|(?P<noun>[\w ]{2,40}?\s+(?:over|above|"
            r"under|below|exceeding|of\s+more\s+than|of\s+less\s+than)\s+[$€£]?\s*\d[\d,.]*+\s*[kKmM]?)\s*:)")
# "if the score is over 5 I get a DM ...": a condition ends where a person starts the main clause
_BARE = _rx(r"(?i)(?<![\w-])(?:if|when)\s++(?P<bare>[^,;:.]{3,100}?)\s+(?=(?-i:I|we|you|they|someone|somebody)\s)")
_WHERE_FROM = _rx(r"(?i)(?<!\s)\s++from\s++(?:the\s++)?(?!step)[a-z]{3,12}+\s++\d{1,3}+(?![\w.-])")
_MONEY = _rx(r"(?i)(?:[$€£]|(?<![\w-])(?:eur|usd|gbp|chf|euros?|dollars?)(?![\w-]))\s*+|(?<!\s)\s*+\([^()]{1,40}+\)")
# the person's wait: "Leads get 4 hours", "I give myself 1h", "absent such approval within 48 hours"
_WAIT = _rx(r"(?i)(?<![\w-])(?:gets?|have|has|give\s+(?:myself|themselves|them|him|her)|allow(?:ed)?|absent\s+[^.;]{0,40}?"
            r"within|responds?\s+within|answers?\s+within|within)\s+(?:up\s+to\s+)?(?P<d>(?:an?|one|\d+(?:\.\d+)?)\s*+"
            r"(?:h|hrs?|hours?|m|mins?|minutes?|d|days?)|(?:[a-z-]+\s+)?\(\d{1,4}\)\s+(?:hours?|minutes?|days?)|"
            r"[a-z-]+\s+(?:hours?|minutes?|days?))(?![\w-])")
_NO = _rx(r"(?i)(?<![\w-])(?:(?:treated|deemed|taken|counted|considered)\s+(?:as\s+)?(?:rejected|refused|declined|a\s+no)|"
          r"treat\s+it\s+as\s+(?:a\s+)?no|silence\s+(?:is|means)\s+(?:a\s+)?no)(?![\w-])")
_YES = _rx(r"(?i)(?<![\w-])(?:goes|go|ships?|is\s+sent|proceeds?)\s+(?:out\s+|ahead\s+)?anyway|(?:treated|deemed)\s+(?:as\s+)?"
           r"approved|proceeds?\s+as\s+approved(?![\w-])")


def said_approval(sentence: str) -> bool:
    """Whether the sentence says a person approves before the step goes on (module docstring)."""
    lead = _LEAD.match(sentence)
    if lead is not None and lead.group("noun"):
        return False  # "Orders over $150: ...": a condition on a noun no value may be found for; left to the warnings
    return _SAID.search(sentence) is not None


def said_condition(sentence: str) -> str | None:
    """The condition leading an approval sentence without an "if" ("Where the subtotal exceeds EUR
    10,000 (ten thousand euros), ..." -> "the subtotal exceeds 10,000"), or None."""
    from orchestrator.spec.condition import read_condition

    m = _LEAD.match(sentence)
    bare = _BARE.search(sentence) if m is None else None
    if m is None and bare is None:
        return None
    said = bare.group("bare") if bare is not None else m.group("cond") if m is not None else ""
    text = _MONEY.sub(" ", said or "")
    text = " ".join(_WHERE_FROM.sub("", text).split())  # "the spam score from tweet 6": the value is named by its meaning
    return text if text and read_condition(text) is not None else None


def said_wait(sentence: str) -> tuple[float | None, Literal["approve", "reject"] | None]:
    """The person's wait and what silence means (module docstring); (None, None) when not said."""
    from orchestrator.spec.phrase_value import duration, number

    m = _WAIT.search(sentence)
    if m is None:
        return None, None
    said = m.group("d")
    digits = [c for c in said.split() if c.strip("()").isdigit()]
    if digits:  # "forty-eight (48) hours": the digits
        said = f"{digits[0].strip('()')} {said.split()[-1]}"
    else:
        head, _, unit = said.rpartition(" ")
        n = number(head.replace("-", " ")) if head and not head[0].isdigit() and head not in ("a", "an") else None
        said = f"{n:g} {unit}" if n is not None else said
    seconds = duration(said)
    if seconds is None:
        return None, None
    after = sentence[m.start():]
    then: Literal["approve", "reject"] | None = "reject" if _NO.search(after) else "approve" if _YES.search(after) else None
    return seconds, then


_rx.save()
