"""A step's letter that opens a labelled field's value, in a document whose steps are lettered headings.
(And `gathers_in_brackets`: a bracketed blank that gathers results is no workflow input's name.)

    ## C. Reconcile                            (steps lettered A, B, C ...: `spec.lettered`)
    **Waits on:** A and B                  ->  **Waits on:** step 1 and step 2
    | Kicks off after | A, B |             ->  | Kicks off after | step 1, step 2 |
    After: B                               ->  After: step 2

`spec.lettered` reads a capital letter of the sequence as its step after a word that names a step
("after C", "from A", "and B"); a letter right after a field's label (`**Label:**`, `Label:`, a
table's first cell) was left as the letter, so "A and B" was read as "A and step 2" and the step
waited for B alone. Here such a letter is read as its step when it stands alone: followed by
"and", "or", a comma, "&", "/", "+" and another letter of the sequence, or by the end of the value
(the line's end or the cell's bar). "**Note:** A quick check" and "| Grade | B |" after a label
that is no dependency word keep their letters: the value must be one of those lists or a letter
after a label that says what the step waits for (after, waits, needs, depends, starts, kicks off,
follows, when, once).
"""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

# "**Waits on:** A", "Needs: A", "| Kicks off after | A": the label, then the letter
_FIELD = _rx(r"^(?P<head>[ \t>*-]*+(?:\*\*|__)?+(?P<label>[A-Za-z][A-Za-z ]{0,30}+):(?:\*\*|__)?+[ \t]++"
             r"|^[ \t]*+\|[ \t]*+(?P<cell>[A-Za-z][A-Za-z ]{0,30}+)[ \t]*+\|[ \t]*+)"
             r"(?P<value>[A-Z](?:[ \t]*+(?:,|&|/|\+|and|or)[ \t]*+[A-Z])*+)"
             r"(?P<tail>[ \t]*+(?:\||$))")
_WAITS = _rx(r"(?i)\b(?:after|waits?|needs?|depends?|starts?|kicks?|follows?|when|once|requires?|upstream|"
             r"prerequisites?|blocked)\b")
_LETTER = _rx(r"(?<![\w'’])[A-Z](?![\w'’])")
_GATHER_WORD = _rx(r"(?i)(?<![\w-])(?:every|everything|all)(?![\w-])")


def gathers_in_brackets(text: str) -> bool:
    """`<everything lookup produced>`, `<all the fetch results>`: a bracketed blank that speaks of
    gathered results, which `plan.steps34b` binds; not a workflow input named by its words."""
    text = text.strip()
    return text.startswith("<") and text.endswith(">") and _GATHER_WORD.search(text) is not None


def field_letters(line: str, number: Mapping[str, int]) -> str:
    """`line` with the step letters that open its field's value read as steps (module docstring); the
    line as it was when it has none."""
    m = _FIELD.match(line)
    if m is None:
        return line
    value = m.group("value")
    letters = _LETTER.findall(value)
    if any(letter not in number for letter in letters):
        return line
    label = m.group("label") or m.group("cell") or ""
    if len(letters) < 2 and not _WAITS.search(label):
        return line
    said = _LETTER.sub(lambda x: f"step {number[x.group(0)]}", value)
    return line[: m.start("value")] + said + line[m.end("value"):]


_rx.save()
