"""What scopes a person's approval, how long it waits, and the lines that are no part of it (round 54).

    RED band only: Mr Haldane must OK the notice ... wait max 4 hrs. no reply = do NOT send
    Only for red or amber bands, the vet signs off first; give him up to a day
    just when the grade is FAIL: the head must approve (allow her 2 hours to answer)

- `scope_said(sentence)`: the scope said at the head of an approval's sentence, or closing it: "X only:",
  "only for X", "only when X", "just when X", "just for X" -> "X"; None when it says none.
- `input_refs(inputs)`: a step's inputs bound to a step's output or the run's inputs, as a condition names them.
- `scope_condition(scope, fields)`: that scope as a condition the planner compiles. A scope that reads as a
  comparison ("the band is red", "total over 500") is kept as written; a value said before the name of a
  value the step is given ("RED band", "red or amber bands") is that name compared with the value, case
  blind (`band.band | lower == "red"`: a value written in capitals is emphasis, not its spelling), the name
  one of `fields` (the step's inputs, each to the reference it is bound to: `band` -> `band.band`), or,
  when no fields are known (a markdown spec, read before the skills are bound), the last word. None when
  no word names a field ("Monday only": not a condition of the step's values).
- `wait_bound(text)`: the seconds a wait is bounded by in words the older readers miss: "wait max 4 hrs",
  "wait no more than 3 hours", "wait up to a day", "allow her 90 minutes to answer". `clock_wait(text)`:
  a wait said as a clock time ("give him till 5pm", "wait until 17:00"): no bound (a time of day is no
  length of a wait), for the reader to warn. `without_wait(text)`: the text without those waits (no retry
  rule of the step).
- `banner(text)`: a banner comment line ("--- STEP 3: creamery notice ---", "==== 2. Band ===="): the
  step's title, no part of an approval's text.
- `step_title(text)`: a numbered title comment ("3 press", "2. weigh the catch", "Step 4 - email"): the step's
  title, no part of the approval said on the lines under it.
- `named_fields(text, names)`: `text` with each field of a named step's result written as code reads it
  (`quote("price")`, `quote['price']`, `quote[:price]`, `quote.price`, `quote->price`) said by its field's name
  (`price`), and those fields to their references (`price` -> `quote.price`); `refs_back(text, fields)` puts
  the references back in a condition read from it.
- `starts_rule(text)`: a comment line that opens a rule of its own ("on error try again twice more", "if
  it fails, ..."), never joined to the line before it as that line's continuation.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "RED band only:", "prod only -", "weekend orders only,"
_ONLY_HEAD = _rx(r"^\W*+(?P<s>[A-Za-z][\w/ -]{0,40}?)\s++only\s*+(?::|,|\s-\s|\s[—–]\s|;)")
# "only for red bands:", "just when the band is red,", "only if X -"
_ONLY_FOR = _rx(r"(?i)(?:^|[,;(]\s*+|\bbut\s++)(?:only|just)\s++(?:for|when|if|where|on)\s++"
                r"(?P<s>[A-Za-z][^:,;.()]{0,60}+)")
_WORDS = _rx(r"[A-Za-z][\w-]{0,40}+|/")
_OR = _rx(r"(?i)^(?:or|and|/)$")
_SKIP = frozenset({"the", "a", "an", "any", "all", "those", "these", "with", "of", "in", "on", "for"})
_BANNER = _rx(r"^\s*+(?:[-=*#~_+]{3,}+).{0,120}?(?:[-=*#~_+]{3,}+)\s*+$|^\s*+[-=*#~_+]{3,}+\s*+$")
# a rule of its own at a line's start: "on error ...", "on failure:", "if it fails", "when it times out"
_RULE_START = _rx(r"(?i)^\W*+(?:on\s++(?:an?\s++|any\s++)?(?:error|errors|failure|failures|fail|timeout|"
                  r"time-?outs?|exception|crash)\b|(?:if|when|whenever)\s++(?:it|this|that|the\s++\w++)\s++"
                  r"(?:fails|errors|times\s++out|crashes|breaks)\b)")
# "wait max 4 hrs", "wait no more than 3 hours", "wait up to a day", "waiting at most 2h"
_WAIT_MAX = _rx(r"(?i)\bwait(?:s|ing)?\s++(?:for\s++)?(?:max(?:imum)?\.?|at\s++most|no\s++(?:more|longer)\s++than|"
                r"up\s++to|not\s++more\s++than)\s++(?P<d>(?:\d{1,6}+(?:\.\d{1,3}+)?|an?|one|half\s++an?)\s*+"
                r"(?:[a-z]{1,8}+))\b")
# "allow her 90 minutes to answer", "give him up to a day"
_GIVE = _rx(r"(?i)\b(?:give|allow)\s++(?:him|her|them|the\s++\w++|\w++)\s++(?:up\s++to\s++|max\.?\s++|at\s++most\s++)?"
            r"(?P<d>(?:\d{1,6}+(?:\.\d{1,3}+)?|an?|one|half\s++an?)\s*+(?:[a-z]{1,8}+))\b")
_CLOCK = _rx(r"(?i)\b(?:till|until|til|by|before)\s++(?P<t>\d{1,2}+(?::\d{2})?\s*+(?:am|pm)|\d{1,2}+:\d{2}+|noon|midday|"
             r"midnight|(?:close|end)\s++of\s++(?:play|business|day)|cob|eod)\b")
_UNITS = {"s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1, "m": 60, "min": 60, "mins": 60, "minute": 60,
          "minutes": 60, "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600, "d": 86400,
          "day": 86400, "days": 86400, "wk": 604800, "week": 604800, "weeks": 604800}


def scope_said(sentence: str) -> str | None:
    """The scope said at the head of an approval's sentence ("RED band only:") or in it ("only for red bands")."""
    head = _ONLY_HEAD.match(sentence)
    if head is not None:
        return " ".join(head.group("s").split())
    said = _ONLY_FOR.search(sentence)
    return " ".join(said.group("s").split()).strip(" -") if said is not None else None


