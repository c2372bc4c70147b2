"""What an approval's silence means when it is "skip the step and go on" (thirtieth round).

    ... CHIEF MUST OK IT FIRST -- ring him, wait up to 2 hrs for answer.
    No answer = do not order, skip it and note it in log.        -> on_timeout: skip
    If nobody replies by then, leave the reorder out and carry on. -> on_timeout: skip
    No answer in 2 h = no order, stop the run.                     -> not this module's (a reject)

A gate's silence was read as a yes or a no; a no fails the step and, with no fallback, the run.
An author who writes that no answer means the step is skipped ("skip it", "leave it out", "go on
without it", "move on to the next") means the run goes on as if the step's own condition were
false: the steps after it run without its output (an input it would give takes its default, "or 0
if (c) did not happen"). Read only in a sentence that speaks of the silence ("no answer", "nobody
replies", "if she says nothing", "without a sign-off") and says to skip after it; a sentence that
also stops, aborts or fails the run is a no, not a skip, and is left to the other readers.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the silence: "No answer", "no reply in 2 h", "nobody answers", "if he says nothing", "without a sign-off"
_SILENCE = _rx(r"(?i)\b(?:no\s++|without\s++(?:an?\s++|any\s++)?)(?:answer|reply|response|decision|word|sign-?off|ok)\b|"
               r"\b(?:nobody|no\s++one|no-one)\s++(?:answers|replies|responds|signs|approves|gets\s++back)\b|"
               r"\b(?:says?|hears?)\s++nothing\b|\b(?:doesn['’]?t|does\s++not|don['’]?t|didn['’]?t)\s++"
               r"(?:answer|reply|respond|get\s++back|pick\s++up)\b|\bsilence\b")
# the skip: "skip it", "skip this step", "leave it out", "go on without it", "move on to the next item"
_SKIP = _rx(r"(?i)\bskip(?:s|ped)?+\s++(?:it|this|that|the\s++\w++|straight)\b|\bleave\s++(?:it|this|that|the\s++\w++)\s++out\b|"
            r"\b(?:go|carry|move|press)\s++on\s++without\b|\bmove\s++on\s++to\s++the\s++next\b|"
            r"\bjust\s++skip\b|\b(?:is|gets?|will\s++be)\s++skipped\b|"
            # "no answer = don't post, just carry on to the mail": the step's own act refused, the run goes on
            r"\b(?:don['’]?t|do\s++not)\s++\w++[\s,]++(?:(?:just|and|but|simply)\s++)?(?:carry|go|move|press)\s++on\b")
# the run stops: a no, not a skip ("skip it and stop the run")
_STOPS = _rx(r"(?i)\b(?:stop|abort|halt|fail|end|kill|cancel)\s++(?:the\s++)?(?:whole\s++)?(?:run|job|workflow|"
             r"batch|process|everything)\b|\bstop\s++there\b|\bgive\s++up\s++on\s++the\s++(?:run|job)\b")


# the wait for the person's answer in the sentence that asks the approval: "wait up to 2 hrs for answer"
_PERSON_WAIT = _rx(r"(?i)(?<![ \t])[ \t]*+[,;]?+[ \t]*+\b(?:and[ \t]++)?+(?:wait(?:s|ing)?+[ \t]++(?:up[ \t]++to|for[ \t]++up[ \t]++to|"
                   r"at[ \t]++most|no[ \t]++more[ \t]++than)|give[ \t]++(?:him|her|them)(?:[ \t]++up[ \t]++to)?+)"
                   r"[ \t]++(?:an?|\d++(?:\.\d++)?+|one|two|three|four|five|six|twelve|24|48)[ \t]*+"
                   r"(?:s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|days?)\b[^,;.]{0,40}+")


# a bare wait: "text him, wait 1 hr" (`without_person_wait` takes it when it is the approval's wait read)
_BARE_WAIT = _rx(r"(?i)(?<![ \t])[ \t]*+[,;-]?+[ \t]*+\b(?:and[ \t]++|then[ \t]++)?+wait(?:s|ing)?+(?:[ \t]++for)?+[ \t]++"
                 r"(?P<d>(?:an?|\d++(?:\.\d++)?+|one|two|three|four|five|six|twelve|24|48)[ \t]*+"
                 r"(?:s|sec|secs|seconds?|m|min|mins|minutes?|h|hr|hrs|hours?|days?))\b")


def without_person_wait(rest: str, seconds: float | None = None) -> str:
    """What a sentence that asks an approval and gives its wait says besides, without that wait
    ("ring him, wait up to 2 hrs for answer" -> "ring him"; "text him, wait 1 hr" -> "text him" when the
    approval's wait read is `seconds`, 3600): the wait is the approval's timeout, never a retry rule of the
    step. A bare wait of another length is left to the policy reader."""
    if not rest:
        return rest
    rest = _PERSON_WAIT.sub("", rest)
    if seconds is None:
        return rest
    from orchestrator.spec.phrase_value import duration

    return _BARE_WAIT.sub(lambda m: "" if duration(m.group("d")) == seconds else m.group(0), rest)


def silence_skips(sentence: str) -> bool:
    """Whether `sentence` says no answer to the approval means the step is skipped and the run goes on."""
    said = _SILENCE.search(sentence)
    if said is None:
        return False
    skip = _SKIP.search(sentence, said.end())
    return skip is not None and _STOPS.search(sentence) is None


_rx.save()
