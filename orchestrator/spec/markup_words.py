"""Reader words set in markup by their author, read as the plain words.

    For **each** accession ...          For each accession ...
    For _each_ volume: ...              For each volume: ...
    once ***all*** the scans are in     once all the scans are in
    For [each](loops.md) crate ...      For each crate ...
    once [[all]] the sheets are in      once all the sheets are in

The readers look for a few plain words to find a loop ("for each", "every"), a gather ("once all"),
a condition ("only if", "unless", "otherwise") or a wait ("after", "before"). An author who sets one
of them in bold or italics, or makes it a link (a notes app links words freely), hides it from them:
the loop was dropped without a word (holdout16 103 l.21, "For **each** accession") and the guard that
warns of a loop not read did not see it either. `unmarked(text)` takes the marks off those words
only, so a skill named in a link (`[[germ-test-sheet]]`) or a field in bold stays as written; the
spec's step text (`spec.step_prose.sentences`) and the plan's readers of the document's lines
(`plan.fan_words`, `plan.guards`) read through it. The line count and order of words are kept.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# the words the readers look for (a loop, a gather, a condition, an order, a branch)
_WORDS = (r"each|every|all|any|only|if|when|unless|once|before|after|both|not|no|never|per|otherwise|instead|"
          r"else|whichever|either")
# a run of emphasis marks of one kind (`***`, `**`, `__`, `*`, `_`) around one reader word, the same on both sides
_EMPHASIS = _rx(rf"(?i)(?<![\w*])(\*{{1,3}}+|_{{1,3}}+)({_WORDS})\1(?![\w*])")
# a link whose text is one reader word: `[each](x.md)`, `[each][ref]`, `[[each]]`, `[[note|each]]`
_LINK = _rx(rf"(?i)(?<!!)\[({_WORDS})\](?:\([^()\s]{{0,300}}+\)|\[[^\[\]]{{0,100}}+\])|"
            rf"\[\[(?:[^\[\]|]{{0,200}}+\|)?+({_WORDS})\]\]")
_SIGNS = ("*", "_", "[")


def unmarked(text: str) -> str:
    """`text` with the marks around its reader words taken off (module docstring); the rest as written."""
    if not any(sign in text for sign in _SIGNS):
        return text
    if "[" in text:
        text = _LINK.sub(lambda m: m.group(1) or m.group(2), text)
    if "*" in text or "_" in text:
        text = _EMPHASIS.sub(r"\2", text)
    return text


def unmarked_lines(lines: list[str]) -> list[str]:
    """Each line `unmarked` (the document's lines as the plan's word readers read them)."""
    return [unmarked(line) for line in lines]


_rx.save()
