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

import re
from typing import Literal

from orchestrator.spec.h3_left31 import label_condition, lead_label
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_SAID = _rx(
    r"(?i)(?<![\w-])(?:must|shall|may|can|will|should|does|do)(?:\s+not|n['’]?t)\s+(?:be\s+\w+ed\s+|proceed|go\s+(?:out|ahead|live)|"
    r"run|start|ship|continue)\s*+(?:\w+\s+){0,3}?(?:until|unless|before|without)\s+[^.;]{0,80}?(?<![\w-])(?:approv\w*|"
    r"sign(?:s|ed)?\s+off|sign-?off|OKs?|okays?)(?![\w-])|"
    r"(?<![\w-])without\s+(?:the\s+|a\s+|an\s+)?(?:prior\s+)?(?:written\s+|explicit\s+)?(?:approval|sign-?off|consent)\s+(?:of|from)(?![\w-])|"
    r"(?<![\w-])(?:has|have|must|needs?|need)\s+to\s+(?:(?-i:OK|okay|Ok)(?![\w-])|👍)|"
    # "I'll need your ok before it's placed", "we want her sign-off first": a person's yes asked for by its owner
    r"(?<![\w-])(?:need|needs|want|wants|require|requires)\s+(?:your|his|her|their|our|my)\s+(?:(?-i:OK|ok|okay|Ok)|"
    r"approval|sign-?off|go-?ahead|say-?so|thumbs[- ]up|👍)\s+(?:before|first)(?![\w-])|"
    r"(?<![\w-])(?:needs?|requires?|gets?)\s+(?:a|an|the)\s+[\w' -]{1,40}?['’]s\s+(?:OK|okay|approval|sign-?off|go-?ahead|"
    r"thumbs[- ]up|👍)(?![\w-])|"
    r"(?<![\w-])(?:eyeball|check|review|look\s+at|approve)s?\s+(?:it|them|each)\s+(?:first|before\s+it\s+goes)(?![\w-])|"
    # "someone eyeballs the draft first"; a bare "Check the seal first, then log it" is the step's own work
    r"(?<=\w\s)(?:eyeball|check|review|look\s+at|approve)s?\s+the\s+\w+\s+(?:first|before\s+it\s+goes)(?![\w-])|"
    r"(?<![\w-])(?:eyeball|review|approve)\s+the\s+\w+\s+(?:first|before\s+it\s+goes)(?![\w-])|"
    # "sign-off required first", "approval needed"; "the change manager approves in #infra-cab", "approves via email"
    r"(?<![\w-])(?:sign-?off|approval|go-?ahead|(?-i:OK))\s+(?:is\s+)?(?:required|needed|mandatory)(?![\w-])|"
    r"(?<![\w-])approves?\s+(?:it\s+|this\s+|them\s+)?(?:in|on|via|over|by)\s+(?:#|slack|teams|e-?mail|chat|jira|"
    r"the\s+(?:ticket|channel|thread|form))")
# a condition leading the sentence without an "if": "Where the subtotal exceeds ...,", "Orders over $150:"
_LEAD = _rx(r"(?i)^\W*+(?:(?:where|whenever|when|if|in\s+case|for)\s+(?P<cond>(?:[^,;:]|[,.:](?=\d)){3,100}+)[,;:]|(?P<noun>[\w ]{2,40}?\s+(?:over|above|"
            r"under|below|exceeding|of\s+more\s+than|of\s+less\s+than)\s+[$€£]?\s*\d[\d,.]*+\s*[kKmM]?)\s*:)")
# "if the score is over 5 I get a DM ...": a condition ends where a person starts the main clause
_BARE = _rx(r"(?i)(?<![\w-])(?:if|when)\s++(?P<bare>[^,;:.]{3,100}?)\s+(?=(?-i:I|we|you|they|someone|somebody)\s)")
_WHERE_FROM = _rx(r"(?i)(?<!\s)\s++from\s++(?:the\s++)?(?!step)[a-z]{3,12}+\s++\d{1,3}+(?![\w.-])")
_MONEY = _rx(r"(?i)(?:[$€£]|(?<![\w-])(?:eur|usd|gbp|chf|euros?|dollars?|pounds?|quid)(?![\w-]))\s*+|(?<!\s)\s*+\([^()]{1,40}+\)")
# the person's wait: "Leads get 4 hours", "I give myself 1h", "absent such approval within 48 hours"
_WAIT = _rx(r"(?i)(?<![\w-])(?:gets?|have|has|give\s+(?:myself|themselves|them|him|her)|allow(?:ed)?|absent\s+[^.;]{0,40}?"
            r"within|responds?\s+within|answers?\s+within|within)\s+(?:up\s+to\s+)?(?P<d>(?:an?|one|\d+(?:\.\d+)?)\s*+"
            r"(?:h|hrs?|hours?|m|mins?|minutes?|d|days?)|(?:[a-z-]+\s+)?\(\d{1,4}\)\s+(?:hours?|minutes?|days?)|"
            r"[a-z-]+\s+(?:hours?|minutes?|days?))(?![\w-])")
