"""Sentences wrapped over the lines of a document read a step a line (twenty-fifth round).

An RFC memo, a plain-text note or a fixed-width form wraps its sentences at any word, and the
anchored reader (`spec.anchored`) reads such a paragraph a step a line when each line names one
skill at most. A policy sentence that goes on over a line break is then cut in two: "ip-allocate
MAY be retried up to 3 times, backing off 2, 4 then 8" / "seconds.  dns-names MUST finish ...",
"proceed as if it had answered" / "risk = "high", score = 100". Here, before the lines are
taken as pieces:

- a line that goes on with the sentence of the line before (the line before ends with no stop and
  the line opens with a small letter, a digit or a quote, never "if", "when", "otherwise", which may
  open the next step's condition) is joined to it, when it names no skill;
- a line that names a skill after the end of a sentence it finishes ("seconds.  dns-names MUST
  ..."): the words up to that end go with the line before, the rest is the line's own.

Only in prose written in sentences (two stops or more): a log or an outline without
stops keeps its lines as they are.
"""

from __future__ import annotations

from collections.abc import Callable

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the line before ends a sentence, a clause list or a label: no wrapped sentence goes on from it
_ENDED = _rx(r"[.!?;:]['\")\]]?\s*+$")
# a line that goes on with a sentence: a small letter, a digit, a quote or a bracket first
_GOES_ON = _rx(r"^\s*+(?:[a-z0-9\"'(\[{`]|--)")
# a line opening with a condition or a branch word: it may open the next step's condition (`spec.condition_ahead`)
_OPENS_CLAUSE = _rx(r"(?i)^\s*+(?:if|when|whenever|unless|once|should|otherwise|else|then|but|so|in\s+case|provided)\b")
# prose written in sentences: a stop before a blank or the line's end somewhere
_PROSE = _rx(r"[.!?](?:\s|$)")
# a numbered line or a list marker: its own line, never the one before's
_OWN_LINE = _rx(r"^\s*+(?:\d{1,3}+(?:\.\d{1,3}+)*+[.)]?\s|[-*+•]\s|[a-z][.)]\s|step\s)")
# the end of a sentence inside a line: a stop and two blanks or one
_STOP = _rx(r"[.!?](?=\s)")


def rejoin_wrapped(pieces: list[tuple[int, str]],
                   named_at: Callable[[str], int | None]) -> list[tuple[int, str]]:
    """`pieces` (line, text) with wrapped sentences put back together (module docstring);
    `named_at` gives where the first skill a text names starts, or None when it names none."""
    if sum(len(_PROSE.findall(text)) for _, text in pieces) < 2:  # a log or an outline without stops: lines are lines
        return pieces
    out: list[tuple[int, str]] = []
    for line, text in pieces:
        if (not out or _ENDED.search(out[-1][1]) or not _GOES_ON.match(text) or _OWN_LINE.match(text)
                or _OPENS_CLAUSE.match(text)):
            out.append((line, text))
            continue
        at = named_at(text)
        if at is None:
            out[-1] = (out[-1][0], f"{out[-1][1].rstrip()} {text.strip()}")
            continue
        stops = [m.end() for m in _STOP.finditer(text, 0, at)]
        if not stops:
            out.append((line, text))
            continue
        head, rest = text[:stops[-1]], text[stops[-1]:]
        out[-1] = (out[-1][0], f"{out[-1][1].rstrip()} {head.strip()}")
        out.append((line, rest.strip()))
    return out


_rx.save()
