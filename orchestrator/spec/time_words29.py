"""Time words that are limits or a person's wait, not retries (twenty-ninth round).

    It is slow on the big export; give it 10 minutes tops, then treat it as failed.
        -> a 600 s attempt timeout: "export" holds the letters "expo" but says no backoff, so
           "10 minutes tops" is the attempt's limit, never the cap of a backoff between retries
    ** If it's more than 5 books, Mrs. Halvorsen has to OK it first.
       Send her the list and wait up to 2 days. No answer = no withdrawal, we stop there.
        -> the approval waits 172800 s, then rejects: a wait said right after the approval's
           sentence, with no word of trying again, is the person's time to answer; the sentence
           after it that says what silence means is the approval's outcome, not a failure rule

A runbook ("Page the on-call lead and hold on up to 30 minutes. Silence means go ahead."), a
kitchen sheet ("Ask chef to taste it and wait up to 10 minutes. No answer = bin it.") and a
support macro say the same; "No reply = send it anyway" (the step goes ahead "anyway", "regardless",
"all the same") is a yes on silence, "No reply = don't send it anyway" a no. "Wait 10 minutes then try again" keeps its reading (a wait between
tries), and "tops" in "laptops" is no time word at all.
"""

from __future__ import annotations

from typing import Literal

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# a word of an exponential backoff, as a whole word: "expo", "exponential(ly)", never "export", "exposure"
EXPO_WORD = r"\bexpo(?:nent\w*+)?\b"

# a wait said as a plain instruction: "wait up to 2 days", "hold on 30 min", "give her 3 hours"
_WAIT = _rx(r"(?i)(?<![\w-])(?:wait|hold\s++on|hang\s++on|give\s++(?:her|him|them)|allow\s++(?:her|him|them))"
            r"(?![\w-])")
# a word of trying the step again: then the wait is between tries, not a person's
_AGAIN = _rx(r"(?i)(?<![\w-])(?:again|retry|retries|re-?try|re-?run|rerun|tries|attempts?|another\s++(?:go|try|shot)|"
             r"poll\w*+|every)(?![\w-])")
# what silence is, opening the sentence: "No answer = ...", "Silence means ...", "No reply -> ..."
_SILENCE = _rx(r"(?i)^[\s*_]*+(?:no\s++(?:answer|reply|response|word|ok|sign-?off)|silence|nothing\s++back)"
               r"\s*+(?:=|->|→|:|,|means|is)\s*+(?P<rest>.*)")
# "send it anyway", "book it regardless", "post it all the same": the step goes ahead (a "don't" before it: no)
_GO = _rx(r"(?i)(?<![\w-])(?:go\s++ahead|proceed|carry\s++on|go\s++on|approved?|go\s++anyway|yes|fine|ok(?:ay)?|anyway|"
          r"regardless|all\s++the\s++same)(?![\w-])")
_STOP = _rx(r"(?i)(?<![\w-])(?:no|not|stop|don'?t|do\s++not|reject\w*+|cancel\w*+|skip|abandon|halt|bin|nothing)"
            r"(?![\w-])")


def person_wait(sentence: str) -> float | None:
    """The seconds a person is waited for when `sentence` is a plain wait said after the approval's own
    sentence ("Send her the list and wait up to 2 days."), with no word of trying again; else None."""
    m = _WAIT.search(sentence)
    if m is None or _AGAIN.search(sentence) is not None:
        return None
    from orchestrator.spec.condition import approval_timeout
    from orchestrator.spec.policy_text import first_duration

    said = approval_timeout(sentence)[0]
    return said if said is not None else first_duration(sentence[m.end():])


def silence_outcome(sentence: str) -> Literal["approve", "reject"] | None:
    """What the approval does on silence when `sentence` opens by saying it ("No answer = no withdrawal,
    we stop there": reject; "Silence means go ahead": approve); None when it does not open so, or says
    neither."""
    m = _SILENCE.match(sentence)
    if m is None:
        return None
    rest = m.group("rest")
    go, stop = _GO.search(rest), _STOP.search(rest)
    if stop is not None and (go is None or stop.start() < go.start()):
        return "reject"
    return "approve" if go is not None else None


_rx.save()