def input_refs(inputs: Mapping[str, object]) -> dict[str, str]:
    """Each input a step is given from a step's output or the run's inputs, to the reference a condition names it
    by (`{{ steps.band.output.band }}` -> `band.band`, `{{ inputs.herd }}` -> `inputs.herd`); literals left out."""
    refs: dict[str, str] = {}
    for name, value in inputs.items():
        got = re.fullmatch(r"\{\{ steps\.([\w-]{1,80})\.output\.([\w.]{1,80}) \}\}", str(value))
        if got is not None:
            refs[name] = f"{got.group(1)}.{got.group(2)}"
        elif re.fullmatch(r"\{\{ inputs\.[\w-]{1,80} \}\}", str(value)):
            refs[name] = f"inputs.{str(value)[len('{{ inputs.'):-3]}"
    return refs


def _field(word: str, fields: Mapping[str, str] | None) -> str | None:
    if fields is None:
        return word if re.fullmatch(r"[A-Za-z_]\w{0,40}", word) else None
    low = word.lower().replace("-", "_")
    for name, ref in fields.items():
        n = name.lower()
        if low in (n, n + "s", n + "es") or (low.endswith("s") and low[:-1] == n):
            return ref
    return None


def scope_condition(scope: str, fields: Mapping[str, str] | None = None) -> str | None:
    """A scope (`scope_said`) as a condition (module docstring); None when it names no field."""
    from orchestrator.spec.condition import read_condition

    found = read_condition(scope)
    if found is not None and any(c.kind == "compare" for c in found.clauses):
        return scope
    words = [w for w in _WORDS.findall(scope) if w.lower() not in _SKIP]
    if not 2 <= len(words) <= 6 or _OR.match(words[-1]):
        return None
    ref = _field(words[-1], fields)
    if ref is None:
        return None
    values = [w.lower() for w in words[:-1] if not _OR.match(w)]
    joins = [w for w in words[:-1] if _OR.match(w)]
    if not values or len(values) != len(joins) + 1 or not all(re.fullmatch(r"[a-z][\w-]{0,30}", v) for v in values):
        return None
    return " or ".join(f'{ref} | lower == "{v}"' for v in values)