_NO = _rx(r"(?i)(?<![\w-])(?:(?:treated|deemed|taken|counted|considered)\s+(?:as\s+)?(?:rejected|refused|declined|a\s+no)|"
          r"treat\s+it\s+as\s+(?:a\s+)?no|silence\s+(?:is|means)\s+(?:a\s+)?no)(?![\w-])")
_YES = _rx(r"(?i)(?<![\w-])(?:goes|go|ships?|is\s+sent|proceeds?)\s+(?:out\s+|ahead\s+)?anyway|(?<![\w-])anyway(?![\w-])|(?:treated|deemed)\s+(?:as\s+)?"
           r"approved|proceeds?\s+as\s+approved(?![\w-])")


def said_approval(sentence: str) -> bool:
    """Whether the sentence says a person approves before the step goes on (module docstring)."""
    lead = _LEAD.match(sentence)
    if lead is not None and lead.group("noun") and label_condition(lead.group("noun")) is None:
        return False  # "Over the years over 10 of us: ...": a label that states no condition; left to the warnings
    return _SAID.search(sentence) is not None


# "If the plan has more than 5,000 recipients Dana has to OK it first": the condition runs up to the person
_IF_HEAD = _rx(r"(?i)(?<![\w-])(?:if|when|where|whenever)\s++(?=\S)")
_CLAUSE_END = _rx(r"[;:]|,(?!\d)|(?<!\d)\.(?!\d)")


_LEADS_A_NAME = frozenset({"the", "a", "an", "our", "my", "your", "his", "her", "their", "its", "then", "and", "so"})


def _before_person(sentence: str) -> str | None:
    """The condition said between an "if" and the person who approves ("If the class has more than 30
    pupils the head of year has to OK it" -> "the class has more than 30 pupils"): the words before the
    approval's cue, less the person's name (up to five words), as far as `read_condition` reads them."""
    from orchestrator.spec.condition import _APPROVE, read_condition

    cue = _SAID.search(sentence) or _APPROVE.search(sentence)
    head = _IF_HEAD.search(sentence, 0, cue.start()) if cue is not None else None
    if cue is None or head is None:
        return None
    said = sentence[head.end():cue.start()]
    if _CLAUSE_END.search(said):
        return None  # the "if" belongs to another clause
    words = " ".join(_MONEY.sub(" ", said).split()).split(" ")
    for drop in range(1, min(6, len(words))):
        text = " ".join(words[:-drop])
        if len(words) - drop >= 2 and words[-drop - 1].lower() not in _LEADS_A_NAME and read_condition(text) is not None:
            return text
    return None


# the labels of a step's line that holds its approval, beside `approval`, `requires approval`, `approve`
APPROVAL_LABELS = ("sign-off", "sign off", "signoff", "needs sign-off", "needs approval", "approval needed",
                   "approval required", "sign-off required", "human ok", "human check", "manual approval",
                   "go-ahead", "ok from", "human sign-off", "human in the loop")


# a key of the author's own schema that names a person's yes: `human_ok`, `needs_manager_ok`, `lead_sign_off`,
# `ok_from`, `boss_says_yes`, `captain_approval` (after `yaml_keys.key_name`: lower case, words joined by "_")
_PERSON_KEY = _rx(r"^(?:needs?_|requires?_|wait_for_|ask_)?+(?:an?_)?+(?:[a-z]++_){0,2}?(?:human|person|manual|manager|lead|"
                  r"owner|boss|chief|captain|chef|head|editor|approver|reviewer|operator|supervisor|controller|cab|"
                  r"director|teacher|doctor|admin)(?:_says)?+_(?:ok|okay|yes|nod|approval|approves?|sign_?off|"
                  r"go_?ahead|thumbs_up|green_light)$|^(?:ok|okay|go_?ahead|nod|thumbs_up)_(?:from|by)(?:_[a-z]++)?+$")


