"""Sub-steps numbered with a letter ("## 4a. Lock it", "## 4b. Trim it", "4a) ..."), read as steps.

    ## 3. Put the block together         ->  ## 3. Put the block together
    ## 4a. Lock it                       ->  ## 4. Lock it
    ## 4b. Trim it                       ->  ## 5. Trim it
    ## 5. Send to the printer            ->  ## 6. Send to the printer
    : after 4a or 4b                     ->  : after step 4 or step 5

Numbered step headings (or numbered lines of a list) whose numbers carry a letter were not
steps: the heading reader takes a number alone, so "4a. Lock it" was warned as a section not
read, and in a list a "4a." line ran on into the step before it. When headings of one level (or
lines of a list) number themselves 1, 2, 3, 4a, 4b, 5 ... in order (a lettered number after the
one before it or after its own plain number, its letters running a, b, c), they are the steps in
that order, numbered again from 1; the document is rewritten before it is parsed (each line
keeps its number): each lettered mark becomes its new number, and in the text a lettered mark
("from 4a", "4a/4b", "step 4b") becomes "step N", and "step N" of a step after them its new
number. The reading is warned at the first lettered line with how to write it plainly.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_FENCE = _rx(r"^[ \t]{0,3}+(?:```|~~~)")
# "## 4a. Name", "### Step 4b: Name", "4a) Name" at a line's start
_MARK = _rx(r"(?i)^(?P<lead>#{1,6}+[ \t]++|[ \t]{0,3}+)(?P<word>step[ \t]++)?+(?P<n>\d{1,3}+)(?P<letter>[a-z]?+)"
            r"(?P<stop>[.):][ \t]++)(?P<name>\S[^\n]*+)$")
_SUB_REF = _rx(r"(?i)(?<![\w.#])(?:(?:step|stage)[ \t]++)?+(?P<n>\d{1,3}+)(?P<letter>[a-z])(?![\w])")
_PLAIN_REF = _rx(r"(?i)(?<![\w])(?P<word>(?:step|stage)[ \t]++)(?P<n>\d{1,3}+)(?![\w.])")


def _in_order(marks: list[tuple[int, str]]) -> bool:
    """1, 2, 3, 4a, 4b, 5 (or 4, 4a, 4b, 5): each mark follows the one before it."""
    for (n0, l0), (n1, l1) in pairwise(marks):
        if l1:  # 4 -> 4a, 4a -> 4b, 3 -> 4a
            ok = (n1 == n0 and not l0 and l1 == "a") or (n1 == n0 and bool(l0) and ord(l1) == ord(l0) + 1) \
                or (n1 == n0 + 1 and l1 == "a")
        else:
            ok = n1 == n0 + 1
        if not ok:
            return False
    return True


def _unfenced(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(index, line) of each line outside a code fence (the fence lines themselves left out)."""
    fenced = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            yield i, line


def lettered_sub_steps(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The text with its lettered sub-steps read as steps (module docstring), and the (line,
    message) of the warning that says so; the text as it was when it has none."""
    lines = text.split("\n")
    found: list[tuple[int, str, int, str]] = []  # index, lead kind, number, letter
    for i, line in _unfenced(lines):
        m = _MARK.match(line)
        if m is not None:
            found.append((i, m.group("lead").strip(), int(m.group("n")), m.group("letter").lower()))
    best: list[tuple[int, str, int, str]] = []
    for lead in dict.fromkeys(f[1] for f in found):  # the marks of one heading level, or of list lines
        run = [f for f in found if f[1] == lead]
        if any(f[3] for f in run) and len(run) >= 3 and _in_order([(f[2], f[3]) for f in run]):
            best = run if len(run) > len(best) else best
    if not best:
        return text, []
    first = best[0][2]
    new = {(n, letter): first + k for k, (_, _, n, letter) in enumerate(best)}
    plain_new = {n: v for (n, letter), v in new.items() if not letter}
    out = list(lines)
    marked = {i for i, *_ in best}
    for i, line in _unfenced(lines):
        if i in marked:
            m = _MARK.match(line)
            assert m is not None
            number = new[(int(m.group("n")), m.group("letter").lower())]
            out[i] = f"{m.group('lead')}{m.group('word') or ''}{number}{m.group('stop')}{m.group('name')}"
            continue

        def sub(m: re.Match[str]) -> str:
            key = (int(m.group("n")), m.group("letter").lower())
            return f"step {new[key]}" if key in new else m.group(0)

        def plain(m: re.Match[str]) -> str:
            n = int(m.group("n"))
            return f"{m.group('word')}{plain_new[n]}" if n in plain_new else m.group(0)

        out[i] = _SUB_REF.sub(sub, _PLAIN_REF.sub(plain, line))  # "step 5" first: a new "step 5" stays
    subs = [(n, letter) for _, _, n, letter in best if letter]
    said = ", ".join(f"{n}{letter} as step {new[(n, letter)]}" for n, letter in subs[:6])
    at = next(i for i, _, _, letter in best if letter) + 1
    message = (f"sub-steps numbered with a letter read as steps of their own: {said}; the steps after them "
               "renumbered, and these marks in the text read as those steps: check the plan, or number "
               "the steps 1, 2, 3 ... and say which step each one waits for")
    return "\n".join(out), [(at, message)]


_rx.save()
