"""Reading policy phrases: durations, error classes, retries, regeneration, fallbacks.

Each reader takes one short text (a table cell, a bullet's value) and returns
data, or None when the text does not state that policy. Readers never guess
silently: where they assume a number they report a warning through `Source`.
Retries, regeneration, fallbacks and error classes are read with the grammar's
tables (`spec.grammar`, through `spec.phrase`), the same as every other sentence.

    "30s", "2 min", "1h30m", ">10 seconds"       → seconds
    "Network timeout", "ImportError exception"   → ErrorClass (see `classify`)
    "Retry with backoff (1s, 2s, 4s)"            → RetryPolicy(max_retries=3, delays_s=(1, 2, 4))
    "retry 3 times, exponential"                 → RetryPolicy(max_retries=3)
    "Regenerate script (1 attempt)"              → 1
    "If Step 3 hasn't been retried, regenerate"  → feedback to step-3
    "Assume no existing docs; continue"          → Fallback(DEFAULT, value=None)
    "FAIL workflow" / "Escalate" / "Continue"    → Fallback(FAIL / ESCALATE / CONTINUE)
    "run `other-skill`"                          → Fallback(SKILL, skill="other-skill")
"""

from __future__ import annotations

import math
import re

from orchestrator.policy import ApprovalPolicy, ErrorClass, Fallback, FallbackAction, RetryPolicy
from orchestrator.spec import grammar as g
from orchestrator.spec.effect import assumed_retries, fallback_of, retry_of
from orchestrator.spec.fields import step_id
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_UNIT_S = {
    "ms": 0.001, "millisecond": 0.001, "milliseconds": 0.001,
    "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0,
    "m": 60.0, "min": 60.0, "mins": 60.0, "minute": 60.0, "minutes": 60.0,
    "h": 3600.0, "hr": 3600.0, "hrs": 3600.0, "hour": 3600.0, "hours": 3600.0,
    "d": 86400.0, "day": 86400.0, "days": 86400.0,
}  # fmt: skip
_UNITS = "|".join(sorted(_UNIT_S, key=len, reverse=True))
_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_DURATION = _rx(rf"((?<!\d)\d+(?:\.\d+)?)\s*({_UNITS})(?![a-z])", re.I)
_COMPOUND = _rx(rf"^(?:\s*+\d+(?:\.\d+)?\s*+(?:{_UNITS})\s*+)+$", re.I)
_NUMBER_WORDS = {"once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4,
                 "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
_MAX_COUNT = 1000

def parse_duration(text: str) -> float | None:
    """The whole text as a duration in seconds: `30s`, `2 min`, `1h30m`, bare `30` (seconds)."""
    t = text.strip().strip("`").lstrip("<>~≈= ")
    if re.fullmatch(r"\d+(?:\.\d+)?", t):
        seconds = float(t)
    elif _COMPOUND.match(t):
        seconds = sum(float(n) * _UNIT_S[u.lower()] for n, u in _DURATION.findall(t))
    else:
        return None
    return seconds if math.isfinite(seconds) else None  # 400 digits of seconds are no duration


def first_duration(text: str) -> float | None:
    """The first duration mentioned anywhere in `text` (`No response after 5s` → 5)."""
    m = _DURATION.search(text)
    return float(m.group(1)) * _UNIT_S[m.group(2).lower()] if m else None


def count_in(text: str, nouns: str) -> int | None:
    """A count stated as `3 retries`, `(1 attempt)`, `retry 3 times`, `up to 2`, `twice`."""
    low = text.lower()
    m = re.search(rf"(\d+)\s*(?:{nouns})\b", low) or re.search(r"up to (\d+)", low)
    if m:
        return min(int(m.group(1)), _MAX_COUNT)
    m = re.search(rf"\b({'|'.join(_NUMBER_WORDS)})\b(?:\s*(?:{nouns}))?", low)
    if m and (m.group(1) in ("once", "twice", "thrice") or re.search(nouns, low[m.end(1):])):
        return _NUMBER_WORDS[m.group(1)]
    return None


def classify(text: str) -> ErrorClass | None:
    """The error class a failure description names (the grammar's class rows, in order), or None."""
    low = text.replace("’", "'")
    for compiled in g.COMPILED_CONTEXT:
        if compiled.row.value != "any" and compiled.regex.search(low):
            return ErrorClass(str(compiled.row.value))
    return None


def is_catch_all(text: str) -> bool:
    """Whether a failure description means any failure ("anything else", "any error")."""
    low = text.replace("’", "'").strip().lower()
    if low in {"*", "any", "all", "other", "others", "default", "else", "anything"}:
        return True
    return any(c.row.value == "any" and c.regex.search(low) for c in g.COMPILED_CONTEXT)


def delay_list(text: str) -> tuple[float, ...]:
    """`(1s, 2s, 4s)` or `backoff 1s, 2s, 4s` → (1, 2, 4); single waits only inside parens."""
    for group in re.findall(r"\(([^()]*)\)", text):
        parts = [p.strip() for p in group.split(",")]
        values = [parse_duration(p) for p in parts]
        if parts and all(v is not None for v in values) and any(_DURATION.search(p) for p in parts):
            return tuple(v for v in values if v is not None)
    m = re.search(rf"((?:\d+(?:\.\d+)?\s*(?:{_UNITS})\s*,\s*)+\d+(?:\.\d+)?\s*(?:{_UNITS}))\b", text, re.I)
    if m:
        return tuple(v for v in (parse_duration(p) for p in m.group(1).split(",")) if v is not None)
    return ()


def mentions_retry(text: str) -> bool:
    return re.search(r"\bretry\b|\bretries\b|\bretrying\b|\bback ?off\b", text, re.I) is not None


def read_retry(text: str, src: Source, line: int) -> RetryPolicy | None:
    """A retry policy stated in `text`, or None when it states none."""
    phrase = read_phrase(text)
    retry, assumed = retry_of(phrase.statement, retry_said=phrase.retry_said)
    if retry is not None and assumed:
        src.warn(line, f"'{text.strip()}' gives no retry count; {assumed_retries(retry)}", "spec.assumed")
    return retry


def read_retries_value(value: str, src: Source, line: int) -> tuple[int | None, RetryPolicy | None]:
    """A `- Retries:` bullet's value: the count, and the full policy when it also states waits.

    `3` → (3, None); `2 (wait 1.5s)` → (2, fixed 1.5 s); `3, exponential` → (3, backoff)."""
    phrase = read_phrase(f"retries: {value}")
    retry, _ = retry_of(phrase.statement)
    if retry is None or (phrase.statement.retries is None and not phrase.statement.no_retry \
            and phrase.statement.max_attempts is None):
        src.warn(line, f"retries '{value}' is not a count; ignored", "spec.unread")
        return None, None
    for problem in phrase.problems:
        src.warn(line, f"retries '{value}': {problem}", "spec.policy-partial")
    waits = phrase.statement.wait is not None or phrase.statement.for_up_to_s is not None
    return retry.max_retries, retry if waits else None


def read_regenerate(text: str, src: Source, line: int) -> int | None:
    """How many regenerations `text` asks for; None when it asks for none."""
    phrase = read_phrase(text)
    if phrase.statement.regenerate is not None:
        return phrase.statement.regenerate
    if phrase.regenerate_said:
        src.warn(line, f"'{text.strip()}' gives no regeneration count; 1 assumed", "spec.assumed")
        return 1
    return None


def read_feedback(text: str, own_step: str) -> tuple[str, int | None] | None:
    """`If Step 3 hasn't been retried, regenerate` on step 4 → (`step-3`, None)."""
    if not re.search(r"regenerat|rewrite|repair|re-?run", text, re.I):
        return None
    for m in re.finditer(r"(?i)\bstep[\s_-]*\d+\b", text):
        target = step_id(m.group(0))
        if target is not None and target != own_step:
            return target, count_in(text, r"attempts?|times|tries")
    return None


def read_fallback(text: str, src: Source, line: int) -> Fallback | None:
    """The fallback action `text` names, or None."""
    if not text.strip() or text.strip().lower() in {"-", "—", "n/a", "none"}:
        return None
    fallback = fallback_of(read_phrase(f"on failure: {text}").statement.on_failure)
    if fallback is not None and fallback.action is FallbackAction.DEFAULT and fallback.value is None \
            and "template" in text.lower():
        src.warn(line, f"'{text.strip()}' names no skill; read as the contract's empty value "
                       "(write run `skill-name` to run a skill instead)", "spec.assumed")
    return fallback


# what follows `timeout`/`within`/`after` in an approval, up to an arrow, a bracket or a separator
_APPROVAL_TIMEOUT = _rx(r"\btimeout\b[\s:=]*((?:(?!->|→)[^()\[\];,])+)"
                        r"|\b(?:within|after)\s+(\d(?:(?!->|→)[^()\[\];,])*)")


def read_approval(text: str, src: Source, line: int) -> ApprovalPolicy | None:
    """`required`, `required (timeout 1h → reject)`, `timeout 1h -> approve`, `timeout 2h -> skip`, `no`."""
    low = text.strip().lower()
    if low in {"no", "none", "not required", "false", "off", "-", "never", "optional"}:
        return None
    timeout = first_duration(low) if "timeout" in low or "within" in low or "after" in low else None
    said = _APPROVAL_TIMEOUT.search(low)
    if timeout is None and said is not None:
        given = (said.group(1) or said.group(2)).strip()
        src.warn(line, f"approval timeout '{given}' is not a duration (30, 30s, 2 min); ignored: "
                       "no timeout", "spec.unread")
    on_timeout = "reject"
    if re.search(r"(→|->|then|:)\s*(auto-?)?approv|approve on timeout|auto-?approv", low):
        on_timeout = "approve"
    elif (then := re.search(r"(?:→|->)\s*([^\s)(;,]+)", low)) and then.group(1).startswith("skip"):
        on_timeout = "skip"  # no answer in time: the step is skipped, as by its own condition (`engine.approval`)
    elif then is not None and not then.group(1).startswith("reject"):
        src.warn(line, f"approval on timeout '{then.group(1)}' must be approve, reject or skip; reject assumed",
                 "spec.unread")
    known = re.search(r"required|yes|true|timeout|manual|human|reject|approv|sign-?off|need", low)
    if not known and not (timeout is None and said is not None):  # that one was warned above
        src.warn(line, f"approval '{text.strip()}' not understood; read as required with no timeout",
                 "spec.unread")
    return ApprovalPolicy(required=True, timeout_s=timeout, on_timeout=on_timeout)  # type: ignore[arg-type]


def read_count(text: str) -> int | None:
    """A plain non-negative integer (`3`, `3 retries`)."""
    m = re.match(r"^\s*(\d+)\b", text.strip().strip("`"))
    return min(int(m.group(1)), _MAX_COUNT) if m else None


_rx.save()
