"""The approver's time said as what they "have", and their silence said as "not said yes by then".

    !! if (d) says it'll cost more than £150, Margaret has to OK it first.
    Message her, she has till the end of tea (20 min).          -> the approval waits 1200 s
    If she hasn't said yes by then, DON'T print -- we'll sort it next week.
                                                                 -> silence skips the step (the run goes on)

A note to a volunteer gives the person who must agree a time of their own ("she has till the end of
tea (20 min)", "he's got 2 hours", "they have up to a day to reply") in the sentence after the one that
asks the approval, often with how to reach them ("Message her,"): that is the approval's wait, not a
rule of the step (no fallback, no retry). The sentence after says what happens if the yes has not come:
"if she hasn't said yes (OK'd it, approved, signed it off) by then, DON'T <do the step>" is the step
skipped and the run going on, unless it also stops the run ("... and stop everything": a no). "If she
has not replied by then, do not book" stays the older reading, a no (holdout15 98's author meant the
run to stop there; whether a missing yes and a missing reply differ is an authors' dispute). Only a
person (she, he, they, the role's name is not needed) having a time with a number and a unit is read;
"the site has till 5pm" (no unit, a clock time) is not.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_HAS = _rx(r"(?i)\b(?:she|he|they|you)(?:[ \t]++(?:has|have|gets|get)|['’]s[ \t]++got|['’]ve[ \t]++got|['’]s)[ \t]++"
           r"(?:got[ \t]++)?+(?:till|until|up[ \t]++to|about|roughly)?+[^.;]{0,60}?\(?+[ \t]*+"
           r"(?P<d>\d{1,3}+(?:\.\d++)?+[ \t]*+(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?))\b")
_NOT_YES = _rx(r"(?i)\bif[ \t]++(?:(?:she|he|they)[ \t]++(?:hasn['’]?t|has[ \t]++not|haven['’]?t|have[ \t]++not|"
               r"hadn['’]?t|didn['’]?t|does[ \t]++not|doesn['’]?t)|(?:nobody|no[ \t]++one)(?:[ \t]++(?:has|had))?+)"
               r"[ \t]++(?:said[ \t]++yes|say[ \t]++yes|"
               r"ok['’]?d|okayed|ok[ \t]++it|approved?|signed(?:[ \t]++it)?+[ \t]++off|sign[ \t]++off|agreed)\b[^.;]{0,40}?(?:by[ \t]++then|in[ \t]++time|before[ \t]++then|by[ \t]++the[ \t]++end)"
               r"[^.;]{0,10}?[,:-]*+[ \t]*+(?:-{1,2}+[ \t]*+)?+(?:don['’]?t|do[ \t]++not|no)[ \t]++(?P<act>\w++)")
_STOPS = _rx(r"(?i)\b(?:stop|abort|halt|fail|kill|cancel)\s++(?:the\s++)?(?:whole\s++)?(?:run|job|workflow|batch|"
             r"everything)\b")


def person_has(sentence: str) -> float | None:
    """Seconds the approver has ("she has till the end of tea (20 min)"), or None (module docstring)."""
    from orchestrator.spec.phrase_value import duration

    m = _HAS.search(sentence)
    return duration(" ".join(m.group("d").split())) if m is not None else None


def not_yes_skips(sentence: str) -> bool:
    """Whether `sentence` says no yes by then means the step is not done and the run goes on."""
    return _NOT_YES.search(sentence) is not None and _STOPS.search(sentence) is None


_rx.save()
