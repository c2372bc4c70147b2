"""The parts of a run's success check that are no `field == value`, read against one step's outputs.

`spec.whole_success` reads a check that compares a field with a value (`published: true`). People
put more beside it, or say it all in words: "done when the screen shows it: posted comes back true
and there's at least one batch on it", "finished = report filed (`filed: true`) with at least one
finding in it". This module reads each part of such a clause (split at "and", "with", ";"):

- "<field> comes back / is returned / returns / reads <value>": that output equals the value
  (`posted == true`), the field an output's own name, or written on its step (`post.posted comes back
  true`: step `post`'s `posted`, round 52);
- "at least N <things>", "N or more <things>", "one or more <things>", "no fewer than N <things>",
  "more than N <things>": the output the things name is at least N (a count, or a list's length: the
  check holds both), the output found by its words ("batch" is `batches`, "species" `species_total`,
  "finding" `finding_count`): one output of the step, else the part is not read.

A clause "<lead>: <checks>" is read by its checks after the colon; the lead is what they mean in the
author's words. Every part read from words is a guess, so `spec.whole_success` says it at the line
with what to write; a part read as nothing is said at the line as not checked, never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from orchestrator.spec.phrase_value import json_literal, number
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.salon38 import lone_value

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PARTS = _rx(r"(?i)(?<!\s)\s++(?:and|with|but)\s++(?:also\s++)?|(?<!\s)\s*+[,;]\s*+(?:and\s++)?")
# "posted comes back true", "`filed` is returned as true", "status reads "DONE"", "ok returns yes"
_RETURNS = _rx(r"(?i)^(?:the\s++)?`?(?:(?P<head>[a-z_][a-z0-9_-]{0,40}+)\.)?(?P<field>[a-z_][a-z0-9_]{0,40}+)`?\s++(?:comes?\s++back|came\s++back|is\s++returned|"
               r"gets\s++returned|returns|reads|is\s++set\s++to|ends\s++up)(?:\s++(?:as|with))?\s++"
               r"(?P<value>true|false|yes|no|-?\d{1,12}+(?:\.\d{1,9}+)?+|\"[^\"]{0,60}+\"|'[^']{0,60}+')\s*+$")
_COUNT = r"(?P<n>\d{1,9}+|one|two|three|four|five|six|seven|eight|nine|ten|a|an)"
# "at least one batch", "2 or more rows", "one or more species", "no fewer than 3 sites", "more than 0 items"
_AT_LEAST = _rx(r"(?i)(?<![\w-])(?:(?P<least>at\s++least|no\s++fewer\s++than|not\s++less\s++than|a\s++minimum\s++of|minimum(?:\s++of)?)"
                r"\s++" + _COUNT + r"|" + _COUNT.replace("?P<n>", "?P<n2>") + r"\s++or\s++more|(?<!\bno\s)(?<!\bnot\s)(?P<more>more\s++than|over)\s++"
                + _COUNT.replace("?P<n>", "?P<n3>") + r")\s++(?P<noun>[a-z][a-z_-]{1,40}+)(?:\s++(?P<noun2>[a-z][a-z_-]{1,40}+))?(?![\w-])")
# "(else I cancel and text parents)", "(otherwise we rerun it)": an aside on what follows a failure
_ELSE_ASIDE = _rx(r"(?i)(?<!\s)\s*+\((?:else|otherwise|if\s++not)\b[^()]{0,200}+\)?+$")
# "the sheet comes out", "the report comes back": the thing the check's parts are about, before "with"
_COMES_OUT = _rx(r"(?i)^(?:the\s++|a\s++|an\s++|our\s++)?+[a-z][\w -]{0,40}?\s++(?:comes?|came|gets?\s++printed|is\s++printed)"
                 r"(?:\s++(?:out|back))?+$")
_WITH = _rx(r"(?i)\s(?:comes?|came)\s++(?:out|back)\s++with\s|printed\s++with\s")
_LEAD = _rx(r"^[^:`()\"]{1,120}+:\s++(?=\S)")
_FILLER = frozenset({"it", "them", "there", "the", "a", "an", "in", "on", "of", "to", "for", "at", "is", "are"})


@dataclass(frozen=True)
class Half:
    """One part of the clause read as a check: the output, its JSON Schema keywords, as written back."""

    field: str
    keywords: dict[str, Any]
    written: str
    said: str
    head: str = ""  # the step the field is written on (`post.posted comes back true`: `post`), else ""


def _count(word: str) -> int | None:
    low = word.lower()
    if low in ("a", "an"):
        return 1
    n = number(low)
    return int(n) if n is not None and n == int(n) else None


def _forms(noun: str) -> set[str]:
    low = noun.lower().replace("-", "_")
    out = {low, low + "s", low + "es"}
    if low.endswith("ies"):
        out.add(low[:-3] + "y")
    if low.endswith("es"):
        out.add(low[:-2])
    if low.endswith("s"):
        out.add(low[:-1])
    if low.endswith("y"):
        out.add(low[:-1] + "ies")
    return out


def output_named(noun: str, names: frozenset[str]) -> str | None:
    """The one output the noun names: the noun itself (singular or plural), else the one output
    whose name has it as a word beside a count word (`species_total`, `batch_count`, `n_rows`)."""
    forms = _forms(noun)
    exact = [n for n in names if n.lower() in forms]
    if len(exact) == 1:
        return exact[0]
    counted = [n for n in names if any(w in forms for w in n.lower().split("_"))
               and any(w in ("total", "count", "n", "num", "number", "no") for w in n.lower().split("_"))]
    if len(counted) == 1:
        return counted[0]
    worded = [n for n in names if any(w in forms for w in n.lower().split("_"))]
    return worded[0] if len(worded) == 1 else None


def read_half(part: str, names: frozenset[str]) -> Half | None:
    """One part of a clause read against the outputs `names` (module docstring), or None."""
    text = part.strip().rstrip(".").strip()
    m = _RETURNS.match(text)
    if m is not None and m.group("field") in names:
        raw = m.group("value")
        value: Any = raw.lower() == "yes" if raw.lower() in ("yes", "no") else json_literal(raw)[1]
        shown = "true" if value is True else "false" if value is False else raw
        return Half(m.group("field"), {"const": value}, f"{m.group('field')} == {shown}", text, m.group("head") or "")
    m = _AT_LEAST.search(text)
    if m is None:
        return None
    nouns = [w for w in (m.group("noun"), m.group("noun2")) if w and w.lower() not in _FILLER]
    field = next((f for w in nouns if (f := output_named(w, names)) is not None), None)  # "one new batch": the second
    n = _count(m.group("n") or m.group("n2") or m.group("n3") or "")
    if field is None or n is None:
        return None
    least = n + 1 if m.group("more") else n
    return Half(field, {"minimum": least, "minItems": least}, f"{field} >= {least}", text)


def halves_said(clause: str) -> bool:
    """Whether a part of the clause reads as a check against some outputs (before the steps are known)."""
    return any(_RETURNS.match(p.rstrip(".")) or _AT_LEAST.search(p) for p in parts_of(clause))


def parts_of(clause: str) -> list[str]:
    """The clause's parts, the lead before a colon left out ("the screen shows it: a and b" -> a, b)."""
    lead = _LEAD.match(clause)  # a lead of words ("the office has it: ..."), never a field's own colon (`ok: true`)
    body = clause[lead.end():] if lead is not None and len(lead.group(0).split()) > 2 else clause
    body = _ELSE_ASIDE.sub("", body)  # "(else I cancel and text parents)": what follows a failure, no check
    parts = [p.strip() for p in _PARTS.split(body) if p and p.strip()]
    if len(parts) > 1 and _COMES_OUT.match(parts[0]) and _WITH.search(body):  # "the sheet comes out with ...": its carrier
        parts = parts[1:]
    return parts


def read_halves(clause: str, names: frozenset[str], *, skip: str = "") -> tuple[list[Half], list[str]]:
    """Each part of `clause` read against `names` (the checks) and the parts read as nothing; a part
    that holds `skip` (the comparison already read) is neither."""
    halves: list[Half] = []
    unread: list[str] = []
    for part in parts_of(clause):
        if skip and (skip in part or lone_value(part)):  # "comes back confirmed: true": `true` is its value
            continue
        half = read_half(part, names)
        if half is None:
            unread.append(part)
        else:
            halves.append(half)
    return halves, unread


_rx.save()
