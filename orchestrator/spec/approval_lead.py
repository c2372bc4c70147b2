"""A person's sign-off said in a hurry: its condition before an arrow, its wait given to the person.

    load % over 95 -> duty manager signs off before we file       approval when `load % over 95`
    Dose above 10 mg: the charge nurse OKs it first                the same, the condition before a colon
    give the skipper 30 min to OK it, else we sail anyway          approval, 1800s, then approve
    Wait 30 min max; no answer = file anyway                       its wait (said after the approval)
    Let the head chef have 20 minutes; silence = bin it            the same, then reject

`spec.condition` reads an approval when the condition follows an "if"; a checklist note or a card puts
it first and points at the person with an arrow, a colon or a dash (`condition_ahead`: the words
before the mark, from the start of their clause, that `condition.read_condition` reads as a
comparison with a value, the words after the mark naming the person in six words or fewer). A wait
given to the person ("give the skipper 30 min to OK it") is an approval sentence of its own
(`gives_time`), and a wait said as "wait N max"/"give them N" with what silence means (`wait_said`)
is its timeout and outcome: never a retry rule (the policy reader would read "wait 30 min" as one).
"""

from __future__ import annotations

from typing import Literal

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a mark between a condition and the person it hands to: "->", "→", "=>", ":", " - ", "—"
_MARK = _rx(r"(?:->|→|=>|⇒|:|(?<=\s)-(?=\s)|—|–)")
# where the condition's clause starts: the text's start, a checkbox, a sentence or label end, a bracket
_CLAUSE_START = _rx(r"(?:^|\[\s?[xX ]?\s?\]|[.;!?]\s|:\s|\(|\s[-*•]\s)\s*+")
_PERSON_WORDS = 6
# "give the skipper 30 min to OK it", "allow the on-call lead 2 hours to approve"
_GIVES = _rx(r"(?i)(?<![\w-])(?:give|gives|allow|allows|let)\s++(?P<who>(?:[\w'’-]++\s++){1,4}?)(?:have\s++)?"
             r"(?:up\s++to\s++)?(?P<d>\d{1,4}+(?:\.\d{1,2}+)?+\s*+(?:h|hrs?|hours?|m|mins?|minutes?|d|days?)(?![\w-]))"
             r"(?:\s++(?:max|tops|at\s++most))?+\s*+(?:to|for)\s++(?:(?-i:OK)|okay|ok|approve|sign\s++(?:it\s++)?off|"
             r"say\s++yes|give\s++(?:the\s++)?(?:ok|go-?ahead|nod))(?![\w-])")
# "Wait 30 min max", "give them 2 hours", "wait up to 20 minutes"
_WAIT = _rx(r"(?i)(?<![\w-])(?:wait|give\s++(?:him|her|them|it|me|us)|allow)\s++(?:up\s++to\s++|for\s++)?"
            r"(?P<d>\d{1,4}+(?:\.\d{1,2}+)?+\s*+(?:h|hrs?|hours?|m|mins?|minutes?|d|days?))(?![\w-])"
            r"(?:\s++(?:max|tops|at\s++most|at\s++the\s++most))?+")
# what silence means: "no answer = file anyway", "else we sail anyway", "silence = bin it"
_SILENCE = _rx(r"(?i)(?<![\w-])(?:no\s++(?:answer|reply|response|word|ok)|silence|nothing\s++back|else|otherwise|"
               r"if\s++not)(?![\w-])")
_ANYWAY = _rx(r"(?i)(?<![\w-])(?:anyway|regardless|as\s++approved|(?:it['’]?s|is)\s++(?:a\s++)?(?:yes|fine|ok))(?![\w-])")


def condition_ahead(sentence: str, cue_start: int) -> str | None:
    """The comparison said before a mark that hands to the person who approves ("load % over 95 ->
    duty manager signs off"), as `read_condition` reads it; None when there is none."""
    from orchestrator.spec.condition import read_condition

    head = sentence[:cue_start]
    marks = list(_MARK.finditer(head))
    if not marks:
        return None
    mark = marks[-1]
    person = head[mark.end():].split()
    if len(person) > _PERSON_WORDS or any(c.isdigit() for c in head[mark.end():]):
        return None
    starts = [m.end() for m in _CLAUSE_START.finditer(head, 0, mark.start())]
    said = " ".join(head[max(starts, default=0):mark.start()].split()).strip(" ,")
    if not 3 <= len(said) <= 100:
        return None
    found = read_condition(said)
    if found is None or not any(c.kind == "compare" and c.value is not None for c in found.clauses):
        return None
    return said


def condition_before_cue(sentence: str) -> str | None:
    """`condition_ahead` at the sentence's approval cue (`condition._APPROVE`, `whole_approval`'s words,
    a time given to a person); None when the sentence has no cue or no condition before it."""
    from orchestrator.spec.approval_hold import (
        approves_before,  # "X approves by phone before we book"
    )
    from orchestrator.spec.condition import _APPROVE
    from orchestrator.spec.whole_approval import said_cue

    cue = _APPROVE.search(sentence) or said_cue(sentence) or _GIVES.search(sentence) or approves_before(sentence)
    return condition_ahead(sentence, cue.start()) if cue is not None and cue.start() > 0 else None


# "Anything that looks off needs IT to sign off", "any order where the tip is odd": a condition said as
# the subject's relative clause, which no comparison reads
_RESTRICTED = _rx(r"(?i)^\W*+(?:anything|everything|whatever|any\s++[\w-]++(?:\s++[\w-]++)?|those|the\s++ones?)\s++"
                  r"(?:that|which|where|with|who|whose)(?![\w-])")


def condition_unread(sentence: str) -> bool:
    """Whether the approval sentence limits what it is asked for by a clause no comparison reads
    ("Anything that looks off needs IT to sign off"): a condition said, not read."""
    return _RESTRICTED.match(sentence) is not None


def gives_time(sentence: str) -> bool:
    """Whether the sentence gives a person a time to say yes ("give the skipper 30 min to OK it")."""
    return _GIVES.search(sentence) is not None


def wait_said(text: str) -> tuple[float | None, Literal["approve", "reject"] | None]:
    """A person's wait said as "wait 30 min max" or "give the skipper 30 min to OK it", and what
    silence means after it ("no answer = file anyway": approve; "else no push": reject; None when
    not said); (None, None) when no such wait is said."""
    from orchestrator.spec.phrase_value import duration
    from orchestrator.spec.whole_approval import said_no

    m = _GIVES.search(text) or _WAIT.search(text)
    seconds = duration(" ".join(m.group("d").split())) if m is not None else None
    if m is None or seconds is None:
        return None, None
    silence = _SILENCE.search(text, m.end())
    if silence is None:
        return seconds, None
    after = text[silence.start():silence.end() + 80]
    if _ANYWAY.search(after) and not said_no(after):
        return seconds, "approve"
    return seconds, "reject" if said_no(after) or _REJECTS.search(after) else None


# "no reply = no push", "else bin it", "silence = call it off"
_REJECTS = _rx(r"(?i)(?:=|means|is|→|->|:)\s*+(?:a\s++)?no(?![\w-])|(?<![\w-])(?:no\s++\w++(?=\s*+[,.;]|$)|bin\s++it|"
               r"call\s++it\s++off|cancel\w*+|abort\w*+|stop|hold\s++it|scrap\s++it)")


_rx.save()
