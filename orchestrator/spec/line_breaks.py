"""A spec's lines are what its author's editor numbers: one line break, `\\n` (probe52).

The readers split a spec two ways: `str.splitlines()` (the `Source`'s lines, many readers) and
`\\n` (regexes, `split("\\n")`, line counts). Python's `splitlines` also breaks at a lone CR, a form
feed, a vertical tab, FS/GS/RS, NEL (U+0085) and U+2028/U+2029, so one such character in a file
gave the two ways different lines: every warning after it cited the wrong line, and a reader that
walks `src.lines` cut a line (a JCL card, a Perl statement) in two and lost what followed the cut.
Before any reader sees the text, a CRLF becomes `\\n`; so does every CR of a file that has no `\\n`
at all (an old Mac's line ends). A lone CR in a file of `\\n` lines (a cell pasted from such a
spreadsheet, `spec.sheet`) and each of the others become a space: they are no line in git or grep.
The spec's sha256 is taken from the text as written, before this.
"""

from __future__ import annotations

import re

_OTHER = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def one_break(text: str) -> str:
    """`text` with `\\n` its only line break (module docstring)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        text = text.replace("\r", " " if "\n" in text else "\n")
    return _OTHER.sub(" ", text)
