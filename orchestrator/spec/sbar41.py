"""An SBAR note (Situation, Background, Assessment, Recommendation: a clinical handover's four parts) in
plain text, its parts opened by lines of their own, read as the markdown it stands for, line for line:

    S - SITUATION                      each part's line a section heading (`## S - SITUATION`); the
    ...                                letter alone, the word alone or both ("S:", "Situation",
    B - BACKGROUND                     "S - SITUATION"), in that order, three of the four at least
    ...
    A - ASSESSMENT (order it goes in)  the part whose lines are numbered ("1)", "2.") is the steps:
    1) wound-measure first, ...        its heading `## Steps`, each "N)" a list item "N." with its
       If it errors try again twice.   indented lines under it, as the markdown reader reads steps
    R - RECOMMENDATION                 the other parts' lines as they are: the run's limit and check
    Whole review no more than 15 min.  said there are read where they are said

A note with no numbered part, or whose parts are out of order, is left as it is (read as text).
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_PARTS = "SBAR"
_WORDS = {"S": "situation", "B": "background", "A": "assessment", "R": "recommendations?"}
# a part's opening line: "S - SITUATION", "S: Situation", "SITUATION", "A) Assessment (order ...)"
_PART = _rx(r"(?i)^[ \t]{0,3}+(?:(?P<letter>[SBAR])[ \t]*+[-:.)\u2013\u2014][ \t]*+)?+"
            r"(?P<word>situation|background|assessment|recommendations?)\b[ \t]*+(?:\([^()\n]{0,80}+\))?+[ \t:]*+$")
# a numbered line: "1) wound-measure first", "2. IF worse -> ..."
_NUMBERED = _rx(r"^(?P<indent>[ \t]{0,3}+)(?P<n>[1-9][0-9]?+)[).][ \t]++(?P<rest>\S.*+)$")


def _part_of(line: str) -> str | None:
    """The part's letter a line opens, or None."""
    m = _PART.match(line)
    if m is None:
        return None
    letter = m.group("word")[0].upper()
    if m.group("letter") is not None and m.group("letter").upper() != letter:
        return None
    return letter


def sbar_markdown(text: str) -> str | None:
    """The note as markdown (module docstring), or None when it is no SBAR note."""
    lines = text.splitlines()
    opens = [(i, letter) for i, line in enumerate(lines) if (letter := _part_of(line)) is not None]
    letters = [letter for _, letter in opens]
    if len(opens) < 3 or len(set(letters)) != len(letters) or letters != sorted(letters, key=_PARTS.index):
        return None
    bounds = [*(i for i, _ in opens), len(lines)]
    steps_at = next((k for k in range(len(opens))
                     if sum(1 for line in lines[bounds[k] + 1:bounds[k + 1]] if _NUMBERED.match(line)) >= 2), None)
    if steps_at is None:
        return None
    out = list(lines)
    for k, (i, _) in enumerate(opens):
        out[i] = "## Steps" if k == steps_at else f"## {lines[i].strip()}"
    for j in range(bounds[steps_at] + 1, bounds[steps_at + 1]):
        m = _NUMBERED.match(lines[j])
        if m is not None:
            out[j] = f"{m.group('n')}. {m.group('rest')}"
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")
