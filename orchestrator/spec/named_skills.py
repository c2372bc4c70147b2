"""A catalog skill named in a sentence without backticks, read as if it had them.

People name the skill to fall back to the way their document names things: `rank-simple`
in backticks, but also 'rank-simple', "rank-simple", *rank-simple*, _rank-simple_,
[rank-simple](skills/rank-simple/SKILL.md), or bare. The policy grammar's skill rows
(`spec.grammar`'s `{NAME}`) read a name in backticks; with the catalog's names known
(`spec.vocabulary.Vocabulary.skills`, handed to `spec.phrase.read_phrase`), a name the
catalog has, written in any of those quotings, is marked as backticked before the rows
are tried:

    mark("use *linefit* instead", ...)          -> "use `linefit` instead"
    mark("use [linefit](skills/x) instead", ...) -> "use `linefit`           instead"

Marking keeps every character's place (the quotes and brackets become backticks, a
link's target blanks), so what a row read is still quoted in the writer's words. A bare
name is marked only when it looks like an identifier (a `-`, `_` or digit in it): a
catalog skill called `report` must not turn every "report" into a skill. Without the
catalog's names nothing is marked.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

_OPEN = "*_'\"‘’“”"


@lru_cache(maxsize=32)
def _quoted(names: frozenset[str]) -> re.Pattern[str] | None:
    if not names:
        return None
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"\[(?P<link>{alts})\]\([^()\s]{{0,300}}\)|(?<![\w`])[{_OPEN}](?P<quoted>{alts})[{_OPEN}](?![\w`])")


@lru_cache(maxsize=32)
def bare(names: frozenset[str]) -> re.Pattern[str] | None:
    """The catalog's identifier-like names (a `-`, `_` or digit in them), written bare."""
    shaped = sorted((n for n in names if re.search(r"[-_\d]", n)), key=len, reverse=True)
    if not shaped:
        return None
    return re.compile(rf"(?<![\w`'\"*/.-])(?:{'|'.join(re.escape(n) for n in shaped)})(?![\w`'\"*/-])")


def mark(raw: str, text: str, names: Collection[str]) -> str:
    """`text` (the sentence `raw`, character for character) with each catalog name written in
    quotes, emphasis or a link marked as backticked; every character keeps its place."""
    found = _quoted(frozenset(names))
    if found is None:
        return text
    chars = list(text)
    for m in found.finditer(raw):
        if m.group("link") is not None:
            start, end = m.start("link"), m.end("link")
            chars[start - 1] = chars[end] = "`"
            chars[end + 1:m.end()] = " " * (m.end() - end - 1)
        else:
            chars[m.start()] = chars[m.end() - 1] = "`"
    return "".join(chars)