def _seconds(said: str) -> float | None:
    m = re.fullmatch(r"(?i)(?P<n>\d{1,6}(?:\.\d{1,3})?|an?|one|half\s+an?)\s*(?P<u>[a-z]{1,8})", said.strip())
    if m is None or m.group("u").lower() not in _UNITS:
        return None
    n = m.group("n").lower()
    count = 0.5 if n.startswith("half") else 1.0 if n in ("a", "an", "one") else float(n)
    return count * _UNITS[m.group("u").lower()]


def wait_bound(text: str) -> float | None:
    """The seconds a person's wait is bounded by (module docstring); None when no such bound is said."""
    for rx in (_WAIT_MAX, _GIVE):
        for m in rx.finditer(text):
            seconds = _seconds(m.group("d"))
            if seconds is not None:
                return seconds
    return None


def without_wait(text: str) -> str:
    """`text` without the bounded waits `wait_bound` reads ("email him & wait max 4 hrs" -> "email him &"): the
    approval's timeout, never a retry rule of the step."""
    for rx in (_WAIT_MAX, _GIVE):
        text = rx.sub(lambda m: "" if _seconds(m.group("d")) is not None else m.group(0), text)
    return text


def clock_wait(text: str) -> str | None:
    """A wait said as a time of day ("till 5pm"), which bounds no wait's length; None when there is none."""
    m = _CLOCK.search(text)
    return m.group(0) if m is not None and re.search(r"(?i)\b(?:wait|give|allow|hold)\w*", text[:m.start()]) else None


def banner(text: str) -> bool:
    """Whether a comment line is a banner ("--- STEP 3: creamery notice ---"), no sentence of a rule."""
    return _BANNER.match(text) is not None


# "3 press", "2. weigh the catch", "Step 4 - email the couple": a number and a few words, no sentence
_TITLE = _rx(r"(?i)^\W*+(?:step\s++)?\d{1,3}+(?:[.):]|\s-)?\s++[A-Za-z][\w'&/-]*+(?:\s++[\w'&/-]++){0,7}+\s*+$")
# quote("price"), quote['price'], quote[:price], quote.price, quote->price
_ACCESS = _rx(r"\b(?P<head>[A-Za-z_][\w]{0,60}+)(?:\(\s*+[\"'](?P<a>[A-Za-z_]\w{0,60}+)[\"']\s*+\)|"
              r"\[\s*+[\"':]?+(?P<b>[A-Za-z_]\w{0,60}+)[\"']?+\s*+\]|(?:\.|->)(?P<c>[A-Za-z_]\w{0,60}+))")


def step_title(text: str) -> bool:
    """Whether a comment line is a numbered step title ("3 press"), no sentence of a rule."""
    return _TITLE.match(text) is not None and len(text) <= 80


def named_fields(text: str, names: frozenset[str] | set[str]) -> tuple[str, dict[str, str]]:
    """`text` with each field of a step in `names` written as code reads it said by the field's name, and those
    names to their references (module docstring); a head that names no step is left as written."""
    fields: dict[str, str] = {}

    def said(m: re.Match[str]) -> str:
        field = m.group("a") or m.group("b") or m.group("c")
        if m.group("head") not in names or fields.get(field, f"{m.group('head')}.{field}") != \
                f"{m.group('head')}.{field}":
            return m.group(0)
        fields[field] = f"{m.group('head')}.{field}"
        return field

    return _ACCESS.sub(said, text), fields


def refs_back(text: str, fields: Mapping[str, str]) -> str:
    """A condition read from `named_fields`' text with its fields' references put back (`price > 300` ->
    `quote.price > 300`)."""
    for field, ref in fields.items():
        text = re.sub(rf"(?<![\w.]){re.escape(field)}(?![\w(])", ref, text)
    return text


def starts_rule(text: str) -> bool:
    """Whether a comment line opens a rule of its own ("on error try again twice more")."""
    return _RULE_START.match(text) is not None


_rx.save()