def person_key(name: str) -> bool:
    """Whether a YAML key of the author's own (`human_ok`, `ok_from`) says a person says yes."""
    return len(name) <= 60 and _PERSON_KEY.match(name) is not None


def said_cue(sentence: str) -> re.Match[str] | None:
    """Where the sentence says a person approves (`said_approval`'s words), or None."""
    return _SAID.search(sentence)


def _before_cue(sentence: str) -> str | None:
    """"anything insured at more than €250,000 needs the Head to approve": the condition before the cue
    (`condition_said.said_before_approver`), or None."""
    from orchestrator.spec.condition import _APPROVE
    from orchestrator.spec.condition_said import said_before_approver

    cue = _SAID.search(sentence) or _APPROVE.search(sentence)
    return said_before_approver(sentence, cue.start()) if cue is not None else None


def said_condition(sentence: str) -> str | None:
    """The condition leading an approval sentence without an "if" ("Where the subtotal exceeds EUR
    10,000 (ten thousand euros), ..." -> "the subtotal exceeds 10,000"), or None."""
    from orchestrator.spec.condition import read_condition

    m = _LEAD.match(sentence)
    if (label := lead_label(sentence)) is not None or (m is not None and m.group("noun")):
        return label  # "Orders over $150:" -> "the order is over 150" (`spec.h3_left31`)
    bare = _BARE.search(sentence) if m is None else None
    if m is None and bare is None:
        return _before_person(sentence) or _before_cue(sentence)
    said = bare.group("bare") if bare is not None else m.group("cond") if m is not None else ""
    text = _MONEY.sub(" ", said or "")
    text = " ".join(_WHERE_FROM.sub("", text).split())  # "the spam score from tweet 6": the value is named by its meaning
    return text if text and read_condition(text) is not None else _before_person(sentence)


# what silence means said as what does not happen: "we don't send", "= do not post", "it's a no", "the trip is off"
_NO_SAID = _rx(r"(?i)(?:(?<![\w-])(?:we|i|they|you)\s++)?(?<![\w-])(?:don['’]?t|do\s++not|won['’]?t|will\s++not|"
               r"doesn['’]?t|does\s++not)\s++(?:send|post|ship|publish|go|run|release|deploy|book|print|pay|proceed|"
               r"continue|sail|launch|start|order|file|submit|merge|promote)(?![\w-])|(?<![\w-])(?:it['’]s|it\s++is|"
               r"that['’]s|that\s++is|counts?\s++as|means?|=)\s++(?:a\s++)?(?:no|no-?go|rejected|refused|declined)"
               r"(?![\w-])|(?<![\w-])(?:is|are)\s++off(?![\w-])|(?<![\w-])(?:treat(?:ed)?|take[ns]?|read)\s++"
               r"(?:it\s++)?as\s++(?:a\s++)?(?:no|rejected|refused|declined)(?![\w-])")
# a wait said as "<time> or <no>": "1h or it's a no", "6 h or we don't post"
_OR_NO = _rx(r"(?i)(?<![\w.-])(?P<d>\d{1,4}+(?:\.\d{1,3}+)?+\s*+(?:h|hrs?|hours?|m|mins?|minutes?|d|days?))\s*+,?\s*+"
             r"(?:or|else|otherwise)\s++")


def said_no(text: str) -> bool:
    """Whether the text says nothing happens when nobody answers ("we don't send", "it's a no")."""
    return _NO_SAID.search(text) is not None


def said_wait(sentence: str) -> tuple[float | None, Literal["approve", "reject"] | None]:
    """The person's wait and what silence means (module docstring); (None, None) when not said."""
    from orchestrator.spec.phrase_value import duration, number

    m = _WAIT.search(sentence)
    if m is None:
        return _or_no(sentence)
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
    then: Literal["approve", "reject"] | None = "reject" if _NO.search(after) or said_no(after) else (
        "approve" if _YES.search(after) else None)
    return seconds, then


def _or_no(sentence: str) -> tuple[float | None, Literal["approve", "reject"] | None]:
    """"1h or it's a no": the wait, and reject; "2 days or it goes out anyway": approve; else (None, None)."""
    from orchestrator.spec.phrase_value import duration

    m = _OR_NO.search(sentence)
    seconds = duration(" ".join(m.group("d").split())) if m is not None else None
    if m is None or seconds is None:
        return None, None
    after = sentence[m.end():m.end() + 60]
    if said_no(after) or _NO.search(after):
        return seconds, "reject"
    return (seconds, "approve") if _YES.search(after) else (None, None)


_rx.save()
